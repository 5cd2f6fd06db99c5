"""The playtest report: the heat map's bands and the charts' bars against the figures, one
self-contained HTML page and PNGs that are real pictures (``ttr-europe playtest`` as a user runs
it: cli/test_playtest_command.py). ``TTR_PLAYTEST_PICTURES=dir`` also writes the example board's
report there (docs/playtest/ holds it so)."""

from __future__ import annotations

import copy
import html
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from ttr_europe.colours import CARD_COLOURS, ROUTE_COLOURS
from ttr_europe.maps import load_map_file
from ttr_europe.playtest import playtest, scale
from ttr_europe.playtest.report import (
    heat_map,
    html_report,
    shape_chart,
    shares_chart,
    ticket_chart,
    write_report,
)
from ttr_europe.render import label_width

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "tessel.json"


@pytest.fixture(scope="module")
def result() -> Any:
    board = load_map_file(str(EXAMPLE))
    return playtest(board, players=(2, 3, 4), games=24, backend="serial", seed=1)


def drawn_title(svg: str) -> list[str]:
    """The lines of a heat picture's title drawn above its map (not its tooltip), checking
    that nothing of the board is drawn over them: a PNG sent on alone must still say what it
    shows."""
    lines = re.findall(r'<text class="heat-title" x="\d+" y="(\d+)" [^>]*>([^<]*)</text>', svg)
    assert lines, "no title is drawn"
    shift = float(re.search(r'<g class="heat-board" transform="translate\(0 ([\d.]+)\)">',
                            svg).group(1))  # type: ignore[union-attr]  # fmt: skip
    board = svg[svg.index('class="heat-board"') : svg.index('class="heat-legend"')]
    tops = [float(y) - 11 for y in re.findall(r'<text x="[\d.]+" y="([\d.]+)"', board)]
    tops += [float(y) - 7 for y in re.findall(r' cy="([\d.]+)"', board)]
    assert min(tops) + shift >= float(lines[-1][0]) + 3  # the board starts below the title
    return [text for _, text in lines]


def test_the_heat_map_names_board_players_and_games_in_a_drawn_title(result: Any) -> None:
    count = result.figures()["counts"][1]
    title = drawn_title(heat_map(result.map, count))
    assert title == [f"{result.map.name}: route contention, 3 players, {count['finished']} games"]


def test_the_heat_map_draws_every_route_and_city_in_the_step_of_its_share(result: Any) -> None:
    count = result.figures()["counts"][1]
    svg = heat_map(result.map, count)
    strokes = dict(
        re.findall(r'<g class="heat-route[^"]*" data-route="([^"]*)">.*?<line class="heat" '
                   r'[^>]*stroke="(#[0-9a-f]{6})"', svg, re.S)
    )  # fmt: skip
    assert len(strokes) == len(count["routes"]) == len(result.map.routes)
    for r in count["routes"]:
        assert strokes[r["id"]] == scale.colour(r["claimed"]["rate"]), r["id"]
    discs = dict(re.findall(r'data-city="([^"]*)" cx="[^"]*" cy="[^"]*" r="[^"]*" fill="([^"]*)"',
                            svg))  # fmt: skip
    assert discs == {c["id"]: scale.colour(c["reached"]["rate"]) for c in count["cities"]}
    dashed = re.findall(r'<g class="heat-route rare" data-route="([^"]*)"', svg)
    assert dashed == [r["id"] for r in count["rarely_used"]["routes"]]
    legend = svg[svg.index('class="heat-legend"') :]
    steps = re.findall(r'<rect class="step" [^>]*fill="([^"]*)"', legend)
    assert steps == list(scale.HEAT)
    numbers = re.findall(r"(\d+) routes?, (\d+) cit(?:y|ies)<", legend)
    for i, (routes, cities) in enumerate(numbers):
        assert int(routes) == sum(scale.step(r["claimed"]["rate"]) == i for r in count["routes"])
        assert int(cities) == sum(scale.step(c["reached"]["rate"]) == i for c in count["cities"])
    assert len(numbers) == len(scale.HEAT) and "0%-20%" in legend and "80%-100%" in legend
    assert f"rarely claimed: {len(dashed)}" in legend
    drawn = set(re.findall(r'(?:fill|stroke)="(#[0-9a-fA-F]{6})"', svg))
    assert drawn & {CARD_COLOURS[c] for c in ROUTE_COLOURS} == {"#ffffff"}  # the paper alone
    assert drawn <= {*scale.HEAT, scale.CASING, "#ffffff", "#111111"}
    assert "3 players" in re.search(r"<title>(.*?)</title>", svg).group(1)  # type: ignore[union-attr]


