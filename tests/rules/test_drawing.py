"""Drawing train cards: R13-R19 with D2-D6, D32, D33 and the reset_cap / second_card_optional
options, as worked examples with exact hands, rows, piles and discards."""

from __future__ import annotations

import pytest

from ttr_europe import (
    Cards,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    Pass,
    Phase,
    apply,
    legal_actions,
)
from ttr_europe.state import NO_CARD
from ttr_europe.testing import card_total, kinds, scenario
from ttr_europe.testing import refusal as refused

ROW = "red blue green yellow pink"


def row(text: str) -> tuple[int, ...]:
    return kinds(text)


# --------------------------------------------------------------------------- R13, R14


def test_r13_two_cards_one_at_a_time_blind_then_face_up() -> None:
    s = scenario(row=ROW, pile="white black orange red")
    s1 = apply(s, DrawBlind())
    assert s1.phase is Phase.SECOND_DRAW and s1.current == 0
    assert s1.players[0].hand == Cards.of(white=1)
    assert s1.draw_pile == row("black orange red")
    s2 = apply(s1, DrawFaceUp(1))
    assert s2.players[0].hand == Cards.of(white=1, blue=1)
    assert s2.row == row("red black green yellow pink")
    assert s2.draw_pile == row("orange red")
    assert s2.phase is Phase.TURN and s2.current == 1
    assert card_total(s2) == card_total(s)


def test_r14_d6_taken_card_is_replaced_in_its_slot_from_the_top_of_the_pile() -> None:
    s = apply(scenario(row=ROW, pile="white black"), DrawFaceUp(3))
    assert s.row == row("red blue green white pink")
    assert s.draw_pile == row("black")
    s = apply(s, DrawFaceUp(0))
    assert s.row == row("black blue green white pink")
    assert s.players[0].hand == Cards.of(yellow=1, red=1)


def test_r13_second_card_may_be_the_face_up_replacement() -> None:
    """R13: the second choice is made after seeing the refilled row."""
    s = apply(scenario(row=ROW, pile="orange white"), DrawFaceUp(0))
    assert s.row[0] == row("orange")[0]
    s = apply(s, DrawFaceUp(0))
    assert s.players[0].hand == Cards.of(red=1, orange=1)
    assert s.row == row("white blue green yellow pink")


# --------------------------------------------------------------------------- R15


def test_r15a_face_up_locomotive_first_is_the_only_card() -> None:
    s = apply(scenario(row="loco blue green yellow pink", pile="red white"), DrawFaceUp(0))
    assert s.players[0].hand == Cards.of(loco=1)
    assert s.phase is Phase.TURN and s.current == 1
    assert s.row == row("red blue green yellow pink")
    assert s.draw_pile == row("white")


def test_r15b_face_up_locomotive_already_showing_is_never_the_second_card() -> None:
    s = apply(scenario(row="red loco green yellow pink", pile="white black"), DrawFaceUp(0))
    assert s.phase is Phase.SECOND_DRAW
    assert refused(s, DrawFaceUp(1)).rule == "R15b"
    assert [a for a in legal_actions(s) if isinstance(a, DrawFaceUp)] == [
        DrawFaceUp(0),
        DrawFaceUp(2),
        DrawFaceUp(3),
        DrawFaceUp(4),
    ]


def test_r15b_locomotive_turned_up_as_the_replacement_cannot_be_taken() -> None:
    s = apply(scenario(row=ROW, pile="loco white"), DrawFaceUp(0))
    assert s.row == row("loco blue green yellow pink")
    error = refused(s, DrawFaceUp(0))
    assert error.rule == "R15b" and "R15b" in str(error)


def test_r15c_blind_locomotive_counts_as_one_ordinary_card() -> None:
    s = apply(scenario(row=ROW, pile="loco loco red"), DrawBlind())
    assert s.phase is Phase.SECOND_DRAW
    assert s.players[0].hand == Cards.of(loco=1)
    s = apply(s, DrawBlind())
    assert s.players[0].hand == Cards.of(loco=2)
    assert s.phase is Phase.TURN and s.current == 1


