"""A short soak: random full games over both maps, every variant and 2-5 players.

The full run is ``python scripts/soak.py --games 2000``; this keeps CI to a few seconds.
"""

from __future__ import annotations

import pytest

from repo_scripts import load_script

soak = load_script("soak")


@pytest.mark.slow
def test_short_soak_passes(capsys: pytest.CaptureFixture[str]) -> None:
    """Twenty games (every map/variant pair and player count) finish with no failure."""
    assert soak.main(["--games", "20", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("games: 20 ")
    assert "failures: 0" in out
    for config in (
        "europe/base",
        "europe/expanded",
        "europe/big_cities",
        "europe/mega",
        "usa/base",
    ):
        assert f"{config}: 4" in out
    for players in range(2, 6):
        assert f"{players} players: 5" in out


def test_soak_reports_a_failure_with_its_seed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A broken invariant makes the script exit non-zero and print how to reproduce it."""
    monkeypatch.setattr(soak, "invariant_violations", lambda state, tickets=True: ["broken"])
    assert soak.main(["--games", "2", "--seed", "7"]) == 1
    out = capsys.readouterr().out
    assert "failures: 2" in out
    assert "--seed 7 --games 1" in out and "--seed 8 --games 1" in out


def test_game_setup_follows_from_the_seed() -> None:
    """The seed alone fixes map, variant, player count, options and policy."""
    assert soak.Game.from_seed(123) == soak.Game.from_seed(123)
    seen = {(g.map, g.variant, g.players) for g in map(soak.Game.from_seed, range(20))}
    assert len(seen) == 20


def test_a_long_soak_shows_its_progress(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A run that lasts says how far it is on standard error (every ``PROGRESS_SECONDS``),
    the summary staying alone on standard output; ``--quiet`` says nothing until the end."""
    monkeypatch.setattr(soak, "PROGRESS_SECONDS", 0.0)
    assert soak.main(["--games", "2", "--seed", "3"]) == 0
    captured = capsys.readouterr()
    assert captured.err.splitlines()[0].startswith("soak: 1/2 games, ")
    assert captured.err.splitlines()[1].startswith("soak: 2/2 games, ")
    assert captured.out.startswith("games: 2 ")
    assert soak.main(["--games", "1", "--quiet"]) == 0
    assert capsys.readouterr().err == ""
