"""The scenario builder and the refusal checker that the other tests stand on."""

from __future__ import annotations

import pytest

from ttr_europe import DrawBlind, DrawFaceUp, SetupError, loads
from ttr_europe.jsonio import dumps
from ttr_europe.testing import card_total, refusal, scenario


def test_refusal_returns_the_error_and_rejects_accepted_actions() -> None:
    s = scenario(row="loco red red red red")
    assert refusal(s, DrawFaceUp(7)).rule == "input"
    with pytest.raises(AssertionError, match="was accepted"):
        refusal(s, DrawBlind())


def test_scenario_keeps_every_card_and_ticket_so_it_round_trips() -> None:
    """Unplaced cards go to the pile and unplaced tickets to the box: the state is complete."""
    s = scenario(
        hands={0: "2red+1loco"},
        row="red blue loco red green",
        owners={"Berlin-Wien": 1},
        stations={0: ["Paris"]},
        tickets={0: ["Berlin-Roma"]},
    )
    assert card_total(s).total == 110
    pools = s.rules.variant.long_pool + s.rules.variant.regular_pool
    placed = [*s.ticket_deck, *s.box, *(t for p in s.players for t in (*p.tickets, *p.offer))]
    assert sorted(placed) == sorted(pools)
    assert loads(dumps(s)) == s


def test_scenario_refuses_unknown_tickets() -> None:
    with pytest.raises(SetupError, match="Nowhere-Else"):
        scenario(ticket_deck=["Nowhere-Else"])
    with pytest.raises(SetupError, match="Atlantis"):
        scenario(tickets={0: ["Atlantis-Paris"]})
