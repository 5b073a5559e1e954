"""papertui: a keyboard-driven terminal reader for collections of research-paper abstracts."""

__version__ = "0.1.0"
