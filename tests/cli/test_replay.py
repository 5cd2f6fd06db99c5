"""`ttr-europe replay`: a record played back to the same scoreboard, a position shown with
``--at``, the board drawn with ``--svg``, and exit status 2 for every bad record or argument."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

import ttr_europe
from ttr_europe.actions import KeepTickets, parse
from ttr_europe.cli import main
from ttr_europe.events import visible_to
from ttr_europe.jsonio import action_to_json, scoreboard_to_json
from ttr_europe.records import GameRecord
from ttr_europe.scoring import score
from ttr_europe.views import observe


def test_play_record_replays_to_the_same_scoreboard(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = tmp_path / "game.json"
    assert main(["play", "--map", "usa", "--players", "3", "--seed", "5", "--quiet",
                 "--record", str(record)]) == 0  # fmt: skip
    played = capsys.readouterr().out
    assert main(["replay", str(record)]) == 0
    replayed = capsys.readouterr().out
    assert played.startswith("Final scores") and played.strip() in replayed
    assert replayed.startswith("# map=usa variant=base players=3 seed=5")


def test_replay_reports_a_bad_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "ttr_europe/record"}')
    assert main(["replay", str(bad)]) == 2
    assert f"{bad}: $" in capsys.readouterr().err


def test_a_game_on_a_map_file_replays_from_its_record_alone(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The record carries the map document: it replays after the map file is gone."""
    doc = json.loads((Path(ttr_europe.__file__).parent / "data" / "maps" / "usa.json").read_text())
    doc["id"] = "my_usa"
    map_file = tmp_path / "my_usa.json"
    map_file.write_text(json.dumps(doc))
    record = tmp_path / "game.json"
    assert main(["play", "--map", str(map_file), "--players", "2", "--seed", "3", "--quiet",
                 "--record", str(record)]) == 0  # fmt: skip
    capsys.readouterr()
    map_file.unlink()
    assert main(["replay", str(record)]) == 0, capsys.readouterr().err
    assert capsys.readouterr().out.startswith("# map=my_usa variant=base players=2 seed=3")


@pytest.fixture
def record(tmp_path: Path) -> Path:
    """A short finished game's record (usa, 2 players), as `play --record` writes it."""
    path = tmp_path / "game.json"
    assert main(["play", "--map", "usa", "--players", "2", "--seed", "1", "--quiet",
                 "--record", str(path)]) == 0  # fmt: skip
    return path


