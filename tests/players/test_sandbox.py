"""The sandbox of a ``cmd:`` bot, attacked by tests/players/hostile_bot.py the ways a stranger's
program would: each attack fails in the sandbox, and (where it cannot harm the test run) the
same program run as a trusted one (``sandbox=off``, the referee of before) shows it is real.

On Linux these tests need the sandbox (Debian's ``bubblewrap``): where none can be made they
are skipped with the reason, and fail instead under ``TTR_REQUIRE_SANDBOX=1`` (CI); elsewhere
they are skipped.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import shlex
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from children import spawn
from ttr_europe.errors import BotError, SandboxError
from ttr_europe.players import (
    GreedyBot,
    bot_name,
    close_bots,
    decide,
    make_bot,
    play,
    sandbox,
    split_specs,
)
from ttr_europe.players.protocol import ProcessBot, parse_command_spec
from ttr_europe.players.sandbox import SYSTEM_FILES
from ttr_europe.rules import apply, new_game
from ttr_europe.state import Phase

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ROOT / "tests" / "players" / "hostile_bot.py"
EXAMPLE = ROOT / "examples" / "line_bot.py"
PYTHON = shlex.quote(sys.executable)
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src")}

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux sandboxes"),
    pytest.mark.usefixtures("sandbox_works"),
]


def hostile(mode: str, arg: str, settings: str = "move=2") -> str:
    return f"cmd[{settings}]:{PYTHON} {HOSTILE} {mode} {arg}"


def report(spec: str) -> str:
    """What the hostile bot of ``spec`` found, said in its hello."""
    bot = make_bot(spec)
    assert isinstance(bot, ProcessBot)
    try:
        bot.start()
        assert bot.version is not None
        return bot.version
    finally:
        bot.close()


def holding(token: str) -> list[int]:
    """The live processes whose command line holds ``token``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            line = (entry / "cmdline").read_bytes()
            zombie = "State:\tZ" in (entry / "status").read_text()
        except OSError:
            continue
        if token.encode() in line and not zombie:
            found.append(int(entry.name))
    return found


def gone(token: str, seconds: float = 10.0) -> bool:
    end = time.monotonic() + seconds
    while holding(token):
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


@pytest.fixture
def token() -> Iterator[str]:
    """A word unique to one test, on the command line of its processes; any left are killed."""
    word = "tok" + uuid.uuid4().hex
    yield word
    for pid in holding(word):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def test_a_bot_cannot_read_its_referee_s_memory() -> None:
    secret = "ttr-secret-" + uuid.uuid4().hex  # the opponent's hand, as the referee holds it
    assert report(hostile("peek", "ttr-secret-", "sandbox=off")) == "found:" + secret[11:]
    assert report(hostile("peek", "ttr-secret-")).startswith("none:")


def test_a_bot_cannot_reach_a_local_listener() -> None:
    with socket.create_server(("127.0.0.1", 0)) as listener:
        port = str(listener.getsockname()[1])
        assert report(hostile("tcp", port, "sandbox=off")) == "connected"
        assert report(hostile("tcp", port)).startswith("refused:")


def test_a_bot_reaches_no_socket_in_a_folder_it_is_shown(tmp_path: Path) -> None:
    """A socket bound in a folder the sandbox shows read-only (a service's, or a helper the
    bot's author left there) still takes connections and datagrams (a read-only mount does
    not stop them), and ``AF_VSOCK`` reaches the machine's host whatever the network
    namespace: the filter lets a program make only internet sockets (its own loopback) and
    connected pairs of stream sockets, which ``asyncio`` uses."""
    folder = tmp_path / "service"
    folder.mkdir()
    folder.chmod(0o777)
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(folder / "svc.sock"))
    (folder / "svc.sock").chmod(0o777)
    listener.listen()
    listener.settimeout(5)
    datagrams = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    datagrams.bind(str(folder / "svc.dgram"))
    (folder / "svc.dgram").chmod(0o777)

    def answer() -> None:
        with contextlib.suppress(OSError):
            conn, _ = listener.accept()
            with conn:
                conn.sendall(b"secret")

    try:
        for settings in ("sandbox=off", "move=2"):
            thread = threading.Thread(target=answer, daemon=True)
            thread.start()
            found = json.loads(report(hostile("unix", str(folder), settings)))
            if settings == "sandbox=off":  # the attack is real
                assert found["stream"] == "connected:secret" and found["datagram"] == "sent"
                assert found["pair"] == "made:ok"
            else:
                assert found["stream"] == "refused:PermissionError", found
                assert found["datagram"] == "refused:PermissionError", found
                assert found["vsock"] == "refused:PermissionError", found
                assert found["pair"] == "made:ok", found
                listener.close()  # the thread waits no more
            thread.join(5)
    finally:
        listener.close()
        datagrams.close()


def test_a_bot_cannot_read_the_host_s_files_or_list_the_work_tree() -> None:
    assert report(hostile("read", "@/etc/passwd", "sandbox=off")).startswith("read:root:")
    assert report(hostile("read", "@/etc/passwd")).startswith("error:")
    assert "src" in report(hostile("list", f"@{ROOT}", "sandbox=off")).split(":")[1].split(",")
    # only its own file's folder, and the test run's own installation where it lies in the tree
    assert report(hostile("list", f"@{ROOT}")) == "listed:" + ",".join(_shown_in(ROOT))
    assert report(hostile("list", f"@{ROOT}/tests/players")) == "listed:hostile_bot.py"
    system = {"bin", "dev", "etc", "lib", "lib32", "lib64", "libx32", "proc", "sbin", "tmp", "usr"}
    own = {Path(p).parts[1] for p in (ROOT, sys.prefix, os.path.realpath(sys.executable))}
    root = set(report(hostile("list", "@/")).split(":")[1].split(","))
    assert {"dev", "proc", "tmp", "usr"} <= root <= system | own  # no home, no srv, no var


def test_the_system_s_files_in_etc_are_readable_and_the_rest_is_absent() -> None:
    """``/etc`` holds what the docs list, open to the program's user (a referee run as root
    makes it a user of its own), and anything else there is missing, not forbidden: Node.js
    refuses to start where its OpenSSL configuration is unreadable rather than absent."""
    shown = [Path(p).name for p in SYSTEM_FILES if os.path.exists(p)]
    assert report(hostile("list", "@/etc")) == "listed:" + ",".join(sorted(shown))
    assert report(hostile("read", "@/etc/ssl/openssl.cnf")) == "error:FileNotFoundError"


