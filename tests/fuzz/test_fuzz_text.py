"""The notation parsers with adversarial text: long runs of spaces, digits, separators and the
keywords the parsers split on, in time linear in the text."""

from __future__ import annotations

from fuzzing import MID, adversarial_text, hostile_call, mid_game
from hypothesis import given
from hypothesis import strategies as st

from ttr_europe import is_legal, parse_action
from ttr_europe.actions import parse
from ttr_europe.cards import Cards
from ttr_europe.errors import ActionParseError, TTRError
from ttr_europe.jsonio import parse_json

STATES = [MID, mid_game("usa", 2, seed=8, steps=60), mid_game("europe", 5, seed=9, steps=0)]


@given(adversarial_text())
def test_the_exact_action_parser(text: str) -> None:
    outcome = hostile_call(parse, text)
    if outcome.refused:
        assert isinstance(outcome.error, ActionParseError)
    else:
        assert parse(str(outcome.result)) == outcome.result


@given(st.sampled_from(STATES), adversarial_text())
def test_the_friendly_action_parser(state: object, text: str) -> None:
    outcome = hostile_call(parse_action, state, text)
    if not outcome.refused:
        assert is_legal(state, outcome.result)  # type: ignore[arg-type]


@given(adversarial_text())
def test_the_card_parser(text: str) -> None:
    outcome = hostile_call(Cards.parse, text)
    if not outcome.refused:
        assert Cards.parse(str(outcome.result)) == outcome.result


@given(
    st.sampled_from(["{", "[", '"', "1", "-", "e", " ", "\\", ",", ":", "]", "}"]),
    st.integers(0, 300_000),
)
def test_json_text_made_of_one_character(char: str, n: int) -> None:
    outcome = hostile_call(parse_json, char * n)
    assert outcome.refused or isinstance(outcome.error, type(None))
    if outcome.refused:
        assert isinstance(outcome.error, TTRError)
