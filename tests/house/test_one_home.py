"""One home per concept: the error family, JSON decoding, union-find, one rule number, and the
layers of docs/architecture.md (no import cycle, no upward import)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import networkx as nx
import pytest

import ttr_europe
from ttr_europe import errors

SRC = Path(ttr_europe.__file__).parent  # the package imported: the checkout's, or an installed one
REPO = Path(__file__).resolve().parents[2]  # the checkout's docs and README
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
    from ttr_europe.players import make_bot

    try:
        make_bot("nope")
    except errors.TTRError as exc:
        assert "nope" in str(exc)
    else:
        raise AssertionError("an unknown bot name was accepted")


def test_json_text_is_decoded_in_one_place() -> None:
    for name in MODULES:
        if name == "ttr_europe._jsontext":
            continue
        for node in ast.walk(_tree(name)):
            if isinstance(node, ast.Attribute) and node.attr in ("loads", "load"):
                assert ast.unparse(node.value) != "json", name


def test_union_find_is_written_once() -> None:
    """Only _unionfind.py keeps parent links."""
    for name, path in MODULES.items():
        if name != "ttr_europe._unionfind":
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


def _graph(*, lazy: bool) -> nx.DiGraph:
    graph = nx.DiGraph()
    for name in MODULES:
        for target in _imports(name, lazy=lazy):
            if target != "ttr_europe" and name != "ttr_europe":
                graph.add_edge(name, target)
    return graph


def test_no_import_cycle_between_modules() -> None:
    """No cycle, counting the imports inside functions too; the package itself (its lazy
    names) is left out."""
    assert list(nx.simple_cycles(_graph(lazy=True))) == []
    assert "ttr_europe.jsonio" not in _imports("ttr_europe.views")


def _string_imports(name: str) -> list[str]:
    """The functions of ``name`` that import a module by a name held in a string."""
    found = []
    for func in ast.walk(_tree(name)):
        if isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
            for node in ast.walk(func):
                if isinstance(node, ast.Call) and ast.unparse(node.func).endswith(
                    ("import_module", "__import__")
                ):
                    found.append(func.name)
    return found


def test_no_module_imports_ours_by_a_string() -> None:
    """``importlib.import_module`` hides an arrow from the import graph (the bot registry once
    named its entries so, and its circles went unseen). Three places may: the package's lazy
    top-level names (``_ELSEWHERE``, left out of the graph on purpose), the registry's
    ``_import``, whose names come from a user (a ``package.module:Class`` spec), and ``_moved``,
    which answers an old path from its new home only when the old path is used."""
    found = {(name, f) for name in MODULES for f in _string_imports(name)}
    assert found == {
        ("ttr_europe", "__getattr__"),
        ("ttr_europe.players.registry", "_import"),
        ("ttr_europe._moved", "create_module"),
        ("ttr_europe._moved", "attributes"),
        ("ttr_europe._moved", "__getattr__"),
    }


def test_the_graph_sees_a_planted_cycle_and_a_wing_importing_upward(tmp_path: Path) -> None:
    """The checks below fail on the faults they guard: a function-local import that closes a
    circle inside a wing (a style asking the registry, which names the styles), and a module of
    the game importing a wing above it."""
    plants = {
        "ttr_europe.players.styles": "def f():\n    from .registry import make_bot\n",
        "ttr_europe.rules": "def f():\n    from .players import make_bot\n",
    }
    saved = {name: MODULES[name] for name in plants}
    for name, text in plants.items():
        fake = tmp_path / f"{name}.py"
        fake.write_text(MODULES[name].read_text("utf-8") + text, "utf-8")
        MODULES[name] = fake
    try:
        assert "ttr_europe.players.registry" in _imports("ttr_europe.players.styles", lazy=True)
        assert list(nx.simple_cycles(_graph(lazy=True))) != []
        assert ("ttr_europe.rules", "ttr_europe.players") in _wrong_way(_floors())
    finally:
        MODULES.update(saved)


def _floors() -> dict[str, int]:
    """The floor of each wing in docs/architecture.md's table under the picture ("the game"
    is the package's root)."""
    text = (REPO / "docs" / "architecture.md").read_text("utf-8")
    table = text.split("## Wings", 1)[1].split("\n| floor |", 1)[1].split("\n\n", 1)[0]
    floors: dict[str, int] = {}
    for row in table.splitlines()[2:]:
        cells = row.split("|")
        names = re.findall(r"`([a-z_]+)`", cells[2]) or ["game"] * ("the game" in cells[2])
        for name in names:
            floors[name] = int(cells[1])
    return floors


