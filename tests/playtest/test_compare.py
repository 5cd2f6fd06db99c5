"""Two boards side by side (``playtest/compare.py``): the statistics against published and exact
values, a board against itself (no change at all), a board with one route lengthened (that
route's change significant, every figure recounted here from the games' rows), routes removed
and added, the heat map's colours and legend, the files, and bad input."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from test_figures import EXAMPLE, example
from test_report import drawn_title

from ttr_europe.board import Map
from ttr_europe.errors import SimulationError
from ttr_europe.maps import load_map, load_map_file
from ttr_europe.playtest import Playtest, scale
from ttr_europe.playtest.compare import (
    against,
    compare,
    heat_map,
    holm,
    mcnemar,
    paired_mean,
    paired_rate,
    summary,
    t_p_value,
    t_quantile,
    two_rates,
    write_comparison,
)
from ttr_europe.playtest.games import GameLog
from ttr_europe.sim.stats import wilson

BOTS = ("uniform", "playout")  # the core's policies: quick in the core, played in Python too
CHANGED = "Fenwick-Hollin"  # claimed in nine games of ten on the example board


def changed_board(tmp_path: Path, edit: Any, name: str = "changed.json") -> Path:
    """A copy of the example board with ``edit`` applied to its JSON document."""
    doc = json.loads(EXAMPLE.read_text())
    edit(doc)
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return path


def lengthen(doc: dict[str, Any]) -> None:
    route = next(r for r in doc["routes"] if r["id"] == CHANGED)
    route["length"] = 5
    doc["name"] = "Tessel, Fenwick-Hollin lengthened"


NEUTRAL = scale.CHANGE[scale.NEUTRAL]


def strokes(svg: str) -> dict[str, str]:
    """Each route of a heat map with its stroke's colour."""
    return dict(
        re.findall(r'<g class="heat-route[^"]*" data-route="([^"]*)">.*?<line class="heat" '
                   r'[^>]*stroke="(#[0-9a-f]{6})"', svg, re.S)
    )  # fmt: skip


def discs(svg: str) -> dict[str, str]:
    """Each city of a heat map with its disc's colour."""
    return dict(re.findall(r'data-city="([^"]*)" cx="[^"]*" cy="[^"]*" r="[^"]*" fill="([^"]*)"',
                           svg))  # fmt: skip


def reached(count: dict[str, Any]) -> dict[str, tuple[float, bool]]:
    """Each city's change of the share of games that reached it, and whether significant."""
    return {
        e["id"]: (-e["difference"], e["significant"])
        for e in count["cities"]
        if e["figure"] == "never_reached"
    }


# --------------------------------------------------------------------------- the statistics


def test_newcombe_intervals_match_the_published_examples() -> None:
    """Fagerland, Lydersen and Laake, Statistical Analysis of Contingency Tables (2017): the
    paired example of Cavo et al. 2012 (chapter 8) and the unpaired of Perondi et al. 2004
    (chapter 4), as their R package ``contingencytables`` prints them."""
    pairs = [(True, True)] * 59 + [(False, True)] * 6 + [(True, False)] * 16
    pairs += [(False, False)] * 80
    paired = paired_rate(pairs)  # A is the second of the pair: the difference B - A
    assert round(paired["difference"], 4) == -0.0621
    assert (round(paired["low"], 4), round(paired["high"], 4)) == (-0.1186, -0.0046)
    assert paired["discordant"] == [16, 6]
    unpaired = two_rates(1, 34, 7, 34)
    assert round(unpaired["difference"], 4) == 0.1765
    assert (round(unpaired["low"], 4), round(unpaired["high"], 4)) == (0.0189, 0.3404)
    assert round(two_rates(1, 4, 3, 4)["p"], 5) == 0.15730  # Pearson's chi-squared, 1 df


def exact_mcnemar(b: int, c: int) -> float:
    k, least = b + c, min(b, c)
    tail = Fraction(sum(math.comb(k, i) for i in range(least + 1)), 2**k)
    return float(min(Fraction(1), 2 * tail))


