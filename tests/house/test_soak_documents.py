"""The soak script's document mode: JSON round trips and views checked along a game."""

from __future__ import annotations

import random

import attrs
import pytest

from repo_scripts import load_script
from ttr_europe import new_game, observe
from ttr_europe.views import View

soak = load_script("soak")


@pytest.mark.slow
def test_document_mode_passes_on_real_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert soak.main(["--games", "2", "--seed", "7", "--documents", "--quiet"]) == 0
    assert "failures: 0" in capsys.readouterr().out


def test_document_checks_see_a_leaking_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """A view that shows another seat's hand is reported (the check is not vacuous)."""
    state = new_game("usa", players=2, seed=3)
    assert soak.document_violations(state, None, random.Random(0)) == []

    def leaky(state: object, seat: int | None) -> View:
        view = observe(state, seat)  # type: ignore[arg-type]
        others = tuple(
            attrs.evolve(p, hand=state.players[p.seat].hand)  # type: ignore[attr-defined]
            for p in view.players
        )
        return attrs.evolve(view, players=others)

    monkeypatch.setattr(soak, "observe", leaky)
    broken = soak.document_violations(state, None, random.Random(0))
    assert any("shows seat" in b for b in broken)


def test_record_check_sees_another_ending() -> None:
    game = soak.Game.from_seed(3)
    final, actions, failures = soak.play(game, check=False)
    assert failures == []
    assert soak.record_violations(game, actions, final) == []
    assert soak.record_violations(game, actions[:-1], final) == [
        "the game record replays to another state"
    ]
