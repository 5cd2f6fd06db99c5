"""Every win count the documentation prints beside its rate or interval agrees with them.

A strength figure is quoted as wins and games with a rate and a 95 % Wilson interval
(docs/bots.md, "What counts as a claim"). A slip in any of the three (41 of 60 written as the
wrong percentage, an interval computed by hand) goes unnoticed by a reader, so each one found
in docs/**/*.md and README.md is recomputed with ``sim.stats.wilson``, to the precision it is
printed at (CHANGELOG.md too). The forms recognised:

- ``51-29 (63.7 %, 52.8-73.4)``: wins-losses, rate, interval (the rate may be left out);
- ``137 of 200: 68.5 %, 95 % Wilson interval 61.8 % – 74.5 %``, ``221 of 400 | 55.2 % |
  50.4 – 60.0 %``, ``36 of 40 on seeds ... (40 games, 76.9-96.0 %)``: wins of games, then
  within the line an optional rate and the interval;
- ``63 (112 games, 56.2 %, 47.0-65.1 %)``;
- ``18.9 % (17.4-20.5) of 2,417``: a rate of a count whose wins are not printed (some whole
  number of wins must give both);
- tables with a column of wins (``won``, ``won by ...``, ``won of 40``), one of games (or the
  games in the wins' header), maybe one of rates, and one of intervals (``95 % interval``):
  ``| 400 | 221 | 55.2 % | 50.4 – 60.0 % |``, ``| 400 | 260 (65.0 %); ... | 60.2 % – 69.5 % |``;
- ``14 of 40, 0.35 (0.22-0.50)``, and cells ``0.71 (0.61-0.79)`` of a table that starts
  within a few lines of one saying ``N games a point``: rates as fractions (other fractions
  with an interval, such as a correlation's, are not rates and are left alone).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest

from ttr_europe.sim.stats import wilson

REPO = Path(__file__).resolve().parents[2]
PAGES = [*sorted((REPO / "docs").rglob("*.md")), REPO / "README.md", REPO / "CHANGELOG.md"]

NUM = r"\d[\d,]*(?:\.\d+)?"
DEC = r"\d+(?:\.\d+)?"
DASH = r"\s?[-–]\s?"
WINS_LOSSES = re.compile(
    rf"(?<![\d.,-])(?P<w>{DEC})-(?P<l>{DEC}) "
    rf"\((?:(?P<p>{DEC}) %, )?(?P<lo>{DEC}){DASH}(?P<hi>{DEC})\)"
)
OF = re.compile(
    rf"(?<![\d.,])(?P<w>{NUM}) of (?:its |their |the )?(?P<n>{NUM})(?!\d)(?! in (?:seat|each))"
    rf"(?P<mid>[^\n)]{{0,80}}?)(?P<lo>{DEC})\s?%?{DASH}(?P<hi>{DEC})\s?%"
)
GAMES = re.compile(
    rf"(?<![\d.,])(?P<w>{NUM}) \((?P<n>{NUM}) games, "
    rf"(?P<p>{DEC}) %, (?P<lo>{DEC}){DASH}(?P<hi>{DEC}) %"
)
RATE_OF = re.compile(rf"(?P<p>{DEC}) % \((?P<lo>{DEC}){DASH}(?P<hi>{DEC})\) of (?P<n>{NUM})")
FRACTION = re.compile(
    r"(?:(?P<w>\d+) of (?P<n>\d+), )?"
    r"(?P<p>[01]\.\d\d) \((?P<lo>[01]\.\d\d)-(?P<hi>[01]\.\d\d)\)"
)
A_POINT = re.compile(r"(\d+) games a point")
CELL_NUMBER = re.compile(rf"(?<![\d.,])({NUM})")
CELL_RATE = re.compile(rf"\(({DEC}) %\)|^({DEC}) %$")
CELL_INTERVAL = re.compile(rf"^({DEC}) %?{DASH}({DEC}) %$")
RATE_IN = re.compile(rf"(?<![\d.])({DEC})\s?\**\s?%(?!\s*Wilson)")


@attrs.frozen
class Figure:
    """One figure as printed: where, its wins (None when not printed), games, rate and
    interval, on the scale printed (100 for per cent, 1 for fractions)."""

    where: str
    text: str
    wins: float | None
    games: int
    rate: str | None
    low: str
    high: str
    scale: int = 100


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def _places(text: str) -> int:
    return len(text.partition(".")[2])


def _agrees(shown: str, value: float) -> bool:
    """``shown`` is ``value`` rounded to the places it is printed with."""
    return abs(float(shown) - value) <= 0.5 / 10.0 ** _places(shown) + 1e-9


def wrong(figure: Figure) -> str | None:
    """What is wrong with a figure (None when its wins, games, rate and interval agree)."""
    if figure.games <= 0:
        return "no games"
    candidates: list[float]
    if figure.wins is not None:
        candidates = [figure.wins]
    else:  # some whole number of wins must give the rate and the interval
        candidates = [float(w) for w in range(figure.games + 1)]
    for wins in candidates:
        rate = figure.scale * wins / figure.games
        low, high = (figure.scale * end for end in wilson(wins, figure.games))
        if figure.rate is not None and not _agrees(figure.rate, rate):
            continue
        if _agrees(figure.low, low) and _agrees(figure.high, high):
            return None
    if figure.wins is None:
        return "no whole number of wins gives this rate and interval"
    rate = figure.scale * figure.wins / figure.games
    low, high = (figure.scale * end for end in wilson(figure.wins, figure.games))
    return f"{figure.wins:g} of {figure.games} is {rate:.2f}, Wilson {low:.2f}-{high:.2f}"


@attrs.frozen
class Columns:
    """Where a table keeps its wins, games, rates and intervals (``games`` None: ``of_games``
    games in every row, from the wins' header)."""

    won: int
    interval: int
    games: int | None
    of_games: int
    rate: int | None

    @classmethod
    def of(cls, header: list[str]) -> Columns | None:
        """The columns of a table whose ``header`` names wins and an interval, else None."""
        names = [cell.lower() for cell in header]
        won = next((i for i, name in enumerate(names) if name.startswith("won")), None)
        interval = next((i for i, name in enumerate(names) if "interval" in name), None)
        games = next((i for i, name in enumerate(names) if name == "games"), None)
        rate = next((i for i, name in enumerate(names) if name == "win rate"), None)
        of_games = re.search(r"won of (\d+)", names[won]) if won is not None else None
        if won is None or interval is None or (games is None and of_games is None):
            return None
        return cls(won, interval, games, int(of_games[1]) if of_games else 0, rate)

    @property
    def last(self) -> int:
        """The last column a row must have."""
        return max(i for i in (self.won, self.interval, self.games, self.rate) if i is not None)

    def figure(self, cells: list[str], where: str) -> Figure | None:
        """The row's figure (None when a cell does not hold what its column should)."""
        won = CELL_NUMBER.search(cells[self.won])
        interval = CELL_INTERVAL.match(cells[self.interval])
        games = CELL_NUMBER.search(cells[self.games]) if self.games is not None else None
        if won is None or interval is None or (self.games is not None and games is None):
            return None
        rate = CELL_RATE.search(cells[self.won] if self.rate is None else cells[self.rate])
        return Figure(
            where,
            " | ".join(cells),
            _number(won[1]),
            round(_number(games[1])) if games is not None else self.of_games,
            rate and (rate[1] or rate[2]),
            interval[1],
            interval[2],
        )


def _cells(line: str) -> list[str]:
    return [cell.strip().replace("\u2212", "-") for cell in line.strip().strip("|").split("|")]


def _in_prose(chunk: list[tuple[int, str]], page: str) -> Iterator[Figure]:
    """The figures written inline in ``chunk``, a paragraph's lines (or one table line) by
    number: the lines are joined, so a figure may run over a line break."""
    if not chunk:
        return
    text = " ".join(line for _, line in chunk)
    starts = [0]
    for _, line in chunk[:-1]:
        starts.append(starts[-1] + len(line) + 1)

    def where(m: re.Match[str]) -> str:
        return f"{page}:{chunk[bisect.bisect_right(starts, m.start()) - 1][0]}"

    for m in WINS_LOSSES.finditer(text):
        wins, losses = _number(m["w"]), _number(m["l"])
        yield Figure(where(m), m[0], wins, round(wins + losses), m["p"], m["lo"], m["hi"])
    for m in OF.finditer(text):
        wins, games = _number(m["w"]), _number(m["n"])
        if wins <= games:
            rate = RATE_IN.search(m["mid"])
            yield Figure(where(m), m[0], wins, round(games), rate and rate[1], m["lo"], m["hi"])
    for m in GAMES.finditer(text):
        wins, games = _number(m["w"]), round(_number(m["n"]))
        yield Figure(where(m), m[0], wins, games, m["p"], m["lo"], m["hi"])
    for m in RATE_OF.finditer(text):
        yield Figure(where(m), m[0], None, round(_number(m["n"])), m["p"], m["lo"], m["hi"])
    for m in FRACTION.finditer(text):
        if m["n"] is not None:
            yield Figure(where(m), m[0], float(m["w"]), int(m["n"]), m["p"], m["lo"], m["hi"], 1)


def figures(text: str, page: str) -> Iterator[Figure]:
    """Every figure of the recognised forms in ``text`` (a page's markdown)."""
    per_point: tuple[int, int] | None = None  # (games, line) of the last "N games a point"
    table: int | None = None  # the games a point of the table being read, if it has them
    columns: Columns | None = None  # where the table being read keeps its figures
    header = True  # the next table line is a header
    paragraph: list[tuple[int, str]] = []
    for number, line in enumerate(text.splitlines(), 1):
        if point := A_POINT.search(line):
            per_point = (int(point[1]), number)
        in_table = line.lstrip().startswith("|")  # a table may be indented in a list item
        if not in_table:
            table, columns, header = None, None, True
            if line.strip() and not line.startswith("```"):
                paragraph.append((number, line))
                continue
        yield from _in_prose(paragraph, page)
        paragraph = []
        if not in_table:
            continue
        yield from _in_prose([(number, line)], page)
        if header:  # a table's first line
            header = False
            columns = Columns.of(_cells(line))
            if per_point is not None and number - per_point[1] <= 6:
                table = per_point[0]
            continue
        cells = _cells(line)
        if columns is not None and len(cells) > columns.last:
            row = columns.figure(cells, f"{page}:{number}")
            if row is not None:
                yield row
        if table is not None:
            for m in FRACTION.finditer(line):
                if m["n"] is None:
                    yield Figure(f"{page}:{number}", m[0], None, table, m["p"], m["lo"], m["hi"], 1)
    yield from _in_prose(paragraph, page)


def _all() -> list[Figure]:
    found: list[Figure] = []
    for page in PAGES:
        found.extend(figures(page.read_text("utf-8"), str(page.relative_to(REPO))))
    return found


def test_the_documented_figures_are_found() -> None:
    """The forms still match the pages (a reworded table would otherwise pass unchecked)."""
    found = _all()
    assert len(found) >= 210
    pages = {figure.where.partition(":")[0] for figure in found}
    assert {"docs/bots.md", "docs/rl.md", "docs/playtest.md"} <= pages


@pytest.mark.parametrize("figure", _all(), ids=lambda figure: figure.where)
def test_each_documented_rate_and_interval_follows_from_its_wins(figure: Figure) -> None:
    assert wrong(figure) is None, f"{figure.where}: {figure.text!r}: {wrong(figure)}"


@pytest.mark.parametrize(
    "line",
    [
        "| greedy vs racer | 100 | 100-0 (100.0 %, 96.3-100.0) | yes |",
        "won 41 of 60 (68.3 %; 60 games, 55.8-78.7 %, not a claim)",
        "| 3 | `bc-ppo` | 221 of 400 | 55.2 % | 50.4 – 60.0 % | 33.3 % (above) |",
        "a second run won 63 (112 games, 56.2 %, 47.0-65.1 %, not a claim)",
        "| Brest-Petrograd | 20 | 24.2 % | 18.9 % (17.4-20.5) of 2,417 |",
        "| 300 | 24 of 40, 0.60 (0.45-0.74) |",
        "`bc-ppo` wins 51 of their 80 games,\n63.7 %, 52.8-73.4 %) and",
        "| ours | games | won | win rate | 95 % interval |\n|---|---|---|---|---|\n"
        "| `greedy` | 400 | 159 | 39.8 % | 35.1 – 44.6 % |",
        "| match | games | won | 95 % Wilson interval |\n|---|---|---|---|\n"
        "| a | 60, not a claim | 41 (68.3 %); 20 of 30 in seat 0 | 55.8 % – 78.7 % |",
        "| search | won of 40 | 95 % Wilson interval |\n|---|---|---|\n"
        "| a | 32 (80.0 %) | 65.2 % – 89.5 % |",
        "(100 games a point):\n\n| update | vs `greedy` |\n|---|---|\n| 160 | 0.71 (0.61-0.79) |",
    ],
)
def test_a_right_figure_passes(line: str) -> None:
    found = list(figures(line, "example"))
    assert len(found) == 1
    assert wrong(found[0]) is None


@pytest.mark.parametrize(
    "line",
    [
        "| greedy vs racer | 100 | 100-0 (100.0 %, 95.3-100.0) | yes |",  # the interval
        "| saver vs racer | 100 | 75-25 (57.0 %, 65.7-82.5) | yes |",  # the rate
        "won 41 of 60 (67.3 %; 60 games, 55.8-78.7 %, not a claim)",  # 41/60 is 68.3 %
        "| 3 | `bc-ppo` | 221 of 400 | 55.2 % | 50.4 – 61.0 % | 33.3 % (above) |",
        "a second run won 63 (112 games, 56.2 %, 47.0-66.1 %, not a claim)",
        "| Brest-Petrograd | 20 | 24.2 % | 18.9 % (17.4-21.5) of 2,417 |",
        "| 300 | 24 of 40, 0.60 (0.46-0.74) |",
        "`bc-ppo` wins 51 of their 80 games,\n63.7 %, 52.8-74.4 %) and",  # over a line break
        "| ours | games | won | win rate | 95 % interval |\n|---|---|---|---|---|\n"
        "| `greedy` | 400 | 159 | 39.8 % | 35.1 – 45.6 % |",
        "| ours | games | won | win rate | 95 % interval |\n|---|---|---|---|---|\n"
        "| `greedy` | 400 | 159 | 38.8 % | 35.1 – 44.6 % |",
        "| match | games | won | 95 % Wilson interval |\n|---|---|---|---|\n"
        "| a | 60, not a claim | 41 (67.3 %); 20 of 30 in seat 0 | 55.8 % – 78.7 % |",
        "| search | won of 40 | 95 % Wilson interval |\n|---|---|---|\n"
        "| a | 32 (80.0 %) | 65.2 % – 88.5 % |",
        "- a list item's table:\n\n  | bot | games | won | win rate | 95 % interval |\n"
        "  |---|---|---|---|---|\n  | `greedy` | 400 | 183 | 45.9 % | 40.9 – 50.6 % |",
        "(100 games a point):\n\n| update | vs `greedy` |\n|---|---|\n| 240 | 0.71 (0.62-0.79) |",
    ],
)
def test_a_wrong_figure_is_caught(line: str) -> None:
    found = list(figures(line, "example"))
    assert len(found) == 1
    assert wrong(found[0]) is not None
