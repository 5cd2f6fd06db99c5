"""Errors cross process boundaries whole: every ``TTRError`` pickles with its message, its
attributes and its type, whatever its ``__init__`` takes (a pool worker's ``BotError`` once
broke the pool's result thread)."""

from __future__ import annotations

import pickle

import pytest

from ttr_europe.actions import DrawBlind
from ttr_europe.errors import (
    ActionParseError,
    BadArgumentError,
    BotError,
    DataError,
    IllegalActionError,
    ScoreMismatchError,
    SetupError,
    TTRError,
    WebError,
)

ERRORS: list[TTRError] = [
    BotError("greedy", 1, DrawBlind(), "answered nothing"),
    BotError("cmd:x", None, None, "not a command spec"),
    DataError("not an int", source="europe.json", path="$.routes[3].length"),
    IllegalActionError("R15b", "keep at least 2 ticket(s)", DrawBlind()),
    ActionParseError(
        "no such route", ("Paris-Wien", "Paris-Zurich"), IllegalActionError("R9", "no")
    ),
    ScoreMismatchError(0, 12, 10),
    BadArgumentError("seat must be an int", argument="seat"),
    WebError("seat_taken", "that seat is taken"),
    SetupError("2 to 5 players"),
]


@pytest.mark.parametrize("error", ERRORS, ids=lambda e: type(e).__name__)
def test_an_error_survives_pickling(error: TTRError) -> None:
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is type(error)
    assert str(back) == str(error)
    assert back.args == error.args
    assert _plain(vars(back)) == _plain(vars(error))


def _plain(attributes: dict[str, object]) -> dict[str, object]:
    """Attributes with the errors among them as (type, message): errors compare by identity."""
    return {k: (type(v), str(v)) if isinstance(v, Exception) else v for k, v in attributes.items()}


def test_a_pickled_error_still_raises_and_is_caught_by_its_family() -> None:
    back = pickle.loads(pickle.dumps(BotError("greedy", 0, None, "raised")))
    with pytest.raises(ValueError, match="bot 'greedy' \\(seat 0\\): raised"):
        raise back