def test_the_shape_chart_draws_each_histogram(result: Any) -> None:
    count = result.figures()["counts"][0]
    svg = shape_chart(count)
    bins = re.findall(
        r'<rect class="bin" x="[\d.]+" y="[\d.]+" width="[\d.]+" height="([\d.]+)" '
        r'fill="[^"]*"><title>(-?\d+)-(-?\d+): (\d+)</title>',
        svg,
    )
    shapes = count["distributions"]
    assert len(bins) == sum(len(shapes[k]["counts"]) for k in ("turns", "scores", "margin"))
    flat = [(k, i) for k in ("turns", "scores", "margin") for i in range(len(shapes[k]["counts"]))]
    for (key, i), (height, low, high, n) in zip(flat, bins, strict=True):
        d = shapes[key]
        assert int(n) == d["counts"][i] and int(low) == d["start"] + i * d["width"]
        assert int(high) == int(low) + d["width"] - 1
        assert float(height) == pytest.approx(120 * d["counts"][i] / max(d["counts"]), abs=0.06)
    for key in ("turns", "scores", "margin"):
        assert f"median {shapes[key]['quantiles']['0.5']:g}" in svg
    # no vertical axis: each panel says its unit and what its tallest bar counts
    said = re.findall(r'<text x="\d+" y="32"(?: text-anchor="end" fill="#555")?>([^<]*)</text>',
                      svg)  # fmt: skip
    assert said == [
        "turns a game", f"tallest bar: {max(shapes['turns']['counts'])} games",
        "final score of a seat (points)", f"tallest bar: {max(shapes['scores']['counts'])} seats",
        "winning margin (points)", f"tallest bar: {max(shapes['margin']['counts'])} games",
    ]  # fmt: skip


def test_the_ticket_chart_is_as_wide_as_its_words(result: Any) -> None:
    """A long city name on a board of one's own, or a ticket held thousands of times in a long
    run, is drawn whole: no word of the ticket chart runs past the picture's edges."""
    count = copy.deepcopy(result.figures()["counts"][0])
    held = [t for t in count["tickets"] if t["completed"]["of"]]
    held[0].update(a="Llanfairpwllgwyngyll Junction", b="Kilkenny", points=21, long=True)
    held[1]["completed"].update(count=2411, of=12034)
    svg = ticket_chart(count)
    width = float(re.search(r'<svg [^>]*width="([\d.]+)"', svg).group(1))  # type: ignore[union-attr]
    drawn = re.findall(r'<text x="([\d.]+)" y="[\d.]+"( text-anchor="end")?>([^<]*)</text>', svg)
    assert any("Llanfairpwllgwyngyll" in text for _, _, text in drawn)
    assert any("of 12034 held" in text for _, _, text in drawn)
    # the key says what the number, the bar, the line and the colour of a long ticket mean
    assert "(n): the ticket's points; bar: its holdings completed; line: 95 % interval;" in [
        html.unescape(text) for _, _, text in drawn
    ]
    swatch = re.search(r'<rect x="[\d.]+" y="29" width="10" height="10" fill="([^"]*)"/>\n'
                       r'<text x="[\d.]+" y="38">long ticket</text>', svg)  # fmt: skip
    bars = {key: fill for fill, key in re.findall(
        r'<rect x="\d+" y="[\d.]+" width="[\d.]+" height="11" fill="([^"]*)"><title>([^:]*):',
        svg)}  # fmt: skip
    assert swatch and bars[held[0]["id"]] == swatch.group(1) != bars[held[1]["id"]]
    for x, end, text in drawn:
        left = float(x) - label_width(text) if end else float(x)
        assert left >= 0 and left + label_width(text) <= width, text