def _wing_of(name: str, floors: dict[str, int]) -> str:
    """The wing of module ``name``: its subpackage when that is a wing, else the game; the
    package's ``__main__`` is the command line's."""
    part = name.split(".")[1] if name.count(".") else ""
    part = "cli" if part == "__main__" else part
    return part if part in floors else "game"


def _wrong_way(floors: dict[str, int]) -> list[tuple[str, str]]:
    """The imports (inside functions too) from a wing into another on its floor or above."""
    found = []
    for name in MODULES:
        if name == "ttr_europe":
            continue
        mine = _wing_of(name, floors)
        for target in _imports(name, lazy=True):
            theirs = _wing_of(target, floors)
            if target != "ttr_europe" and theirs != mine and floors[theirs] >= floors[mine]:
                found.append((name, target))
    return found


def test_each_wing_imports_only_wings_below_it() -> None:
    """The picture of docs/architecture.md holds: no module imports a wing beside or above its
    own, so no circle runs between wings and no module of the game imports a player, a table or
    an environment."""
    floors = _floors()
    assert floors["game"] == 1 and floors["cli"] == max(floors.values())
    assert {"players", "table", "envs", "bench", "rl", "sim", "web"} <= set(floors)
    packages = {name.split(".")[1] for name in MODULES if name.count(".") and
                MODULES[name].name == "__init__.py"}  # fmt: skip
    assert packages - {"fast"} <= set(floors), "a subpackage in no wing"
    assert _wrong_way(floors) == []
    wings = nx.DiGraph()
    for name in MODULES:
        for target in _imports(name, lazy=True):
            if target != "ttr_europe" and name != "ttr_europe":
                wings.add_edge(_wing_of(name, floors), _wing_of(target, floors))
    wings.remove_edges_from(nx.selfloop_edges(wings))
    assert nx.is_directed_acyclic_graph(wings)


