"""Every screen of the terminal and the command line in each language, read for English.

A whole game at the terminal (typed: the menu's numbers, help, view, routes, board, undo and
moves that cannot be read or are refused), a game between bots on another variant, ``info``
of both maps and ``replay`` (the whole log, a position with ``--at``) run in Portuguese,
Russian and Romanian; the output must hold no English word outside what stays English on
purpose (docs/web.md): the notation a person types and the commands, ``--`` options and the
record's header, the brand, and the maps' city, route and ticket ids."""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path

import pytest

from english import english_left
from ttr_europe.cli import main
from ttr_europe.i18n import translator


def _script(seed: int) -> str:
    """Menu numbers with the commands and some moves that cannot be read or are refused."""
    rng = random.Random(seed)
    odd = ["station Paris", "foo bar", "claim Nowhere-Else", "keep 9", "draw purple", "draw 9",
           "0", "routes", "board", "view", "pay", "claim Paris-Wien with 3red"]  # fmt: skip
    out = ["help", "keep 9", "keep Nowhere", "keep all", "station Paris", "foo bar", "undo"]
    for _ in range(6000):
        out.append(rng.choice(odd) if rng.random() < 0.04 else str(rng.randint(1, 9)))
    return "\n".join(out) + "\n"


def _run(args: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch) -> str:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    monkeypatch.setattr(sys, "stdout", out)
    assert main(args) == 0, out.getvalue()[-2000:]
    return out.getvalue()


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["pt", "ru", "ro"])
def test_every_terminal_and_command_line_screen_speaks_the_language(
    lang: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = tmp_path / "game.json"
    monkeypatch.chdir(tmp_path)
    screens = {
        "a game at the terminal": _run(
            ["play", "--human", "1", "--players", "3", "--seed", "4", "--bots", "greedy,saver",
             "--lang", lang, "--record", str(record)], _script(4), monkeypatch),
        "a game between bots": _run(
            ["play", "--variant", "big_cities", "--players", "4", "--seed", "2", "--bots",
             "random,claimer,saver,greedy", "--lang", lang, "--record", "bots.json"],
            "", monkeypatch),
        "info": _run(["info", "europe", "--lang", lang], "", monkeypatch)
        + _run(["info", "usa", "--lang", lang], "", monkeypatch),
        "replay": _run(["replay", str(record), "--lang", lang], "", monkeypatch)
        + _run(["replay", str(record), "--at", "9", "--lang", lang], "", monkeypatch),
    }  # fmt: skip
    # what the screens were meant to show was shown: the unreadable moves' reasons, the
    # seats described, the variant's name, the final scores
    tr = translator(lang)
    game = screens["a game at the terminal"]
    unread = tr.t("Not a move I can read ({detail}).", detail="\0").split("\0")[0]
    assert unread in game and tr.seat_kind("saver") in game
    assert tr.t("Final scores") in game and tr.t("Moves (words in any case; cities by name, "
                                                 "id or English name):") in game  # fmt: skip
    assert tr.marked("Big Cities of Europe") in screens["a game between bots"]
    assert tr.marked("Europe Expanded (Europa 1912)") in screens["info"]
    for name, text in screens.items():
        assert not english_left(text, lang), (name, sorted(english_left(text, lang)))


def test_the_check_finds_english_left_on_a_screen() -> None:
    """The reader above on lines that still hold English: it would refuse them."""
    assert english_left("Маршруты open Cadiz-Stockholm (21) | done Venezia-Wien", "ru") == {
        "open", "done"
    }  # fmt: skip
    assert english_left("Nu pot citi această mutare ('station Paris' fits 4 legal actions).",
                        "ro") == {"fits", "legal", "actions"}  # fmt: skip
    assert english_left("Jogador 1 (person), seu turno: robô greedy", "pt") == {
        "person", "greedy"
    }  # fmt: skip
    assert english_left("взята orange; Frankfurt-Paris-orange", "ru") == {"orange"}
    # notation, ids, the brand and the record's header stay
    assert not english_left(
        "# map=europe variant=base players=2 seed=1\nTicket to Ride: Europa\n"
        "   4     1 Jogador 1: claim Paris-Wien with 3red+1loco (conquistada); draw red", "pt"
    )  # fmt: skip
