"""The playtest report: the heat map's bands and the charts' bars against the figures, one
self-contained HTML page and PNGs that are real pictures (``ttr-europe playtest`` as a user runs
it: cli/test_playtest_command.py). ``TTR_PLAYTEST_PICTURES=dir`` also writes the example board's
report there (docs/playtest/ holds it so)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from ttr_europe.maps import load_map_file
from ttr_europe.playtest import playtest
from ttr_europe.playtest.report import (
    ROUTE_BANDS,
    heat_map,
    html_report,
    shares_chart,
    ticket_chart,
    write_report,
)

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "tessel.json"


@pytest.fixture(scope="module")
def result() -> Any:
    board = load_map_file(str(EXAMPLE))
    return playtest(board, players=(2, 3, 4), games=24, backend="serial", seed=1)


def test_the_heat_map_bands_every_route_by_its_claim_rate(result: Any) -> None:
    count = result.figures()["counts"][1]
    svg = heat_map(result.map, count)
    bands = re.findall(
        r'<g class="highlight" data-highlight="\d+" data-label="([^"]*)">(.*?)</g>', svg, re.S
    )
    routes = [b for b in bands if b[0].startswith("claimed in")]
    assert sum(len(re.findall("<line ", body)) for _, body in routes) == len(result.map.routes)
    for label, body in routes:
        low, high = (int(x) / 100 for x in re.findall(r"(\d+)%", label)[:2])
        in_band = [
            r
            for r in count["routes"]
            if low <= r["claimed"]["rate"] and (r["claimed"]["rate"] < high or high == 1)
        ]
        assert f"({len(in_band)} route" in label
        assert len(re.findall("<line ", body)) == len(in_band)
        colour = dict((f"{lo:.0%}", c) for lo, c in ROUTE_BANDS)[f"{low:.0%}"]
        assert body.count(f'stroke="{colour}"') == len(in_band)
    cities = [b for b in bands if b[0].startswith("cities")]
    top = max(count["cities"], key=lambda c: c["desirability"])
    assert f'data-city="{top["id"]}"' in svg and cities and "<circle" in cities[0][1]
    assert "3 players" in re.search(r"<title>(.*?)</title>", svg).group(1)  # type: ignore[union-attr]


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
    for i in range(len(doc["counts"])):
        assert sum(widths[4 * i : 4 * i + 4]) == pytest.approx(560, abs=0.3)


def test_the_report_is_one_page_that_needs_nothing_from_elsewhere(result: Any) -> None:
    doc = result.figures()
    page = html_report(result.map, doc)
    assert "<script" not in page and "<link" not in page and "@import" not in page
    assert not re.search(r'(src|href)="', page)
    assert set(re.findall(r"https?://[^\"' ]+", page)) == {"http://www.w3.org/2000/svg"}
    assert page.count("<svg") == 1 + 2 * len(doc["counts"])  # shares, then a map and a chart
    for count in doc["counts"]:
        assert f'id="players-{count["players"]}"' in page
    for heading in ("Bots", "Route contention", "Tickets", "Stalls", "Points a seat"):
        assert heading in page


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