@pytest.mark.parametrize("b, c", [(0, 0), (0, 5), (1, 9), (3, 3), (16, 6), (40, 75), (470, 400)])
def test_mcnemar_is_the_exact_binomial_test(b: int, c: int) -> None:
    assert mcnemar(b, c) == pytest.approx(exact_mcnemar(b, c), rel=1e-9)


def test_student_t_matches_closed_forms_and_tables() -> None:
    for t in (0.3, 1.0, 2.5, 7.0):  # one and three degrees of freedom have closed forms
        assert t_p_value(t, 1) == pytest.approx(1 - 2 / math.pi * math.atan(t), rel=1e-10)
        u = t / math.sqrt(3)
        cdf = 0.5 + (u / (1 + u * u) + math.atan(u)) / math.pi
        assert t_p_value(t, 3) == pytest.approx(2 * (1 - cdf), rel=1e-9)
    table = {1: 12.706204736, 3: 3.182446305, 10: 2.228138852, 30: 2.042272456, 3000: 1.960755055}
    for df, value in table.items():
        assert t_quantile(df) == pytest.approx(value, abs=1e-8)


def test_paired_mean_and_holm_by_hand() -> None:
    pairs = [(10.0, 11.0), (10.0, 12.0), (10.0, 13.0), (10.0, 14.0)]
    result = paired_mean(pairs)
    se = math.sqrt(5 / 3) / 2  # the differences 1, 2, 3, 4: sd sqrt(5/3)
    assert result["difference"] == 2.5
    assert result["low"] == pytest.approx(2.5 - 3.182446305 * se)
    assert result["p"] == pytest.approx(t_p_value(2.5 / se, 3))
    assert paired_mean([(3.0, 3.0)] * 5)["p"] == 1.0  # nothing changed: no evidence at all
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])


# --------------------------------------------------------------------------- A against A


def test_a_board_against_itself_changes_nothing() -> None:
    first, second = against(example(), example(), bots=BOTS, players=(2, 3), games=60,
                            backend="serial")  # fmt: skip
    doc = compare(first, second)
    assert doc["board"] == {
        "routes": {"added": [], "removed": [], "changed": []},
        "cities": {"added": [], "removed": []},
        "tickets": {"added": [], "removed": [], "changed": []},
        "rules": {},
    }
    for count in doc["counts"]:
        entries = [*count["games_figures"], *count["seats"], *count["bots"], *count["routes"],
                   *count["cities"], *count["tickets"]]  # fmt: skip
        assert count["ended_on_both"] == 60 and count["significant"] == []
        assert len(count["bots"]) == 4  # each bot's win share and score
        assert count["tests"] == sum(e["p"] is not None for e in entries) > 50
        for e in entries:
            assert e["difference"] == 0 and not e["significant"]
            assert e["p"] in (1.0, None)
    assert summary(doc).count("0 significant changes") == 2
    svg = heat_map(second.map, doc["counts"][0])
    assert set(strokes(svg).values()) == set(discs(svg).values()) == {NEUTRAL}
    assert len(strokes(svg)) == len(second.map.routes) and "not significant" in svg
    assert summary(doc).count("no significant change, and no difference at all") == 2


# --------------------------------------------------------------------------- one route changed


@pytest.fixture(scope="module")
def lengthened(tmp_path_factory: pytest.TempPathFactory) -> tuple[Playtest, Playtest]:
    b = load_map_file(changed_board(tmp_path_factory.mktemp("boards"), lengthen))
    return against(example(), b, bots=BOTS, players=2, games=300, seed=4, backend="serial")


def test_a_lengthened_route_is_a_significant_change(
    lengthened: tuple[Playtest, Playtest],
) -> None:
    doc = compare(*lengthened)
    assert doc["board"]["routes"]["changed"] == [{"id": CHANGED, "changes": {"length": [2, 5]}}]
    count = doc["counts"][0]
    route = next(e for e in count["routes"] if e["id"] == CHANGED)
    assert route["significant"] and route["difference"] < -0.5 and route["high"] < 0
    first = count["significant"][0]
    assert (first["kind"], first["id"], first["figure"]) == ("route", CHANGED, "claimed")
    adjusted = [e["p_adjusted"] for e in count["significant"]]
    assert adjusted == sorted(adjusted)
    printed = summary(doc)
    assert f"route {CHANGED} claimed:" in printed and "length 2 -> 5" in printed