def _shown_in(folder: Path, *more: Path, venv: bool = True) -> list[str]:
    """The names under ``folder`` a sandboxed hostile bot is shown (sorted): the first folder
    on the way to its own file, to this interpreter's installation (with ``venv``, the virtual
    environment it runs in, made in the work tree as the README makes it, or in a temporary
    folder as CI makes it) and to ``more``, where they lie there."""
    shown = set()
    prefix = (sys.prefix,) if venv else ()
    for path in (HOSTILE, *prefix, os.path.realpath(sys.executable), *more):
        with contextlib.suppress(ValueError):
            shown.add(Path(path).resolve().relative_to(folder).parts[0])
    return sorted(shown)


def refused(spec: str) -> str:
    """The reason ``make_bot`` gives for refusing ``spec`` (a ``SandboxError``)."""
    with pytest.raises(SandboxError) as caught:
        make_bot(spec)
    assert caught.value.bot == spec
    return caught.value.reason


def test_no_word_of_a_command_opens_the_host(tmp_path: Path) -> None:
    """Every path a sandbox would show is resolved (links, ``//``, ``..``) before it is
    checked: a word naming the root, /proc, /sys, /dev or /run, however written, or a link to
    one named as a data file, refuses the bot in one line before it starts."""
    (tmp_path / "root").symlink_to("/")
    (tmp_path / "proc").symlink_to("/proc")
    climb = "/".join([".."] * (len(Path.cwd().parts) + 2))
    cases = {
        "//": "'//' (resolved: /) to its sandbox: the host's root",
        "/": "'/' to its sandbox: the host's root",
        "//proc": "'//proc' (resolved: /proc) to its sandbox: the host's /proc",
        "/proc/1": "'/proc/1' to its sandbox: the host's /proc",
        "/dev/null": "the host's /dev",
        "/sys": "the host's /sys",
        str(tmp_path / "root"): f"'{tmp_path}/root' (resolved: /) to its sandbox: the host's root",
        str(tmp_path / "proc"): "(resolved: /proc) to its sandbox: the host's /proc",
        climb: f"'{climb}' (resolved: /) to its sandbox: the host's root",
        "/tmp": "it would hide the sandbox's own /tmp",
        str(tmp_path / "socket"): "neither a file nor a folder",
    }
    with socket.socket(socket.AF_UNIX) as listener:
        listener.bind(str(tmp_path / "socket"))  # a line to a host's server
        for word, said in cases.items():
            assert said in refused(f"cmd:{PYTHON} {HOSTILE} list {word}"), word
    assert sandbox.view(["//usr/bin/env"], "/") == sandbox.View("/usr/bin/env", (), (), ())
    listed = report(hostile("list", "@/proc")).split(":")[1].split(",")
    assert [p for p in listed if p.isdigit()] == ["1", "2"]  # the sandbox's init and itself


def test_the_host_s_trees_mounted_elsewhere_are_not_shown(tmp_path: Path) -> None:
    """/proc mounted again under another name (here by bwrap, in a mount namespace of its
    own), or a folder holding that mount, is refused like /proc itself; so is a hard link
    to the referee's database."""
    (tmp_path / "kernel").mkdir()
    check = (
        "import sys; from ttr_europe.errors import SandboxError; "
        "from ttr_europe.players import sandbox\n"
        "for word in sys.argv[1:]:\n"
        "    try: sandbox.view([sys.executable, word], '/')\n"
        "    except SandboxError as exc: print(exc.reason)\n"
    )
    line = [sandbox.BWRAP, "--dev-bind", "/", "/", "--proc", str(tmp_path / "kernel"),
            sys.executable, "-c", check, str(tmp_path / "kernel"), str(tmp_path)]  # fmt: skip
    out = subprocess.run(line, capture_output=True, text=True, env=ENV, timeout=30, check=False)
    said = out.stdout.splitlines()
    assert said == [f"will not show '{tmp_path}/kernel' to its sandbox: the host's proc file "
                    f"system at {tmp_path}/kernel",
                    f"will not show '{tmp_path}' to its sandbox: the host's proc file system "
                    f"at {tmp_path}/kernel"], out.stderr  # fmt: skip
    database = tmp_path / "matches.db"
    database.write_bytes(b"SQLite format 3\0")
    os.link(database, tmp_path / "kernel" / "copy")
    with pytest.raises(SandboxError, match="the referee's own file"):
        sandbox.view(
            [sys.executable, str(tmp_path / "kernel" / "copy")], "/", forbidden=[str(database)]
        )


def test_the_referee_s_files_are_never_shown(tmp_path: Path) -> None:
    """The match database, its WAL and its folder, named plainly, through a link or by
    climbing with ``..``, refuse the bot, from ``make_bot`` as from ``ProcessBot``."""
    (tmp_path / "a" / "b").mkdir(parents=True)
    database = tmp_path / "matches.db"
    database.write_bytes(b"SQLite format 3\0")
    (tmp_path / "matches.db-wal").write_bytes(b"")
    (tmp_path / "a" / "link").symlink_to(database)
    forbidden = [str(database), f"{database}-wal"]
    for word, why in [
        (str(database), f"the referee's own file {database}"),
        (f"{database}-wal", f"the referee's own file {database}-wal"),
        (str(tmp_path / "a" / "link"), f"(resolved: {database}) to its sandbox: the referee's"),
        ("../..", f"(resolved: {tmp_path}) to its sandbox: a folder holding the referee's file"),
        (str(tmp_path), "a folder holding the referee's file"),
    ]:
        with pytest.raises(SandboxError, match=re.escape(why)):
            sandbox.view([sys.executable, str(HOSTILE), word], str(tmp_path / "a" / "b"),
                         forbidden=forbidden)  # fmt: skip
    shutil.copy(HOSTILE, tmp_path / "bot.py")
    with pytest.raises(SandboxError, match="a folder holding"):  # and from ProcessBot
        ProcessBot([sys.executable, str(tmp_path / "bot.py"), str(tmp_path)],
                   forbidden=forbidden).start()  # fmt: skip
    assert sandbox.visible([sys.executable, str(tmp_path / "a" / "b")], "/", forbidden) == [
        *sandbox.visible([sys.executable], "/"),
        str(tmp_path / "a" / "b"),  # a folder beside the database is shown
    ]


