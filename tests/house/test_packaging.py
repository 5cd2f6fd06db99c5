"""The built wheel carries the data and works outside the checkout.

The wheel is built with pip, installed into a fresh virtual environment, and both maps are
loaded from a directory outside the repository, through ``importlib.resources``. attrs and
networkx are lent to that environment from the running one, so nothing is downloaded but the
build backend.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from collections.abc import Iterator
from pathlib import Path

import attrs
import networkx
import pytest

REPO = Path(__file__).resolve().parents[2]
SNIPPET = """
import json, ttr_europe
from ttr_europe import load_map, available_maps
print(json.dumps({
    "file": ttr_europe.__file__,
    "maps": available_maps(),
    "counts": {n: [len(m.cities), len(m.routes), len(m.tickets)]
               for n in available_maps() for m in [load_map(n)]},
}))
"""


def run(*argv: str | Path, cwd: Path) -> str:
    done = subprocess.run(
        [str(a) for a in argv], cwd=cwd, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, f"{argv} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", out, REPO, cwd=out)
    (found,) = out.glob("ttr_europe-*.whl")
    return found


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A fresh venv holding the wheel; the bin directory is returned."""
    env = tmp_path_factory.mktemp("venv")
    venv.create(env, with_pip=False)
    bindir = Path(sysconfig.get_path("scripts", vars={"base": env, "platbase": env}))
    python = bindir / ("python.exe" if sys.platform == "win32" else "python")
    purelib = Path(sysconfig.get_path("purelib", vars={"base": env, "platbase": env}))
    lent = {str(Path(m.__file__).resolve().parents[1]) for m in (attrs, networkx)}  # type: ignore[arg-type]
    (purelib / "lent_dependencies.pth").write_text("\n".join(sorted(lent)) + "\n", "utf-8")
    run(sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps",
        "--no-index", wheel, cwd=env)  # fmt: skip
    yield bindir


@pytest.mark.slow
def test_wheel_contains_the_data(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert len(names) == len(set(names))
    for needed in (
        "ttr_europe/py.typed",
        "ttr_europe/data/maps/europe.json",
        "ttr_europe/data/maps/usa.json",
        "ttr_europe/data/schema/map.schema.json",
        "ttr_europe/data/SOURCES.md",
        "ttr_europe/web/static/index.html",
        "ttr_europe/web/static/app.js",
        "ttr_europe/web/static/style.css",
        "ttr_europe/web/static/i18n.js",
        "ttr_europe/web/static/a11y.js",
        "ttr_europe/locale/pt/LC_MESSAGES/ttr_europe.po",  # the catalogs (docs/web.md)
        "ttr_europe/locale/ru/LC_MESSAGES/ttr_europe.po",
        "ttr_europe/locale/ro/LC_MESSAGES/ttr_europe.po",
        "ttr_europe/rl/baseline.npz",  # the trained baseline's weights (docs/rl.md)
        "ttr_europe/rl/bc_ppo.npz",  # the bc-ppo policy's weights (docs/rl.md)
    ):
        assert needed in names
    # The repository's top-level data/ is a link to the package's; it must not ship twice.
    assert not [n for n in names if n.startswith("data/")]
    assert sum(n.endswith("europe.json") for n in names) == 1
    assert not [n for n in names if "__pycache__" in n or n.startswith("tests/")]


@pytest.mark.slow
def test_installed_wheel_loads_both_maps(installed: Path, tmp_path: Path) -> None:
    python = installed / ("python.exe" if sys.platform == "win32" else "python")
    result = json.loads(run(python, "-c", SNIPPET, cwd=tmp_path))
    assert not Path(result["file"]).resolve().is_relative_to(REPO)
    assert result["maps"] == ["europe", "usa"]
    assert result["counts"] == {"europe": [47, 101, 101], "usa": [36, 100, 30]}


@pytest.mark.slow
def test_installed_command(installed: Path, tmp_path: Path) -> None:
    command = installed / ("ttr-europe.exe" if sys.platform == "win32" else "ttr-europe")
    out = run(command, "info", "europe", cwd=tmp_path)
    assert out.startswith("Ticket to Ride: Europe (europe)")
    assert "101 on 90 city pairs, 11 double pairs" in out
    # the installed catalogs speak: a game between bots told in Russian
    out = run(command, "play", "--players", "2", "--quiet", "--lang", "ru", cwd=tmp_path)
    assert out.startswith("Итоговые очки")


def readme_blocks(language: str) -> list[list[str]]:
    """The README's fenced code blocks in ``language``, as lists of lines."""
    blocks: list[list[str]] = []
    current: list[str] | None = None
    for line in (REPO / "README.md").read_text("utf-8").splitlines():
        if current is None and line.strip() == f"```{language}":
            current = []
        elif current is not None and line.strip() == "```":
            blocks.append(current)
            current = None
        elif current is not None:
            current.append(line)
    return blocks


def test_readme_starts_with_the_two_commands() -> None:
    """Title, one sentence, then a block of exactly two commands: run the package; run the
    tests. The test command is the one .ci/run runs."""
    lines = (REPO / "README.md").read_text("utf-8").splitlines()
    assert lines[0].startswith("# ")
    assert lines[1] == "" and lines[2].endswith(".") and lines[3] == ""
    assert lines[4] == "```bash"
    assert readme_blocks("bash")[0] == lines[5:7]
    run_it, test_it = lines[5:7]
    assert "pip install ." in run_it and run_it.endswith("ttr-europe play")
    assert "pip install -e '.[test]'" in test_it
    pytest_command = test_it.split("&& .venv/bin/")[-1]
    assert pytest_command.startswith("python -m pytest")
    ci = (REPO / ".ci" / "run").read_text("utf-8").replace('"$bin/python"', "python")
    assert f"\n{pytest_command} " in ci


def test_readme_examples_run(capsys: pytest.CaptureFixture[str]) -> None:
    """The README's Python blocks run in order, in one namespace, as a reader would paste them."""
    first, *rest = readme_blocks("python")
    namespace: dict[str, object] = {}
    exec(compile("\n".join(first), "README.md", "exec"), namespace)
    trains = json.loads(capsys.readouterr().out.splitlines()[0])
    assert len(trains) == 3
    assert min(trains) <= 2  # the game ran to its end (R46: two trains or fewer)
    for block in rest:
        exec(compile("\n".join(block), "README.md", "exec"), namespace)
    assert "Final scores" in capsys.readouterr().out
    mask, codec, state = namespace["mask"], namespace["codec"], namespace["state"]
    assert mask == codec.mask_bytes(state)  # type: ignore[attr-defined]
    assert [b == 1 for b in mask] == codec.mask(state)  # type: ignore[attr-defined, attr-defined]


@pytest.mark.slow
def test_the_version_is_written_once_and_the_wheel_carries_it(wheel: Path) -> None:
    """pyproject.toml reads the version from ttr_europe/__init__.py; the wheel's metadata says
    it, with the project links, the development status and the optional extras."""
    import tomllib

    import ttr_europe

    project = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))
    assert "version" not in project["project"] and project["project"]["dynamic"] == ["version"]
    (metadata_name,) = [n for n in zipfile.ZipFile(wheel).namelist() if n.endswith("METADATA")]
    metadata = zipfile.ZipFile(wheel).read(metadata_name).decode("utf-8")
    assert f"\nVersion: {ttr_europe.__version__}\n" in metadata
    for line in ("Classifier: Development Status :: ", "Provides-Extra: testing",
                 "Provides-Extra: docs", "License-File: LICENSE"):  # fmt: skip
        assert f"\n{line}" in metadata, line
    assert "Project-URL:" not in metadata