def test_the_charts_draw_the_figures(result: Any) -> None:
    doc = result.figures()
    count = doc["counts"][0]
    svg = ticket_chart(count)
    held = [t for t in count["tickets"] if t["completed"]["of"]]
    bars = re.findall(r'<rect x="230" y="[\d.]+" width="([\d.]+)"', svg)
    assert len(bars) == len(held)
    rates = sorted((t["completed"]["rate"] for t in held), reverse=True)
    assert [float(b) for b in bars] == pytest.approx([420 * r for r in rates], abs=0.06)
    said = re.findall(r">\d+% of (\d+) held \((\d+)% of games\)</text>", svg)
    order = sorted(held, key=lambda t: (-t["completed"]["rate"], t["id"]))
    assert said == [
        (str(t["completed"]["of"]), f"{t['held_rate']['rate']:.0%}".rstrip("%")) for t in order
    ]
    assert all(t["held_rate"]["of"] == count["finished"] for t in count["tickets"])
    shares = shares_chart(doc)
    widths = [
        float(w)
        for w in re.findall(
            r'<rect x="[\d.]+" y="[\d.]+" width="([\d.]+)" '
            r'height="20"',
            shares,
        )
    ]
    assert len(widths) == 4 * len(doc["counts"])
    games = re.findall(r'<text x="\d+" y="\d+" text-anchor="end" font-size="10" fill="#555">'
                       r"(\d+) games</text>", shares)  # fmt: skip
    assert games == [str(c["finished"]) for c in doc["counts"]]  # each bar's sample is drawn
    for i in range(len(doc["counts"])):
        assert sum(widths[4 * i : 4 * i + 4]) == pytest.approx(560, abs=0.3)


def test_the_report_is_one_page_that_needs_nothing_from_elsewhere(result: Any) -> None:
    doc = result.figures()
    page = html_report(result.map, doc)
    assert "<script" not in page and "<link" not in page and "@import" not in page
    assert not re.search(r'(src|href)="', page)
    assert set(re.findall(r"https?://[^\"' ]+", page)) == {"http://www.w3.org/2000/svg"}
    assert page.count("<svg") == 1 + 3 * len(doc["counts"])  # shares; a map and two charts each
    for count in doc["counts"]:
        assert f'id="players-{count["players"]}"' in page
    for heading in (
        "Bots",
        "Seats",
        "The shape of the game",
        "Route contention",
        "Tickets",
        "Stalls",
        "Points a seat",
        "Routes rarely claimed",
        "Cities rarely reached",
    ):
        assert heading in page  # fmt: skip


