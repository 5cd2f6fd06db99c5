"""``tests/`` mirrors the package (docs/testing.md, *Where a test goes*): every source module has a
test file named after it, test file names are unique across folders, and every test file sits in
a folder the guide names. A new module without tests fails here by itself.

The naming rule, for a module's name with its underscores stripped (``_table`` is ``table``,
``__main__`` is ``main``):

- a top-level module ``ttr_europe/X.py`` has ``test_X.py`` or ``test_X_<aspect>.py`` anywhere
  under ``tests/``;
- a subpackage module ``ttr_europe/P/Y.py`` has ``tests/P/test_Y.py`` or
  ``tests/P/test_Y_<aspect>.py``;
- a subpackage's ``__init__.py`` is covered by the folder ``tests/P/`` holding a test file.
"""

from __future__ import annotations

import re
from pathlib import Path

import ttr_europe

SRC = Path(ttr_europe.__file__).parent
TESTS = Path(__file__).resolve().parents[1]
GUIDE = TESTS.parent / "docs" / "testing.md"
HELPERS = {"conftest.py", "__init__.py"}  # per-folder by design: pytest finds them by place


def _names_the_module(test: Path, name: str) -> bool:
    return test.stem == f"test_{name}" or test.stem.startswith(f"test_{name}_")


def untested_modules(src: Path, tests: Path) -> list[str]:
    """The source modules (paths relative to ``src``) with no test file named after them."""
    every = sorted(tests.rglob("test_*.py"))
    missing = []
    for module in sorted(src.rglob("*.py")):
        parts = module.relative_to(src).with_suffix("").parts
        folder = tests.joinpath(*parts[:-1])
        if parts == ("__init__",):
            continue  # the package as a whole: the whole suite
        if parts[-1] == "__init__":
            found = any(folder.rglob("test_*.py"))
        else:
            name = parts[-1].strip("_")
            pool = every if len(parts) == 1 else sorted(folder.rglob("test_*.py"))
            found = any(_names_the_module(test, name) for test in pool)
        if not found:
            missing.append(module.relative_to(src).as_posix())
    return missing


def repeated_names(tests: Path) -> dict[str, list[str]]:
    """Module basenames found in more than one folder (pytest imports them by name)."""
    seen: dict[str, list[str]] = {}
    for path in sorted(tests.rglob("*.py")):
        if path.name not in HELPERS:
            seen.setdefault(path.name, []).append(path.relative_to(tests).as_posix())
    return {name: paths for name, paths in seen.items() if len(paths) > 1}


def guide_folders(guide_text: str) -> set[str]:
    """The folders the guide's *Where a test goes* table names (``""`` for the top)."""
    section = guide_text.split("### Where a test goes", 1)[1].split("\n#", 1)[0]
    table = "\n".join(line for line in section.splitlines() if line.startswith("|"))
    return {found.rstrip("/") for found in re.findall(r"`tests/([a-z_/]*)`", table)}


def stray_test_files(tests: Path, folders: set[str]) -> list[str]:
    """Test files in a folder the guide does not name."""
    stray = []
    for path in sorted(tests.rglob("test_*.py")):
        folder = path.parent.relative_to(tests).as_posix()
        if ("" if folder == "." else folder) not in folders:
            stray.append(path.relative_to(tests).as_posix())
    return stray


# --------------------------------------------------------------------------- the repository


def test_every_source_module_has_a_test_file_named_after_it() -> None:
    assert untested_modules(SRC, TESTS) == []


def test_test_file_names_are_unique_across_folders() -> None:
    assert repeated_names(TESTS) == {}


def test_every_test_file_is_in_a_folder_the_guide_names_and_every_folder_named_exists() -> None:
    folders = guide_folders(GUIDE.read_text("utf-8"))
    assert {"", "rules", "house"} <= folders  # the table was read
    assert stray_test_files(TESTS, folders) == []
    assert all((TESTS / folder).is_dir() for folder in folders)


# --------------------------------------------------------------------------- planted faults


def _tree(root: Path, files: list[str]) -> None:
    for name in files:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("")


def test_a_module_without_tests_is_reported(tmp_path: Path) -> None:
    src, tests = tmp_path / "src", tmp_path / "tests"
    _tree(src, ["__init__.py", "_table.py", "__main__.py", "state.py", "web/__init__.py",
                "web/hub.py", "web/lobby.py", "cli/__init__.py", "cli/replay.py"])  # fmt: skip
    _tree(tests, ["test_table.py", "test_main.py", "rules/test_state_frozen.py",
                  "web/test_hub.py", "cli/test_replay_exit_codes.py"])  # fmt: skip
    assert untested_modules(src, tests) == ["web/lobby.py"]
    _tree(tests, ["web/test_lobby.py"])
    assert untested_modules(src, tests) == []
    _tree(tests, ["cli/test_common.py"])
    (tests / "test_main.py").rename(tests / "test_mainly.py")  # a longer word is another module
    (tests / "cli" / "test_replay_exit_codes.py").rename(tests / "test_replay.py")  # wrong folder
    assert untested_modules(src, tests) == ["__main__.py", "cli/replay.py"]
    (tests / "cli" / "test_common.py").unlink()  # no test file left for the subpackage itself
    assert untested_modules(src, tests) == ["__main__.py", "cli/__init__.py", "cli/replay.py"]


def test_a_name_in_two_folders_and_a_stray_folder_are_reported(tmp_path: Path) -> None:
    _tree(tmp_path, ["conftest.py", "web/conftest.py", "strategies.py", "sim/test_store.py",
                     "web/test_store.py", "web/test_hub.py", "misc/test_other.py"])  # fmt: skip
    assert repeated_names(tmp_path) == {"test_store.py": ["sim/test_store.py", "web/test_store.py"]}
    guide = "## Tests\n### Where a test goes\n\n| folder | what |\n|---|---|\n"
    guide += (
        "| `tests/` (top) | x |\n| `tests/sim/`, `tests/web/` | y |\n\n### Two tiers\n`tests/misc/`"
    )
    folders = guide_folders(guide)
    assert folders == {"", "sim", "web"}  # only the table counts
    assert stray_test_files(tmp_path, folders) == ["misc/test_other.py"]