def claimed(board: Map, game: GameLog) -> set[str]:
    return {board.routes[r].id for r, _, _ in game.claims}


def test_every_figure_is_recounted_from_the_rows(lengthened: tuple[Playtest, Playtest]) -> None:
    pa, pb = lengthened
    doc = compare(pa, pb)
    count = doc["counts"][0]
    games = list(zip(pa.runs[0].logs, pb.runs[0].logs, strict=True))
    assert all(x.seed == y.seed and x.bots == y.bots for x, y in games)  # the paired design
    n = len(games)
    assert count["ended_on_both"] == n == 300
    # a route: claimed on A only, on B only; McNemar's p, the rates and their intervals
    only_a = sum(CHANGED in claimed(pa.map, x) and CHANGED not in claimed(pb.map, y)
                 for x, y in games)  # fmt: skip
    only_b = sum(CHANGED in claimed(pb.map, y) and CHANGED not in claimed(pa.map, x)
                 for x, y in games)  # fmt: skip
    on_a = sum(CHANGED in claimed(pa.map, x) for x, _ in games)
    route = next(e for e in count["routes"] if e["id"] == CHANGED)
    assert route["discordant"] == [only_a, only_b]
    assert route["difference"] == pytest.approx((only_b - only_a) / n)
    assert route["a"]["count"] == on_a and (route["a"]["low"], route["a"]["high"]) == wilson(
        on_a, n
    )
    assert route["p"] == pytest.approx(exact_mcnemar(only_a, only_b), rel=1e-9)
    # the game's length and a city's desirability: paired differences
    turns = [y.turns - x.turns for x, y in games]
    length = next(e for e in count["games_figures"] if e["figure"] == "turns")
    assert length["difference"] == pytest.approx(sum(turns) / n)
    assert length["a"]["mean"] == pytest.approx(sum(x.turns for x, _ in games) / n)

    def desire(board: Map, game: GameLog, city: str) -> int:
        ends = [board.routes[r] for r, _, _ in game.claims]
        hits = sum((board.cities[r.a].id == city) + (board.cities[r.b].id == city) for r in ends)
        return hits + sum(board.cities[c].id == city for c, _, _ in game.stations)

    city = next(
        e for e in count["cities"] if e["id"] == "Fenwick" and e["figure"] == "desirability"
    )
    assert city["difference"] == pytest.approx(
        sum(desire(pb.map, y, "Fenwick") - desire(pa.map, x, "Fenwick") for x, y in games) / n
    )
    # a ticket's completion when held, on each board
    held: Counter[tuple[str, str]] = Counter()
    done: Counter[tuple[str, str]] = Counter()
    for side, board, logs in (("a", pa.map, pa.runs[0].logs), ("b", pb.map, pb.runs[0].logs)):
        for game in logs:
            for _, t, completed in game.tickets:
                held[side, board.tickets[t].id] += 1
                done[side, board.tickets[t].id] += completed
    for e in count["tickets"]:
        assert (e["a"]["count"], e["a"]["of"]) == (done["a", e["id"]], held["a", e["id"]])
        assert (e["b"]["count"], e["b"]["of"]) == (done["b", e["id"]], held["b", e["id"]])

    # the first seat's win share (a shared win is a fraction)
    def share(game: GameLog, seat: int) -> float:
        winners = game.winners
        return 1 / len(winners) if seat in winners else 0.0

    wins = next(e for e in count["seats"] if e["id"] == "0" and e["figure"] == "wins")
    assert wins["difference"] == pytest.approx(sum(share(y, 0) - share(x, 0) for x, y in games) / n)
    # each bot's win share and score, wherever it sat: which style of play the change helps
    assert [(e["id"], e["figure"]) for e in count["bots"]] == [
        (bot, figure) for bot in ("uniform", "playout") for figure in ("wins", "score")
    ]
    for bot in BOTS:
        seat = [(x.bots.index(bot), y.bots.index(bot)) for x, y in games]
        wins = next(e for e in count["bots"] if e["id"] == bot and e["figure"] == "wins")
        assert wins["n"] == n and wins["difference"] == pytest.approx(
            sum(share(y, q) - share(x, p) for (x, y), (p, q) in zip(games, seat, strict=True)) / n
        )
        score = next(e for e in count["bots"] if e["id"] == bot and e["figure"] == "score")
        assert score["b"]["mean"] == pytest.approx(
            sum(y.scores[q].total for (_, y), (_, q) in zip(games, seat, strict=True)) / n
        )
    # Holm over every test of the count: recomputed from the p-values
    entries = [*count["games_figures"], *count["seats"], *count["bots"], *count["routes"],
               *count["cities"], *count["tickets"]]  # fmt: skip
    ps = sorted(e["p"] for e in entries if e["p"] is not None)
    m = len(ps)
    assert m == count["tests"] == 3 + 2 * 2 + 2 * 2 + 28 + 2 * 14 + 16
    k = ps.index(route["p"])
    assert route["p_adjusted"] == pytest.approx(min(1, max((m - i) * ps[i] for i in range(k + 1))))


