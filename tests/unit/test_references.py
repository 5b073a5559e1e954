"""Docstrings and comments name things that exist: every backticked dotted reference in the
source (`Library.run_query`, `export.markdown`, `weights.ASK_POOL`) resolves to a module, class,
function or attribute of papertui. Seven once pointed at `Library` methods that had moved."""

from __future__ import annotations

import importlib
import inspect
import io
import pkgutil
import re
import tokenize
from types import ModuleType

import papertui

# references to other projects' code, which papertui does not import by that name
EXTERNAL = {"W3PerDocReader.doc_field_length", "WriterThread.stop"}
_REF = re.compile(r"`([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(?:\(\))?`")
_FILE = re.compile(r"\.(py|md|toml|txt|json|jsonl|bib|csv|gz|xml|svg|tcss)$")


def _modules() -> dict[str, ModuleType]:
    found = {"papertui": papertui}
    for info in pkgutil.walk_packages(papertui.__path__, "papertui."):
        if info.name.endswith("__main__"):
            continue
        found[info.name] = importlib.import_module(info.name)
    return found


MODULES = _modules()
CLASSES: dict[str, list[type]] = {}
for _module in MODULES.values():
    for _name, _value in vars(_module).items():
        if inspect.isclass(_value) and _value.__module__.startswith("papertui"):
            CLASSES.setdefault(_name.lower(), []).append(_value)


def _assigned(klass: type, name: str) -> bool:
    """`name` is an instance attribute or a field the class declares."""
    for base in klass.__mro__:
        if not base.__module__.startswith("papertui"):
            continue
        source = inspect.getsource(base)
        if re.search(rf"self\.{name}\s*[:=]|^\s+{name}\s*:", source, re.M):
            return True
    return False


def _walk(obj: object, parts: list[str]) -> bool:
    for part in parts:
        if hasattr(obj, part):
            obj = getattr(obj, part)
        elif inspect.ismodule(obj) and f"{obj.__name__}.{part}" in MODULES:
            obj = MODULES[f"{obj.__name__}.{part}"]
        else:
            # an attribute of an instance: what it holds is not known here
            return inspect.isclass(obj) and _assigned(obj, part)
    return True


def _resolves(ref: str, module: ModuleType) -> bool:
    parts = ref.split(".")
    if _walk(module, parts):
        return True
    # a class by its name, or an instance by the class's name in lower case ("library.marks")
    if any(_walk(k, parts[1:]) for k in CLASSES.get(parts[0].lower(), [])):
        return True
    # a module, by its full name or by its name under papertui, the core, or the package
    package = module.__name__.rsplit(".", 1)[0]
    for base in ("", "papertui.", "papertui.core.", package + ".", module.__name__ + "."):
        for cut in range(len(parts), 0, -1):
            name = base + ".".join(parts[:cut])
            if name in MODULES and _walk(MODULES[name], parts[cut:]):
                return True
    # a module named by its last part ("topics.TopicModel")
    return any(name.endswith("." + parts[0]) and _walk(m, parts[1:]) for name, m in MODULES.items())


def _prose(source: str) -> list[tuple[int, str]]:
    """(line, text) of each comment and docstring-like string of a module's source."""
    quotes = ('"""', "'''")
    return [
        (tok.start[0], tok.string)
        for tok in tokenize.generate_tokens(io.StringIO(source).readline)
        if tok.type == tokenize.COMMENT
        or (tok.type == tokenize.STRING and tok.string.lstrip("rbuRBU")[:3] in quotes)
    ]


def test_every_dotted_reference_in_docstrings_and_comments_exists() -> None:
    stale = []
    for name, module in MODULES.items():
        path = module.__file__
        assert path is not None
        with open(path, encoding="utf-8") as handle:
            source = handle.read()
        for line, text in _prose(source):
            for match in _REF.finditer(text):
                ref = match.group(1)
                if _FILE.search(ref) or ref in EXTERNAL or _resolves(ref, module):
                    continue
                stale.append(f"{name}:{line}: `{ref}`")
    assert not stale, "references to nothing:\n" + "\n".join(stale)


def test_the_check_finds_a_reference_to_a_method_that_does_not_exist() -> None:
    library = MODULES["papertui.core.library"]
    assert _resolves("Library.run_query", library)
    assert _resolves("library.foryou", library)  # an attribute set in __init__
    assert not _resolves("Library.ensure_semantic", library)
    assert not _resolves("export_formats.to_markdown", library)
