"""The argument guards shared by entry points (``_guards.py``): a wrong type is a
``BadArgumentError`` naming the function, the argument and what it got; a right one passes."""

from __future__ import annotations

import pytest

from ttr_europe import SetupError, load_map, new_game, observe
from ttr_europe._guards import check_map, check_seat, check_setup, check_state, expect, not_a_state
from ttr_europe.errors import BadArgumentError


def test_a_state_passes_and_anything_else_is_named() -> None:
    state = new_game("usa", "base", 2, seed=1)
    check_state(state, "apply")
    with pytest.raises(BadArgumentError, match=r"^apply: state must be a GameState, got a dict$"):
        check_state({}, "apply")
    error = not_a_state(None, "score", "position")
    assert str(error) == "score: position must be a GameState, got None"
    assert error.argument == "position" and isinstance(error, TypeError)


def test_a_view_passed_for_a_state_says_how_to_get_one() -> None:
    view = observe(new_game("usa", "base", 2, seed=1), 0)
    message = str(not_a_state(view, "legal_actions"))
    assert message.startswith("legal_actions: state must be a GameState, got a View: ")
    assert "determinize(view, view.observer)" in message


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((3, "base", 2, 0), "map must be a map name or a Map, not an int"),
        (("usa", None, 2, 0), "variant must be a variant id (a string), not None"),
        (("usa", "base", 2.0, 0), "R1: players must be an int, not a float"),
        (("usa", "base", True, 0), "R1: players must be an int, not a bool"),
        (("usa", "base", 2, "7"), "D19: seed must be an int, not a str"),
    ],
)
def test_setup_arguments_are_refused_by_rule(args: tuple[object, ...], message: str) -> None:
    with pytest.raises(SetupError) as refused:
        check_setup(*args)
    assert str(refused.value).endswith(message)


def test_setup_seat_and_map_accept_what_they_name() -> None:
    board = load_map("usa")
    check_setup("usa", "base", 2, 0)
    check_setup(board, "base", 5, -3)
    check_seat(0, "observe")
    check_map(board, "render")
    check_map("europe", "render")
    check_map(None, "render", optional=True)
    with pytest.raises(BadArgumentError, match=r"^observe: seat must be an int, got a str$"):
        check_seat("0", "observe")
    with pytest.raises(
        BadArgumentError, match=r"^render: map must be a map name or a Map, got None$"
    ):
        check_map(None, "render")


def test_expect_returns_the_value_or_names_every_kind_allowed() -> None:
    assert expect(3, int, "f", "n") == 3
    assert expect("x", (int, str), "f", "n") == "x"
    with pytest.raises(BadArgumentError, match=r"^f: n must be int or str, got a list$") as refused:
        expect([], (int, str), "f", "n")
    assert refused.value.argument == "n"