# --------------------------------------------------------------------------- removed, added


def test_removed_and_added_routes_and_the_heat_map(tmp_path: Path) -> None:
    def edit(doc: dict[str, Any]) -> None:
        gone = next(r for r in doc["routes"] if r["id"] == CHANGED)
        doc["routes"].remove(gone)
        doc["routes"].append({**gone, "id": "Fenwick-Hollin-new", "length": 3})

    b = load_map_file(changed_board(tmp_path, edit))
    pa, pb = against(example(), b, bots=BOTS, players=2, games=200, backend="serial")
    doc = compare(pa, pb)
    assert doc["board"]["routes"]["removed"] == [CHANGED]
    assert doc["board"]["routes"]["added"] == ["Fenwick-Hollin-new"]
    count = doc["counts"][0]
    assert count["ended_on_both"] == 200
    on_a = sum(CHANGED in claimed(pa.map, g) for g in pa.runs[0].logs)
    assert count["removed_routes"] == [{"id": CHANGED, "a": count["removed_routes"][0]["a"]}]
    assert count["removed_routes"][0]["a"]["count"] == on_a > 100
    new = sum("Fenwick-Hollin-new" in claimed(pb.map, g) for g in pb.runs[0].logs)
    assert count["added_routes"][0]["b"]["count"] == new
    svg = heat_map(pb.map, count)
    drawn = strokes(svg)
    assert set(drawn) == {r.id for r in pb.map.routes}  # the removed one is not drawn
    for e in count["routes"]:  # every matched route in the step of its change
        assert drawn[e["id"]] == scale.CHANGE[scale.change_step(e["difference"], e["significant"])]
    assert drawn["Fenwick-Hollin-new"] == NEUTRAL  # no change to measure: neutral, marked
    marked = re.findall(r'<g class="heat-route added" data-route="([^"]*)">(.*?)</g>\n', svg, re.S)
    assert [key for key, _ in marked] == ["Fenwick-Hollin-new"] and 'class="plus"' in marked[0][1]
    assert svg.count('class="heat-route added"') == 1
    cities = {
        key: scale.CHANGE[scale.change_step(*change)] for key, change in reached(count).items()
    }
    assert discs(svg) == cities and len(cities) == len(pb.map.cities)
    legend = svg[svg.index('class="heat-legend"') :]
    assert "only on B (1): Fenwick-Hollin-new" in legend
    rate = count["removed_routes"][0]["a"]["rate"]
    assert f"removed from A, not drawn (1): {CHANGED} (claimed in {rate:.0%} on A)" in legend


