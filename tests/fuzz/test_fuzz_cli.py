"""Every command of ``ttr-europe`` with bad arguments and bad files.

A run ends with status 0, or with status 2 and exactly one line on stderr (never a traceback,
never a silent success on arguments it cannot honour), in CPU time within a budget linear in the
size of its arguments and files, measured from a valid run of the same command.
"""

from __future__ import annotations

import atexit
import contextlib
import io
import json
import shutil
import tempfile
import time
from functools import cache
from pathlib import Path

import pytest
from fuzzing import BASE, PER_UNIT, SLACK, adversarial_text, mutated, mutated_text
from hypothesis import assume, event, given, note
from hypothesis import strategies as st

from ttr_europe.cli import main
from ttr_europe.errors import TTRError
from ttr_europe.maps import data_files, load_map_file
from ttr_europe.records import random_game

FOLDER = Path(tempfile.mkdtemp(prefix="ttr-fuzz-cli-"))
atexit.register(shutil.rmtree, FOLDER, ignore_errors=True)
RECORD = random_game("usa", players=2, seed=5).to_json()
MAP_DOC = json.loads((data_files() / "maps" / "usa.json").read_text("utf-8"))

BAD_COUNTS = st.sampled_from(
    ["0", "-1", "-5", "x", "", " ", "1.5", "1e3", "nan", "99999999999999999999", "0x10", "\0",
     "+", "--1"]
)  # fmt: skip
"""Counts that no command accepts (a valid benchmark count would start a long run)."""
COUNTS = BAD_COUNTS | st.sampled_from(["１", "٣", "1_000"])  # Python's int() reads these
WORDS = st.sampled_from(["europe", "usa", "base", "mega", "nosuch", "", " ", "-", "--json", "\0"])
TEXT = WORDS | adversarial_text(max_pieces=4) | st.text(max_size=30)


def _run(argv: list[str]) -> tuple[int, str, float]:
    out, err = io.StringIO(), io.StringIO()
    start = time.process_time()
    # In the fuzz folder: a valid `play --human` ends at the end of input and saves its game
    # to the default file of the working directory, which must not be the checkout.
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), contextlib.chdir(FOLDER):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse: --help, --version, or a refused argument
            code = exc.code if isinstance(exc.code, int) else 2
    return code, err.getvalue(), time.process_time() - start


@cache
def _baseline(command: str) -> float:
    """CPU seconds of a valid, typical run of ``command``."""
    valid = {
        "info": ["info", "usa"],
        "play": ["play", "--map", "usa", "--players", "2", "--quiet"],
        "replay": ["replay", _valid_record()],
        "tournament": ["tournament", "--games", "1", "--map", "usa"],
        "bench": ["bench", "--games", "0"],
        "serve": ["serve", "--map", "nosuch"],
    }[command]
    return max(BASE, min(_run(valid)[2] for _ in range(3)))


def _file(name: str, content: bytes) -> Path:
    path = FOLDER / name
    path.write_bytes(content)
    return path


def _valid_record() -> str:
    return str(_file("valid", json.dumps(RECORD).encode()))


def _loads(path: str) -> bool:
    """Whether ``path`` names a map file the engine can play."""
    try:
        load_map_file(path)
    except TTRError:
        return False
    return True


@st.composite
def bad_files(draw: st.DrawFn, doc: object) -> str:
    """The path of a file holding a damaged document, other bytes, or no file at all."""
    text = json.dumps(doc)
    how = draw(st.sampled_from(["doc", "text", "bytes", "utf16", "empty", "folder", "missing"]))
    if how == "folder":
        return str(FOLDER)
    if how == "missing":
        return str(FOLDER / "no such folder" / "x.json")
    content = {
        "doc": lambda: json.dumps(draw(mutated(doc))).encode(),
        "text": lambda: draw(mutated_text(text)).encode("utf-8", "surrogatepass"),
        "bytes": lambda: draw(st.binary(max_size=300)),
        "utf16": lambda: text.encode("utf-16"),
        "empty": lambda: b"",
    }[how]()
    return str(_file(f"f{draw(st.integers(0, 5))}.json", content))


