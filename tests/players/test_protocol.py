"""Bots in another process: the line protocol, its failures, and no process left behind.

Real programs in real subprocesses: the example bot of examples/ and tests/players/faulty_bot.py,
which goes wrong on purpose in each way a stranger's program can.
"""

from __future__ import annotations

import json
import os
import pickle
import random
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ttr_europe.codec import ActionCodec
from ttr_europe.errors import BotError, MalformedActionError
from ttr_europe.players import GreedyBot, close_bots, decide, make_bot, play
from ttr_europe.players.protocol import PROTOCOL, ProcessBot, TimeControl, parse_command_spec
from ttr_europe.rules import legal_actions, new_game
from ttr_europe.sim import tournament
from ttr_europe.state import Phase
from ttr_europe.views import observe, view_to_json

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "line_bot.py"
FAULTY = ROOT / "tests" / "players" / "faulty_bot.py"
PYTHON = shlex.quote(sys.executable)


def faulty(mode: str, n: int, pids: Path, settings: str = "move=1", sandbox: bool = False) -> str:
    """The spec of a bot that goes wrong (``mode``) at its ``n``-th move, run as a trusted
    program (so that it can write its pids down) unless ``sandbox``."""
    settings += "" if sandbox else ",sandbox=off"
    return f"cmd[{settings}]:{PYTHON} {FAULTY} {mode} {n} {pids}"


def example() -> str:
    return f"cmd:{PYTHON} {EXAMPLE}"