def test_added_and_removed_tickets_are_reported_with_how_they_played(tmp_path: Path) -> None:
    """A designer who adds a ticket wants to know how often it was held and completed on B
    (it has nothing on A to be compared with); one who removes one, how it played on A."""
    gone = "Ardmore-Marrow"

    def edit(doc: dict[str, Any]) -> None:
        doc["tickets"] = [t for t in doc["tickets"] if t["id"] != gone]
        doc["tickets"].append({**doc["tickets"][0], "id": "Ardmore-Carrow-new", "a": "Ardmore",
                               "b": "Carrow", "points": 3})  # fmt: skip

    b = load_map_file(changed_board(tmp_path, edit))
    pa, pb = against(example(), b, bots=BOTS, players=2, games=80, backend="serial")
    doc = compare(pa, pb)
    assert doc["board"]["tickets"]["added"] == ["Ardmore-Carrow-new"]
    count = doc["counts"][0]

    def recount(board: Map, logs: list[GameLog], key: str) -> tuple[int, int, int]:
        index = board.ticket_index[key]
        holdings = [done for g in logs for _, t, done in g.tickets if t == index]
        games = sum(any(t == index for _, t, _ in g.tickets) for g in logs)
        return games, len(holdings), sum(holdings)

    for side, board, logs, key, listed in (
        ("b", pb.map, pb.runs[0].logs, "Ardmore-Carrow-new", count["added_tickets"]),
        ("a", pa.map, pa.runs[0].logs, gone, count["removed_tickets"]),
    ):
        assert [t["id"] for t in listed] == [key]
        games, held, done = recount(board, logs, key)
        figures = listed[0][side]
        assert (figures["held"]["count"], figures["held"]["of"]) == (games, 80) and held > 0
        assert (figures["completed"]["count"], figures["completed"]["of"]) == (done, held)
        assert listed[0]["points"] == board.tickets[board.ticket_index[key]].points
    printed = summary(doc)
    new = count["added_tickets"][0]["b"]["completed"]
    assert (
        f"ticket added: Ardmore-Carrow-new (3 points): held in "
        f"{count['added_tickets'][0]['b']['held']['rate']:.1%} of the games on B, completed in "
        f"{new['count']} of {new['of']} holdings" in printed
    )
    assert f"ticket removed: {gone} (8 points): held in" in printed
    page = (write_comparison(pb.map, doc, tmp_path / "out", png=False)[1]).read_text()
    assert "<li>ticket added: Ardmore-Carrow-new (3 points): held in" in page
    assert f"<li>ticket removed: {gone} (8 points)" in page


def test_a_lengthened_route_is_drawn_on_the_side_of_less_and_the_rest_neutral(
    lengthened: tuple[Playtest, Playtest],
) -> None:
    """Fenwick-Hollin, 2 cars on A and 5 on B, is claimed far less often on B: its stroke is
    in the darkest step of the blue half, and Fenwick, reached less often, in the blue half too;
    the routes claimed significantly more often in the red half; every route whose change is
    not significant in the neutral middle; the legend counts each step."""
    count = compare(*lengthened)["counts"][0]
    svg = heat_map(lengthened[1].map, count)
    drawn = strokes(svg)
    assert drawn[CHANGED] == scale.CHANGE[0]
    gained = [e for e in count["routes"] if e["significant"] and e["difference"] > 0]
    assert gained and all(drawn[e["id"]] in scale.CHANGE[scale.NEUTRAL + 1 :] for e in gained)
    changes = reached(count)
    assert discs(svg) == {key: scale.CHANGE[scale.change_step(*c)] for key, c in changes.items()}
    assert changes["Fenwick"][0] < 0 and discs(svg)["Fenwick"] in scale.CHANGE[: scale.NEUTRAL]
    quiet = [e["id"] for e in count["routes"] if not e["significant"]]
    assert len(quiet) > 20 and {drawn[key] for key in quiet} == {NEUTRAL}
    legend = svg[svg.index('class="heat-legend"') :]
    assert re.findall(r'<rect class="step" [^>]*fill="([^"]*)"', legend) == list(scale.CHANGE)
    labels = re.findall(r'<text x="\d+" y="40">([^<]*)</text>', legend)
    assert labels == [scale.change_range(i) for i in range(len(scale.CHANGE))]
    numbers = re.findall(r"(\d+) routes?, (\d+) cit(?:y|ies)<", legend)
    assert len(numbers) == len(scale.CHANGE)
    for i, (routes, cities) in enumerate(numbers):
        assert int(routes) == sum(
            scale.change_step(e["difference"], e["significant"]) == i for e in count["routes"]
        )
        assert int(cities) == sum(scale.change_step(*c) == i for c in changes.values())
    assert int(numbers[0][0]) >= 1 and int(numbers[scale.NEUTRAL][0]) == len(quiet)
    assert "only on B (0)" in legend and "removed from A, not drawn (0)" in legend


