"""Events of an action: worked examples, completeness (a follower of the events keeps the public
table in step) and secrecy (nothing a seat sees in an event is hidden by its view)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_europe import (
    Cards,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    GameState,
    KeepTickets,
    PayTunnel,
    Phase,
    WithdrawTunnel,
    apply,
    observe,
)
from ttr_europe.actions import parse
from ttr_europe.cards import LOCOMOTIVE, Color
from ttr_europe.errors import BadArgumentError, IllegalActionError, NotYourTurnError
from ttr_europe.events import (
    EVENT_TYPES,
    BlindDrawn,
    Event,
    EventError,
    FaceUpTaken,
    GameOver,
    LastRound,
    Reshuffled,
    RouteClaimed,
    RowReset,
    SlotRefilled,
    StationBuilt,
    TicketsDrawn,
    TicketsKept,
    TunnelPaid,
    TunnelRevealed,
    TunnelWithdrawn,
    TurnStarted,
    blind_drawn,
    face_up_taken,
    slot_refilled,
    turn_started,
    visible_to,
)
from ttr_europe.records import random_game, replay
from ttr_europe.rules import apply_with_events, events_between
from ttr_europe.scoring import score
from ttr_europe.state import NO_CARD
from ttr_europe.testing import kinds, scenario

ROW = "red blue green yellow pink"
SOCHI = "Erzurum-Sochi"  # a red tunnel of 3


def step(state: GameState, action: Any) -> tuple[GameState, tuple[Event, ...]]:
    after = apply(state, action)
    return after, events_between(state, action, after)


# --------------------------------------------------------------------------- worked examples


def test_face_up_card_taken_then_its_slot_refilled_then_a_blind_card() -> None:
    s = scenario(row=ROW, pile="black white orange")
    s, events = step(s, DrawFaceUp(1))
    assert events == (FaceUpTaken(0, 1, Color.BLUE), SlotRefilled(1, Color.BLACK))
    s, events = step(s, DrawBlind())
    assert events == (BlindDrawn(0, Color.WHITE), TurnStarted(1, "TURN"))
    assert visible_to(events[0], 0) == BlindDrawn(0, Color.WHITE)
    assert visible_to(events[0], 1) == BlindDrawn(0, None)
    assert visible_to(events[0], None) == BlindDrawn(0, None)


def test_three_locomotive_reset_shows_the_discarded_row_and_the_new_one() -> None:
    s = scenario(row="loco loco red blue green", pile="loco white white white white white orange")
    _, events = step(s, DrawFaceUp(2))
    assert events == (
        FaceUpTaken(0, 2, Color.RED),
        SlotRefilled(2, LOCOMOTIVE),
        RowReset(kinds("loco loco loco blue green")),
        *(SlotRefilled(slot, Color.WHITE) for slot in range(5)),
    )
    assert events[2].to_json() == {
        "format": "ttr_europe/event",
        "version": 1,
        "type": "row_reset",
        "discarded": ["loco", "loco", "loco", "blue", "green"],
    }


def test_reshuffle_comes_before_the_card_it_makes_possible() -> None:
    s = scenario(row=ROW, pile="", discard="3black")
    _, events = step(s, DrawBlind())
    assert events == (Reshuffled(3), BlindDrawn(0, Color.BLACK))


def test_tunnel_revealed_then_paid_claims_with_every_card_spent() -> None:
    s = scenario(hands={0: "4red+1loco"}, row=ROW, pile="red blue green white")
    s, events = step(s, ClaimRoute(SOCHI, Cards.of(red=3)))
    assert events == (TunnelRevealed(0, SOCHI, Cards.of(red=3), kinds("red blue green"), 1),)
    assert events[0].to_json() == {
        "format": "ttr_europe/event",
        "version": 1,
        "type": "tunnel_revealed",
        "seat": 0,
        "route": SOCHI,
        "laid": {"red": 3},
        "revealed": ["red", "blue", "green"],
        "extra": 1,
    }
    paid, events = step(s, PayTunnel(Cards.of(loco=1)))
    trains = paid.players[0].trains
    assert events == (
        TunnelPaid(0, SOCHI, Cards.of(loco=1)),
        RouteClaimed(0, SOCHI, Cards.of(red=3, loco=1), 4, trains),
        TurnStarted(1, "TURN"),
    )
    _, events = step(s, WithdrawTunnel())
    assert events == (TunnelWithdrawn(0, SOCHI, Cards.of(red=3)), TurnStarted(1, "TURN"))


def test_tunnel_with_nothing_extra_is_claimed_at_once() -> None:
    s = scenario(hands={0: "3red"}, row=ROW, pile="blue green white")
    after, events = step(s, ClaimRoute(SOCHI, Cards.of(red=3)))
    assert [type(e) for e in events] == [TunnelRevealed, RouteClaimed, TurnStarted]
    assert events[0].extra == 0 and after.owners[s.map.route_index[SOCHI]] == 0  # type: ignore[union-attr]


def test_a_reshuffle_in_the_midst_of_a_reveal_follows_the_cards_of_the_old_pile() -> None:
    """R33, D4, D8: one card comes from the old pile, then the discard is shuffled for the
    other two; the events say so in that order (a follower of the events counts the pile right)."""
    s = scenario(hands={0: "3red"}, row=ROW, pile="blue", discard="2green")
    after, events = step(s, ClaimRoute(SOCHI, Cards.of(red=3)))
    assert events == (
        TunnelRevealed(0, SOCHI, Cards.of(red=3), kinds("blue green green"), 0),
        Reshuffled(2),
        RouteClaimed(0, SOCHI, Cards.of(red=3), 4, after.players[0].trains),
        TurnStarted(1, "TURN"),
    )


def test_a_pile_already_empty_is_reshuffled_before_the_reveal() -> None:
    s = scenario(hands={0: "3red+1loco"}, row=ROW, pile="", discard="2green+1red")
    after, events = step(s, ClaimRoute(SOCHI, Cards.of(red=3)))
    assert [type(e) for e in events] == [Reshuffled, TunnelRevealed]
    assert events[0] == Reshuffled(3) and after.phase is Phase.TUNNEL


def test_shared_events_are_the_events_built_anew() -> None:
    """The reducer looks the commonest events up; any seat, slot or kind gives the same value."""
    for seat in (0, 4, 7):
        for slot in (0, 5, 9):
            for card in (0, LOCOMOTIVE):
                assert face_up_taken(seat, slot, card) == FaceUpTaken(seat, slot, card)
                assert slot_refilled(slot, card) == SlotRefilled(slot, card)
                assert blind_drawn(seat, card) == BlindDrawn(seat, card)
        for phase in Phase:
            assert turn_started(seat, phase) == TurnStarted(seat, phase.name)


def test_apply_with_events_is_apply_and_the_events() -> None:
    s = scenario(row=ROW, pile="black white orange")
    after, events = apply_with_events(s, DrawFaceUp(1))
    assert after == apply(s, DrawFaceUp(1))
    assert events == events_between(s, DrawFaceUp(1), after)
    with pytest.raises(IllegalActionError, match="R13"):
        apply_with_events(after, DrawTickets())  # the second card is due
    with pytest.raises(NotYourTurnError):
        apply_with_events(s, DrawBlind(), player=1)
    with pytest.raises(BadArgumentError, match="apply_with_events"):
        apply_with_events("state", DrawBlind())  # type: ignore[arg-type]


def test_claim_refills_an_empty_slot_at_the_end_of_the_turn() -> None:
    s = scenario(hands={0: "2orange"}, row="red - green yellow pink", pile="white")
    after, events = step(s, ClaimRoute("Brest-Dieppe", Cards.of(orange=2)))
    assert events == (
        RouteClaimed(0, "Brest-Dieppe", Cards.of(orange=2), 2, after.players[0].trains),
        SlotRefilled(1, Color.WHITE),
        TurnStarted(1, "TURN"),
    )


def test_station_built() -> None:
    s = scenario(hands={0: "1red"}, row=ROW)
    _, events = step(s, parse("station Paris with 1red"))
    assert events[0] == StationBuilt(0, "Paris", Cards.of(red=1))


def test_tickets_drawn_and_kept_show_ids_only_to_their_owner() -> None:
    s = scenario(row=ROW)
    s, events = step(s, DrawTickets())
    drawn = events[0]
    assert isinstance(drawn, TicketsDrawn) and drawn.count == 3
    assert drawn.tickets == tuple(s.map.tickets[t].id for t in s.players[0].offer)
    assert visible_to(drawn, 1) == TicketsDrawn(0, 3, None)
    keep = drawn.tickets[:1]
    _, events = step(s, KeepTickets(keep))
    kept = events[0]
    assert kept == TicketsKept(0, 1, 2, "deck", keep, drawn.tickets[1:])
    assert visible_to(kept, None) == TicketsKept(0, 1, 2, "deck", None, None)
    assert visible_to(kept, 1).to_json() == {  # type: ignore[union-attr]
        "format": "ttr_europe/event",
        "version": 1,
        "type": "tickets_kept",
        "seat": 0,
        "kept_count": 1,
        "returned_count": 2,
        "returned_to": "deck",
        "kept": None,
        "returned": None,
    }


def test_last_round_then_game_over_with_the_scoreboard() -> None:
    s = scenario(hands={0: "2orange", 1: "2black"}, row=ROW, trains={0: 4, 1: 10})
    s, events = step(s, ClaimRoute("Brest-Dieppe", Cards.of(orange=2)))
    assert LastRound(0, 2, 2) in events
    s, events = step(s, DrawBlind())
    s, events = step(s, DrawBlind())
    s, events = step(s, DrawBlind())
    assert s.phase is not Phase.GAME_OVER
    s, events = step(s, DrawBlind())
    assert s.phase is Phase.GAME_OVER
    assert events[-1] == GameOver(score(s))
    doc = events[-1].to_json()
    assert doc["type"] == "game_over" and doc["scoreboard"]["final"] is True


def test_a_state_that_does_not_follow_is_refused() -> None:
    s = scenario(row=ROW, pile="black white orange")
    other = apply(s, DrawFaceUp(0))
    with pytest.raises(EventError):
        events_between(s, DrawFaceUp(1), other)
    with pytest.raises(EventError):
        events_between(s, DrawFaceUp(1), scenario(players=3, row=ROW))


def test_every_event_type_has_a_distinct_json_type() -> None:
    names = [cls.type_name() for cls in EVENT_TYPES]
    assert len(set(names)) == len(names)
    assert "blind_drawn" in names and "game_over" in names


# --------------------------------------------------------------------------- whole games


def follow_row(row: list[int], event: Event) -> None:
    """What a UI does with the face-up row on each event."""
    if isinstance(event, FaceUpTaken):
        assert row[event.slot] == event.card
        row[event.slot] = NO_CARD
    elif isinstance(event, SlotRefilled):
        assert row[event.slot] == NO_CARD
        row[event.slot] = event.card
    elif isinstance(event, RowReset):
        assert tuple(row) == event.discarded
        row[:] = [NO_CARD] * len(row)


def secrets_ok(event: Event, seat: int | None, before: GameState, after: GameState) -> None:
    """Nothing in ``event`` as ``seat`` sees it is hidden from ``seat`` by ``observe``.

    Only blind cards and ticket ids are secret in any event; every other field is on the table.
    """
    shown = visible_to(event, seat)
    assert shown is not None
    if isinstance(shown, BlindDrawn) and shown.card is not None:
        hand_before = observe(before, seat).players[shown.seat].hand
        hand_after = observe(after, seat).players[shown.seat].hand
        assert hand_before is not None and hand_after is not None
        assert hand_after.minus(hand_before) == Cards.of({shown.card: 1})
    if isinstance(shown, TicketsDrawn | TicketsKept):
        known_tickets = {
            t
            for v in (observe(before, seat), observe(after, seat))
            for p in v.players
            for group in (p.tickets, p.offer)
            if group is not None
            for t in group
        }
        for group in (
            (shown.tickets,) if isinstance(shown, TicketsDrawn) else (shown.kept, shown.returned)
        ):
            assert group is None or set(group) <= known_tickets
    if isinstance(shown, GameOver):
        assert after.phase is Phase.GAME_OVER  # tickets are public then (R47)
    if type(shown) not in (BlindDrawn, TicketsDrawn, TicketsKept):
        assert shown == event  # nothing else is ever hidden
    # the filter hides nothing from the seat the secret belongs to
    if getattr(event, "seat", None) == seat:
        assert shown == event


GAMES = [("europe", "base", 2), ("europe", "base", 5), ("europe", "mega", 4), ("usa", "base", 3)]
OPTIONS: list[dict[str, Any]] = [
    {}, {"second_card_optional": True}, {"reset_cap": 0}, {"reset_cap": 1},
]  # fmt: skip


@settings(max_examples=16)
@given(st.sampled_from(GAMES), st.sampled_from(OPTIONS), st.integers(0, 2**32))
def test_random_games_events_follow_the_table_and_keep_secrets(
    game: tuple[str, str, int], options: dict[str, Any], seed: int
) -> None:
    board, variant, players = game
    record = random_game(board, variant, players, seed, seed, **options)
    states = replay(record)
    row = list(states[0].row)
    owners: dict[str, int] = {}
    for i, text in enumerate(record.actions):
        before, after = states[i], states[i + 1]
        events = events_between(before, parse(text), after)
        for event in events:
            follow_row(row, event)
            if isinstance(event, RouteClaimed):
                owners[event.route] = event.seat
            for seat in (None, *range(players)):
                secrets_ok(event, seat, before, after)
            assert event.to_json()["type"] == type(event).type_name()
        assert tuple(row) == after.row
        assert owners == observe(after, None).owners
        if after.phase is not Phase.GAME_OVER and after.current != before.current:
            assert events[-1] == TurnStarted(after.current, after.phase.name)
    assert isinstance(events[-1], GameOver) == (states[-1].phase is Phase.GAME_OVER)
