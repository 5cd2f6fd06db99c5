"""Terminal play driven through standard input, hostile input, and the play log of play and
replay (the same turn lines, with events)."""

from __future__ import annotations

import io
import itertools
import json
import random
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest

from ttr_europe import Cards, ClaimRoute, legal_actions
from ttr_europe.cli import main
from ttr_europe.events import LastRound, RouteClaimed, TicketsDrawn
from ttr_europe.i18n import translator
from ttr_europe.records import GameRecord, final_state, replay
from ttr_europe.render import render_svg
from ttr_europe.scoring import score
from ttr_europe.table.match import Match
from ttr_europe.table.terminal import (
    LEGEND,
    MENU_CLAIMS,
    Terminal,
    describe,
    fit,
    help_text,
    menu,
    menu_text,
    scoreboard_text,
    show_view,
    this_turn,
)
from ttr_europe.testing import scenario


def script(seed: int, lines: int = 6000) -> str:
    """Menu numbers, mostly small, with commands and nonsense mixed in."""
    rng = random.Random(seed)
    extra = ["help", "view", "", "draw 9", "claim Nowhere-Else", "keep", "0", "12345678901234"]
    out = ["help", "0", "claim Nowhere-Else", "view"]
    for _ in range(lines):
        out.append(rng.choice(extra) if rng.random() < 0.05 else str(rng.randint(1, 9)))
    return "\n".join(out) + "\n"