def test_r15_face_up_locomotive_first_allowed_even_after_blind_ones() -> None:
    """R15a limits only face-up locomotives; a blind first card then a face-up loco is R15b."""
    s = apply(scenario(row="loco blue green yellow pink", pile="loco red"), DrawBlind())
    assert refused(s, DrawFaceUp(0)).rule == "R15b"
    s = apply(s, DrawFaceUp(1))
    assert s.players[0].hand == Cards.of(loco=1, blue=1)


# --------------------------------------------------------------------------- R16


def test_r16_no_hand_limit() -> None:
    big = "11red+11blue+11green+11yellow+11pink+11white+11black+11orange+10loco"
    s = scenario(hands={0: big}, row="loco loco red blue green", pile="orange")
    s = apply(apply(s, DrawBlind()), DrawFaceUp(2))
    assert s.players[0].hand.total == 100
    assert s.players[0].hand == Cards.parse(big).plus(Cards.of(orange=1, red=1))


# --------------------------------------------------------------------------- R17, D2, D32


def test_r17_three_locomotives_after_a_replacement_reset_the_row_between_two_cards() -> None:
    s = scenario(
        row="loco loco red blue green",
        pile="loco white white white white white orange",
    )
    s = apply(s, DrawFaceUp(2))
    assert s.players[0].hand == Cards.of(red=1)
    assert s.discard == Cards.of(loco=3, blue=1, green=1)
    assert s.row == row("white white white white white")  # D6: slots 1-5 from the top
    assert s.draw_pile == row("orange")
    assert s.phase is Phase.SECOND_DRAW
    s = apply(s, DrawFaceUp(4))
    assert s.players[0].hand == Cards.of(red=1, white=1)
    assert s.row == row("white white white white orange")


def test_r17_more_than_three_locomotives_also_reset() -> None:
    s = apply(scenario(row="loco loco loco red blue", pile="loco black black black black black"),
              DrawFaceUp(3))  # fmt: skip
    assert s.discard == Cards.of(loco=4, blue=1)
    assert s.row == row("black black black black black")


def test_r17_two_locomotives_do_not_reset() -> None:
    s = apply(scenario(row="loco loco red blue green", pile="white"), DrawFaceUp(2))
    assert s.row == row("loco loco white blue green")
    assert s.discard == Cards()


def test_d2b_no_reset_when_nothing_could_refill_the_row() -> None:
    s = apply(scenario(row="loco loco red blue green", pile="loco"), DrawFaceUp(2))
    assert s.row == row("loco loco loco blue green")
    assert s.discard == Cards() and s.pile_size == 0
    assert s.phase is Phase.SECOND_DRAW
    assert [a for a in legal_actions(s)] == [DrawFaceUp(3), DrawFaceUp(4)]


CAPPED_PILE = (
    "loco "
    "loco loco loco white white "
    "loco loco loco black black "
    "loco loco loco orange orange "
    "yellow yellow yellow yellow yellow red"
)


def test_d2c_at_most_three_resets_then_the_row_stays() -> None:
    s = apply(scenario(row="loco loco red blue green", pile=CAPPED_PILE), DrawFaceUp(2))
    assert s.row == row("loco loco loco orange orange")
    assert s.discard == Cards.of(loco=9, blue=1, green=1, white=2, black=2)
    assert s.draw_pile == row("yellow yellow yellow yellow yellow red")
    assert s.phase is Phase.SECOND_DRAW


def test_d2_option_reset_cap_one() -> None:
    s = scenario(row="loco loco red blue green", pile=CAPPED_PILE, reset_cap=1)
    s = apply(s, DrawFaceUp(2))
    assert s.row == row("loco loco loco white white")
    assert s.discard == Cards.of(loco=3, blue=1, green=1)


def test_d2_option_reset_cap_zero_means_no_limit() -> None:
    s = scenario(row="loco loco red blue green", pile=CAPPED_PILE, reset_cap=0)
    s = apply(s, DrawFaceUp(2))
    assert s.row == row("yellow yellow yellow yellow yellow")
    assert s.discard == Cards.of(loco=12, blue=1, green=1, white=2, black=2, orange=2)
    assert s.draw_pile == row("red")


