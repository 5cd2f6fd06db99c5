"""`ttr-europe serve` as configured: bad settings refused before listening, and the dealer that
never deals a match again after a restart (the running server: web/test_web_cli.py)."""

from __future__ import annotations

import pytest

from ttr_europe.cli import main
from ttr_europe.cli.serve import dealer
from ttr_europe.maps import load_map

pytest.importorskip("uvicorn")


def test_serve_refuses_bad_settings_before_listening(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--seats", "person,wizard", "--port", "1"]) == 2
    assert "wizard" in capsys.readouterr().err
    with pytest.raises(SystemExit) as refused:  # argparse: --players is 2 to 5
        main(["serve", "--players", "9", "--port", "1"])
    assert refused.value.code == 2
    assert "players" in capsys.readouterr().err


def test_the_dealer_deals_one_seeded_sequence_and_skips_what_was_made() -> None:
    board = load_map("usa")
    first = dealer(board, "base", 2, ("person", "random"), 7, 0)
    seeds = [first().record().seed for _ in range(4)]
    assert len(set(seeds)) == 4  # every match its own game
    again = dealer(board, "base", 2, ("person", "random"), 7, 0)
    assert [again().record().seed for _ in range(4)] == seeds  # fixed by the seed
    restarted = dealer(board, "base", 2, ("person", "random"), 7, 2)  # two were dealt before
    assert [restarted().record().seed for _ in range(2)] == seeds[2:]
    match = restarted()
    assert match.state.map.id == "usa" and len(match.state.players) == 2


def test_serve_refuses_a_forwarded_allow_ips_that_is_not_addresses(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for bad in ("proxy.example", "127.0.0.1,", "10.0.0.0/33"):
        with pytest.raises(SystemExit) as refused:
            main(["serve", "--forwarded-allow-ips", bad, "--port", "1"])
        assert refused.value.code == 2
        err = capsys.readouterr().err
        assert "--forwarded-allow-ips" in err and "IP addresses or networks" in err
