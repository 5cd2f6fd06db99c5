"""One home per concept: the error family, JSON decoding, union-find, and no import cycles."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

import ttr_europe
from ttr_europe import errors

SRC = Path(ttr_europe.__file__).parent
MODULES = {
    ".".join(path.relative_to(SRC.parent).with_suffix("").parts).removesuffix(".__init__"): path
    for path in sorted(SRC.rglob("*.py"))
}


def _tree(name: str) -> ast.Module:
    return ast.parse(MODULES[name].read_text("utf-8"))


def test_every_error_class_lives_in_errors_py() -> None:
    """Exceptions are defined in ttr_europe.errors only (old homes re-export them)."""
    for name in MODULES:
        if name == "ttr_europe.errors":
            continue
        for node in ast.walk(_tree(name)):
            if isinstance(node, ast.ClassDef):
                bases = {ast.unparse(b) for b in node.bases}
                assert not any(b.endswith(("Error", "Exception")) for b in bases), (name, node.name)
    family = [v for v in vars(errors).values() if isinstance(v, type) and issubclass(v, Exception)]
    assert all(issubclass(cls, errors.TTRError) for cls in family)
    from ttr_europe import cards, scoring

    assert cards.CardsError is errors.CardsError
    assert scoring.ScoringError is errors.ScoringError
    from ttr_europe import events

    assert events.EventError is errors.EventError


def test_unknown_bot_is_an_error_of_the_family() -> None:
    from ttr_europe.bots import make_bot

    try:
        make_bot("nope")
    except errors.TTRError as exc:
        assert "nope" in str(exc)
    else:
        raise AssertionError("an unknown bot name was accepted")


def test_json_text_is_decoded_in_one_place() -> None:
    for name in MODULES:
        if name == "ttr_europe.jsontext":
            continue
        for node in ast.walk(_tree(name)):
            if isinstance(node, ast.Attribute) and node.attr in ("loads", "load"):
                assert ast.unparse(node.value) != "json", name


def test_union_find_is_written_once() -> None:
    """Only unionfind.py keeps parent links."""
    for name, path in MODULES.items():
        if name != "ttr_europe.unionfind":
            assert "parent[" not in path.read_text("utf-8"), name


def _imports(name: str, *, lazy: bool = True) -> set[str]:
    """The ttr_europe modules ``name`` imports: at the top, and with ``lazy`` also inside
    functions (imports under ``if TYPE_CHECKING:`` never count)."""
    package = name if MODULES[name].name == "__init__.py" else name.rpartition(".")[0]
    tree = _tree(name)
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped |= {id(n) for n in ast.walk(node)}
        if not lazy and isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            skipped |= {id(n) for n in ast.walk(node)}
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            target = f"{base}.{node.module}" if node.module else base
            candidates = [target] + [f"{target}.{a.name}" for a in node.names]
            out.update(c for c in candidates if c in MODULES)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            mod = node.module if isinstance(node, ast.ImportFrom) else None
            for target in [mod] if mod else [a.name for a in node.names]:
                if target in MODULES:
                    out.add(target)
    out.discard(name)
    return out


# Imports inside a function that point up the layers, each for a reason:
LAZY_BACK_EDGES = {
    ("ttr_europe.guards", "ttr_europe.views"),  # argument checks name the View type
    ("ttr_europe.bots", "ttr_europe.mcts"),  # the search bot is loaded when asked for by name
    ("ttr_europe.bots", "ttr_europe.protocol"),  # a program in another process: cmd: specs
}


def _graph(*, lazy: bool) -> nx.DiGraph:
    graph = nx.DiGraph()
    for name in MODULES:
        for target in _imports(name, lazy=lazy):
            if target != "ttr_europe" and name != "ttr_europe":
                graph.add_edge(name, target)
    return graph


def test_no_import_cycle_between_modules() -> None:
    """Layers import downwards only; the package itself (its lazy names) is left out. An
    import inside a function may point up only where LAZY_BACK_EDGES says why."""
    assert list(nx.simple_cycles(_graph(lazy=False))) == []
    graph = _graph(lazy=True)
    graph.remove_edges_from(LAZY_BACK_EDGES)
    assert list(nx.simple_cycles(graph)) == []
    assert all(_graph(lazy=True).has_edge(*edge) for edge in LAZY_BACK_EDGES)  # still needed
    assert "ttr_europe.jsonio" not in _imports("ttr_europe.views")