def run_main(args: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    monkeypatch.setattr(sys, "stdout", out)
    code = main(args)
    return code, out.getvalue()


def test_a_whole_game_against_a_bot_typed_on_standard_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record_file = tmp_path / "game.json"
    code, out = run_main(
        ["play", "--human", "1", "--players", "2", "--seed", "11", "--bots", "greedy",
         "--record", str(record_file)],
        script(1), monkeypatch,
    )  # fmt: skip
    assert code == 0
    record = GameRecord.from_json(record_file.read_text())
    final = final_state(record)
    assert final.phase.name == "GAME_OVER"
    assert scoreboard_text(score(final), state=final) in out
    # the heading is words alone on its line, after a blank one: no signs for a reader to say
    assert "\n\nPlayer 1 (person), your turn:\n" in out and "==" not in out
    assert (
        "Face-up  1:" in out
        and "Tickets  " in out
        and "Player 2 (ticket-chasing bot): trains" in out
    )
    assert "Moves (words in any case" in out  # help was shown
    assert "No choice 0" in out and "no route 'Nowhere-Else'" in out
    assert "Winner: " in out or "Shared win: " in out


def test_hot_seat_two_persons_and_a_bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record_file = tmp_path / "game.json"
    code, out = run_main(
        ["play", "--human", "1,3", "--players", "3", "--seed", "3", "--record", str(record_file)],
        script(2, 12000), monkeypatch,
    )  # fmt: skip
    assert code == 0
    assert final_state(GameRecord.from_json(record_file.read_text())).phase.name == "GAME_OVER"
    assert "\nPlayer 3 (person), your turn:\n" in out
    assert "\nPlayer 1 (person), your turn:\n" in out


def test_quit_saves_the_record_and_resume_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    saved = tmp_path / "saved.json"
    args = ["play", "--human", "2", "--players", "2", "--seed", "5", "--record", str(saved)]
    code, out = run_main(args, "1\n1\n2\nquit\n", monkeypatch)
    assert code == 0 and f"Game saved to {saved}" in out
    first = GameRecord.from_json(saved.read_text())
    assert len(first.actions) >= 3
    code, out = run_main([*args, "--resume", str(saved)], "undo\nquit\n", monkeypatch)
    assert code == 0 and "Recent turns:" in out and "Undone: back to Player 2's choice." in out
    after_undo = GameRecord.from_json(saved.read_text())
    assert after_undo.actions == first.actions[: len(after_undo.actions)]
    assert len(after_undo.actions) < len(first.actions)


def test_end_of_input_is_like_quit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    saved = tmp_path / "eof.json"
    code, out = run_main(["play", "--human", "1", "--record", str(saved)], "", monkeypatch)
    assert code == 0 and saved.exists() and "Game saved to" in out


HOSTILE = [
    "",
    "   ",
    "x" * 100_000,
    "\x00\x01\x1b[2J",
    "-1",
    "0",
    "99999999999999999999999999",
    "1e5",
    "claim",
    "draw",
    "keep 1 1 1 1",
    "keep 9",
    "station Atlantis",
    "pay 1loco",
    "withdraw",
    "pass",
    "undo",
    "DROP TABLE",
    "claim Paris-Paris with 1000000red",
    "\u202eevil",
    "keep Cadiz-Stockholm, Cadiz-Stockholm",
]


def test_hostile_lines_get_a_message_and_change_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    saved = tmp_path / "hostile.json"
    text = "\n".join(HOSTILE) + "\nquit\n"
    code, out = run_main(
        ["play", "--human", "1", "--players", "2", "--seed", "8", "--record", str(saved)],
        text, monkeypatch,
    )  # fmt: skip
    assert code == 0
    record = GameRecord.from_json(saved.read_text())
    start = Match.new("europe", "base", 2, 8, seats=["person", "random"])  # as --bots says
    start.advance()
    assert record.actions == tuple(str(a) for a in start.actions)  # only the bot has moved
    assert "too long" in out and "Nothing to undo: no person has moved yet." in out
    prompts = out.count("> ")
    assert prompts == len([h for h in HOSTILE]) + 1


def test_bytes_that_are_not_utf8_do_not_stop_the_game(tmp_path: Path) -> None:
    saved = tmp_path / "bytes.json"
    result = subprocess.run(
        [sys.executable, "-m", "ttr_europe", "play", "--human", "1", "--players", "2",
         "--record", str(saved)],
        input=b"\xff\xfe\x80 draw\nkeep \xc3\x28\n1\nquit\n",
        check=False,
        capture_output=True,
        timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert b"Traceback" not in result.stderr
    out = result.stdout.decode("utf-8")
    assert "unknown verb" in out and "Game saved to" in out
    assert len(json.loads(saved.read_text())["actions"]) >= 1


def test_ambiguous_claim_lists_the_candidates() -> None:
    state = scenario(hands={0: "2red+2blue+1loco"}, row="red blue green yellow pink")
    match = Match(state, ["person", "random"], seed=1)
    lines = iter(["claim Rostov-Sochi", "2", "quit"])
    written: list[str] = []
    terminal = Terminal(match, lambda prompt: next(lines), written.append, lambda m: "nowhere")
    assert terminal.run() is False
    text = "\n".join(written)
    assert "fits" in text
    # numbered, to pick one by its number rather than retype it
    assert "   1  claim Rostov-Sochi with 2red" in written
    picked = next(line for line in written if line.startswith("   2  claim Rostov-Sochi"))
    assert "Type a number to choose one (view shows the whole menu again)." in written
    assert str(match.actions[0]) == picked[6:]


def test_station_candidates_are_numbered_and_refusals_are_in_the_pages_words() -> None:
    state = scenario(hands={0: "2red+2blue+1loco"}, row="red blue green yellow pink")
    match = Match(state, ["person", "random"], seed=1)
    lines = iter(["station Sofia", "1", "station Sofia", "quit"])
    written: list[str] = []
    terminal = Terminal(match, lambda prompt: next(lines), written.append, lambda m: "nowhere")
    assert terminal.run() is False
    numbered = [line for line in written if line.startswith("   1  station Sofia with ")]
    assert numbered, written
    assert str(match.actions[0]) == numbered[0][6:]
    # Sofia has a station now: the engine's reason, said as the page says it, and its rule
    assert "That city already has a train station. (rule R40)" in written


def test_a_ticket_keep_refused_is_said_in_the_pages_words() -> None:
    match = Match.new("europe", "base", 2, 3, ["person", "random"], first_player=0)
    lines = iter(["keep 1", "quit"])
    written: list[str] = []
    Terminal(match, lambda prompt: next(lines), written.append, lambda m: "nowhere").run()
    assert any(line.startswith("Keep at least 2 tickets. (rule R") for line in written), written


def test_menu_offers_one_payment_per_route_with_fewest_locomotives() -> None:
    state = scenario(hands={0: "2red+2loco"}, row="red blue green yellow pink")
    choices = menu(state)
    claims = [a for a in choices if isinstance(a, ClaimRoute)]
    assert 0 < len(claims) <= MENU_CLAIMS
    assert len({a.route for a in claims}) == len(claims)
    legal = [a for a in legal_actions(state) if isinstance(a, ClaimRoute)]
    for claim in claims:
        fewest = min(a.payment.locomotives for a in legal if a.route == claim.route)
        assert claim.payment.locomotives == fewest
    assert ClaimRoute("Rostov-Sochi", Cards.of(red=2)) in menu(
        scenario(hands={0: "2red"}, row="red blue green yellow pink")
    )
    assert not any(hasattr(a, "city") for a in choices)


# --------------------------------------------------------------------------- play and replay


def test_bots_only_play_log_shows_events_and_replay_prints_the_same_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record_file = tmp_path / "game.json"
    assert main(["play", "--players", "3", "--seed", "7", "--record", str(record_file)]) == 0
    played = capsys.readouterr().out.splitlines()
    assert played[1] == LEGEND
    log = played[2 : played.index("Final position:") - 1]
    assert any("(took " in line for line in log) and any("(drew " in line for line in log)
    assert any("tunnel shows" in line for line in log)
    assert main(["replay", str(record_file)]) == 0
    replayed = capsys.readouterr().out.splitlines()
    assert replayed[1] == LEGEND
    assert replayed[2 : 2 + len(log)] == log
    # the first number of each line is the position after it
    record = GameRecord.from_json(record_file.read_text())
    assert int(log[-1].split()[0]) == len(record.actions)


def test_quiet_play_prints_only_the_scoreboard(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record_file = tmp_path / "game.json"
    assert main(["play", "--quiet", "--seed", "3", "--record", str(record_file)]) == 0
    out = capsys.readouterr().out
    final = final_state(GameRecord.from_json(record_file.read_text()))
    assert out == scoreboard_text(score(final), state=final) + "\n"


def test_replay_at_a_position_draws_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record_file = tmp_path / "game.json"
    assert main(["play", "--quiet", "--players", "2", "--record", str(record_file)]) == 0
    capsys.readouterr()
    svg = tmp_path / "at.svg"
    assert main(["replay", str(record_file), "--at", "25", "--svg", str(svg)]) == 0
    out = capsys.readouterr().out
    states = replay(GameRecord.from_json(record_file.read_text()))
    assert svg.read_text() == render_svg(states[25])
    assert ET.parse(svg).getroot().tag.endswith("svg")
    assert "Position 25:" in out and "Provisional scores" in out
    log = [line for line in out.splitlines() if line[:4].strip().isdecimal()]
    assert int(log[-1].split()[0]) <= 25
    assert main(["replay", str(record_file), "--at", "100000"]) == 2
    assert "--at: positions are 0 to" in capsys.readouterr().err


def test_bad_human_seats_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--human", "4", "--players", "3"]) == 2
    assert "--human: players are 1 to 3, not '4'" in capsys.readouterr().err
    assert main(["play", "--human", "x"]) == 2
    capsys.readouterr()
    # Players count from 1 as on the page; the old seats from 0 are refused, never guessed
    assert main(["play", "--human", "0,2", "--players", "3"]) == 2
    err = capsys.readouterr().err
    assert "numbered from 1" in err and "--human 1,3" in err and len(err.splitlines()) == 1


def test_resume_refuses_a_bad_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    record = GameRecord("europe", "base", 2, 1, 0, actions=("blind",))
    bad.write_text(json.dumps(record.to_json()))
    assert main(["play", "--human", "1", "--resume", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "$.actions[0]" in err and "R9" in err
    bad.write_text("{not json")
    assert main(["play", "--human", "1", "--resume", str(bad)]) == 2
    assert str(bad) in capsys.readouterr().err


def test_the_view_marks_connected_tickets_and_hides_other_hands() -> None:
    state = scenario(
        hands={0: "2red+1loco", 1: "5black"},
        row="red blue green yellow pink",
        tickets={0: ["Zurich-Brindisi", "Brest-Petrograd"], 1: ["Paris-Wien"]},
        owners={"Venezia-Zurich": 0, "Roma-Venezia": 0, "Brindisi-Roma": 0},
    )
    match = Match(state, ["person", "greedy"])
    text = "\n".join(show_view(match, 0))
    assert "done Zurich-Brindisi (6) | open Brest-Petrograd (20)" in text
    assert "Hand (3)  2 red, 1 loco" in text
    assert "Face-up  1:red  2:blue  3:green  4:yellow  5:pink" in text
    assert "black" not in text and "Paris-Wien" not in text  # the other seat's secrets
    assert "Player 2 (ticket-chasing bot): trains 45, route points 0, cards 5, tickets 1" in text


def test_a_pending_tunnel_is_shown_with_its_choices() -> None:
    state = scenario(hands={0: "4red+1loco"}, row="white blue green yellow pink",
                     pile="red blue green white")  # fmt: skip
    match = Match(state, ["person", "random"])
    match.play(0, "claim Erzurum-Sochi with 3red")
    text = "\n".join(show_view(match, 0))
    assert (
        "Tunnel Erzurum-Sochi: laid 3red, revealed red blue green: pay 1 more red or loco" in text
    )
    assert [str(a) for a in menu(match.state)] == ["pay 1red", "pay 1loco", "withdraw"]


def test_the_moves_made_so_far_in_a_turn_are_shown() -> None:
    state = scenario(row="red blue green yellow pink", pile="black white orange")
    match = Match(state, ["person", "random"])
    match.play(0, "blind")
    assert this_turn(match, 0) == ["blind (drew black)"]
    lines = iter(["quit"])
    written: list[str] = []
    Terminal(match, lambda prompt: next(lines), written.append, lambda m: "nowhere").run()
    assert "This turn: blind (drew black)" in written
    match.play(0, "draw 1")
    assert this_turn(match, 0) == []  # the turn is over


class _BrokenBot:
    def choose(self, view: object, legal: object, rng: object) -> object:
        raise RuntimeError("out of order")


def test_a_bot_that_fails_gives_its_seat_to_a_stand_in_and_the_game_goes_on() -> None:
    match = Match.new("usa", "base", 2, 3, seats=["person", _BrokenBot()], first_player=0)
    lines = iter(["keep all", "quit"])
    out: list[str] = []
    terminal = Terminal(match, lambda prompt: next(lines, None), out.append, lambda m: "g.json")
    assert terminal.run() is False  # the person quit later, the bot's failure did not stop it
    assert str(match.actions[0]).startswith("keep ")  # the person's keep stands
    assert len(match.actions) == 2 and match.seats[1].name.startswith("random for")
    (said,) = [line for line in out if "out of order" in line]
    assert said.endswith("a random bot plays for Player 2 from now on.") and "(seat 1)" in said
    assert not any(line.startswith("Not possible") for line in out), out


class _TellingProgram:
    """A program's failure as the line protocol reports it: its last line on standard error
    quotes its offer."""

    def choose(self, view: object, legal: object, rng: object) -> object:
        from ttr_europe.errors import BotError

        raise BotError("teller", None, None, "exited (status 1)", said="SECRET offer A-B")


def test_the_people_at_the_terminal_are_not_shown_what_a_failed_program_wrote() -> None:
    """What a program wrote on standard error is made from its view, and its stand-in keeps
    that hand: the people at the table hear that it failed and how, not what it wrote."""
    match = Match.new("usa", "base", 2, 3, seats=["person", _TellingProgram()], first_player=0)
    lines = iter(["keep all", "quit"])
    out: list[str] = []
    Terminal(match, lambda prompt: next(lines, None), out.append, lambda m: "g.json").run()
    (said,) = [line for line in out if "exited (status 1)" in line]
    assert said.endswith("a random bot plays for Player 2 from now on.")
    assert "SECRET" not in "\n".join(out)


def test_a_line_under_the_limit_in_characters_is_read_whole_however_many_bytes(
    tmp_path: Path,
) -> None:
    saved = tmp_path / "wide.json"
    wide = "keep 1" + "\u3000" * 665 + " 2 3"  # 676 characters, 2005 bytes in UTF-8
    result = subprocess.run(
        [sys.executable, "-m", "ttr_europe", "play", "--human", "1", "--players", "2",
         "--map", "usa", "--seed", "5", "--record", str(saved)],
        input=(wide + "\nquit\n").encode(),
        check=False,
        capture_output=True,
        timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    record = GameRecord.from_json(saved.read_text())
    assert len(final_state(record).players[0].tickets) == 3, result.stdout.decode()[-400:]


def test_a_line_of_exactly_the_limit_is_not_called_too_long() -> None:
    from ttr_europe.table.terminal import MAX_LINE

    match = Match.new("usa", "base", 2, 5, seats=["person", "greedy"], first_player=0)
    exact = "keep all" + " " * (MAX_LINE - len("keep all"))
    lines = iter([exact + "\n", "x" * (MAX_LINE + 1), None])
    out: list[str] = []
    Terminal(match, lambda prompt: next(lines), out.append, lambda m: "g.json").run()
    assert len(match.state.players[0].tickets) == 3
    assert sum("too long" in line for line in out) == 1  # only the line over the limit


# --------------------------------------------------------------------------- the table's wording


def test_quit_then_the_printed_command_keeps_the_persons_seat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    saved = tmp_path / "kept.json"
    args = ["play", "--human", "2", "--players", "4", "--seed", "5", "--bots", "greedy,random",
            "--record", str(saved)]  # fmt: skip
    code, out = run_main(args, "quit\n", monkeypatch)
    hint = next(line for line in out.splitlines() if line.startswith("Game saved to"))
    command = hint.split("continue with: ")[1]
    bots = "greedy,greedy,greedy,random"
    assert command == f"ttr-europe play --resume {saved} --human 2 --bots {bots}"
    code, out = run_main(command.split()[1:], "quit\n", monkeypatch)
    assert code == 0
    assert (
        "Player 1 (ticket-chasing bot), Player 2 (person), Player 3 (ticket-chasing bot), "
        "Player 4 (random-move bot)"
    ) in out
    assert "\nPlayer 2 (person), " in out  # the person is asked again, no bot took the seat


def test_second_card_menu_numbers_agree_with_draw_n() -> None:
    state = scenario(row="red loco green yellow pink", pile="black white orange")
    match = Match(state, ["person", "random"])
    match.play(0, "draw 1")  # now only a second card: the locomotive in slot 2 is not allowed
    lines = iter(["2", "3", "quit"])
    written: list[str] = []
    Terminal(match, lambda prompt: next(lines), written.append, lambda m: "nowhere").run()
    first = written[written.index("This turn: draw 1 (took red; slot 1 now black)") + 1 :]
    first = first[: first.index("Type a number or a move (help, view, routes, board, undo, quit).")]
    assert first == ["   1  draw 1 (black)", "   3  draw 3 (green)", "   4  draw 4 (yellow)",
                     "   5  draw 5 (pink)", "   6  blind"]  # fmt: skip
    assert "No choice 2: the menu has 1, 3, 4, 5, 6." in written
    assert str(match.actions[1]) == "draw 3"  # "3" took slot 3, as "draw 3" does


def test_help_names_moves_that_exist_on_the_map() -> None:
    for map_id in ("europe", "usa"):
        match = Match.new(map_id, "base", 2, 1, ["person", "random"])
        text = help_text(match.state)
        claim = next(line.split()[1] for line in text.splitlines() if "  claim " in line)
        assert claim in match.state.map.route_index
        assert ("station " in text) == (map_id == "europe")  # the USA map has no stations
        keep = text.split("keep all / keep ")[1].split()[0]
        assert keep in match.state.map.ticket_index


def test_claim_menu_shows_length_points_tunnel_and_ferry() -> None:
    state = scenario(hands={0: "3red+1loco"}, row="red blue green yellow pink")
    texts = [menu_text(state, a) for a in menu(state) if isinstance(a, ClaimRoute)]
    assert "claim Erzurum-Sochi with 3red  [length 3, 4 points, tunnel]" in texts
    assert menu_text(state, ClaimRoute("Dieppe-London-1", Cards.of(red=1, loco=1))) == (
        "claim Dieppe-London-1 with 1red+1loco  [length 2, 2 points, ferry (1 loco)]"
    )
    assert menu_text(state, ClaimRoute("Dieppe-Paris", Cards.of(red=1))) == (
        "claim Dieppe-Paris with 1red  [length 1, 1 point]"
    )


def test_routes_and_board_commands_list_the_claims(tmp_path: Path) -> None:
    state = scenario(hands={0: "2red"}, owners={"Dieppe-Paris": 0, "Paris-Zurich": 1},
                     stations={1: ["Wien"]})  # fmt: skip
    match = Match(state, ["person", "random"])
    lines = iter(["routes", "board", "quit"])
    written: list[str] = []
    drawn = tmp_path / "board.svg"

    def draw(m: Match, seat: int) -> str:
        drawn.write_text(render_svg(m.view(seat)))
        return str(drawn)

    Terminal(match, lambda p: next(lines), written.append, lambda m: "x", draw=draw).run()
    assert "You have 1 route (1 point): Dieppe-Paris (1)" in written
    assert "  You have 1 route (1 point): Dieppe-Paris (1)" in written
    assert "  Player 2 has 1 route (4 points): Paris-Zurich (3); stations in Wien" in written
    assert f"Board drawn to {drawn} (open it in a browser)" in written
    ET.fromstring(drawn.read_text())


def test_wording_plurals_and_stations_left() -> None:
    state = scenario(hands={0: "1red"}, tickets={0: ["Zurich-Brindisi"]},
                     owners={"Dieppe-Paris": 1}, stations={1: ["Wien"]})  # fmt: skip
    match = Match(state, ["person", "greedy"])
    text = "\n".join(show_view(match, 0))
    other = (
        "Player 2 (ticket-chasing bot): trains 44, route points 1, cards 0, tickets 0, "
        "stations left 2"
    )
    assert other in text
    assert "Player 1 (you): " in text and "stations left 3" in text
    assert describe(TicketsDrawn(0, 1, None)) == "drew 1 ticket"
    assert describe(RouteClaimed(0, "Dieppe-Paris", Cards.of(red=1), 1, 1)) == (
        "claimed, +1 point, 1 train left"
    )
    assert describe(LastRound(0, 2, 1)) == "LAST ROUND: Player 1 has 2 trains left; 1 turn to go"


def test_board_in_play_draws_the_seats_view_beside_the_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = tmp_path / "game.json"
    args = ["play", "--human", "1", "--players", "2", "--record", str(record)]
    code, out = run_main(args, "routes\nboard\nquit\n", monkeypatch)
    drawn = tmp_path / "game-board.svg"
    assert code == 0 and f"Board drawn to {drawn} (open it in a browser)" in out
    assert "You have no routes yet" in out and "  Player 2 has no routes yet" in out
    root = ET.fromstring(drawn.read_text())
    assert root.find("{http://www.w3.org/2000/svg}g[@class='sidebar']") is not None  # seat 0's


@pytest.mark.parametrize("seed", [1, 2])
def test_the_last_round_is_counted_right_at_every_one_of_its_turns(seed: int) -> None:
    """On each of the final turns the terminal says how many turns come after this one: the
    turns the engine then starts before the game ends (none on the very last)."""
    from ttr_europe.players import decide, make_bot

    match = Match.new("europe", "base", 3, seed, ["person"] * 3)
    bot, rng = make_bot("greedy"), random.Random(seed)
    said: list[tuple[int, str]] = []  # (event number, the last-round line) at each decision
    while not match.finished:
        seat = match.current
        said += [(match.seq, line) for line in show_view(match, seat) if "Last round" in line]
        match.play(seat, decide(bot, match.state, rng))
    starts = [n for n, e in match.events_since(0, None) if e.to_json()["type"] == "turn_started"]
    assert said
    for n, line in said:
        after = sum(1 for s in starts if s > n)
        turns = "turn" if after == 1 else "turns"
        expected = f"Last round: {after} {turns} left after this one" if after else (
            "Last round: this is the last turn")  # fmt: skip
        assert line.strip() == expected, (n, line)
    assert {line.strip() for _, line in said} >= {
        "Last round: this is the last turn", "Last round: 1 turn left after this one",
        "Last round: 2 turns left after this one"}  # fmt: skip


def _typed(match: Match, lines: list[str], **kw: object) -> list[str]:
    """What the terminal writes while a person types ``lines`` (then quits)."""
    typed = iter([*lines, "quit"])
    written: list[str] = []
    Terminal(match, lambda prompt: next(typed), written.append, lambda m: "nowhere", **kw).run()  # type: ignore[arg-type]
    return written


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_mistake_gets_one_line_in_the_language_saying_what_to_type(lang: str) -> None:
    tr = translator(lang)
    state = scenario(hands={0: "2red+2blue+1loco"}, row="red blue green yellow pink")
    match = Match(state, ["person", "random"], seed=1)
    mistakes = ["undo", "помощь", "draw 9", "", "claim Paris"]
    written = _typed(match, mistakes, tr=tr)
    answers = written[written.index(tr.t("Type a number or a move (help, view, routes, board, "
                                         "undo, quit)."), ) + 1 :]  # fmt: skip
    answers = answers[: len(mistakes)]
    instead = tr.t("Type help for the moves, or a number from the menu (view shows it).")
    assert answers[0] == tr.t("Nothing to undo: no person has moved yet.")
    assert answers[1].endswith(instead) and "помощь" in answers[1]
    assert answers[2] == tr.t(  # no "(rule input)": the slots there are, and how to say one
        "There is no face-up card {slot}: type draw 1 to draw {last}, or draw and a colour "
        "(draw red).", slot=9, last=5)  # fmt: skip
    assert answers[3] == tr.t("Type a number or a move (help, view, routes, board, undo, quit).")
    assert answers[4].endswith(instead) and "'Paris'" in answers[4]
    assert not match.actions  # nothing was played
    starting = Match.new("europe", "base", 2, 8, ["person", "random"], first_player=0)
    twice = _typed(starting, ["keep 1 1 1 1"], tr=tr)  # a ticket listed twice: no rule for it
    assert f"{tr.t('That move is not possible.')} {instead}" in twice
    assert not starting.actions


@pytest.mark.parametrize(
    "typed",
    ["claim roma venezia", "claim Venezia-Roma", "CLAIM venice  rome", "claim Roma - Venezia",
     "claim rome to venice"],
)  # fmt: skip
def test_a_claim_is_read_by_its_two_cities_in_either_order_with_a_space_or_a_hyphen(
    typed: str,
) -> None:
    state = scenario(hands={0: "2black+2yellow"}, row="red blue green yellow pink")
    match = Match(state, ["person", "random"], seed=1)
    _typed(match, [typed])
    assert str(match.actions[0]) == "claim Roma-Venezia with 2black"


def test_a_claim_by_cities_ignores_case_and_accents() -> None:
    state = scenario(hands={0: "2black+2yellow"}, row="red blue green yellow pink")
    match = Match(state, ["person", "random"], seed=1)
    _typed(match, ["claim zurich munchen"])  # Zürich-München, a tunnel
    assert match.actions[0] == ClaimRoute("Munchen-Zurich", Cards.of(yellow=2))


def test_names_holding_spaces_are_split_where_they_name_two_cities_joined_by_a_route() -> None:
    """On the USA map a space may be inside a name or between the two: every split point is
    tried. A double route is ambiguous as with the hyphen: its claims are numbered to pick."""
    hand = "3red+3yellow+2orange+2black"
    state = scenario("usa", hands={0: hand}, row="red blue green yellow pink")
    match = Match(state, ["person", "random"], seed=1)
    written = _typed(match, ["claim Salt Lake City Denver", "2"])
    picks = [line for line in written if line.startswith(("   1  claim ", "   2  claim "))]
    assert sorted(line[6:] for line in picks) == [
        "claim Denver-Salt Lake City-red with 3red",
        "claim Denver-Salt Lake City-yellow with 3yellow",
    ]
    assert str(match.actions[0]) == picks[1][6:]
    match = Match(state, ["person", "random"], seed=1)
    written = _typed(match, ["claim new york washington"])
    assert "   1  claim New York-Washington-orange with 2orange" in written
    assert "   2  claim New York-Washington-black with 2black" in written
    assert not match.actions
    match = Match(state, ["person", "random"], seed=1)
    _typed(match, ["claim washington new york black"])  # a track's colour after the cities
    assert str(match.actions[0]) == "claim New York-Washington-black with 2black"


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_claim_naming_no_route_says_what_to_type_in_the_language(lang: str) -> None:
    tr = translator(lang)
    state = scenario(hands={0: "2black+2yellow"}, row="red blue green yellow pink")
    match = Match(state, ["person", "random"], seed=1)
    written = _typed(match, ["claim roma paris", "claim roma atlantis"], tr=tr)
    instead = tr.t("Type help for the moves, or a number from the menu (view shows it).")
    said = [line for line in written if line.endswith(instead)]
    assert len(said) == 2 and "'roma paris'" in said[0] and "'roma atlantis'" in said[1]
    assert not match.actions


@pytest.mark.parametrize("lang", ["en", "pt", "ru", "ro"])
def test_the_heading_is_plain_words_after_a_blank_line(lang: str) -> None:
    """No run of signs (``== ... ==``) that a screen reader says one by one: the heading is a
    sentence ending in a colon, set off by the blank line above it."""
    tr = translator(lang)
    match = Match.new("europe", "base", 2, 3, ["person", "random"], first_player=0)
    written = _typed(match, [], tr=tr)
    heading = written[written.index("") + 1]
    assert heading == tr.t(
        "Player {n} ({name}), {step}:",
        n=1,
        name=tr.seat_kind("person"),
        step=tr.t("choose your starting tickets"),
    )
    assert heading.endswith(":") and not any("==" in line for line in written)


def test_lines_are_broken_between_words_to_fit_a_narrow_terminal() -> None:
    def game(width: int | None) -> list[str]:
        match = Match.new("europe", "base", 3, 5, ["person", "person", "greedy"], first_player=0)
        return _typed(match, ["help", "keep 1 2", "keep all", "nonsense"],
                      tr=translator("ru"), width=width)  # fmt: skip

    whole, narrow = "\n".join(game(None)), "\n".join(game(40))
    assert max(map(len, whole.splitlines())) > 40
    assert max(map(len, narrow.splitlines())) <= 40
    assert narrow.split() == whole.split()  # every word whole, none cut in two


def test_fit_keeps_the_indent_and_leaves_a_word_longer_than_the_line_whole() -> None:
    assert fit("   1  keep Frankfurt-Kobenhavn, Lisboa-Danzig", 20).splitlines() == [
        "   1  keep",
        "     Frankfurt-Kobenhavn,",
        "     Lisboa-Danzig",
    ]
    assert fit("short\n\nlines", 20) == "short\n\nlines"
    assert fit("x" * 30, None) == "x" * 30


class _Interrupted:
    """A bot that is still thinking when the person presses Ctrl-C."""

    def choose(self, view: object, legal: object, rng: object) -> object:
        raise KeyboardInterrupt


def test_ctrl_c_while_a_bot_thinks_saves_the_game_like_quit() -> None:
    match = Match.new("europe", "base", 2, 8, ["person", _Interrupted()], first_player=0)
    typed = iter(["keep 1 2"])
    written: list[str] = []
    saved: list[Match] = []
    quit_early = Terminal(
        match, lambda prompt: next(typed), written.append, lambda m: saved.append(m) or "game.json"
    ).run()
    assert quit_early is False and saved == [match]
    assert written[-1].startswith("Game saved to game.json; continue with: ttr-europe play")
    assert [str(a) for a in match.actions] == ["keep Amsterdam-Wilno, Kobenhavn-Erzurum"]


def test_a_secret_deal_and_the_final_scores_name_the_map_in_the_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ru = translator("ru")
    named = "Ticket to Ride: Европа, вариант Европа"  # the map's title and variant, in Russian
    code, out = run_main(
        ["play", "--human", "1", "--lang", "ru", "--record", str(tmp_path / "g.json")],
        "", monkeypatch,
    )  # fmt: skip
    assert code == 0 and out.startswith(f"{named}, игроков: 3, карты розданы втайне")
    final = final_state(GameRecord.from_json(Path(tmp_path / "g.json").read_text()))
    assert scoreboard_text(score(final), ru, final).startswith(f"{ru.t('Provisional scores')} "
                                                               f"({named}); ")  # fmt: skip


def test_the_scores_say_each_players_row_in_words() -> None:
    """The table's columns are layout; each player's part repeats the row with its words."""
    ru = translator("ru")
    match = Match.new("europe", "base", 2, 3, ["greedy", "random"])
    match.advance()
    board = match.scoreboard()
    text = scoreboard_text(board, ru, match.state).splitlines()
    for p in board.players:
        said = (
            f"  {ru.marked('routes')} {p.route_points}, {ru.marked('tickets')} "
            f"{p.ticket_points:+}, {ru.marked('stations')} {p.station_points}, "
            f"{ru.marked('bonus')} {p.bonus}"
        )
        assert said in text, (said, text)
    assert ru.marked("routes") == "перегоны"


@pytest.mark.parametrize(("width", "rows"), [(80, 24), (40, 24)])
def test_a_decision_fits_the_terminals_rows_and_a_claim_left_out_can_be_typed(
    width: int, rows: int
) -> None:
    colours = ("red", "blue", "green", "yellow", "black", "white", "orange", "pink", "loco")
    hand = "+".join(f"4{c}" for c in colours)
    state = scenario(hands={0: hand}, row="red blue green yellow pink")
    whole = menu(state)
    assert sum(isinstance(a, ClaimRoute) for a in whole) == MENU_CLAIMS  # a long menu
    last = whole[-1]
    assert isinstance(last, ClaimRoute)
    match = Match(state, ["person", "random"], seed=1)
    ru = translator("ru")
    written = _typed(match, [f"claim {last.route} with {last.payment}"], tr=ru, width=width,
                     rows=rows)  # fmt: skip
    ask = next(i for i, text in enumerate(written) if text.startswith("Введите номер или"))
    screen = "\n".join(written[: ask + 1])  # one decision, from its blank line to its advice
    listed = sum(1 for line in screen.splitlines() if " claim " in line[:12])
    if width == 80:  # all of it on the screen, the input line last
        assert len(screen.splitlines()) <= rows - 1 and listed >= 3
    else:  # 40 columns cannot hold it: the claims go down to three, the view stays whole
        assert listed == 3
    assert ru.t("Hand ({total})  {cards}", total=36, cards="\0").split("\0")[0] in screen
    assert str(last) not in screen and "не показаны: введите claim и перегон." in screen
    assert match.actions == (last,)  # typed, it is played all the same


def test_hot_seat_hands_the_keyboard_over_and_clears_what_the_last_person_saw() -> None:
    """Two persons and a bot at one keyboard, a whole game: each person's hand is shown only
    after a hand-over that person confirmed, on a screen cleared since the other person's
    turn; the screen a hand-over is asked on holds no hand or ticket offer."""
    match = Match.new("europe", "base", 3, 7, ["person", "greedy", "person"], first_player=0)
    rng = random.Random(7)
    screen: list[str] = []  # what a person could read now: the screen and its scrollback
    events: list[tuple[str, object]] = []
    handed: list[int] = []

    def read(prompt: str) -> str:
        if prompt.startswith("Press Enter to see your turn"):
            assert not any(line.startswith(("Hand (", "Offer")) for line in screen), screen
            turn = next(line for line in reversed(screen) if "'s turn. Only" in line)
            handed.append(int(turn.split("Player ")[1].split("'")[0]) - 1)
            events.append(("enter", handed[-1]))
            return ""
        return str(rng.randint(1, 9))

    def write(text: str) -> None:
        screen.append(text)
        heading = re.match(r"Player (\d) \(person\), ", text)
        if heading:  # a decision's heading: the person's hand follows
            events.append(("shown", int(heading[1]) - 1))

    def clear() -> None:
        screen.clear()
        events.append(("clear", None))

    terminal = Terminal(match, read, write, lambda m: "nowhere", clear=clear)
    assert terminal.run() is True
    assert sorted(set(handed)) == [0, 2]
    assert {seat for kind, seat in events if kind == "shown"} == {0, 2}
    entered: int | None = None
    for kind, seat in events:
        if kind == "enter":
            entered = seat
        elif kind == "shown":
            assert entered == seat, events  # a hand only after its own hand-over
    assert events[-1] == ("clear", None)  # the last person's turn is not left on the screen
    # between two persons' hands, a clear before the second hand-over
    shown = [(i, seat) for i, (kind, seat) in enumerate(events) if kind == "shown"]
    for (i, a), (j, b) in itertools.pairwise(shown):
        if a != b:
            enter = max(k for k in range(i, j) if events[k] == ("enter", b))
            assert ("clear", None) in events[i:enter], events[i : j + 1]


def test_hot_seat_hand_over_quit_saves_and_a_single_person_is_never_asked() -> None:
    match = Match.new("europe", "base", 3, 7, ["person", "greedy", "person"], first_player=0)
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return "quit"

    saved: list[Match] = []
    written: list[str] = []
    terminal = Terminal(match, read, written.append, lambda m: saved.append(m) or "here")
    assert terminal.run() is False and saved and not match.actions
    assert prompts == ["Press Enter to see your turn (or type quit). "]
    assert not any(line.startswith("Hand (") for line in written)
    alone = Match.new("europe", "base", 2, 7, ["person", "greedy"], first_player=0)
    prompts.clear()
    Terminal(alone, read, written.append, lambda m: "here").run()
    assert prompts == ["> "]  # one person: straight to the decision, no hand-over


def test_hot_seat_a_persons_board_picture_is_removed_when_their_turn_ends(
    tmp_path: Path,
) -> None:
    """``board`` draws the board as the person sees it, hand included: with persons sharing
    the keyboard the picture is removed when that person's turn ends (one person alone
    keeps it)."""
    picture = tmp_path / "game-board.svg"

    def draw(match: Match, seat: int) -> str:
        picture.write_text(f"the hand of seat {seat}")
        return str(picture)

    for seats, kept in ((["person", "person"], False), (["person", "random"], True)):
        picture.unlink(missing_ok=True)
        match = Match.new("europe", "base", 2, 7, seats, first_player=0)
        lines = iter(["", "board", "1", "quit"])
        seen: list[bool] = []

        def read(prompt: str, lines: Iterator[str] = lines, seen: list[bool] = seen) -> str:
            seen.append(picture.exists())
            return next(lines)

        written: list[str] = []
        Terminal(match, read, written.append, lambda m: "here", draw=draw).run()
        assert f"Board drawn to {picture} (open it in a browser)" in written
        assert seen[2] is True  # there while its person decides
        assert picture.exists() is kept