def test_the_build_backend_is_new_enough_for_license_files() -> None:
    """hatchling reads ``license-files`` (PEP 639) from 1.26 on; older ones fail the build."""
    import tomllib

    build = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["build-system"]
    (hatchling,) = [r for r in build["requires"] if r.startswith("hatchling")]
    low = tuple(int(x) for x in hatchling.split(">=")[1].split("."))
    assert low >= (1, 26)


def test_the_changelog_has_the_release_and_an_unreleased_section() -> None:
    import ttr_europe

    text = (REPO / "CHANGELOG.md").read_text("utf-8")
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert headings[0] == "## [Unreleased]"
    released = [h for h in headings if h.startswith("## [0.")]
    assert released and all(re.fullmatch(r"## \[\d+\.\d+\.\d+\] - \d{4}-\d{2}-\d{2}", h)
                            for h in released)  # fmt: skip
    assert any(h.startswith(f"## [{ttr_europe.__version__}]") for h in released)


FAST_SNIPPET = """
import json
from ttr_europe import fast
print(json.dumps({"available": fast.available(), "library": str(fast.library_path())}))
"""
FAST_PLAY = """
import json
from ttr_europe import fast
game = fast.new_game("usa", players=2, seed=1)
steps = game.playout(1)
print(json.dumps({"available": fast.available(), "over": game.is_terminal(), "steps": steps}))
"""


def test_the_wheel_ships_the_core_source_unbuilt_and_it_builds_in_place(
    wheel: Path, installed: Path, tmp_path: Path
) -> None:
    """``pip install`` compiles nothing (the engine runs without a compiler); the README's one
    line then builds the core inside the installed package, and it plays."""
    names = zipfile.ZipFile(wheel).namelist()
    assert "ttr_europe/fast/core.c" in names
    assert not [n for n in names if n.endswith((".so", ".pyd", ".dylib"))]
    python = installed / ("python.exe" if sys.platform == "win32" else "python")
    clean = {k: v for k, v in os.environ.items() if k not in ("TTR_EUROPE_FAST_LIB", "PYTHONPATH")}
    found = json.loads(run_env(clean, python, "-c", FAST_SNIPPET, cwd=tmp_path))
    assert found["available"] is False
    assert not Path(found["library"]).is_relative_to(REPO)
    if shutil.which(shlex.split(os.environ.get("CC", "cc"))[0]) is None:
        pytest.skip("no C compiler: the core cannot be built here")
    run_env(clean, python, "-m", "ttr_europe.fast.build", cwd=tmp_path)
    played = json.loads(run_env(clean, python, "-c", FAST_PLAY, cwd=tmp_path))
    assert played["available"] and played["over"] and played["steps"] > 10


def run_env(env: dict[str, str], *argv: str | Path, cwd: Path) -> str:
    done = subprocess.run(
        [str(a) for a in argv], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, f"{argv} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout
