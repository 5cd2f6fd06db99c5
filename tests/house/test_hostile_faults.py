"""Each fault of the "hostile input at every edge" report, pinned by the smallest example.

Every one of these raised a stray exception, hung, exited 0 or crashed before; the principle
they break is in docs/robustness.md and the general checks are in tests/fuzz/.
"""

from __future__ import annotations

import contextlib
import copy
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from ttr_europe import (
    ActionCodec,
    ClaimRoute,
    DrawBlind,
    GameState,
    apply,
    determinize,
    dumps,
    is_legal,
    legal_actions,
    load_map,
    loads,
    new_game,
    observe,
    score,
    why_illegal,
)
from ttr_europe.actions import MAX_TEXT, parse
from ttr_europe.cli import main
from ttr_europe.codec import legal_action_mask
from ttr_europe.errors import (
    ActionParseError,
    BadArgumentError,
    DataError,
    MalformedActionError,
    SetupError,
    TTRError,
)
from ttr_europe.jsonio import scoreboard_from_json, scoreboard_to_json
from ttr_europe.maps import (
    MAX_OFFER,
    build_map,
    data_files,
    load_map_file,
    parse_map,
    reset_success_chance,
)
from ttr_europe.records import random_game, replay
from ttr_europe.scoring import format_scoreboard

STATE = new_game("europe", players=3, seed=5)


def _cpu(fn: Any, *args: Any) -> float:
    start = time.process_time()
    with contextlib.suppress(TTRError):
        fn(*args)
    return time.process_time() - start


# --------------------------------------------------------------------------- the action parser


def test_the_action_parser_is_linear_in_the_text() -> None:
    """Runs of spaces between the words once took time growing with their square (7 s for
    40,000 spaces); now doubling the text at most about doubles the time."""
    texts = [f"claim a{' ' * n}b" for n in (MAX_TEXT // 4, MAX_TEXT - 8)]
    small, large = (min(_cpu(parse, t) for _ in range(5)) for t in texts)
    assert large <= 8 * max(small, 1e-5), (small, large)
    with pytest.raises(ActionParseError, match="at most"):
        parse("claim a" + " " * 40_000 + "b")


@pytest.mark.parametrize(
    "text",
    [
        "claim  Dieppe-Paris   with  2red",
        "CLAIM Dieppe-Paris WITH 2red",
        "claim New  York with red",
    ],
)
def test_the_action_parser_reads_what_the_regular_expressions_read(text: str) -> None:
    action = parse(text)
    assert isinstance(action, ClaimRoute)
    assert action.route in ("Dieppe-Paris", "New  York")


def test_an_unreadable_action_text_is_refused_in_a_record() -> None:
    record = random_game("usa", players=2, seed=1, max_actions=3).then("claim x" + " " * 5000)
    with pytest.raises(DataError, match=r"actions\[3\]"):
        replay(record)


# --------------------------------------------------------------------------- the command line


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse refusing an argument
        code = int(exc.code or 0)
    err = capsys.readouterr().err
    return code, err


@pytest.mark.parametrize("content", [b"\xff", "{}".encode("utf-16")])
def test_replay_of_a_file_that_is_not_utf8(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes
) -> None:
    bad = tmp_path / "record.json"
    bad.write_bytes(content)
    code, err = _run(capsys, "replay", str(bad))
    assert code == 2
    assert err.count("\n") == 1 and "not UTF-8" in err and str(bad) in err


@pytest.mark.parametrize(
    "argv",
    [
        ("bench", "--games", "0"),
        ("bench", "--games", "-1"),
        ("bench", "--rounds", "0"),
        ("tournament", "--games", "-5"),
        ("tournament", "--processes", "-1"),
        ("tournament", "--games", "1", "--players", "9"),
        ("tournament", "--seed", "x"),
        ("serve", "--players", "99999999999999999999"),  # found by the thorough run: MemoryError
        ("serve", "--port", "99999999999999999999"),  # found by the fuzz suite: OverflowError
        ("play", "--players", "99999999999999999999", "--quiet"),  # built bots forever
        ("play", "--players", "6", "--quiet"),
        ("play", "--seed", "1" + "0" * 30, "--quiet"),  # its record could not be read back
        ("serve", "--seed", "-1" + "0" * 30),
    ],
)
def test_counts_that_cannot_be_run_are_refused(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    code, err = _run(capsys, *argv)
    assert code == 2
    assert err.count("\n") == 1 and "error" in err and "Traceback" not in err


def test_a_closed_pipe_ends_the_command_quietly() -> None:
    """``ttr-europe info europe --json | head -1``: the reader goes away, the command stops
    without a traceback and with status 0."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "ttr_europe", "info", "europe", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # before the command writes anything
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 0
    assert err == b""


def test_a_closed_pipe_inside_main(monkeypatch: pytest.MonkeyPatch) -> None:
    class Closed:
        def write(self, text: str) -> int:
            raise BrokenPipeError

        def flush(self) -> None:
            raise BrokenPipeError

    monkeypatch.setattr(sys, "stdout", Closed())
    assert main(["info", "usa"]) == 0


# --------------------------------------------------------------------------- scoreboards


def _board_doc() -> dict[str, Any]:
    return scoreboard_to_json(score(replay(random_game("europe", players=3, seed=2))[-1]))


def _change(doc: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return doc


@pytest.mark.parametrize(
    ("path", "value", "where"),
    [
        (("ranking",), [], "$.ranking"),
        (("ranking",), [0, 0, 1], "$.ranking"),
        (("winners",), [], "$.winners"),
        (("decided_by",), [], "$.decided_by"),
        (("decided_by",), ["nonsense", None], "$.decided_by"),
        (("criteria",), ["total", "luck"], "$.criteria"),
        (("players", 1, "seat"), 7, "$.players[1].seat"),
        (("players", 0, "total"), 1, "$.players[0].total"),
        (("players", 0, "rank"), 0, "$.players[0].rank"),
        (("players", 0, "criteria_values"), [], "$.players[0].criteria_values"),
        (("players",), [], "$.players"),
    ],
)
def test_a_scoreboard_whose_parts_disagree_is_refused(
    path: tuple[Any, ...], value: Any, where: str
) -> None:
    """Such documents were read, and printing them raised IndexError, KeyError or ValueError."""
    bad = _change(_board_doc(), path, value)
    with pytest.raises(DataError) as info:
        scoreboard_from_json(bad)
    assert info.value.path.startswith(where)


def test_a_read_scoreboard_prints() -> None:
    doc = _board_doc()
    assert format_scoreboard(scoreboard_from_json(doc)) == format_scoreboard(
        scoreboard_from_json(json.dumps(doc))
    )


# --------------------------------------------------------------------------- codes


def test_the_codec_refuses_payments_that_apply_refuses() -> None:
    codec = ActionCodec("europe", "base")
    real = codec.decode(codec.blocks["claim"].start)
    assert isinstance(real, ClaimRoute) and codec.encode(real) == codec.blocks["claim"].start
    for payment in ([1], tuple(real.payment), list(real.payment)):
        with pytest.raises(MalformedActionError):
            codec.encode(ClaimRoute(real.route, payment))  # type: ignore[arg-type]


def test_the_codec_refuses_a_state_that_is_not_one() -> None:
    codec = ActionCodec("europe", "base")
    keep = codec.blocks["keep"].start + 1
    for state in ("x", observe(STATE, 0), 5):
        with pytest.raises(BadArgumentError):
            codec.decode(keep, state=state)  # type: ignore[arg-type]
        with pytest.raises(BadArgumentError):
            codec.encode(DrawBlind(), state)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- argument types


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda: score(STATE, 5), BadArgumentError),  # type: ignore[arg-type]
        (lambda: score(STATE, {0: 5}), BadArgumentError),  # type: ignore[dict-item]
        (lambda: score(STATE, {0: {("x",): None}}), BadArgumentError),  # type: ignore[dict-item]
        (lambda: determinize(STATE, 0, [1]), BadArgumentError),  # type: ignore[arg-type]
        (lambda: determinize(STATE, "0", 1), BadArgumentError),  # type: ignore[arg-type]
        (lambda: new_game(seed=None), SetupError),  # type: ignore[arg-type]
        (lambda: new_game(seed=1.5), SetupError),  # type: ignore[arg-type]
        (lambda: new_game(variant=[]), SetupError),  # type: ignore[arg-type]
        (lambda: new_game(map=5), SetupError),  # type: ignore[arg-type]
        (lambda: load_map_file(None), DataError),  # type: ignore[arg-type]
        (lambda: load_map_file("\0"), DataError),
        (lambda: load_map_file(3), DataError),  # type: ignore[arg-type]
    ],
)
def test_wrong_argument_types_are_typed_errors(call: Any, error: type[TTRError]) -> None:
    with pytest.raises(error):
        call()


VIEW = observe(STATE, 0)


@pytest.mark.parametrize(
    "call",
    [
        lambda s: apply(s, DrawBlind()),
        legal_actions,
        lambda s: is_legal(s, DrawBlind()),
        lambda s: why_illegal(s, DrawBlind()),
        legal_action_mask,
        lambda s: observe(s, 0),
        score,
    ],
)
@pytest.mark.parametrize("not_a_state", [VIEW, None, "state", 3, STATE.players[0]])
def test_anything_but_a_state_is_a_typed_error(call: Any, not_a_state: object) -> None:
    with pytest.raises(BadArgumentError, match="must be a GameState") as info:
        call(not_a_state)
    if not_a_state is VIEW:
        assert "determinize" in str(info.value)  # says what to pass instead


def test_a_view_is_turned_into_a_state_with_determinize() -> None:
    world = determinize(VIEW, 0, 1)
    assert type(world) is GameState
    assert legal_actions(world)


# --------------------------------------------------------------------------- map bounds


def _europe() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((data_files() / "maps" / "europe.json").read_text("utf-8"))
    return doc


def _variant_fault(change: dict[str, Any]) -> DataError:
    doc = _europe()
    doc["variants"]["base"].update(change)
    with pytest.raises(DataError) as info:
        parse_map(json.dumps(doc), source="custom.json")
    return info.value


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"draw_tickets": 18}, "draw_tickets"),
        ({"draw_tickets": 45}, "draw_tickets"),
        ({"draw_tickets": 10**12}, "draw_tickets"),
        ({"deal_regular": 8, "deal_long": 3}, "deal_regular"),
        ({"face_up": 60, "reset_locomotives": 1}, "face_up"),
        ({"face_up": 10, "reset_locomotives": 1}, "reset_locomotives"),
        ({"face_up": 4, "reset_locomotives": 1}, "reset_locomotives"),
        ({"trains": 10**6}, "trains"),
        ({"stations": 40}, "stations"),
    ],
)
def test_maps_that_would_break_the_engine_later_are_refused(
    change: dict[str, Any], field: str
) -> None:
    """Before, these loaded; then listing the keep choices took seconds or all memory, the codec
    hung, or dealing a game never returned."""
    fault = _variant_fault(change)
    assert fault.path == f"$.variants.base.{field}"


def test_route_points_are_bounded_so_saved_states_load() -> None:
    """Route points above 1000 made ``loads(dumps(state))`` refuse states the engine made."""
    doc = _europe()
    doc["route_points"]["8"] = 1001
    with pytest.raises(DataError) as info:
        parse_map(json.dumps(doc))
    assert info.value.path == '$.route_points["8"]'
    doc["route_points"]["8"] = 1000  # allowed by the schema, but 45 trains could score 5625
    with pytest.raises(DataError, match="could score") as info:
        parse_map(json.dumps(doc))
    assert info.value.path == "$.variants.base.trains"


def test_the_largest_allowed_map_numbers_still_play_and_save() -> None:
    """At the bounds, the engine deals, lists, encodes and saves within them."""
    doc = _europe()
    doc["route_points"]["8"] = 150  # 45 trains * 150 / 8 = 843 points at most
    doc["variants"]["base"].update(
        {"deal_long": 2, "deal_regular": MAX_OFFER - 2, "draw_tickets": 10, "face_up": 6}
    )
    doc["variants"]["base"]["players"]["max"] = 2
    board = parse_map(json.dumps(doc), source="big.json")
    codec = ActionCodec(board, "base")
    assert len(codec.blocks["keep"]) == 2**MAX_OFFER
    for seed in range(3):
        state = random_game_on(board, seed)
        assert loads(dumps(state), map=board) == state


def random_game_on(board: Any, seed: int) -> GameState:
    import random

    rng = random.Random(seed)
    state = new_game(board, "base", 2, seed=seed, reset_cap=0)
    for _ in range(2000):
        legal = legal_actions(state)
        if not legal or state.phase.name == "GAME_OVER":
            break
        state = apply(state, legal[rng.randrange(len(legal))])
    return state


def test_reset_chance_of_the_shipped_rows() -> None:
    """Five slots, three locomotives: a reset succeeds at least 1 time in 68."""
    assert reset_success_chance(5, 3) == pytest.approx(91 / 6188)
    assert reset_success_chance(10, 1) < 1e-6


def test_map_files_are_read_with_a_size_cap(tmp_path: Path) -> None:
    huge = tmp_path / "huge.json"
    huge.write_text(" " * 4_000_001, "utf-8")
    with pytest.raises(DataError, match="at most"):
        load_map_file(huge)
    assert load_map("europe") is load_map("europe")


# --------------------------------------------------------------------------- found by fuzzing


def test_a_state_whose_score_disagrees_with_its_routes_is_refused() -> None:
    """The thorough fuzz run found such a state read back, and ``score`` then raised D35.
    (Trains left that do not follow from the routes are a valid position: it plays and scores,
    and ``testing.scenario(trains=...)`` builds it for end-game tests.)"""
    state = replay(random_game("europe", players=3, seed=4, max_actions=150))[-1]
    seat = next(s for s in range(3) if state.players[s].score > 0)
    doc = json.loads(dumps(state))
    doc["players"][seat]["score"] += 1
    with pytest.raises(DataError) as info:
        loads(json.dumps(doc))
    assert info.value.path == f"$.players[{seat}].score"
    view = json.loads(dumps(observe(state, seat)))
    view["players"][seat]["score"] += 1
    with pytest.raises(DataError) as info:
        loads(json.dumps(view))
    assert info.value.path == f"$.players[{seat}].score"
    doc["players"][seat]["score"] -= 1
    doc["players"][seat]["trains"] -= 1
    assert loads(json.dumps(doc)).players[seat].trains == state.players[seat].trains - 1


def test_a_map_built_in_memory_with_shared_parts_is_refused_in_bounded_time() -> None:
    """The map fuzzing ran out of memory: a document built in memory may share one list many
    times over (``[row] * 50_000``), and the validator's message rendered the whole value."""
    doc = json.loads((data_files() / "maps" / "usa.json").read_text("utf-8"))
    row = [1] * 50_000
    doc["routes"][0]["length"] = [row] * 50_000  # 2.5 billion numbers, were it written out
    start = time.perf_counter()
    with pytest.raises(DataError) as info:
        build_map(doc, source="shared.json")
    assert time.perf_counter() - start < 5.0  # it took memory without bound before
    assert info.value.path == "$.routes[0].length"
    assert len(str(info.value)) < 300
