"""One small reader per input format. Each turns a file's bytes into `ParsedFile` records."""

from papertui.core.formats.base import CorpusError, ParsedFile, RawRecord, decode

__all__ = ["CorpusError", "ParsedFile", "RawRecord", "decode"]
