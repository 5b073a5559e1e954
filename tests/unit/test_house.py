"""The house rules, held by tests: no module over 300 lines, no function over 80, no import
circle between modules (imports inside functions count; those only for the type checker do
not). What breaks a rule today is listed, and the lists may only shrink: a module brought
under the limit must leave its list, so that it cannot grow back unseen."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import papertui

SRC = Path(papertui.__file__).resolve().parent
MODULE_LINES, FUNCTION_LINES = 300, 80

# module: its lines today
LONG_MODULES: dict[str, int] = {
    "papertui.core.corpus.cache_file": 495,
    "papertui.core.query.fuzzy": 420,
    "papertui.core.search.arrays": 341,
    "papertui.core.semantic.vectors": 411,
    "papertui.core.titles": 353,
    "papertui.core.titles.compress": 370,
    "papertui.core.titles.cues": 346,
    "papertui.core.titles.names": 307,
    "papertui.ui.screens.reader": 329,
    "papertui.ui.widgets.paper_list": 367,
}
# module:function (methods as Class.method): its lines today
LONG_FUNCTIONS: dict[str, int] = {
    "papertui.core.corpus.cache_file:write_file_cache": 85,
    "papertui.core.semantic.topics.compute:_compute": 123,
    "papertui.core.titles.compress:_compress": 81,
    "papertui.core.titles.names:_find_name": 249,
    "papertui.core.titles.names:_find_name.judge": 159,
    "papertui.core.titles:_finish": 123,
}
# each circle as the sorted modules in it
CIRCLES: set[tuple[str, ...]] = set()


def modules() -> Iterator[tuple[str, Path]]:
    for path in sorted(SRC.rglob("*.py")):
        parts = path.relative_to(SRC.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        yield name, path


def functions(tree: ast.AST, prefix: str = "") -> Iterator[tuple[str, int]]:
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.ClassDef):
            yield from functions(node, f"{prefix}{node.name}.")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            yield f"{prefix}{node.name}", (node.end_lineno or node.lineno) - start + 1
            yield from functions(node, f"{prefix}{node.name}.")


def _over(found: dict[str, int], allowed: dict[str, int], limit: int) -> list[str]:
    problems = [f"{k}: {n} lines (at most {limit})" for k, n in found.items() if k not in allowed]
    problems += [
        f"{k} is listed but no longer over {limit}: take it off the list"
        for k in allowed
        if k not in found
    ]
    problems += [
        f"{k} grew from {allowed[k]} to {n} lines"
        for k, n in found.items()
        if n > allowed.get(k, n)
    ]
    return problems


def test_no_module_is_longer_than_300_lines():
    found = {}
    for name, path in modules():
        lines = len(path.read_text("utf-8").splitlines())
        if lines > MODULE_LINES:
            found[name] = lines
    assert _over(found, LONG_MODULES, MODULE_LINES) == []


def test_no_function_is_longer_than_80_lines():
    found = {}
    for name, path in modules():
        for function, lines in functions(ast.parse(path.read_text("utf-8"))):
            if lines > FUNCTION_LINES:
                found[f"{name}:{function}"] = lines
    assert _over(found, LONG_FUNCTIONS, FUNCTION_LINES) == []


def _type_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imported(tree: ast.AST, name: str, known: set[str], package: bool) -> Iterator[str]:
    """The papertui modules `tree` imports, anywhere but under `if TYPE_CHECKING:`."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _type_only(node):
            yield from (m for n in node.orelse for m in imported(n, name, known, package))
            continue
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names if a.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the module's package
                here = name.split(".") if package else name.split(".")[:-1]
                base = ".".join(here[: len(here) - node.level + 1] + ([base] if base else []))
            for alias in node.names:
                full = f"{base}.{alias.name}"
                yield full if full in known else base
        yield from imported(node, name, known, package)


def test_no_import_circle_between_modules():
    known = {name for name, _ in modules()}
    graph: dict[str, set[str]] = {}
    for name, path in modules():
        tree = ast.parse(path.read_text("utf-8"))
        package = path.name == "__init__.py"
        graph[name] = {m for m in imported(tree, name, known, package) if m in known} - {name}
    # a package's __init__ importing its own modules is how a package shows its face: the
    # module importing the package's face back is the circle that counts
    circles = {c for c in _strongly_connected(graph) if len(c) > 1}
    assert not circles - CIRCLES, f"new import circles: {sorted(circles - CIRCLES)}"
    assert not CIRCLES - circles, f"circles gone: take them off: {sorted(CIRCLES - circles)}"


def _strongly_connected(graph: dict[str, set[str]]) -> set[tuple[str, ...]]:
    """Tarjan's components, iteratively (the graph is a few hundred modules deep)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[tuple[str, ...]] = set()
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph.get(step, ())))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                found.add(tuple(sorted(component)))
    return found


def test_importing_papertui_changes_no_whoosh_class():
    import subprocess
    import sys

    script = (
        "from whoosh.codec import whoosh3\n"
        "before = dict(vars(whoosh3.W3PerDocReader))\n"
        "import papertui.cli, papertui.core.library, papertui.core.search, papertui.ui.app\n"
        "assert dict(vars(whoosh3.W3PerDocReader)) == before, 'patched on import'\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