def test_the_change_map_names_both_boards_players_games_and_seeds(
    lengthened: tuple[Playtest, Playtest], tmp_path: Path
) -> None:
    doc = compare(*lengthened)
    write_comparison(lengthened[1].map, doc, tmp_path, png=False)
    svg = (tmp_path / "compare-heatmap-2p.svg").read_text()
    count = doc["counts"][0]
    assert drawn_title(svg) == [
        "From A, Tessel (an example board), to B, Tessel, Fenwick-Hollin lengthened",
        f"2 players, {count['ended_on_both']} games ended on both boards (paired: the same "
        "seeds and lineups, seeds 4 to 303)",
    ]


# --------------------------------------------------------------------------- files, bad input


def test_the_files_of_a_comparison(tmp_path: Path, lengthened: tuple[Playtest, Playtest]) -> None:
    doc = compare(*lengthened)
    written = write_comparison(lengthened[1].map, doc, tmp_path, png=False)
    assert [p.name for p in written] == ["compare.json", "compare.html", "compare-heatmap-2p.svg"]
    assert json.loads((tmp_path / "compare.json").read_text()) == doc
    page = (tmp_path / "compare.html").read_text()
    assert '<section class="comparison">' in page and "Paired design" in page
    assert page.count("<svg") == 1  # the heat map, its legend inside
    assert f'<tr class="significant"><td>route {CHANGED} claimed</td>' in page
    # every row says in words whether its change is real or within the noise
    rows = re.findall(r"<tr( class=\"significant\")?><td>([^<]*)</td><td>[^<]*</td>"
                      r"<td>([^<]*)</td><td>([^<]*)</td>", page)  # fmt: skip
    assert len(rows) > 20 and f"<td>route {CHANGED} claimed</td>" in page
    for bold, _, change, reading in rows:
        if bold:
            assert reading == ("less on B" if change.startswith("-") else "more on B")
        else:
            assert reading in ("within noise", "no difference", "not tested (too few games)")
    assert {r[3] for r in rows} >= {"less on B", "within noise"}
    # seats counted from 1 as in the single board's report, where "Seat 1 plays first"
    assert re.search(r"<td>seat 1 \(plays first\) win share</td><td>\d+\.\d% -&gt; \d+\.\d%"
                     r"</td>", page)  # fmt: skip
    assert re.search(r"<td>seat 2 score</td>", page) and "<td>seat 0 " not in page
    assert "<td>bot playout win share</td>" in page and "<td>bot uniform score</td>" in page
    first = page[page.index("<table>") : page.index("</table>")]  # games, seats, bots
    assert re.findall(r"<tr(?: class=\"significant\")?><td>([^<]*)</td>", first) == [
        "games that ended", "game length (turns)", "final score (mean of the seats)",
        "seat 1 (plays first) win share", "seat 1 (plays first) score", "seat 2 win share",
        "seat 2 score", "bot uniform win share", "bot uniform score", "bot playout win share",
        "bot playout score",
    ]  # fmt: skip
    assert not re.search(r"-0\.0+\b", page)  # a change that rounds to nothing has no sign


def test_a_single_bot_has_no_bot_figures() -> None:
    """One bot holds every seat: its share of the wins is the same in every game, so there is
    nothing to test (and nothing added to Holm's family)."""
    doc = compare(*against(example(), example(), bots=("playout",), games=10, backend="serial"))
    assert doc["counts"][0]["bots"] == [] and "bot playout" not in summary(doc)


def test_bad_boards_are_refused_in_one_line(tmp_path: Path) -> None:
    def rename(doc: dict[str, Any]) -> None:
        doc["variants"] = {"other": doc["variants"]["base"]}

    b = load_map_file(changed_board(tmp_path, rename))
    with pytest.raises(SimulationError, match=r"^board B \(tessel\) has no variant 'base'; its "
                       r"variants: other$"):  # fmt: skip
        against(example(), b, games=1, backend="serial")
    with pytest.raises(SimulationError, match="no route of board A"):
        against(example(), load_map("usa"), games=1, backend="serial")