def test_a_path_is_shown_where_it_resolves_and_the_bot_works_in_its_own_tmp(
    tmp_path: Path,
) -> None:
    """A word naming a file through a link is given to the program as the file's resolved
    path, the one shown; a program reached through a link runs through the same link made
    inside; the program works in its private /tmp, not in the referee's folder."""
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "book.txt").write_text("opening book")
    for folder in (tmp_path, tmp_path / "real"):
        folder.chmod(0o755)
    (tmp_path / "book").symlink_to(tmp_path / "real" / "book.txt")
    (tmp_path / "python").symlink_to(os.path.realpath(sys.executable))
    seen = sandbox.view([sys.executable, "book"], str(tmp_path))
    assert seen.words == (str(tmp_path / "real" / "book.txt"),)
    assert seen.shown[-1] == str(tmp_path / "real" / "book.txt")
    bot = ProcessBot([str(tmp_path / "python"), str(HOSTILE), "cwd", "-"])
    bot.start()
    try:  # its own /tmp, holding only the way to what it is shown that lies in the host's
        # started through a link to the interpreter itself: no virtual environment is shown
        assert bot.version == "/tmp:" + ",".join(_shown_in(Path("/tmp"), tmp_path, venv=False))
    finally:
        bot.close()
    assert sandbox.view([str(tmp_path / "python")], "/").links == (
        (os.path.realpath(sys.executable), str(tmp_path / "python")),
    )


def test_a_program_installed_for_the_user_is_shown_without_the_user_s_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``pip install --user`` puts a program in ``~/.local/bin`` and its packages in
    ``~/.local/lib``: the sandbox shows those two, not all of ``~/.local``, whose ``share/``
    and ``state/`` hold the user's data (shell histories, keyrings, what programs remember)."""
    home = tmp_path / "home"
    local = home / ".local"
    for folder in ("bin", "lib/python3/site-packages", "share", "state"):
        (local / folder).mkdir(parents=True)
    (local / "share" / "history").write_text("my secret command\n")
    program = local / "bin" / "hostile"
    program.write_text("#!/usr/bin/python3\n" + HOSTILE.read_text())
    for path in [tmp_path, *tmp_path.rglob("*")]:
        path.chmod(0o755 if path.is_dir() or path == program else 0o644)
    monkeypatch.setattr(sandbox, "_HOME", str(home))
    assert set(sandbox.view([str(program)], "/").shown) == {str(local / "bin"), str(local / "lib")}
    for what, said in (("read @" + str(local / "share" / "history"), "error:FileNotFoundError"),
                       ("list @" + str(local), "listed:bin,lib"),
                       ("list @" + str(local / "lib"), "listed:python3")):  # fmt: skip
        bot = ProcessBot([str(program), *what.split()])
        bot.start()
        try:
            assert bot.version == said, what
        finally:
            bot.close()


def test_serve_and_simulate_refuse_a_bot_that_names_their_files(tmp_path: Path) -> None:
    """``simulate`` forbids its results file and ``serve`` its database (and WAL, SHM,
    journal): a cmd: seat naming one, a link to one or their folder is refused in one line."""
    results = tmp_path / "runs" / "out.jsonl"
    results.parent.mkdir()
    results.write_text("")
    for word in (str(results), str(results.parent)):
        out = simulate(f"cmd:{PYTHON} {HOSTILE} read {word},greedy", "--out", str(results))
        assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1, out.stderr
        assert f"the referee's own file {results}" in out.stderr or (
            f"a folder holding the referee's file {results}" in out.stderr
        ), out.stderr
    pytest.importorskip("uvicorn", reason="serve needs the web extra")
    database = tmp_path / "m.db"
    database.write_bytes(b"")
    (tmp_path / "m.db-wal").write_bytes(b"")
    (tmp_path / "link").symlink_to(database)
    for word in ("m.db", "m.db-wal", "link", "."):
        seats = f"person,cmd:{PYTHON} {HOSTILE} read {word}"
        out = subprocess.run([sys.executable, "-m", "ttr_europe", "serve", "--db", "m.db",
                              "--seats", seats, "--port", "0"], cwd=tmp_path, env=ENV,
                             capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
        assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1, out.stderr
        assert "will not show" in out.stderr and "the referee's" in out.stderr, out.stderr


def test_a_bot_inherits_nothing_of_the_referee_s_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TTR_SECRET_TOKEN", "42")
    assert "TTR_SECRET_TOKEN" in report(hostile("env", "-", "sandbox=off"))
    names = sorted({*sandbox.ENVIRONMENT, "PWD"})  # PWD: the working folder, set by bwrap
    assert report(hostile("env", "-")) == "env:" + ",".join(names)


def test_a_bot_reads_no_key_of_the_referee_s_session_keyring() -> None:
    """A program inherits its referee's session keyring, where a login keeps its keys (Kerberos
    tickets, file-system keys): the seccomp filter refuses ``keyctl``, ``add_key`` and
    ``request_key``. A trusted program reads the key (the attack is real)."""
    referee = (
        "import ctypes, sys\n"
        "from ttr_europe.players.protocol import ProcessBot\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "libc.syscall.restype = ctypes.c_long\n"
        "libc.syscall(250, 1, None)  # KEYCTL_JOIN_SESSION_KEYRING: a new one, its own\n"
        "if libc.syscall(248, b'user', b'referee', b'hunter2', 7, ctypes.c_long(-3)) < 0:\n"
        "    sys.exit('no keyring here')\n"
        "for trusted in (True, False):\n"
        "    bot = ProcessBot(sys.argv[1:], sandbox=not trusted)\n"
        "    bot.start()\n"
        "    print(bot.version)\n"
        "    bot.close()\n"
    )
    out = subprocess.run([sys.executable, "-c", referee, sys.executable, str(HOSTILE), "keys",
                          "-"], capture_output=True, text=True, timeout=60, check=False,
                         env=ENV)  # fmt: skip
    if "no keyring here" in out.stderr:
        pytest.skip("this system keeps no session keyring (keyctl refused)")
    assert out.returncode == 0, out.stderr
    trusted, sandboxed = out.stdout.splitlines()[-2:]
    assert trusted == "keys:hunter2"
    assert sandboxed == "keys:refused:EPERM"


def test_a_bot_cannot_kill_its_opponent(token: str) -> None:
    game = new_game("europe", players=2, seed=1)
    sibling = f"cmd:{PYTHON} {EXAMPLE} {token}"
    with pytest.raises(BotError, match="killed by signal 9") as caught:
        play(game, [make_bot(hostile("kill", token, "sandbox=off")), make_bot(sibling)])
    assert caught.value.seat == 1
    history = play(game, [make_bot(hostile("kill", token)), make_bot(sibling)])
    assert history[-1].phase is Phase.GAME_OVER


def simulate(bots: str, *extra: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    line = [sys.executable, "-m", "ttr_europe", "simulate", "--bots", bots, "--json", *extra]
    return subprocess.run(
        line, capture_output=True, text=True, env=ENV, timeout=timeout, check=False
    )


def test_a_bot_cannot_stop_its_referee() -> None:
    out = simulate(f"{hostile('stop', '-')},greedy", "--games", "1", "--backend", "serial")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["forfeits"] == []


def test_a_trusted_bot_that_stops_its_worker_forfeits_at_its_clock_s_deadline() -> None:
    stop = hostile("stop", "-", "move=1,game=5,sandbox=off")
    out = simulate(f"{stop},greedy", "--games", "1", "--workers", "1", "--backend", "process")
    assert out.returncode == 1, out.stderr
    assert "1 of 1 games forfeited" in out.stderr and "worker died" not in out.stderr
    assert "timed out: its turn passed the deadline of its clocks" in out.stderr
    (forfeit,) = json.loads(out.stdout)["forfeits"]
    assert forfeit["seat"] == 0 and forfeit["bot"] == stop


def test_a_bot_cannot_erase_its_loss_by_killing_its_worker() -> None:
    kill = hostile("killparent", "-")
    out = simulate(f"{kill},greedy", "--games", "2", "--workers", "1", "--backend", "process")
    assert out.returncode == 0, out.stderr  # in the sandbox its referee is out of reach
    assert json.loads(out.stdout)["forfeits"] == [] and "worker died" not in out.stderr
    trusted = hostile("killparent", "-", "sandbox=off")  # reaches its worker: it forfeits
    out = simulate(f"{trusted},greedy", "--games", "2", "--workers", "1", "--backend", "process")
    assert out.returncode == 1 and "worker died" not in out.stderr, out.stderr
    assert "2 of 2 games forfeited" in out.stderr
    forfeits = json.loads(out.stdout)["forfeits"]
    assert {f["bot"] for f in forfeits} == {trusted}
    assert {f["error"] for f in forfeits} == {"its referee's process died while it was to move"}


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGINT], ids=["killed", "interrupted"])
@pytest.mark.parametrize("settings", ["move=30", "move=30,sandbox=off"])
@pytest.mark.parametrize("backend", ["process", "serial"])
def test_no_bot_outlives_a_killed_simulate(
    token: str, backend: str, settings: str, how: int, tmp_path: Path
) -> None:
    env = {**ENV, "TMPDIR": str(tmp_path)}  # a killed driver cannot remove its own folders
    _stop_simulate_while_a_bot_thinks(token, backend, settings, how, env)
    assert gone(token), holding(token)