def running(pid: int) -> bool:
    """Whether ``pid`` is a process that still runs (a zombie whose parent is gone is not)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except (FileNotFoundError, ProcessLookupError):  # gone before, or while, it was read
        return False
    return "State:\tZ" not in status


def holding(token: str) -> list[int]:
    """The running processes whose command line holds ``token`` (a sandbox's included)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                line = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if token.encode() in line and running(int(entry.name)):
                found.append(int(entry.name))
    return found


def assert_all_ended(pids: Path, sandboxed: bool = False) -> None:
    """Every process the bots wrote down (a sandboxed bot cannot) and every process with the
    pid file on its command line has ended: the bots at once (they are reaped), a bot's
    children within moments (killed with its group or its sandbox, the kill is delivered at
    once but acted on by the kernel as they are scheduled)."""
    started = [int(p) for p in pids.read_text().split()] if pids.exists() else []
    assert sandboxed or started, "no bot process was started"
    for _ in range(100):
        left = [p for p in started if running(p)] + holding(str(pids))
        if not left:
            return
        time.sleep(0.02)
    assert left == []


def test_the_example_bot_is_stdlib_only_and_short() -> None:
    text = EXAMPLE.read_text()
    assert len(text.splitlines()) < 50
    imports = {line.split()[1] for line in text.splitlines() if line.startswith("import ")}
    assert imports <= {"json", "random", "sys"}
    assert not [line for line in text.splitlines() if line.startswith("from ")]


@pytest.mark.usefixtures("sandbox_works")
def test_the_example_bot_plays_a_whole_tournament_from_the_command_line() -> None:
    bots = f"cmd:{sys.executable} {EXAMPLE},greedy"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    out = subprocess.run(
        [sys.executable, "-m", "ttr_europe", "tournament", "--bots", bots, "--games", "2",
         "--workers", "1"],
        capture_output=True, text=True, timeout=300, env=env, check=False,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "2 finished" in out.stdout and "0 forfeited" in out.stdout
    assert f"cmd:{sys.executable} {EXAMPLE}" in out.stdout


@pytest.mark.usefixtures("sandbox_works")
def test_a_tournament_of_faulty_bots_finishes_every_game_with_the_right_forfeits(
    tmp_path: Path,
) -> None:
    """The example bot, one that dies mid-game, one that hangs, one that answers garbage and
    greedy, five seats rotated over five games: each game stops at the first faulty bot to
    move in the first round of turns (each goes wrong at its second decision, its tickets
    chosen), which forfeits with its reason; every process is ended."""
    pids = tmp_path / "pids"
    dies, hangs = faulty("dies", 2, pids), faulty("hangs", 2, pids, "move=0.5")
    garbage = faulty("garbage", 2, pids)
    lineup = [example(), dies, hangs, garbage, "greedy"]
    run = tournament(lineup, games=5, players=5, backend="serial", seed=3)
    assert run.finished == 5 and len(run.forfeits) == 5
    reasons = {dies: "exited without answering (exit status 3)",
               hangs: "timed out: no move answer within 0.5 s (move time)",
               garbage: "answered garbage"}  # fmt: skip
    for game, row in enumerate(sorted(run.results, key=lambda r: r.seed)):
        seats = [lineup[(i + game) % 5] for i in range(5)]
        first_faulty = next(s for s in seats if s in reasons)
        assert row.forfeit is not None and row.forfeit.bot == first_faulty
        assert row.forfeit.seat == seats.index(first_faulty)
        assert reasons[first_faulty] in row.forfeit.error
        assert row.winners == tuple(s for s in range(5) if s != row.forfeit.seat)
    assert_all_ended(pids)
    assert len(pids.read_text().split()) == 3 * 5 + 1  # three faulty programs a game, a child


@pytest.mark.parametrize("sandboxed", [False, True], ids=["trusted", "sandboxed"])
@pytest.mark.parametrize(
    ("mode", "settings", "reason"),
    [
        (
            "dies",
            "move=1",
            "exited without answering (exit status 3); its standard error "
            "ended: 'thinking about move 3'",
        ),
        (
            "crashes",
            "move=1",
            "exited without answering (exit status 1); its standard error "
            "ended: 'ValueError: no move for you'",
        ),
        ("stringcode", "move=1", '": a code is a JSON integer'),
        ("hangs", "move=0.3", "timed out: no move answer within 0.3 s (move time)"),
        ("hangs", "move=5,game=0.4", "(game time)"),
        ("garbage", "move=1", "answered garbage: 'a move, please?'"),
        ("illegal", "move=1", "answered code -5, which is not a legal move"),
        ("endless", "move=5", "(output without end)"),
        ("unasked", "move=1", "wrote without being asked"),
        ("hog", "move=5,memory=300", "exited without answering"),
        ("protocol2", "move=1", f"speaks protocol 2, the referee {PROTOCOL}"),
    ],
)
def test_each_fault_is_a_bot_error_with_its_reason_and_the_process_ends(
    tmp_path: Path,
    mode: str,
    settings: str,
    reason: str,
    sandboxed: bool,
    request: pytest.FixtureRequest,
) -> None:
    if sandboxed:
        request.getfixturevalue("sandbox_works")
    pids = tmp_path / "pids"
    bot = make_bot(faulty(mode, 3, pids, settings, sandboxed))
    assert isinstance(bot, ProcessBot)
    with pytest.raises(BotError) as caught:
        play(new_game("europe", players=2, seed=1), [bot, GreedyBot()])
    assert reason in str(caught.value), str(caught.value)
    assert not caught.value.reason.startswith("raised")  # the program's fault, said plainly
    assert caught.value.seat == 0 and caught.value.bot in (mode, bot.spec)
    assert_all_ended(pids, sandboxed)
    with pytest.raises(BotError, match="failed before"):  # a failed bot stays failed
        decide(bot, new_game("europe", players=2, seed=1), random.Random(0))


@pytest.mark.parametrize("mode", ["crlf", "chatty"])
def test_a_byte_order_mark_crlf_and_a_chatty_standard_error_are_no_fault(
    tmp_path: Path, mode: str
) -> None:
    """Some runtimes write UTF-8's byte-order mark first, and Windows' line ends; a program
    that logs more on standard error than a pipe holds is read, never blocked."""
    pids = tmp_path / "pids"
    bot = ProcessBot([sys.executable, str(FAULTY), mode, "1", str(pids)], sandbox=False)
    try:
        final = play(new_game("europe", players=2, seed=1), [bot, GreedyBot()])[-1]
    finally:
        bot.close()
    assert final.phase is Phase.GAME_OVER and bot.name == mode


def test_a_program_logging_while_a_long_message_is_sent_is_read_not_blocked() -> None:
    """A program that writes more on standard error than a pipe holds before it reads its
    input, while the referee sends a message longer than a pipe holds: its standard error is
    read while the message is written, so neither waits on the other until the clock runs out."""
    hello = json.dumps(
        {"type": "hello", "protocol": 1, "name": "logger", "options": {"book": None}}
    )
    program = (
        "import sys; sys.stdin.readline(); "
        f"print({hello!r}, flush=True); "
        "sys.stderr.write('x' * (256 << 10) + chr(10)); sys.stderr.flush(); "
        "sys.stdin.read()"
    )
    book = "y" * (256 << 10)  # options reach the program in one message, as long as they are
    bot = ProcessBot([sys.executable, "-c", program], options={"book": book}, sandbox=False)
    try:
        bot.start()
        assert bot.name == "logger"
    finally:
        bot.close()


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("x" * 150, "said hello with a name of 150 characters (at most 100)"),
        (" ", "said hello without a name (a string of 1-100 characters)"),
        (7, "said hello without a name (a string of 1-100 characters)"),
    ],
)
def test_a_hello_s_bad_name_is_named(name: object, reason: str) -> None:
    hello = json.dumps({"type": "hello", "protocol": 1, "name": name})
    program = f"import sys; sys.stdin.readline(); print({hello!r}, flush=True); sys.stdin.read()"
    bot = ProcessBot([sys.executable, "-c", program], sandbox=False)
    with pytest.raises(BotError) as caught:
        bot.start()
    assert caught.value.reason == reason


