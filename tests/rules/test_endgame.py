"""The end of the game: R46 with D25 and D34 (the trigger and the last round), D1 (passing only
when nothing else is legal) and D30 (everyone passes: the game ends)."""

from __future__ import annotations

from typing import Any

import pytest

from ttr_europe import (
    Cards,
    ClaimRoute,
    DrawBlind,
    DrawTickets,
    GameOverError,
    GameState,
    KeepTickets,
    Pass,
    Phase,
    WithdrawTunnel,
    apply,
    current_player,
    is_terminal,
    legal_actions,
    load_map,
)
from ttr_europe.testing import refusal, scenario

EUROPE = load_map("europe")
REGULAR = [t.id for t in EUROPE.tickets if t.deck == "base" and not t.long]
ROW = "red blue green yellow pink"
PILE = " ".join(["white", "black", "orange"] * 10)


def two_cards(state: GameState) -> GameState:
    """A whole drawing turn: two blind cards."""
    state = apply(state, DrawBlind())
    assert state.phase is Phase.SECOND_DRAW
    return apply(state, DrawBlind())


# --------------------------------------------------------------------------- R46, D25, D34


def test_r46_two_trains_left_starts_a_last_round_of_one_turn_each() -> None:
    s = scenario(players=3, current=1, hands={1: "1black"}, row=ROW, pile=PILE, trains={1: 3})
    s = apply(s, ClaimRoute("Amsterdam-Bruxelles", Cards.of(black=1)))
    assert s.players[1].trains == 2
    assert s.final_turns == 3 and s.current == 2  # D34: every seat owes one turn
    s = two_cards(s)
    assert s.final_turns == 2 and s.current == 0
    s = two_cards(s)
    assert s.final_turns == 1 and s.current == 1  # the trigger plays again, last
    s = two_cards(s)
    assert s.final_turns == 0 and s.phase is Phase.GAME_OVER
    assert is_terminal(s) and current_player(s) is None
    assert len(legal_actions(s)) == 0


@pytest.mark.parametrize("left", [2, 1, 0])
def test_r46_two_one_or_zero_trains_trigger(left: int) -> None:
    s = scenario(hands={0: "1black"}, row=ROW, pile=PILE, trains={0: left + 1})
    s = apply(s, ClaimRoute("Amsterdam-Bruxelles", Cards.of(black=1)))
    assert s.players[0].trains == left and s.final_turns == 2 and s.current == 1


def test_r46_three_trains_left_do_not_trigger() -> None:
    s = scenario(hands={0: "1black"}, row=ROW, pile=PILE, trains={0: 4})
    s = apply(s, ClaimRoute("Amsterdam-Bruxelles", Cards.of(black=1)))
    assert s.players[0].trains == 3 and s.final_turns == -1


def test_r46_the_end_is_triggered_once_only() -> None:
    s = scenario(players=2, hands={0: "1black", 1: "1red"}, row=ROW, pile=PILE, trains={0: 3, 1: 3})
    s = apply(s, ClaimRoute("Amsterdam-Bruxelles", Cards.of(black=1)))
    assert s.final_turns == 2
    s = apply(s, ClaimRoute("Budapest-Wien-red", Cards.of(red=1)))
    assert s.players[1].trains == 2 and s.final_turns == 1  # no second trigger
    s = two_cards(s)
    assert s.phase is Phase.GAME_OVER


def test_r46_a_turn_in_several_steps_counts_once() -> None:
    s = scenario(players=2, row=ROW, pile=PILE, final_turns=2, ticket_deck=REGULAR[:5])
    s = apply(s, DrawBlind())
    assert s.final_turns == 2 and s.phase is Phase.SECOND_DRAW
    s = apply(s, DrawBlind())
    assert s.final_turns == 1
    s = apply(s, DrawTickets())
    assert s.final_turns == 1 and s.phase is Phase.CHOOSE_TICKETS
    s = apply(s, KeepTickets(REGULAR[:1]))
    assert s.phase is Phase.GAME_OVER


def test_d25_a_failed_tunnel_attempt_is_a_whole_turn() -> None:
    s = scenario(hands={0: "3red"}, row=ROW, pile="red white white", trains={0: 3})
    s = apply(s, ClaimRoute("Erzurum-Sochi", Cards.of(red=3)))
    assert s.phase is Phase.TUNNEL and s.current == 0
    s = apply(s, WithdrawTunnel())
    assert s.phase is Phase.TURN and s.current == 1
    assert s.final_turns == -1  # three trains left: no trigger


def refused_rule(state: GameState, action: object) -> str:
    """The rule that refuses ``action`` (the refusal checked clean by ``refusal``)."""
    return refusal(state, action).rule


