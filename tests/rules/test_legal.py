"""``legal.LegalActions`` and ``KeepChoices`` keep the contract of a sequence: what ``len``,
indexing (negative too), slices, iteration and ``in`` say agree, on positions of every phase."""

from __future__ import annotations

import random

from hypothesis import given, settings

from ttr_europe.legal import KeepChoices, LegalActions, legal_actions
from ttr_europe.rules import is_legal
from ttr_europe.state import GameState, Phase
from ttr_europe.testing import near_miss_action
from ttr_europe.testing.strategies import states


@settings(max_examples=60, deadline=None)
@given(states())
def test_every_view_of_the_sequence_agrees(state: GameState) -> None:
    legal = legal_actions(state)
    listed = list(legal)
    assert len(legal) == len(listed)
    assert len(set(listed)) == len(listed)  # no action twice
    rng = random.Random(len(listed))
    for i in rng.sample(range(len(listed)), min(len(listed), 25)):
        assert legal[i] == listed[i] and legal[i - len(listed)] == listed[i]
        assert listed[i] in legal and is_legal(state, listed[i])
    assert list(legal[1:7:2]) == listed[1:7:2]
    for _ in range(10):
        action = near_miss_action(rng, state)
        assert (action in legal) == (action in listed) == is_legal(state, action)


def test_a_turn_lists_its_moves_lazily_and_refuses_what_is_not_an_action() -> None:
    from ttr_europe.rules import apply, new_game

    state = new_game("europe", players=2, seed=1)
    while state.phase is not Phase.TURN:
        state = apply(state, legal_actions(state)[0])
    legal = legal_actions(state)
    assert isinstance(legal, LegalActions) and len(legal) == legal.station_count + len(
        [a for a in legal if type(a).__name__ != "BuildStation"]
    )
    assert "nothing" not in legal and None not in legal


def test_a_ticket_offer_lists_its_choices_through_keep_choices() -> None:
    """The keep choices of an offer (``KeepChoices``, the head of the ``LegalActions``): every
    combination of at least the minimum kept, each once, in a fixed order."""
    from itertools import combinations

    from ttr_europe.actions import KeepTickets
    from ttr_europe.rules import new_game

    state = new_game("europe", players=2, seed=1)
    legal = legal_actions(state)
    head = legal.head
    assert isinstance(head, KeepChoices) and list(head) == list(legal)
    offer = [state.rules.map.tickets[t].id for t in state.players[state.current].offer]
    expected = {
        frozenset(c) for k in range(2, len(offer) + 1) for c in combinations(offer, k)
    }  # the base game keeps at least 2 of the first offer (R9)
    assert {frozenset(a.tickets) for a in legal} == expected
    assert all(type(a) is KeepTickets for a in legal) and len(legal) == len(expected)
