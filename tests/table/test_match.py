"""The Match: seats, refusals that change nothing, bots moving between persons, events per seat,
hot-seat undo and the record of the game so far."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_europe import (
    ActionParseError,
    DrawBlind,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    SetupError,
    TTRError,
    observe,
)
from ttr_europe.errors import BotError
from ttr_europe.events import BlindDrawn, GameOver, TicketsKept, TurnStarted
from ttr_europe.players import RandomBot
from ttr_europe.records import final_state
from ttr_europe.scoring import score
from ttr_europe.state import Phase
from ttr_europe.table.match import Match, MatchError, Undone


def snapshot(match: Match) -> tuple[object, ...]:
    return (match.state, match.seq, match.actions)


def person_first() -> Match:
    match = Match.new("europe", "base", 3, seed=5, seats=["person", "greedy", "random"],
                      first_player=0)  # fmt: skip
    assert match.advance() == []  # seat 0, a person, is to act
    return match


def test_new_match_starts_with_the_first_seat_to_choose_tickets() -> None:
    match = person_first()
    assert match.seq == 1
    assert match.events_since(0, None) == [(1, TurnStarted(0, "INITIAL_TICKETS"))]
    assert [s.is_person for s in match.seats] == [True, False, False]
    assert match.view(0) == observe(match.state, 0)
    assert len(match.legal(0)) > 0 and match.legal(1) == () and match.legal(None) == ()


def test_refusals_name_the_rule_and_change_nothing() -> None:
    match = person_first()
    keep = str(match.legal(0)[0])
    before = snapshot(match)
    with pytest.raises(NotYourTurnError) as wrong_seat:
        match.play(1, keep)
    assert wrong_seat.value.rule == "R12"
    with pytest.raises(IllegalActionError) as illegal:
        match.play(0, DrawBlind())
    assert illegal.value.rule  # a phase rule: tickets first
    with pytest.raises(ActionParseError):
        match.play(0, "fly to the moon")
    with pytest.raises(MatchError):
        match.play(7, keep)
    with pytest.raises(MatchError):
        match.events_since("0", 0)  # type: ignore[arg-type]
    assert snapshot(match) == before


def test_ambiguous_text_lists_the_candidates() -> None:
    match = person_first()
    with pytest.raises(ActionParseError) as error:
        match.play(0, "keep")
    assert len(error.value.candidates) > 1


def test_a_person_move_lets_the_bots_move_until_the_person_is_due_again() -> None:
    match = person_first()
    events = match.play(0, match.legal(0)[0])
    assert match.state.current == 0 and match.state.phase is Phase.TURN
    assert [type(e) for _, e in events].count(TicketsKept) == 3
    numbers = [n for n, _ in events]
    assert numbers == list(range(2, match.seq + 1))
    # the person sees its own kept tickets, not those of the bots
    for _, event in events:
        if isinstance(event, TicketsKept):
            assert (event.kept is not None) == (event.seat == 0)


def test_bots_decided_elsewhere_play_as_advance_plays_them() -> None:
    """``play(bots=False)`` then ``decide`` on ``bot_to_act`` and ``bot_move``, as a server
    asks its bots in a thread: the same moves, events and generators as ``play``."""
    from ttr_europe.players import decide

    together, apart = person_first(), person_first()
    keep = together.legal(0)[0]
    together.play(0, keep)
    apart.play(0, keep, bots=False)
    assert apart.state.current == 1 and apart.bot_to_act() is not None
    while (asked := apart.bot_to_act()) is not None:
        apart.bot_move(decide(*asked))
    assert (apart.actions, apart.seq) == (together.actions, together.seq)
    assert [r.getstate() for r in apart.rngs] == [r.getstate() for r in together.rngs]
    before = snapshot(apart)
    with pytest.raises(MatchError, match="no bot is to act"):
        apart.bot_move(keep)
    assert snapshot(apart) == before


def test_a_bot_seat_cannot_be_played_by_a_person() -> None:
    match = Match.new("europe", "base", 2, seed=1, seats=["greedy", "person"], first_player=0)
    with pytest.raises(NotYourTurnError, match="bot"):
        match.play(0, match.legal(0)[0])


class _BrokenBot:
    def choose(self, view: object, legal: object, rng: object) -> object:
        raise RuntimeError("out of order")


def test_a_stand_in_takes_a_failed_bots_seat_and_the_game_goes_on_to_its_end() -> None:
    match = Match.new("usa", "base", 2, seed=4, seats=["person", _BrokenBot()], first_player=0)
    with pytest.raises(BotError, match="out of order"):
        match.play(0, "keep all")
    assert len(match.actions) == 1 and match.state.current == 1  # the person's move stands
    seat = match.stand_in(1)
    assert seat is match.seats[1] and seat.name == "random for _BrokenBot"
    assert isinstance(seat.bot, RandomBot)
    play_out(match, random.Random(4))
    assert match.finished and match.record().actions[0].startswith("keep ")
    assert match.stand_in(1, "greedy").name == "greedy for random for _BrokenBot"


def test_only_a_bots_seat_takes_a_stand_in_and_only_a_bot_stands_in() -> None:
    match = Match.new("usa", "base", 2, seed=4, seats=["person", "greedy"], first_player=0)
    with pytest.raises(MatchError, match="played by a person"):
        match.stand_in(0)
    with pytest.raises(MatchError, match="must be a bot"):
        match.stand_in(1, "person")
    with pytest.raises(MatchError, match="no seat 2"):
        match.stand_in(2)
    with pytest.raises(SetupError, match="seat 1"):
        match.stand_in(1, "no such bot")
    assert match.seats[1].name == "greedy"  # every refusal left the seat as it was


def play_out(match: Match, rng: random.Random) -> None:
    """Persons pick uniformly among legal actions until the game ends."""
    match.advance()
    while not match.finished:
        seat = match.state.current
        legal = match.legal(seat)
        match.play(seat, legal[rng.randrange(len(legal))])


def test_a_whole_game_against_bots_ends_with_the_record_and_scoreboard() -> None:
    match = person_first()
    play_out(match, random.Random(3))
    assert match.finished and match.current is None
    last = match.events_since(match.seq - 1, 1)
    assert last == [(match.seq, GameOver(score(match.state)))]
    assert match.scoreboard() == score(match.state) and match.scoreboard().final
    assert final_state(match.record()) == match.state
    with pytest.raises(GameOverError):
        match.play(0, DrawBlind())
    assert match.legal(0) == ()


def test_blind_cards_are_shown_only_to_the_drawer() -> None:
    match = Match.new("europe", "base", 2, seed=9, seats=["random", "random"])
    match.advance()
    blind = [(n, e) for n, e in match.events_since(0, None) if isinstance(e, BlindDrawn)]
    assert blind and all(e.card is None for _, e in blind)
    for seat in (0, 1):
        mine = [e for _, e in match.events_since(0, seat) if isinstance(e, BlindDrawn)]
        assert all((e.card is not None) == (e.seat == seat) for e in mine)


def test_undo_goes_back_to_the_last_decision_of_a_person() -> None:
    match = person_first()
    start = match.state
    seq = match.seq
    with pytest.raises(MatchError):
        match.undo()
    match.play(0, match.legal(0)[0])
    after_first = match.state
    assert len(match.actions) == 3
    match.play(0, match.legal(0)[0])
    events = match.undo()
    assert match.state == after_first and len(match.actions) == 3
    assert isinstance(events[0][1], Undone) and events[0][1].seat == 0
    match.undo()
    assert match.state == start and match.actions == ()
    assert match.seq > seq  # numbers never go back: clients see the undo as events
    assert match.events_since(match.seq - 1, 0) == [(match.seq, TurnStarted(0, "INITIAL_TICKETS"))]


def test_hot_seat_undo_takes_back_the_other_persons_move() -> None:
    match = Match.new("europe", "base", 2, seed=2, seats=["person", "person"], first_player=0)
    match.play(0, match.legal(0)[0])
    middle = match.state
    match.play(1, match.legal(1)[0])
    assert match.state.current == 0
    match.undo()
    assert match.state == middle and match.state.current == 1


def test_from_record_goes_on_where_the_record_stops() -> None:
    match = person_first()
    for _ in range(4):
        match.play(0, match.legal(0)[-1])
    again = Match.from_record(match.record(), ["person", "greedy", "random"])
    assert again.state == match.state
    assert again.events_since(0, 0) == match.events_since(0, 0)


def test_bad_seats_are_refused() -> None:
    with pytest.raises(SetupError):
        Match.new("europe", "base", 3, seats=["person", "greedy"])
    with pytest.raises(SetupError, match="chess"):
        Match.new("europe", "base", 2, seats=["person", "chess"])
    with pytest.raises(SetupError):
        Match.new("europe", "base", 2, seats=["person", 42])  # type: ignore[list-item]


@settings(max_examples=25)
@given(st.integers(0, 2**32), st.lists(st.sampled_from(["move", "move", "move", "undo", "bad"]),
                                        max_size=60))  # fmt: skip
def test_any_mix_of_moves_undos_and_refusals_keeps_the_match_consistent(
    seed: int, ops: list[str]
) -> None:
    match = Match.new("europe", "base", 3, seed=seed, seats=["person", "random", "person"])
    match.advance()
    rng = random.Random(seed)
    for op in ops:
        if match.finished:
            break
        seat = match.state.current
        before = snapshot(match)
        if op == "move":
            legal = match.legal(seat)
            match.play(seat, legal[rng.randrange(len(legal))])
        elif op == "undo":
            try:
                match.undo()
            except MatchError:
                assert snapshot(match) == before
        else:
            with pytest.raises(TTRError):
                match.play((seat + 1) % 3, "blind")
            assert snapshot(match) == before
        # the record rebuilds the position; event numbers run on without a gap
        assert final_state(match.record()) == match.state
        numbers = [n for n, _ in match.events_since(0, None)]
        assert numbers == list(range(1, match.seq + 1))
        assert match.finished or match.seats[match.state.current].is_person