BOTS = st.sampled_from(["random", "greedy,random", "oracle", ",", "", "x:y", "os:sep"])
OUT_PATHS = st.sampled_from(
    [str(FOLDER / "out.svg"), str(FOLDER / "no such folder" / "o"), str(FOLDER), ""]
)


@st.composite
def command_lines(draw: st.DrawFn) -> list[str]:
    command = draw(st.sampled_from(["info", "play", "replay", "tournament", "bench", "serve"]))
    argv = [command]
    if command == "info":
        argv.append(draw(st.sampled_from(["usa", "europe"]) | WORDS | bad_files(MAP_DOC) | TEXT))
        if draw(st.booleans()):
            argv.append("--json")
    elif command == "replay":
        argv.append(draw(st.just(_valid_record()) | bad_files(RECORD) | TEXT))
        if draw(st.booleans()):
            argv += ["--svg", draw(OUT_PATHS)]
    elif command == "play":
        argv += ["--map", draw(st.sampled_from(["usa", "usa", "nosuch", ""]) | bad_files(MAP_DOC))]
        argv += ["--players", draw(st.just("2") | COUNTS | st.sampled_from(["2", "6"]))]
        argv += ["--quiet"]
        for option, values in (
            ("--variant", WORDS), ("--seed", COUNTS | st.sampled_from(["7", "-3"])),
            ("--bots", BOTS),
            ("--svg", OUT_PATHS), ("--record", OUT_PATHS), ("--resume", bad_files(RECORD)),
            ("--human", st.sampled_from(["9", "x", "-1", "0,0,0,9", "١"])),
        ):  # fmt: skip
            if draw(st.booleans()):
                argv += [option, draw(values)]
    elif command == "tournament":
        argv += ["--games", draw(st.just("1") | COUNTS), "--map", draw(st.just("usa") | WORDS)]
        for option, values in (
            ("--processes", COUNTS | st.sampled_from(["1", "300"])), ("--players", COUNTS),
            ("--bots", st.sampled_from(["random", "oracle", ",", ""])), ("--seed", COUNTS),
            ("--variant", WORDS),
        ):  # fmt: skip
            if draw(st.booleans()):
                argv += [option, draw(values)]
    elif command == "serve":  # a valid run serves until stopped, so one setting is always bad
        option, values = draw(st.sampled_from([
            ("--map", st.sampled_from(["nosuch", ""]) | bad_files(MAP_DOC)),
            ("--players", BAD_COUNTS | st.sampled_from(["1", "9"])),
            ("--variant", st.sampled_from(["nosuch", "", " "])),
            ("--port", st.sampled_from(["x", "", "1.5", "99999999999999999999999"])),
        ]))  # fmt: skip
        argv += [option, draw(values)]
        assume(not (option == "--map" and _loads(argv[-1])))  # a mutation that left it valid
        if draw(st.booleans()):
            argv += ["--seats", draw(st.sampled_from(["person", "nobody", ",", ""]))]
    else:  # bench: a valid run is a long benchmark, so at least one count is always bad
        option = draw(st.sampled_from(["--games", "--rounds", "--samples"]))
        argv += [option, draw(BAD_COUNTS), "--quick"]
    if draw(st.integers(0, 9)) == 0:
        argv.insert(draw(st.integers(1, len(argv))), draw(TEXT))  # a stray argument
    return argv


@pytest.mark.slow
@given(command_lines())
def test_bad_command_lines(argv: list[str]) -> None:
    note(repr(argv))
    code, err, seconds = _run(argv)
    event(f"{argv[0]} exit {code}")
    assert code in (0, 2), (code, err)
    if code == 2:
        assert err.endswith("\n") and err.count("\n") == 1, err
        assert err.startswith("ttr-europe") and "Traceback" not in err
    files = [Path(a) for a in argv if a.startswith(str(FOLDER)) and Path(a).is_file()]
    size = sum(len(a) for a in argv) + sum(f.stat().st_size for f in files)
    limit = SLACK * (_baseline(argv[0]) + PER_UNIT * size)
    if seconds > limit:  # measure again: a first import or a pause of the machine is not the run
        seconds = min(seconds, _run(argv)[2])
    assert seconds <= limit, f"{argv[0]} took {seconds:.3f}s CPU; budget {limit:.3f}s"
