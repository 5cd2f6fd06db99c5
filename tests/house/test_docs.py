"""Every code block of the documentation (docs/**/*.md and README.md) is checked.

- ``>>>`` sessions run as doctests;
- other ```python blocks run, in page order, in one namespace per page (so a later block may
  use what an earlier one made), inside a scratch directory (so pages may write files);
- ```bash / ```console lines that call ``ttr-europe`` are parsed by the real argument parser
  (subcommand and options must exist); the other shell lines must be one of the install and
  build steps listed in ``SHELL_STEPS``, which CI runs itself (a fresh venv, pip, pytest,
  mkdocs) — so no block goes unchecked;
- a ```text block that starts with ``$ ttr-europe ...`` is a session: the command runs, and
  prints what the block shows, its timings aside;
- a file of the repository named in backquotes (``src/...``, ``ttr_europe/...``, ``tests/...``)
  exists, so a reader who looks for it finds it.
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from ttr_europe import fast
from ttr_europe.cli import build_parser

REPO = Path(__file__).resolve().parents[2]
PAGES = [*sorted((REPO / "docs").rglob("*.md")), REPO / "README.md"]
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.DOTALL | re.MULTILINE)
SHELL_STEPS = (
    "python3 -m venv",
    "pip install",
    "python -m pytest",
    "bash .ci/run",
    "mkdocs build",
    "python scripts/",
    "python -m ttr_europe.fast.build",  # the optional compiled core (docs/fast.md); CI builds it
    "python benchmarks/",  # benchmarks are measured by hand, never in CI (docs/performance.md)
    "git clone",  # fetching a peer engine for the side-by-side benchmark
    "git archive",
    "ray start",  # setting up a Ray cluster (docs/simulation.md)
    "ray job submit",
)


OPTIONAL = {  # modules of the optional extras (pyproject.toml), by the extra that brings them
    "numpy": "rl", "pettingzoo": "rl", "gymnasium": "rl", "pyspiel": "openspiel", "ray": "ray",
    "starlette": "web", "uvicorn": "web", "websockets": "web", "playwright": "webtest",
    "cairosvg": "webtest", "mkdocs": "docs",
}  # fmt: skip


def _name(page: Path) -> str:
    return str(page.relative_to(REPO))


def _blocks(page: Path, *languages: str) -> Iterator[str]:
    for language, body in FENCE.findall(page.read_text("utf-8")):
        if language in languages:
            yield body


@pytest.fixture
def scratch(tmp_path: Path) -> Iterator[Path]:
    here = Path.cwd()
    os.chdir(tmp_path)
    try:
        yield tmp_path
    finally:
        os.chdir(here)


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_interactive_examples(page: Path, scratch: Path) -> None:
    text = re.sub(r"^```.*$", "", page.read_text("utf-8"), flags=re.MULTILINE)  # fences end output
    parser = doctest.DocTestParser()
    test = parser.get_doctest(text, {}, page.name, str(page), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0, f"{runner.failures} failing example(s) in {page.name}"


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_python_blocks_run(page: Path, scratch: Path) -> None:
    """Every ```python block that is not an interactive session runs without error."""
    namespace: dict[str, object] = {"__name__": f"docs.{page.stem}"}
    for block in _blocks(page, "python"):
        if not block.lstrip().startswith(">>>"):
            try:
                exec(compile(block, str(page), "exec"), namespace)
            except ImportError as exc:  # a page about an extra that is not installed
                missing = exc.name or getattr(exc.__cause__, "name", None) or ""
                extra = OPTIONAL.get(missing.partition(".")[0])
                if extra is None:
                    raise
                pytest.skip(f"{page.name} needs {missing}: pip install -e '.[{extra}]'")


def _commands(block: str) -> Iterator[str]:
    """The commands of a shell block: comments dropped, continued lines joined."""
    text = re.sub(r"\\\n\s*", " ", block)
    for line in text.splitlines():
        code = line.split("  #", 1)[0].strip().removeprefix("$ ")
        if code.startswith("#"):
            continue
        yield from (part.strip() for part in code.split("&&") if part.strip())


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_shell_blocks_name_real_commands(page: Path) -> None:
    parser = build_parser()
    for block in _blocks(page, "bash", "console", "sh", "shell"):
        for command in _commands(block):
            words = shlex.split(command)
            if "--" in words and "ttr-europe" in words:  # a command run by another (ray job)
                words = words[words.index("--") + 1 :]
            program = Path(words[0]).name if words else ""
            if program == "ttr-europe":
                try:
                    parser.parse_args(words[1:])
                except SystemExit as exc:
                    raise AssertionError(f"{_name(page)}: {command!r} does not parse") from exc
                continue
            bare = re.sub(r"^(\S*/)?(\.venv/bin/)?", "", command)
            assert bare.startswith(SHELL_STEPS), f"{_name(page)}: unchecked command {command!r}"


class _Bindings(dict[str, object]):
    """A namespace that remembers every type each name was bound to."""

    def __init__(self) -> None:
        super().__init__()
        self.kinds: dict[str, set[str]] = {}

    def __setitem__(self, name: str, value: object) -> None:
        self.kinds.setdefault(name, set()).add(type(value).__name__)
        super().__setitem__(name, value)


def test_the_readme_examples_give_each_name_one_kind_of_thing(
    scratch: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A reader pastes the README's examples in order: one name never stands for two kinds of
    thing (the map and the scoreboard were both called ``board``)."""
    readme = REPO / "README.md"
    names = _Bindings()
    namespace: dict[str, object] = {"__name__": "readme"}
    for block in _blocks(readme, "python"):
        exec(compile(block, str(readme), "exec"), namespace, names)
        namespace.update(names)
    capsys.readouterr()
    mixed = {name: kinds for name, kinds in names.kinds.items() if len(kinds) > 1}
    assert mixed == {}


SESSION = re.compile(r"^```text\n\$ (ttr-europe [^\n]*)\n(.*?)^```", re.DOTALL | re.MULTILINE)
TIMING = re.compile(r"played in [\d.]+ s \([\d.]+ games/s\)")


def _sessions() -> Iterator[tuple[str, str, str]]:
    for page in PAGES:
        for command, shown in SESSION.findall(page.read_text("utf-8")):
            yield _name(page), command, shown


@pytest.mark.slow
@pytest.mark.parametrize(
    ("page", "command", "shown"), list(_sessions()), ids=[page for page, _, _ in _sessions()]
)
def test_a_documented_session_prints_what_it_shows(
    page: str, command: str, shown: str, scratch: Path
) -> None:
    """A reader who types the command sees the page's lines; only the time a run took (and, on
    an installation without the compiled core, the engine that played) may differ."""
    words = shlex.split(command)[1:]
    done = subprocess.run(
        [sys.executable, "-m", "ttr_europe", *words], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    expected = TIMING.sub("played in ...", shown)
    if not fast.available():  # `--engine auto` plays in Python then (docs/simulation.md#engines)
        expected = expected.replace("by the fast engine", "by the python engine")
    assert TIMING.sub("played in ...", done.stdout) == expected, page


def test_the_sessions_are_found() -> None:
    assert any(command.startswith("ttr-europe simulate") for _, command, _ in _sessions())


REPO_FILE = re.compile(
    r"`((?:src|tests|scripts|benchmarks|examples|data|ttr_europe|docs|\.ci)/[\w./-]+"
    r"\.(?:py|md|json|jsonl|npz|js|txt|toml|c|h|png|svg|html))`"
)
PLACEHOLDER = re.compile(r"(^|/)(test_)?[A-Z](/|\.)")  # ttr_europe/X.py, tests/P/test_Y.py


def _missing_files(text: str) -> list[str]:
    """The repository files named in backquotes in ``text`` that do not exist
    (``ttr_europe/...`` is read under ``src/``)."""
    missing = []
    for name in REPO_FILE.findall(text):
        path = REPO / "src" / name if name.startswith("ttr_europe/") else REPO / name
        if not PLACEHOLDER.search(name) and not path.exists():
            missing.append(name)
    return missing


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_the_files_a_page_names_exist(page: Path) -> None:
    assert _missing_files(page.read_text("utf-8")) == []


def test_a_file_that_moved_is_caught_and_a_placeholder_is_not() -> None:
    text = "`ttr_europe/data.py`, `ttr_europe/maps.py`, `ttr_europe/X.py`, `tests/P/test_Y.py`"
    assert _missing_files(text) == ["ttr_europe/data.py"]