def test_d2_option_no_cap_stops_when_no_row_could_pass() -> None:
    """With no cap, resets that could never give fewer than 3 locomotives are not made (the
    cards left are 5 locomotives and 2 other cards), so the game does not hang."""
    s = scenario(row="loco loco red loco loco", pile="", discard="loco+red", reset_cap=0)
    after = apply(s, DrawFaceUp(2))
    assert after.players[0].hand == Cards.of(red=1)
    assert card_total(after) == card_total(s)
    assert sum(1 for c in after.row if c == row("loco")[0]) >= 3


def test_d2_option_no_cap_resets_while_a_good_row_is_possible() -> None:
    s = scenario(row="loco loco red loco loco", pile="", discard="3red+loco", reset_cap=0)
    after = apply(s, DrawFaceUp(2))
    loco = row("loco")[0]
    assert sum(1 for c in after.row if c == loco) < 3
    assert card_total(after) == card_total(s)


def test_d32_a_capped_row_is_not_reset_by_cards_reaching_the_discard() -> None:
    """D32: after a claim the row keeps its 3 locomotives; the next placement checks again."""
    capped = scenario(
        players=2,
        hands={0: "2orange", 1: ""},
        row="loco loco loco orange orange",
        pile="red blue green green green green green",
    )
    s = apply(capped, ClaimRoute("Brest-Dieppe", Cards.of(orange=2)))
    assert s.row == capped.row
    assert s.draw_pile == capped.draw_pile
    assert s.discard == Cards.of(orange=2)
    s = apply(s, DrawFaceUp(3))  # seat 1: the replacement is red; the row is checked again
    assert s.players[1].hand == Cards.of(orange=1)
    assert s.discard == Cards.of(orange=3, loco=3, red=1)
    assert s.row == row("blue green green green green")
    assert s.draw_pile == row("green")


# --------------------------------------------------------------------------- R18, D4


def test_r18_d4_discard_reshuffled_only_when_a_card_must_be_drawn() -> None:
    s = scenario(hands={0: "2orange"}, row=ROW, pile="", discard="3white")
    s = apply(s, ClaimRoute("Brest-Dieppe", Cards.of(orange=2)))
    assert s.pile_size == 0  # D4: not reshuffled by the claim
    assert s.discard == Cards.of(white=3, orange=2)
    s = apply(s, DrawBlind())  # seat 1 draws: now the discard becomes the pile
    assert s.discard == Cards()
    assert s.players[1].hand.total == 1
    assert Cards.from_kinds(s.draw_pile).plus(s.players[1].hand) == Cards.of(white=3, orange=2)


def test_r18_reshuffle_between_the_two_cards() -> None:
    s = scenario(row=ROW, pile="black", discard="3white")
    s = apply(s, DrawBlind())
    assert s.pile_size == 0 and s.discard == Cards.of(white=3)
    s = apply(s, DrawBlind())
    assert s.players[0].hand == Cards.of(black=1, white=1)
    assert s.draw_pile == row("white white") and s.discard == Cards()


def test_r18_replacement_comes_from_the_reshuffled_discard() -> None:
    s = apply(scenario(row=ROW, pile="", discard="2black"), DrawFaceUp(4))
    assert s.row == row("red blue green yellow black")
    assert s.draw_pile == row("black") and s.discard == Cards()


# --------------------------------------------------------------------------- R19, D3


def test_r19_no_blind_draw_when_pile_and_discard_are_empty() -> None:
    s = scenario(row=ROW, pile="")
    assert refused(s, DrawBlind()).rule == "R19"
    assert DrawBlind() not in legal_actions(s)
    assert DrawFaceUp(0) in legal_actions(s)  # D3: cards still showing can be taken


def test_d3_empty_slots_stay_empty_and_cannot_be_drawn() -> None:
    s = apply(scenario(row=ROW, pile=""), DrawFaceUp(0))
    assert s.row == (NO_CARD, *row("blue green yellow pink"))
    assert s.phase is Phase.SECOND_DRAW
    assert refused(s, DrawFaceUp(0)).rule == "D3"
    assert refused(s, DrawBlind()).rule == "R19"
    s = apply(s, DrawFaceUp(1))
    assert s.row == (NO_CARD, NO_CARD, *row("green yellow pink"))
    assert s.players[0].hand == Cards.of(red=1, blue=1)
    assert s.current == 1