def test_d25_withdrawing_with_two_trains_left_triggers_the_end() -> None:
    s = scenario(hands={0: "2pink"}, row=ROW, pile="pink white white", trains={0: 2})
    s = apply(s, ClaimRoute("Marseille-Zurich", Cards.of(pink=2)))
    assert s.phase is Phase.TUNNEL and s.final_turns == -1
    s = apply(s, WithdrawTunnel())
    assert s.players[0].trains == 2 and s.final_turns == 2 and s.current == 1


def test_d25_a_pass_also_checks_the_end() -> None:
    s = apply(stuck(trains={0: 2}), Pass())
    assert s.final_turns == 2 and s.passes == 1


def test_game_over_refuses_everything() -> None:
    s = scenario(phase=Phase.GAME_OVER, hands={0: "1black"}, row=ROW, pile=PILE)
    for action in (DrawBlind(), Pass(), ClaimRoute("Amsterdam-Bruxelles", Cards.of(black=1))):
        with pytest.raises(GameOverError) as info:
            apply(s, action)
        assert info.value.rule == "R46"
        with pytest.raises(GameOverError):
            apply(s, action, player=1)  # not "not your turn": the game is over
    assert current_player(s) is None and len(legal_actions(s)) == 0


# --------------------------------------------------------------------------- D1, D30, D34


def stuck(players: int = 2, **kw: Any) -> GameState:
    """Nobody can do anything: no card to draw, no ticket, no payable route or station."""
    base: dict[str, object] = {
        "row": "- - - - -",
        "pile": "",
        "ticket_deck": [],
        "hands": {p: "1orange" for p in range(players)},
        "stations": {p: [c.id for c in EUROPE.cities[3 * p : 3 * p + 3]] for p in range(players)},
    }
    base.update(kw)
    return scenario(players=players, **base)  # type: ignore[arg-type]


def test_d1_pass_is_the_only_action_when_nothing_else_is_legal() -> None:
    s = stuck()
    assert list(legal_actions(s)) == [Pass()]
    after = apply(s, Pass())
    assert after.current == 1 and after.passes == 1
    assert (after.players, after.row, after.pile, after.discard, after.owners) == (
        s.players,
        s.row,
        s.pile,
        s.discard,
        s.owners,
    )
    assert after.phase is Phase.TURN and after.final_turns == -1


@pytest.mark.parametrize(
    "kw",
    [
        {"row": "red - - - -"},  # a face-up card can be taken (D3)
        {"pile": "red"},  # a blind card
        {"discard": "red"},  # a blind card after a reshuffle
        {"ticket_deck": [REGULAR[0]]},  # a ticket draw
        {"hands": {0: "1black", 1: ""}},  # Amsterdam-Bruxelles can be claimed
        {"stations": {0: ["Paris"]}, "hands": {0: "2orange"}},  # a second station
    ],
)
def test_d1_no_pass_while_anything_else_is_legal(kw: dict[str, Any]) -> None:
    s = stuck(**kw)
    assert Pass() not in legal_actions(s)
    assert refused_rule(s, Pass()) == "D1"


def test_d1_no_pass_without_trains_for_the_routes_in_hand() -> None:
    """A player who could pay for a route but lacks the trains has nothing to do either."""
    s = stuck(hands={0: "3black", 1: "1orange"}, trains={0: 0}, final_turns=1)
    assert [a for a in legal_actions(s) if isinstance(a, ClaimRoute)] == []
    assert list(legal_actions(s)) == [Pass()]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_d30_every_seat_passing_in_a_row_ends_the_game(players: int) -> None:
    s = stuck(players)
    for seat in range(players):
        assert s.phase is Phase.TURN and s.current == seat and s.passes == seat
        s = apply(s, Pass())
    assert s.phase is Phase.GAME_OVER and s.passes == players


def test_d30_d34_a_real_turn_resets_the_pass_count() -> None:
    s = stuck(3, hands={0: "1orange", 1: "1orange", 2: "1black"}, current=0)
    s = apply(apply(s, Pass()), Pass())
    assert s.passes == 2 and s.current == 2
    s = apply(s, ClaimRoute("Amsterdam-Bruxelles", Cards.of(black=1)))
    assert s.passes == 0 and s.phase is Phase.TURN and s.current == 0


def test_d30_passes_in_the_last_round_still_count_as_turns() -> None:
    s = stuck(3, final_turns=2)
    s = apply(s, Pass())
    assert s.final_turns == 1 and s.phase is Phase.TURN
    s = apply(s, Pass())
    assert s.phase is Phase.GAME_OVER