@pytest.mark.slow
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGINT], ids=["killed", "interrupted"])
def test_no_bot_outlives_a_killed_simulate_on_ray(token: str, how: int) -> None:
    """The driver starts a local Ray instance of its own (in a temporary folder named for
    this test); killed or interrupted while a sandboxed bot thinks in a Ray worker, it leaves
    no bot behind. A killed driver's Ray may leave its own agents, which the test ends."""
    pytest.importorskip("ray")
    folder = Path(tempfile.mkdtemp(prefix="r", dir="/tmp"))  # short: Ray's socket paths
    env = {**ENV, "RAY_TMPDIR": str(folder)}
    try:
        _stop_simulate_while_a_bot_thinks(token, "ray", "move=30", how, env, start=120)
        assert gone(token), holding(token)
    finally:
        for pid in _using(folder):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        shutil.rmtree(folder, ignore_errors=True)


def _stop_simulate_while_a_bot_thinks(
    token: str, backend: str, settings: str, how: int, env: dict[str, str], start: float = 60
) -> None:
    """Run ``simulate`` with a bot that hangs, and stop it (``how``) once the bot thinks."""
    bots = f"{hostile('hang', token, settings)},greedy"
    line = [sys.executable, "-m", "ttr_europe", "simulate", "--bots", bots, "--games", "2",
            "--workers", "1", "--backend", backend]  # fmt: skip
    driver = spawn(line, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        end = time.monotonic() + start
        while not [p for p in holding(token) if p != driver.pid]:
            assert time.monotonic() < end, "the bot never started"
            time.sleep(0.1)
        time.sleep(0.5)  # it is thinking
    finally:
        driver.send_signal(how)
        try:
            driver.wait(30)
        finally:
            driver.kill()


def _using(folder: Path) -> list[int]:
    """The live processes with a file open under ``folder`` (Ray's processes retitle
    themselves, which wipes their command line and environment, but keep their logs open)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            with contextlib.suppress(OSError):
                if any(os.readlink(fd).startswith(f"{folder}/") for fd in (entry / "fd").iterdir()):
                    found.append(int(entry.name))
    return found


def test_a_grandchild_in_a_session_of_its_own_ends_with_its_sandbox(token: str) -> None:
    game = new_game("europe", players=2, seed=1)
    with pytest.raises(BotError, match="timed out"):
        play(game, [make_bot(hostile("escape", token, "move=0.5")), GreedyBot()])
    assert gone(token, 5)
    with pytest.raises(BotError, match="timed out"):  # a trusted program's grandchild escapes
        play(game, [make_bot(hostile("escape", token, "move=0.5,sandbox=off")), GreedyBot()])
    time.sleep(0.5)
    assert holding(token)


def test_a_bot_cannot_start_processes_without_end() -> None:
    assert report(hostile("fork", "300", "sandbox=off")) == "forked:300"
    assert report(hostile("fork", "300")) == "forked:0"  # one process: the seccomp filter


def test_a_bot_cannot_hold_memory_outside_its_address_space() -> None:
    """1 GB in a memfd (no mapping, so no address space), in /dev/shm, in SysV shared
    memory or in SysV message queues (a namespace of its own allows 32000 of 16 kB), and a
    SysV semaphore set, under the default memory cap: each refused at once, nothing held on
    the host (a trusted program holds 16 MB of each, so the attempt is real); nothing is
    writable but the size-capped /tmp (the sandbox's own root and /dev are read-only)."""
    trusted = json.loads(report(hostile("shared", "16", "sandbox=off")))
    assert trusted["memfd"] == "held:16" and trusted["sysv"] == "made", trusted
    assert trusted["messages"] == "held:16" and trusted["semaphores"] == "made", trusted
    found = json.loads(report(hostile("shared", "1024")))
    assert found["memfd"] == "refused:PermissionError", found
    assert found["sysv"] == "refused:Operation not permitted", found
    assert found["messages"] == "refused:Operation not permitted", found
    assert found["semaphores"] == "refused:Operation not permitted", found
    assert found["posix"].startswith("refused:") and found["writable"] == ["/tmp"], found


def test_the_kernel_s_buffers_of_a_bot_s_open_files_are_bounded() -> None:
    """Pipes and sockets hold data in the kernel, outside any address space: a bot that fills
    all it may open (its 256 open files, pipes widened to 1 MB) holds under the documented
    128 MB there, whatever its memory cap."""
    held = report(hostile("buffers", "-", "memory=256"))
    assert held.startswith("buffers:") and 8 < int(held.removeprefix("buffers:")) < 128, held


def test_memory_is_capped_for_all_of_a_bot_s_processes_together() -> None:
    """Three processes, each holding all it can of 400 MB, under ``memory=256``: trusted,
    each holds nearly 256 MB (the cap is per process); sandboxed, no child starts and the one
    process holds less than 256 MB."""
    trusted = report(hostile("hog", "400x3", "memory=256,sandbox=off"))
    assert trusted.startswith("processes:3,") and int(trusted.split(":")[-1]) > 512, trusted
    found = report(hostile("hog", "400x3", "memory=256"))
    assert found.startswith("processes:1,") and 128 <= int(found.split(":")[-1]) < 256, found


BURN = """
import os, threading, time
def burn():  # says its process's processor time (all its threads') every 50 ms of it
    mark = 0.0
    while True:
        if time.process_time() - mark > 0.05:
            mark = time.process_time()
            os.write(1, f"{os.getpid()} {mark}\\n".encode())
children = []
for _ in range(2):  # two children (or, where none may start, two threads), then itself
    try:
        pid = os.fork()
    except OSError:
        threading.Thread(target=burn, daemon=True).start()
        continue
    if pid == 0:
        burn()
    children.append(pid)
burn()
"""


@pytest.mark.parametrize("sandboxed", [False, True], ids=["trusted", "sandboxed"])
def test_processor_time_is_capped_for_all_of_a_bot_s_processes_together(sandboxed: bool) -> None:
    """A program that burns processor time in two children and itself, under a 1 s cap:
    trusted, each process has its own second (3 s in all); sandboxed, no child starts and
    its threads share the one second."""
    limits = sandbox.Limits(cpu_seconds=1)
    command = [sys.executable, "-c", BURN]
    with sandbox.sandboxed(command, "/", limits) as launch:
        line = launch.args if sandboxed else command
        out = subprocess.run(line, pass_fds=launch.fds, timeout=60, check=False,
                             capture_output=True,
                             preexec_fn=lambda: sandbox.child_setup(None, limits))  # fmt: skip
    used: dict[str, float] = {}
    for said in out.stdout.decode().splitlines():
        pid, seconds = said.split()
        used[pid] = max(used.get(pid, 0.0), float(seconds))
    if sandboxed:
        assert out.returncode == 128 + signal.SIGXCPU  # bwrap says how its program ended
        # the kernel checks the cap at its clock's ticks: the last report may pass it by one
        assert len(used) == 1 and 0.8 < sum(used.values()) <= 1.1, used
    else:
        assert len(used) == 3 and sum(used.values()) > 2.5, used


def test_the_sandbox_s_limits_are_the_documented_ones() -> None:
    found = json.loads(report(hostile("limits", "-", "move=1,game=30,memory=512")))
    limits = sandbox.Limits()
    assert found["NPROC"] == limits.processes == 64
    assert found["CPU"] == 30 + 10 + 60  # the game, the handshake and a minute
    assert found["FSIZE"] == limits.file_mb << 20 and found["NOFILE"] == limits.open_files
    assert found["AS"] == 512 << 20
    assert found["uid"] != 0 and found["write"] == "OSError"  # 100 MB do not fit


def test_where_no_sandbox_can_be_made_a_bot_is_refused_unless_trusted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sandbox, "BWRAP", "/nonexistent/bwrap")
    sandbox.unavailable.cache_clear()
    try:
        with pytest.raises(BotError, match=r"cannot run in a sandbox: /nonexistent/bwrap is "
                           r"missing \(install bubblewrap\); cmd\[sandbox=off\]"):  # fmt: skip
            make_bot(f"cmd:{PYTHON} {EXAMPLE}")
        with pytest.raises(BotError, match="cannot run in a sandbox"):  # and from Python
            play(new_game("europe", players=2, seed=1),
                 [ProcessBot([sys.executable, str(EXAMPLE)]), GreedyBot()])  # fmt: skip
        trusted = make_bot(f"cmd[sandbox=off]:{PYTHON} {EXAMPLE}")
        assert play(new_game("europe", players=2, seed=1), [trusted, GreedyBot()])
    finally:
        sandbox.unavailable.cache_clear()
    out = subprocess.run(
        [sys.executable, "-m", "ttr_europe", "tournament", "--bots", f"cmd:{PYTHON} {EXAMPLE}"],
        capture_output=True, text=True, check=False, timeout=60,
        env={**ENV, "TTR_EUROPE_BWRAP": "/nonexistent/bwrap"},
    )  # fmt: skip
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert "cannot run in a sandbox: /nonexistent/bwrap is missing" in out.stderr


def test_bot_lists_split_at_commas_outside_brackets() -> None:
    text = "cmd[move=1,game=3,memory=512,sandbox=off]:./bot --x 1, greedy,,cmd:./b"
    assert split_specs(text) == [
        "cmd[move=1,game=3,memory=512,sandbox=off]:./bot --x 1",
        "greedy",
        "cmd:./b",
    ]
    bot = parse_command_spec(split_specs(text)[0])
    assert bot.time.move == 1 and bot.time.game == 3 and bot.memory_mb == 512
    assert bot.sandbox is False and parse_command_spec("cmd:./b").sandbox is True
    with pytest.raises(BotError, match="sandbox must be on or off"):
        parse_command_spec("cmd[sandbox=maybe]:./b")


def test_every_command_line_takes_bracketed_settings() -> None:
    spec = f"cmd[move=1,game=30,memory=512,sandbox=off]:{PYTHON} {EXAMPLE}"
    for command in (["tournament", "--bots", f"{spec},greedy", "--games", "2", "--workers", "1"],
                    ["play", "--bots", f"{spec},greedy", "--quiet", "--seed", "2"]):  # fmt: skip
        out = subprocess.run([sys.executable, "-m", "ttr_europe", *command], capture_output=True,
                             text=True, env=ENV, timeout=300, check=False)  # fmt: skip
        assert out.returncode == 0, out.stderr
        assert "forfeit" not in out.stderr
    from ttr_europe.cli import build_parser

    args = build_parser().parse_args(["serve", "--seats", f"person,{spec}"])
    from ttr_europe.table.match import Match

    match = Match.new("europe", "base", 2, 1, split_specs(args.seats))
    assert match.seats[1].name == spec


@pytest.mark.slow
def test_every_example_in_the_docs_runs() -> None:
    """The command lines of docs/protocol.md and docs/bots.md, with ``python`` this one."""
    lines = []
    for page in ("protocol.md", "bots.md"):
        text = (ROOT / "docs" / page).read_text()
        lines += [ln for ln in text.splitlines() if ln.startswith("ttr-europe ") and "cmd" in ln]
    assert len(lines) >= 5
    for line in lines:
        words = [sys.executable if w == "python" else w for w in shlex.split(line)]
        words = [w.replace(":python ", f":{PYTHON} ") for w in words]
        if words[1] == "serve":
            from ttr_europe.cli import build_parser
            from ttr_europe.table.match import Match

            args = build_parser().parse_args(words[1:])
            seats = split_specs(args.seats)
            assert [s.name for s in Match.new("europe", "base", len(seats), 1, seats).seats]
            continue
        out = subprocess.run([sys.executable, "-m", "ttr_europe", *words[1:]], cwd=ROOT,
                             capture_output=True, text=True, env=ENV, timeout=300,
                             check=False)  # fmt: skip
        assert out.returncode == 0, (line, out.stderr)


def test_the_bot_written_in_the_docs_plays_in_a_sandbox(tmp_path: Path) -> None:
    text = (ROOT / "docs" / "protocol.md").read_text()
    block = text.split("## Writing a bot", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    program = tmp_path / "first.py"
    program.write_text(block)
    bot = make_bot(f"cmd:{PYTHON} {program}")
    state, greedy, rng = new_game("europe", players=2, seed=3), GreedyBot(), random.Random(0)
    try:
        for _ in range(12):
            mover = bot if state.current == 0 else greedy
            state = apply(state, decide(mover, state, rng))
    finally:
        close_bots([bot])
    assert bot_name(bot) == "first"


@pytest.mark.skipif(
    shutil.which("node") is None,
    reason="node (Node.js) is not installed: the JavaScript example is not run",
)
def test_the_javascript_example_plays_a_whole_game_against_greedy_in_a_sandbox() -> None:
    """The line protocol in another language than the referee's, in the sandbox as a
    newcomer runs it: Node.js needs more of the system than Python does."""
    program = ROOT / "examples" / "line_bot.js"
    bot = make_bot(f"cmd:node {program}")
    try:
        final = play(new_game("europe", players=2, seed=3), [bot, GreedyBot()])[-1]
    finally:
        close_bots([bot])
    assert final.phase is Phase.GAME_OVER and bot_name(bot) == "line-bot-js"
    assert 0 in final.owners  # it claimed routes, read from the notation of the legal moves


def test_a_path_given_from_python_is_shown_read_only(tmp_path: Path) -> None:
    (tmp_path / "book.txt").write_text("opening book")
    tmp_path.chmod(0o755)  # the program is a user of its own: it reads what anyone may read
    command = [sys.executable, str(HOSTILE), "list", f"@{tmp_path}"]
    bot = ProcessBot(command, readable=[str(tmp_path)])
    bot.start()
    try:
        assert bot.version == "listed:book.txt"
    finally:
        bot.close()
    bot = ProcessBot(command)  # not shown without
    bot.start()
    try:
        assert bot.version is not None and bot.version.startswith("error:")
    finally:
        bot.close()


def test_a_serve_seat_runs_its_program_in_the_sandbox() -> None:
    pytest.importorskip("starlette")
    from ttr_europe.table.match import Match
    from ttr_europe.web.hub import Client, Hub

    spec = f"cmd:{PYTHON} {EXAMPLE}"
    hub = Hub(lambda: Match.new("usa", "base", 2, 3, ["person", spec], first_player=0))
    tab = Client()
    hub.receive(tab, json.dumps({"type": "join", "seat": 0}))
    hub.receive(tab, json.dumps({"type": "act", "action": "keep all"}))
    match = hub.latest.match
    bot = match.seats[1].bot
    assert isinstance(bot, ProcessBot) and bot.sandbox and match.seats[1].name == spec
    assert len(match.actions) >= 2  # the program chose its tickets
    close_bots([bot])


LIST = "import os, sys; print(','.join(sorted(os.listdir(sys.argv[1]))))"


@pytest.mark.parametrize("swapped", ["folder", "folder above"])
@pytest.mark.parametrize("when", ["checked", "opened"])
def test_a_folder_swapped_for_a_link_before_the_sandbox_starts_is_never_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, swapped: str, when: str
) -> None:
    """Whoever writes the folder that holds a bot's files swaps it (or a folder above it)
    for a link, to the root or elsewhere, once the sandbox has checked it (``view``
    returned) or once it has opened it (its descriptors made, bubblewrap not yet started):
    either the swap is caught and the bot refused, or the sandbox shows the very folder it
    checked (bubblewrap binds the descriptor); never the link's target."""
    bot = tmp_path / "a" / "mybot"
    bot.mkdir(parents=True)
    (bot / "main.py").write_text("print('bot')\n")
    (tmp_path / "decoy" / "mybot").mkdir(parents=True)
    (tmp_path / "decoy" / "mybot" / "secret").write_text("not the bot's\n")
    moved, target = (bot, "/") if swapped == "folder" else (bot.parent, tmp_path / "decoy")

    def swap() -> None:
        moved.rename(moved.with_name(moved.name + ".away"))
        moved.symlink_to(target)

    if when == "checked":
        checked = sandbox.view

        def racing(*args: Any, **kw: Any) -> sandbox.View:
            seen = checked(*args, **kw)
            swap()
            return seen

        monkeypatch.setattr(sandbox, "view", racing)
    command = [sys.executable, "-c", LIST, str(bot)]
    if when == "checked":
        why = "a link took its place" if swapped == "folder" else "it moved while it was checked"
        limits = sandbox.Limits()
        with pytest.raises(SandboxError, match=why), sandbox.sandboxed(command, "/", limits):
            pass
        return
    with sandbox.sandboxed(command, "/", sandbox.Limits()) as launch:
        swap()
        out = subprocess.run(launch.args, pass_fds=launch.fds, timeout=60, check=False,
                             capture_output=True, text=True)  # fmt: skip
    assert (out.returncode, out.stdout) == (0, "main.py\n"), out.stderr


def test_a_bot_cannot_make_namespaces_or_mounts_of_its_own() -> None:
    """A user and a mount namespace of its own would let a program mount a tmpfs without a
    cap and hold memory in its files beyond ``memory`` and ``/tmp``: trusted, it holds 16 MB
    so (the attack is real); sandboxed under ``memory=256``, asking 400 MB, ``unshare``,
    ``setns`` and ``fsopen`` are refused (EPERM) and nothing is held, whoever runs the
    referee (``--disable-userns`` where it makes a user namespace, the seccomp filter
    always)."""
    trusted = json.loads(report(hostile("ownfs", "16", "sandbox=off")))
    assert trusted == {"held": 16, "setns": "done", "fsopen": "done", "unshare": "done",
                       "mount": "done"}  # fmt: skip
    found = json.loads(report(hostile("ownfs", "400", "memory=256")))
    assert found == {"held": 0, "setns": "refused:EPERM", "fsopen": "refused:EPERM",
                     "unshare": "refused:EPERM"}  # fmt: skip


def _filtered(program: bytes, arch: int, number: int, flags: int = 0, second: int = 0) -> int:
    """What the classic BPF ``program`` returns for the call ``number`` of ``arch`` whose
    first arguments are ``flags`` and ``second`` (``struct seccomp_data``: nr, arch, ip,
    args)."""
    data = struct.pack("=iIQ6Q", number, arch, 0, flags, second, 0, 0, 0, 0)
    ops = [struct.unpack("=HBBI", program[i : i + 8]) for i in range(0, len(program), 8)]
    pc = 0
    while True:
        code, jt, jf, k = ops[pc]
        if code == 0x20:  # BPF_LD | BPF_W | BPF_ABS
            acc = struct.unpack_from("=I", data, k)[0]
        elif code == 0x06:  # BPF_RET | BPF_K
            return k
        else:
            taken = {0x15: acc == k, 0x35: acc >= k, 0x45: bool(acc & k)}[code]
            pc += jt if taken else jf
        pc += 1


@pytest.mark.parametrize("machine", ["x86_64", "aarch64"])
def test_the_seccomp_filter_refuses_namespaces_mounts_and_new_processes(machine: str) -> None:
    """Read as the kernel reads it: every call that makes a namespace or a mount, or reaches
    another process's memory (``ptrace``, ``process_vm_*``) or the keyrings, or makes a socket
    that is not an internet one or a connected stream pair, is refused
    (EPERM), ``clone`` runs a thread but not a thread in a new namespace nor a process, and
    an ordinary call (``getpid``) is allowed."""
    arch, clone, numbers = {"x86_64": (0xC000003E, 56, {"unshare": 272, "setns": 308,
                                                        "mount": 165, "umount2": 166,
                                                        "pivot_root": 155, "ptrace": 101,
                                                        "process_vm_readv": 310,
                                                        "process_vm_writev": 311,
                                                        "add_key": 248, "request_key": 249,
                                                        "keyctl": 250, "getpid": 39}),
                            "aarch64": (0xC00000B7, 220, {"unshare": 97, "setns": 268,
                                                          "mount": 40, "umount2": 39,
                                                          "pivot_root": 41, "ptrace": 117,
                                                          "process_vm_readv": 270,
                                                          "process_vm_writev": 271,
                                                          "add_key": 217, "request_key": 218,
                                                          "keyctl": 219,
                                                          "getpid": 172})}[machine]  # fmt: skip
    new_api = {"open_tree": 428, "move_mount": 429, "fsopen": 430, "fsconfig": 431,
               "fsmount": 432, "fspick": 433, "mount_setattr": 442}  # fmt: skip
    program = sandbox.seccomp_program(machine)
    eperm, allow = 0x00050000 | 1, 0x7FFF0000
    for name, number in {**numbers, **new_api}.items():
        assert _filtered(program, arch, number) == (allow if name == "getpid" else eperm), name
    thread = 0x10000 | 0x800 | 0x100  # CLONE_THREAD | CLONE_SIGHAND | CLONE_VM
    assert _filtered(program, arch, clone, thread) == allow
    for flag in (0x20000, 0x2000000, 0x4000000, 0x8000000, 0x10000000, 0x20000000, 0x40000000):
        assert _filtered(program, arch, clone, thread | flag) == eperm, hex(flag)
    assert _filtered(program, arch, clone, 17) == eperm  # SIGCHLD alone: a new process
    assert _filtered(program, arch, 435) == 0x00050000 | 38  # clone3: ENOSYS
    sock, pair = {"x86_64": (41, 53), "aarch64": (198, 199)}[machine]
    for family, said in ((2, allow), (10, allow), (1, eperm), (40, eperm), (16, eperm)):
        assert _filtered(program, arch, sock, family) == said, family  # inet, inet6 alone
    for kind, said in ((1, allow), (0x80001, allow), (5, allow), (2, eperm), (3, eperm)):
        assert _filtered(program, arch, pair, 1, kind) == said, kind  # stream pairs alone
    for number in (425, 426, 427):  # io_uring makes sockets past the filter
        assert _filtered(program, arch, number) == eperm, number


@pytest.mark.skipif(os.geteuid() != 0, reason="runs a referee as another user: needs root")
def test_under_an_ordinary_user_a_bot_reads_what_that_user_may_of_what_it_is_shown() -> None:
    """A referee run by an ordinary user (uid 1000 here) starts its program as that uid
    (``nobody`` inside a user namespace of its own): it reads a file of mode 0600 of that user
    that is named on its command line, and nothing of the same folder that is not named."""
    with tempfile.TemporaryDirectory(dir="/var/tmp") as top:  # a folder uid 1000 may cross
        os.chmod(top, 0o755)
        _read_as_an_ordinary_user(Path(top) / "private", _readable_copy(Path(top) / "lib"))


def _readable_copy(lib: Path) -> Path:
    """The package and what it imports, copied where uid 1000 may read them: the test's own
    interpreter and checkout may lie in folders only their owner may enter (CI's are)."""
    import importlib.util

    for name in ("ttr_europe", "attr", "attrs", "networkx"):
        spec = importlib.util.find_spec(name)
        assert spec is not None and spec.submodule_search_locations, name
        shutil.copytree(next(iter(spec.submodule_search_locations)), lib / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.so"))  # fmt: skip
    for path in [lib, *lib.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return lib


def _read_as_an_ordinary_user(private: Path, lib: Path) -> None:
    private.mkdir(mode=0o700)
    (private / "named.txt").write_text("named\n")
    (private / "other.txt").write_text("other\n")
    for path in (private, private / "named.txt", private / "other.txt"):
        path.chmod(0o600 if path.is_file() else 0o700)
        os.chown(path, 1000, 1000)
    program = ("import os, sys; print(open(sys.argv[1]).read().strip(), "
               "os.path.exists(sys.argv[1].replace('named', 'other')))")  # fmt: skip
    referee = (
        "import subprocess, sys\n"
        "from ttr_europe.players import sandbox\n"
        "with sandbox.sandboxed(sys.argv[1:], '/', sandbox.Limits()) as launch:\n"
        "    out = subprocess.run(launch.args, pass_fds=launch.fds, capture_output=True,\n"
        "                         text=True, timeout=60)\n"
        "print(out.stdout.strip(), out.returncode)\n"
    )
    python = os.path.realpath(sys.executable)  # the interpreter itself, not a venv's link
    out = subprocess.run([shutil.which("setpriv") or "/usr/bin/setpriv", "--reuid=1000",
                          "--regid=1000", "--clear-groups", python, "-S", "-c", referee,
                          "/usr/bin/python3", "-c", program, str(private / "named.txt")],
                         capture_output=True, text=True, timeout=90, check=False, cwd="/",
                         env={**ENV, "PYTHONPATH": str(lib), "TTR_EUROPE_PURE": "1"})  # fmt: skip
    assert out.stdout.strip() == "named False 0", out.stdout + out.stderr


@pytest.mark.skipif(os.geteuid() != 0, reason="runs a referee as another user: needs root")
def test_under_an_ordinary_user_a_bot_reads_no_environment_of_the_referee_s() -> None:
    """The sandbox's first process (bubblewrap's, the bot's parent) runs as the bot's own user
    where the referee is an ordinary user, so the bot reads its ``/proc/1/environ``: the
    environment it was started with, which must hold nothing of the referee's. A trusted bot
    reads the referee's own (the attack is real)."""
    trusted, sandboxed = _as_an_ordinary_user("procenv", {"TTR_SECRET_TOKEN": "42"})
    assert "TTR_SECRET_TOKEN" in trusted.removeprefix("procenv:").split(","), trusted
    assert "TTR_SECRET_TOKEN" not in sandboxed, sandboxed
    names = set(filter(None, sandboxed.removeprefix("procenv:").split(",")))
    assert names <= {*sandbox.ENVIRONMENT, "PWD"}, sandboxed


@pytest.mark.skipif(os.geteuid() != 0, reason="runs a referee as another user: needs root")
def test_under_an_ordinary_user_a_bot_can_neither_write_nor_trace_its_parent() -> None:
    """Its parent, the sandbox's first process, runs as the bot's own user where the referee
    is an ordinary user, with the referee's limits and not the bot's: a bot that wrote its
    memory (``/proc/1/mem``) or traced it would make it hold memory and threads beyond the
    bot's. A trusted bot writes and traces its parent, the referee (the attack is real)."""
    trusted, sandboxed = _as_an_ordinary_user("parent", {})
    assert trusted == "parent:mem,ptrace"
    assert sandboxed == "parent:"


def _as_an_ordinary_user(mode: str, env: dict[str, str]) -> tuple[str, str]:
    """What the hostile bot in ``mode`` reports under a referee run as uid 1000 with ``env``
    added, trusted and sandboxed."""
    with tempfile.TemporaryDirectory(dir="/var/tmp") as top:  # a folder uid 1000 may cross
        os.chmod(top, 0o755)
        lib = _readable_copy(Path(top) / "lib")
        program = Path(top) / "hostile_bot.py"
        shutil.copy(HOSTILE, program)
        program.chmod(0o644)
        referee = (
            "import sys\n"
            "from ttr_europe.players.protocol import ProcessBot\n"
            "for trusted in (True, False):\n"
            "    bot = ProcessBot(sys.argv[1:], sandbox=not trusted)\n"
            "    bot.start()\n"
            "    print(bot.version)\n"
            "    bot.close()\n"
        )
        python = os.path.realpath(sys.executable)
        out = subprocess.run([shutil.which("setpriv") or "/usr/bin/setpriv", "--reuid=1000",
                              "--regid=1000", "--clear-groups", python, "-S", "-c", referee,
                              "/usr/bin/python3", str(program), mode, "-"],
                             capture_output=True, text=True, timeout=90, check=False, cwd="/",
                             env={**ENV, "PYTHONPATH": str(lib), "TTR_EUROPE_PURE": "1",
                                  **env})  # fmt: skip
    assert out.returncode == 0 and len(out.stdout.splitlines()) >= 2, out.stdout + out.stderr
    trusted, sandboxed = out.stdout.splitlines()[-2:]
    return trusted, sandboxed
