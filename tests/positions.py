"""Final positions worked out by hand, shared by the scoring tests and the compiled core's."""

from __future__ import annotations

from ttr_europe.state import GameState
from ttr_europe.testing import finished

# Seat 0: London-Dieppe-Paris-Frankfurt-Munchen, then Munchen-Wien and Munchen-Zurich;
# stations in Wien and Lisboa. Seat 1: Budapest-Wien-Zagrab-Venezia-Roma-Brindisi.
# Seat 2: Amsterdam-Essen-Berlin-Wien, stations in Zurich, Munchen and Budapest.
WORKED_OWNERS = {
    "Dieppe-London-1": 0, "Dieppe-Paris": 0, "Frankfurt-Paris-orange": 0,
    "Frankfurt-Munchen": 0, "Munchen-Wien": 0, "Munchen-Zurich": 0,
    "Budapest-Wien-red": 1, "Wien-Zagrab": 1, "Venezia-Zagrab": 1, "Roma-Venezia": 1,
    "Brindisi-Roma": 1,
    "Berlin-Wien": 2, "Berlin-Essen": 2, "Amsterdam-Essen": 2,
}  # fmt: skip
WORKED_TICKETS = {
    0: ["Paris-Wien", "Paris-Zagrab", "London-Berlin"],
    1: ["Zagrab-Brindisi", "Roma-Smyrna"],
    2: ["Zurich-Budapest", "Marseille-Essen"],
}
WORKED_STATIONS = {0: ["Wien", "Lisboa"], 2: ["Zurich", "Munchen", "Budapest"]}


def worked() -> GameState:
    return finished(WORKED_OWNERS, tickets=WORKED_TICKETS, stations=WORKED_STATIONS, players=3)


FOUR_DISJOINT_THREES = {
    "Amsterdam-Essen": 1, "Angora-Erzurum": 1, "Brest-Paris": 1, "Kyiv-Smolensk": 1,
    "Budapest-Wien-red": 1,
}  # fmt: skip