def _layers() -> dict[str, int]:
    """The row of docs/architecture.md's table of the game's modules that names each module (a
    subpackage's row holds its modules)."""
    text = (REPO / "docs" / "architecture.md").read_text("utf-8")
    table = text.split("## Wings", 1)[1].split("\n\n| module |", 1)[1].split("\n\n", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    layer: dict[str, int] = {}
    for i, row in enumerate(rows):
        for name in re.findall(r"`([a-z_][a-z0-9_.]*)`", row.split("|")[1]):
            layer[f"ttr_europe.{name}"] = i
    return layer


def _layer_of(name: str, layers: dict[str, int]) -> int:
    parts = name.split(".")
    for n in range(len(parts), 1, -1):
        found = layers.get(".".join(parts[:n]))
        if found is not None:
            return found
    raise AssertionError(f"{name} is not in docs/architecture.md's table of the game's modules")


def test_the_layer_table_is_the_import_graph() -> None:
    """Every module of the game is in the table, and imports (inside functions too) only modules
    of its own row or above: no upward arrow inside the game."""
    layers, floors = _layers(), _floors()
    assert len(set(layers.values())) > 20
    upward = []
    for name in MODULES:
        if name == "ttr_europe" or _wing_of(name, floors) != "game":
            continue
        mine = _layer_of(name, layers)
        for target in _imports(name, lazy=True):
            if target != "ttr_europe" and _layer_of(target, layers) > mine:
                upward.append((name, target))
    assert upward == []


def test_the_game_is_over_is_one_rule_everywhere() -> None:
    """Every ``GameOverError`` the package raises for a rule names R46 (the end of the game),
    whichever layer raises it (rules, match, the RL adapters; "env": an environment not reset)."""
    rules_named = set()
    for name in MODULES:
        for node in ast.walk(_tree(name)):
            if (
                isinstance(node, ast.Call)
                and ast.unparse(node.func) == "GameOverError"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                rules_named.add((name, node.args[0].value))
    assert {rule for _, rule in rules_named if rule != "env"} == {"R46"}, sorted(rules_named)
    assert len(rules_named) >= 4


def test_the_public_face_is_small_and_the_old_names_still_resolve() -> None:
    """The top level exports the README's names; the names that left resolve from their
    modules (the same objects); the README shows the fast mask."""
    import importlib

    readme = (REPO / "README.md").read_text("utf-8")
    imported = re.findall(r"^from ttr_europe import (\([^)]*\)|.+)$", readme, re.MULTILINE)
    shown = {name.strip(" ()\n") for names in imported for name in names.split(",")} - {""}
    assert shown <= set(ttr_europe.__all__)
    assert "legal_action_mask_bytes" in shown and "legal_action_mask" not in shown
    assert len(ttr_europe.__all__) <= 50
    for name in ttr_europe.__all__:
        assert getattr(ttr_europe, name) is not None
    for name, home in ttr_europe._ELSEWHERE.items():
        assert name not in ttr_europe.__all__
        module = importlib.import_module(f"ttr_europe.{home}")
        assert getattr(ttr_europe, name) is getattr(module, name), name


INTERNAL = ("_guards", "_dealing", "_unionfind", "_jsontext", "_jsonschema", "_rng", "_seeds",
            "_payments", "_moved", "players._routing")  # fmt: skip
"""The engine's own modules (docs/architecture.md, "The public face")."""


def _public(name: str) -> str:
    """``name`` without the underscore of its last part (``players._routing``: ``routing``)."""
    head, _, last = name.rpartition(".")
    return f"{head}.{last.removeprefix('_')}" if head else last.removeprefix("_")


def test_internal_modules_are_underscored_and_not_exported() -> None:
    """The internal modules carry a leading underscore, their names without it were never
    public (no document told users to import them), and the top level re-exports neither them
    nor any of their names, eagerly or on first use."""
    import importlib

    last = {name.rpartition(".")[2] for name in INTERNAL}
    for name in INTERNAL:
        assert f"ttr_europe.{name}" in MODULES, name
        assert f"ttr_europe.{_public(name)}" not in MODULES, name
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module(f"ttr_europe.{_public(name)}")
    assert not {_public(name) for name in last} & set(dir(ttr_europe))
    homes = set(ttr_europe._ELSEWHERE.values()) | {"scoring"}
    assert not homes & ({_public(name) for name in last} | last)
    for name in ttr_europe.__all__:
        home = getattr(getattr(ttr_europe, name), "__module__", "") or ""
        assert home.rpartition(".")[2] not in last, (name, home)
    readme = (REPO / "README.md").read_text("utf-8")
    for name in INTERNAL:
        assert f"ttr_europe.{_public(name)}" not in readme, name


def test_one_module_binds_the_compiled_core() -> None:
    """``fast._binding`` alone holds the core's pointers (``_lib()``, ``._ptr``): every other
    module calls the core through it, so each C signature is written once. ctypes is imported
    there and in ``players.sandbox`` only, which asks the C library for ``prctl`` (a bot dies
    with its referee) and loads nothing of ours."""
    binders, importers = [], []
    for name, path in MODULES.items():
        text = path.read_text("utf-8")
        if any(
            (isinstance(node, ast.Import) and any(a.name == "ctypes" for a in node.names))
            or (isinstance(node, ast.ImportFrom) and node.module == "ctypes")
            for node in ast.walk(_tree(name))
        ):
            importers.append(name)
        if "_lib()" in text or "._ptr" in text:
            binders.append(name)
    assert binders == ["ttr_europe.fast._binding"]
    assert importers == ["ttr_europe.fast._binding", "ttr_europe.players.sandbox"]
    sandbox = MODULES["ttr_europe.players.sandbox"].read_text("utf-8")
    assert "CDLL(None" in sandbox and sandbox.count("CDLL(") == 1  # the C library, nothing else


def test_the_compiled_core_imports_nothing_that_plays_games_in_bulk() -> None:
    """``fast`` is a module of the game: it imports nothing of a wing (the players' search, the
    simulations and the environments import it), so no arrow runs upward from the core."""
    floors = _floors()
    assert _wing_of("ttr_europe.fast._binding", floors) == "game"
    for name in MODULES:
        if name == "ttr_europe.fast" or name.startswith("ttr_europe.fast."):
            for target in _imports(name, lazy=True):
                assert _wing_of(target, floors) == "game", (name, target)