def test_at_shows_that_position_and_scores_it(
    record: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    capsys.readouterr()
    moves = len(GameRecord.from_json(record.read_text("utf-8")).actions)
    assert main(["replay", str(record), "--at", "0"]) == 0
    out = capsys.readouterr().out
    assert "\nPosition 0:\n" in out and "Final scores" not in out.split("Position 0:")[0]
    svg = tmp_path / "end.svg"
    assert main(["replay", str(record), "--at", str(moves), "--svg", str(svg)]) == 0
    assert f"\nPosition {moves}:\n" in capsys.readouterr().out
    assert ET.parse(svg).getroot().tag.endswith("svg")


@pytest.mark.parametrize("at", ["-1", "+1000000"])
def test_at_outside_the_game_is_one_line_and_status_2(
    at: str, record: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["replay", str(record), f"--at={at}"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ttr-europe: error: --at: positions are 0 to ") and err.count("\n") == 1


@pytest.mark.parametrize(
    ("content", "message"),
    [(None, "No such file"), (b"\xff\xfe{", "not UTF-8"), (b"{", "not valid JSON")],
)
def test_an_unreadable_record_is_one_line_and_status_2(
    content: bytes | None, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "record.json"
    if content is not None:
        path.write_bytes(content)
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ttr-europe: error: ") and message in err and err.count("\n") == 1


def test_a_replay_shows_each_move_from_one_pass_of_the_reducer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``replay`` and a resumed terminal take each move's events from the pass that applied
    it (``records.replay_moves``, ``Match.move_events``), never from a second one."""
    from ttr_europe.records import random_game
    from ttr_europe.rules import events_between
    from ttr_europe.table import terminal
    from ttr_europe.table.match import Match

    record = random_game("europe", "base", 2, seed=4, policy_seed=4)
    match = Match.from_record(record, ["random", "random"])
    states = match.states
    assert [
        events_between(states[i], a, states[i + 1]) for i, a in enumerate(match.actions)
    ] == list(match.move_events)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record.to_json()), "utf-8")

    def refused(*args: object) -> None:
        raise AssertionError("a move's events found again")

    monkeypatch.setattr(terminal, "events_between", refused)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# map=europe variant=base players=2 seed=4")
    assert out.count("Player 1") >= 2  # the turns and the scoreboard were shown


def test_a_replay_speaks_the_chosen_language(
    record: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from repo_scripts import load_script
    from ttr_europe.i18n import translator
    from ttr_europe.table.terminal import LEGEND

    capsys.readouterr()
    svg = tmp_path / "at.svg"
    assert main(["replay", str(record), "--at", "6", "--lang", "ru", "--svg", str(svg)]) == 0
    out = capsys.readouterr().out
    ru = translator("ru")
    assert out.startswith("# map=usa variant=base players=2 seed=1")  # the record's header
    assert ru.t(LEGEND) in out and "\nПозиция 6:\n" in out
    assert "ходит Игрок" in out and "очки за перегоны" in out and "Открытые" in out
    assert not load_script("i18n_catalogs").english_left(out, "ru")
    legend = "".join(
        ET.parse(svg).getroot().find("{http://www.w3.org/2000/svg}g[@class='legend']").itertext()
    )  # type: ignore[union-attr]
    assert "красный" in legend and "red" not in legend


def test_a_position_in_a_tunnel_in_words() -> None:
    from ttr_europe import Cards, ClaimRoute, apply
    from ttr_europe.i18n import translator
    from ttr_europe.table.terminal import describe_state
    from ttr_europe.testing import scenario

    pile = "red blue green " + " ".join(["orange", "black", "white", "pink"] * 10)
    start = scenario(hands={0: "5red+2loco"}, row="blue blue green green yellow", pile=pile)
    tunnel = apply(start, ClaimRoute("Erzurum-Sochi", Cards.of(red=3)))
    assert describe_state(tunnel)[-1] == (
        "Tunnel Erzurum-Sochi: laid 3red, revealed red blue green, 1 more due"
    )
    assert describe_state(tunnel, translator("pt"))[-1] == (
        "Túnel Erzurum-Sochi: jogadas 3red, reveladas vermelho azul verde, mais 1 a pagar"
    )
    assert describe_state(tunnel, translator("ru"))[0] == "ходит Игрок 1 (туннель)"


def _json_replay(path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> list[Any]:
    capsys.readouterr()
    assert main(["replay", str(path), "--json", *extra]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_json_lines_give_each_positions_view_and_the_scoreboard(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A client in another language replays a record from these lines alone: the view of each
    position as the chosen player sees it, the move and its events, then the scoreboard."""
    from ttr_europe.records import random_game, replay
    from ttr_europe.rules import events_between

    record = random_game("europe", "base", 3, seed=11, policy_seed=2)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record.to_json()), "utf-8")
    states = replay(record)
    lines = _json_replay(path, capsys, "--player", "2")
    assert len(lines) == len(states) + 1
    assert lines[-1] == scoreboard_to_json(score(states[-1])) and lines[-1]["final"]
    assert lines[0] == {
        "position": 0,
        "action": None,
        "events": [],
        "view": observe(states[0], 1).to_json(),
    }
    for i, line in enumerate(lines[1:-1], start=1):
        action = parse(record.actions[i - 1])
        mover = states[i - 1].current
        hidden = isinstance(action, KeepTickets) and mover != 1  # another seat's choice
        assert line["position"] == i
        assert line["action"] == (None if hidden else action_to_json(action))
        assert line["view"] == observe(states[i], 1).to_json()
        events = events_between(states[i - 1], action, states[i])
        assert line["events"] == [visible_to(e, 1).to_json() for e in events]  # type: ignore[union-attr]
    blind = [e for line in lines[:-1] for e in line["events"] if e["type"] == "blind_drawn"]
    assert {e["card"] is None for e in blind} == {True, False}  # others' cards stay hidden
    watched = _json_replay(path, capsys, "--at", "5")
    assert len(watched) == 6 and watched[5]["view"] == observe(states[5], None).to_json()
    assert all("position" in line for line in watched)  # no scoreboard before the end


def test_json_lines_stopped_before_the_end_show_no_one_elses_tickets(
    record: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A scoreboard mid-game lists every seat's tickets: the lines a seat or a spectator is
    given before the end carry none, only their views."""
    from ttr_europe.records import GameRecord, replay

    states = replay(GameRecord.from_json(record.read_text("utf-8")))
    lines = _json_replay(record, capsys, "--at", "8", "--player", "1")
    hidden = {t for p in states[8].players[1:] for t in p.tickets}
    names = {states[8].rules.map.tickets[t].id for t in hidden}
    assert names and not any(name in json.dumps(line) for line in lines for name in names)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--svg", "out.svg"], "--svg рисует всю позицию: укажите его без --json"),
        (["--player", "1", "--at", "3"], None),
    ],
)
def test_json_with_a_whole_position_s_picture_is_refused_in_the_player_s_language(
    args: list[str],
    said: str | None,
    record: Path,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A picture shows every seat's routes and the whole row: not a seat's view, so --json
    (which writes a seat's) refuses it, in the language asked for; without --svg it runs."""
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    status = main(["replay", str(record), "--json", "--lang", "ru", *args])
    err = capsys.readouterr().err
    if said is None:
        assert status == 0 and err == ""
    else:
        assert status == 2 and err == f"ttr-europe: ошибка: {said}\n"
        assert not (tmp_path / "out.svg").exists()


def test_player_without_json_is_one_line_and_status_2(
    record: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["replay", str(record), "--player", "1"]) == 2
    err = capsys.readouterr().err
    assert err == "ttr-europe: error: --player chooses whose views --json writes; give --json too\n"


@pytest.mark.parametrize("player", ["0", "3"])
def test_json_for_a_player_not_at_the_table_is_one_line_and_status_2(
    player: str, record: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["replay", str(record), "--json", "--player", player]) == 2
    err = capsys.readouterr().err
    assert err == f"ttr-europe: error: --player: players are 1 to 2, not {player}\n"