def test_a_name_in_any_script_is_read_as_written() -> None:
    name = "Bøt Ñame 机器人 🚂"
    hello = json.dumps({"type": "hello", "protocol": 1, "name": name}, ensure_ascii=False)
    program = (
        "import sys; sys.stdin.readline(); "
        f"sys.stdout.buffer.write({(hello + chr(10)).encode()!r}); sys.stdout.flush(); "
        "sys.stdin.read()"
    )
    bot = ProcessBot([sys.executable, "-c", program], sandbox=False)
    try:
        bot.start()
    finally:
        bot.close()
    assert bot.name == name


def test_a_bot_that_never_says_hello_times_out_at_startup(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    bot = ProcessBot(
        [sys.executable, str(FAULTY), "mute", "1", str(pids)],
        time=TimeControl(startup=0.5),
        sandbox=False,
    )
    with pytest.raises(BotError, match=r"no hello answer within 0.5 s \(start time\)"):
        decide(bot, new_game("europe", players=2, seed=1), random.Random(0))
    assert_all_ended(pids)


@pytest.mark.usefixtures("sandbox_works")
def test_a_program_that_cannot_start_is_a_bot_error() -> None:
    bot = make_bot("cmd:/nonexistent/bot --fast")
    with pytest.raises(BotError, match="cannot start /nonexistent/bot --fast"):
        decide(bot, new_game("europe", players=2, seed=1), random.Random(0))


def test_the_exchange_follows_the_schemas_and_a_whole_game_is_played(tmp_path: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    referencing = pytest.importorskip("referencing")
    from ttr_europe.schemas import document_schema

    schemas = {k: document_schema(k) for k in ("view", "protocol-referee", "protocol-bot")}
    registry = referencing.Registry().with_resources(
        (s["$id"], referencing.Resource.from_contents(s)) for s in schemas.values()
    )

    def validator(kind: str) -> object:
        return jsonschema.Draft202012Validator(schemas[kind], registry=registry)

    pids = tmp_path / "pids"
    bot = ProcessBot([sys.executable, str(FAULTY), "record", "1", str(pids)], sandbox=False)
    history = play(new_game("usa", players=2, seed=5), [bot, GreedyBot()], seed=2)
    assert history[-1].phase is Phase.GAME_OVER
    close_bots([bot])
    assert_all_ended(pids)
    lines = (tmp_path / "pids.log").read_text().splitlines()
    sent = [json.loads(line[2:]) for line in lines if line.startswith("<")]
    answered = [json.loads(line[2:]) for line in lines if line.startswith(">")]
    assert [m["type"] for m in sent[:2]] == ["hello", "options"] and sent[-1]["type"] == "quit"
    moves = [m for m in sent if m["type"] == "move"]
    assert len(moves) == len(answered) - 1 == sum(s.current == 0 for s in history[:-1])
    for message in sent:
        validator("protocol-referee").validate(message)  # type: ignore[attr-defined]
    for message in answered:
        validator("protocol-bot").validate(message)  # type: ignore[attr-defined]
    asked = [s for s in history[:-1] if s.current == 0]
    codec = ActionCodec("usa")
    for message, state in zip(moves, asked, strict=True):
        assert message["view"] == view_to_json(observe(state, 0))
        legal = list(legal_actions(state))
        assert [m["move"] for m in message["legal"]] == [str(a) for a in legal]
        assert [m["code"] for m in message["legal"]] == [codec.encode(a, state) for a in legal]
    assert all(m["view"]["observer"] == 0 for m in moves)
    assert all(p["hand"] is None for m in moves for p in m["view"]["players"] if p["seat"])


def test_the_exchange_in_the_docs_is_what_is_sent_and_answered(tmp_path: Path) -> None:
    """docs/protocol.md shows the start of a real game message for message: it is that."""
    text = (ROOT / "docs" / "protocol.md").read_text().split("## An exchange", 1)[1]
    shown = text.split("```\n", 2)[1].splitlines()
    pids = tmp_path / "pids"
    bot = ProcessBot([sys.executable, str(FAULTY), "record", "1", str(pids)], sandbox=False)
    try:
        decide(bot, new_game("europe", players=2, seed=1), random.Random(0))
    finally:
        bot.close()
    sent = (tmp_path / "pids.log").read_text().splitlines()
    version = re.compile(r'"engine_version":"[^"]*"')  # the docs need not follow each release
    assert [version.sub("", line) for line in sent] == [
        version.sub("", line) for line in [*shown, '< {"type":"quit"}']
    ]


@pytest.mark.usefixtures("sandbox_works")
def test_command_specs_read_their_settings_and_refuse_bad_ones() -> None:
    bot = parse_command_spec("cmd[move=0.5, game=60, memory=512]:python my bot.py --x 'a b'")
    assert bot.command == ("python", "my", "bot.py", "--x", "a b")
    assert bot.time == TimeControl(0.5, 60.0) and bot.memory_mb == 512
    assert bot.name == "cmd[move=0.5, game=60, memory=512]:python my bot.py --x 'a b'"
    for spec, message in [
        ("cmd:", "no command"),
        ("cmd[move=0]:python x.py", "move must be a positive number"),
        ("cmd[speed=2]:python x.py", "unknown setting 'speed'"),
        ("cmd:python 'unclosed", "cannot split the command"),
    ]:
        with pytest.raises(BotError, match=message):
            make_bot(spec)


def test_play_gives_a_failed_program_s_seat_to_a_stand_in_and_says_why(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    bots = f"{faulty('garbage', 4, pids)},greedy"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    out = subprocess.run(
        [sys.executable, "-m", "ttr_europe", "play", "--bots", bots, "--quiet", "--seed", "2"],
        capture_output=True, text=True, timeout=300, env=env, check=False,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "(seat 0): answered garbage: 'a move, please?'" in out.stderr
    assert "a random bot plays for Player 1 from now on" in out.stderr
    assert "Final scores" in out.stdout  # the game was played to its end
    assert_all_ended(pids)


def test_serve_gives_a_failed_program_s_seat_to_a_stand_in(tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    from ttr_europe.table.match import Match
    from ttr_europe.web.hub import Client, Hub

    pids = tmp_path / "pids"
    spec = faulty("dies", 1, pids)
    hub = Hub(lambda: Match.new("usa", "base", 2, 3, ["person", spec], first_player=0))
    tab = Client()
    hub.receive(tab, json.dumps({"type": "join", "seat": 0}))
    out = hub.receive(tab, json.dumps({"type": "act", "action": "keep all"}))
    match = hub.latest.match
    assert match.seats[1].name == f"random for {spec}" and len(match.actions) == 2
    (error,) = [doc for _, doc in out if doc["type"] == "error"]
    assert error["code"] == "bot_failed" and "Player 2" in error["message"]
    assert_all_ended(pids)


TELLING = """\
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "hello", "name": "teller", "protocol": 1}), flush=True)
    elif message["type"] == "move":
        me = message["view"]["players"][message["view"]["observer"]]
        print("SECRET offer", "|".join(me["offer"]), file=sys.stderr, flush=True)
        print("SECRET hand", json.dumps(me["hand"]), flush=True)  # not JSON: garbage
"""


def test_what_a_failed_program_wrote_reaches_no_tab_of_its_match(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A program's standard error and its answers are made from its view: the referee's
    reason quotes them, so the tabs (whose stand-in keeps that offer and hand) never get it."""
    pytest.importorskip("starlette")
    from ttr_europe.table.match import Match
    from ttr_europe.web.hub import Client, Hub

    program = tmp_path / "teller.py"
    program.write_text(TELLING)
    spec = f"cmd[move=5,sandbox=off]:{PYTHON} {program}"
    hub = Hub(lambda: Match.new("usa", "base", 2, 3, ["person", spec], first_player=0))
    tab, watcher = Client(), Client()
    sent = hub.receive(tab, json.dumps({"type": "join", "seat": 0}))
    sent += hub.receive(watcher, json.dumps({"type": "join"}))
    with caplog.at_level("WARNING", logger="ttr_europe.web"):
        sent += hub.receive(tab, json.dumps({"type": "act", "action": "keep all"}))
    assert [doc["code"] for _, doc in sent if doc["type"] == "error"] == ["bot_failed"] * 2
    assert not [doc for _, doc in sent if "SECRET" in json.dumps(doc)]
    assert "answered garbage: 'SECRET hand" in caplog.text
    assert "its standard error ended: 'SECRET offer" in caplog.text


def test_a_failed_program_s_last_words_are_kept_apart_for_whoever_runs_it(
    tmp_path: Path,
) -> None:
    """The error's message ends with what the program wrote on standard error (for the
    operator); ``for_players`` is the message without it, as the terminal's people see it."""
    program = tmp_path / "teller.py"
    program.write_text(TELLING)
    bot = make_bot(f"cmd[move=5,sandbox=off]:{PYTHON} {program}")
    with pytest.raises(BotError) as caught:
        decide(bot, new_game("usa", players=2, seed=3, first_player=0), random.Random(0))
    error = caught.value
    assert error.said is not None and error.said.startswith("SECRET offer")
    assert "its standard error ended: 'SECRET offer" in str(error)
    assert "SECRET offer" not in error.for_players()
    assert error.for_players() == f"bot {error.bot!r} (seat 0): {error.reason}"
    assert pickle.loads(pickle.dumps(error)).said == error.said  # kept across processes


def test_serve_ends_a_program_as_soon_as_its_match_is_over(tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    from ttr_europe.players import GreedyBot, decide
    from ttr_europe.table.match import Match
    from ttr_europe.web.hub import Client, Hub

    pids = tmp_path / "pids"
    spec = faulty("notation", 1, pids)  # a program that never goes wrong
    hub = Hub(lambda: Match.new("usa", "base", 2, 3, ["person", spec], first_player=0))
    tab, person, rng = Client(), GreedyBot(), random.Random(4)
    hub.receive(tab, json.dumps({"type": "join", "seat": 0}))
    while not hub.latest.match.finished:
        action = decide(person, hub.latest.match.state, rng)
        hub.receive(tab, json.dumps({"type": "act", "action": str(action)}))
    assert hub.latest.match.seats[1].name == spec  # it played the whole game itself
    assert_all_ended(pids)  # and ended with it, while the server and the match live on


@pytest.mark.usefixtures("sandbox_works")
def test_simulate_on_worker_processes_counts_a_failed_program_as_a_forfeit(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    dies = faulty("dies", 5, pids)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    out = subprocess.run(
        [sys.executable, "-m", "ttr_europe", "simulate", "--bots", f"{dies},{example()}",
         "--games", "2", "--workers", "2", "--backend", "process", "--json"],
        capture_output=True, text=True, timeout=300, env=env, check=False,
    )  # fmt: skip
    assert out.returncode == 1  # simulate fails on a forfeit (a tournament does not)
    assert "2 of 2 games forfeited" in out.stderr
    assert "exited without answering (exit status 3)" in out.stderr
    summary = json.loads(out.stdout)
    assert summary["finished"] == 2
    assert_all_ended(pids)


def test_options_declared_by_the_bot_are_sent_and_moves_may_be_named_by_notation(
    tmp_path: Path,
) -> None:
    pids = tmp_path / "pids"
    command = [sys.executable, str(FAULTY), "notation", "1", str(pids)]
    bot = ProcessBot(command, options={"level": 3}, sandbox=False)
    history = play(new_game("europe", players=2, seed=6), [bot, GreedyBot()], seed=6)
    assert history[-1].phase is Phase.GAME_OVER and bot.name == "notation"
    assert bot.declared == {"level": 1, "style": "calm"} and bot.version == "0"
    close_bots([bot])
    sent = json.loads((tmp_path / "pids.log").read_text())
    assert sent == {"type": "options", "options": {"level": 3, "style": "calm"}}
    stranger = ProcessBot(command, options={"speed": 2}, sandbox=False)
    with pytest.raises(BotError, match="does not accept the options speed"):
        decide(stranger, new_game("europe", players=2, seed=1), random.Random(0))
    assert_all_ended(pids)


def test_the_codec_numbers_a_ticket_choice_from_the_places_it_keeps() -> None:
    from ttr_europe.actions import KeepTickets

    state = new_game("europe", players=2, seed=3)
    codec = ActionCodec("europe")
    offer = [state.map.tickets[t].id for t in state.players[0].offer]
    keep = KeepTickets([offer[0], offer[2]])
    assert codec.keep_code(0b101) == codec.encode(keep, state)
    assert codec.decode(codec.keep_code(0b101), state) == keep
    for bad in (-1, 1 << codec.max_offer, True):
        with pytest.raises(MalformedActionError):
            codec.keep_code(bad)


def test_a_closed_bot_starts_its_program_again_and_a_copy_is_a_new_bot(tmp_path: Path) -> None:
    import copy
    import pickle

    pids = tmp_path / "pids"
    bot = ProcessBot([sys.executable, str(FAULTY), "dies", "3", str(pids)], sandbox=False)
    with pytest.raises(BotError, match="exited"):
        play(new_game("europe", players=2, seed=1), [bot, GreedyBot()])
    for twin in (copy.deepcopy(bot), pickle.loads(pickle.dumps(bot))):
        assert isinstance(twin, ProcessBot) and twin.command == bot.command
        with pytest.raises(BotError, match="exited without answering"):  # not "failed before"
            play(new_game("europe", players=2, seed=1), [twin, GreedyBot()])
    bot.close()
    with pytest.raises(BotError, match="exited without answering"):
        play(new_game("europe", players=2, seed=1), [bot, GreedyBot()])
    assert len(pids.read_text().split()) == 4
    assert_all_ended(pids)


def test_a_standard_error_that_cannot_be_read_is_no_longer_watched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read of the program's standard error that fails (not "nothing yet") ends the watch,
    as its end does: a watched pipe in error would wake the wait at once, again and again."""
    import errno

    from ttr_europe.players import protocol

    bot = make_bot(faulty("record", 99, tmp_path / "pids"))
    assert isinstance(bot, ProcessBot)
    bot.start()
    try:
        assert bot._proc is not None and bot._selector is not None
        watched = bot._proc.stderr
        assert watched in [key.fileobj for key in bot._selector.get_map().values()]

        def broken(fd: int, size: int) -> bytes:
            raise OSError(errno.EIO, "input/output error")

        monkeypatch.setattr(protocol.os, "read", broken)
        bot._read_errors()
        assert watched not in [key.fileobj for key in bot._selector.get_map().values()]
    finally:
        monkeypatch.undo()
        close_bots([bot])