def test_d3_d33_empty_slots_refilled_in_slot_order_at_the_end_of_a_claim() -> None:
    s = scenario(hands={0: "2orange"}, row="- - green yellow pink", pile="")
    s = apply(s, ClaimRoute("Brest-Dieppe", Cards.of(orange=2)))
    assert s.row == row("orange orange green yellow pink")
    assert s.discard == Cards() and s.pile_size == 0


def test_d3_refill_stops_when_the_cards_run_out() -> None:
    s = scenario(hands={0: "1pink"}, row="- - - yellow pink", pile="")
    s = apply(s, ClaimRoute("Dieppe-Paris", Cards.of(pink=1)))
    assert s.row == (row("pink")[0], NO_CARD, NO_CARD, *row("yellow pink"))


# --------------------------------------------------------------------------- D5


@pytest.mark.parametrize(
    "action", [DrawTickets(), Pass(), ClaimRoute("Dieppe-Paris", Cards.of(pink=1))]
)
def test_d5_the_second_card_is_compulsory(action: object) -> None:
    s = apply(scenario(hands={0: "pink"}, row=ROW, pile="white black"), DrawFaceUp(0))
    assert refused(s, action).rule == "R13"


def test_d5_option_second_card_optional_allows_stopping_after_one() -> None:
    s = scenario(row=ROW, pile="white black", second_card_optional=True)
    s = apply(s, DrawFaceUp(0))
    assert Pass() in legal_actions(s)
    s = apply(s, Pass())
    assert s.players[0].hand == Cards.of(red=1)
    assert s.phase is Phase.TURN and s.current == 1
    assert s.passes == 0  # not a D1 pass: the turn did something


def test_d5_option_does_not_allow_passing_at_the_start_of_a_turn() -> None:
    s = scenario(row=ROW, pile="white black", second_card_optional=True)
    assert refused(s, Pass()).rule == "D1"


def test_d5_turn_ends_after_one_card_when_no_second_card_exists() -> None:
    s = apply(scenario(row="red loco loco - -", pile=""), DrawFaceUp(0))
    assert s.players[0].hand == Cards.of(red=1)
    assert s.phase is Phase.TURN and s.current == 1


def test_d5_blind_first_card_then_nothing_left() -> None:
    s = apply(scenario(row="loco loco loco loco loco", pile="red"), DrawBlind())
    assert s.players[0].hand == Cards.of(red=1)
    assert s.phase is Phase.TURN and s.current == 1


def test_d5_second_card_from_the_reshuffle_when_the_row_is_all_locomotives() -> None:
    s = apply(scenario(row="loco loco loco loco loco", pile="red", discard="blue"), DrawBlind())
    assert s.phase is Phase.SECOND_DRAW
    assert list(legal_actions(s)) == [DrawBlind()]


# --------------------------------------------------------------------------- D33


def test_d33_drawing_tickets_moves_no_train_card() -> None:
    s = scenario(row=ROW, pile="white black")
    after = apply(s, DrawTickets())
    assert (after.row, after.pile, after.pile_top, after.discard, after.rng) == (
        s.row,
        s.pile,
        s.pile_top,
        s.discard,
        s.rng,
    )


def test_r17_reset_after_the_refill_that_ends_a_claim() -> None:
    """R17 "at any time": the D3 refill at the end of a claim can bring a third locomotive;
    the cards in play are 5 locomotives and 2 others, so every new row resets again (D2c)."""
    s = scenario(hands={0: "4loco"}, row="loco - - red blue", pile="")
    after = apply(s, ClaimRoute("Berlin-Danzig", Cards.of(loco=4)))
    loco = row("loco")[0]
    assert after.row.count(loco) >= 3 and NO_CARD not in after.row
    assert after.pile_size + after.discard.total == 2
    assert card_total(after) == card_total(s)
    assert after.rng != s.rng  # the discard was shuffled for the resets


def test_r17_no_cap_no_reset_when_no_row_could_pass_after_a_claim() -> None:
    s = scenario(hands={0: "4loco"}, row="loco - - red blue", pile="", reset_cap=0)
    after = apply(s, ClaimRoute("Berlin-Danzig", Cards.of(loco=4)))
    assert after.row == row("loco loco loco red blue")
    assert after.draw_pile == row("loco loco") and after.discard == Cards()