def test_the_page_gives_the_shape_of_the_game_with_its_intervals(result: Any) -> None:
    doc = result.figures()
    page = html_report(result.map, doc)
    summary = page[page.index('class="summary"') : page.index("</table>")]
    for count in doc["counts"]:
        first = count["seat_advantage"]["first"]
        verdict = {"above": "above fair", "below": "below fair", "fair": "consistent with fair"}
        assert (
            f"{first['rate']:.1%} <small>({first['low']:.1%}-{first['high']:.1%})</small>, fair "
            f"{1 / count['players']:.1%}: {verdict[count['seat_advantage']['first_verdict']]}"
        ) in summary
        by_seat = "<br>".join(
            f"{q + 1}: {w['rate']:.1%} <small>({w['low']:.1%}-{w['high']:.1%})</small>"
            for q, w in enumerate(count["seat_advantage"]["wins"])
        )
        assert (
            f"<td>{by_seat}</td>" in summary
            and len(count["seat_advantage"]["wins"]) == count["players"]
        )
        margin = count["distributions"]["margin"]["mean"]
        assert f"{margin['mean']:.1f} <small>({margin['low']:.1f}-{margin['high']:.1f})" in summary
        section = page[page.index(f'id="players-{count["players"]}"') :]
        city = max(count["cities"], key=lambda c: c["desirability"]["mean"])
        d = city["desirability"]
        assert f"{d['mean']:.2f} <small>({d['low']:.2f}-{d['high']:.2f})</small>" in section
        routes = count["points"]["per_seat"]["routes"]
        assert f"{routes['mean']:.1f} <small>({routes['low']:.1f}-" in section
        for t in count["tickets"]:
            if t["contention"]["of"]:
                c = t["contention"]
                assert f"{c['rate']:.1%} <small>({c['low']:.1%}-{c['high']:.1%})" in section
        for o in count["ticket_outliers"]:
            assert f"<li>{o['id']}: " in section
        for key, label in (("turns", "turns a game"), ("margin", "winning margin")):
            q = count["distributions"][key]["quantiles"]
            row = section[section.index(f"<td>{label}</td>") :].split("</tr>", 1)[0]
            cells = re.findall(r"<td>([^<]*)</td>", row)[1:]
            wanted = ("0", "0.1", "0.25", "0.5", "0.75", "0.9", "1")
            assert cells == [f"{q[k]:g}" for k in wanted]
        rare = count["rarely_used"]
        assert f"Routes rarely claimed ({len(rare['routes'])})" in section
        for r in rare["routes"]:
            assert r["id"] + (" (never)" if r["never"] else " (") in section


def test_write_report_writes_the_figures_the_page_and_the_pictures(
    result: Any, tmp_path: Path
) -> None:
    out = tmp_path / "report"
    doc = result.figures()
    written = write_report(result.map, doc, out)
    names = {p.name for p in written}
    assert {
        "figures.json",
        "report.html",
        "shares.svg",
        "heatmap-2p.svg",
        "tickets-4p.svg",
        "shape-3p.svg",
    } <= names
    assert json.loads((out / "figures.json").read_text()) == doc
    assert write_report(result.map, doc, tmp_path / "again", png=False)  # the same files again
    for name in ("report.html", "heatmap-3p.svg", "figures.json"):
        assert (tmp_path / "again" / name).read_bytes() == (out / name).read_bytes()
    pytest.importorskip("cairosvg")
    image = pytest.importorskip("PIL.Image")
    for svg in out.glob("*.svg"):
        png = svg.with_suffix(".png")
        assert png.name in names
        picture = image.open(png)
        width = int(re.search(r'width="(\d+)"', svg.read_text()).group(1))  # type: ignore[union-attr]
        assert picture.size[0] == width and len(picture.getcolors(1 << 20) or ()) > 8
    pictures = os.environ.get("TTR_PLAYTEST_PICTURES")
    if pictures:
        for png in out.glob("*.png"):  # quantized, as the browser tests' screenshots are
            image.open(png).convert("RGB").quantize(colors=256).save(
                Path(pictures) / png.name, optimize=True
            )


def test_a_link_in_the_report_folder_is_replaced_not_written_through(
    result: Any, tmp_path: Path
) -> None:
    """A folder received from someone else may hold ``report.html`` as a link to a file of the
    user's: the report replaces the link and the file is left as it was."""
    out = tmp_path / "report"
    out.mkdir()
    victim = tmp_path / "precious.txt"
    victim.write_text("mine")
    (out / "report.html").symlink_to(victim)
    (out / "figures.json").symlink_to(tmp_path / "absent.json")
    write_report(result.map, result.figures(), out, png=False)
    assert victim.read_text() == "mine" and not (tmp_path / "absent.json").exists()
    assert not (out / "report.html").is_symlink()
    assert (out / "report.html").read_text().startswith("<!DOCTYPE html>")
    assert json.loads((out / "figures.json").read_text()) == result.figures()
    assert not list(out.glob(".*"))  # no spare file left behind
