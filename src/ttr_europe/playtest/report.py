"""The pictures and the report of a playtest: a heat map of the board, charts, one HTML file.

- ``heat_map``: the board laid out as ``render.render_svg`` lays it out, drawn in the heat
  scale alone (``scale``: five viridis steps, colour-blind safe): each route a thick stroke in
  the step of its claim rate, each city a disc in the step of the games that reached it, the
  rarely claimed routes dashed, and a legend of the steps with their numbers; the card colours
  are left out, so they do not compete with the scale;
- ``ticket_chart``, ``shares_chart`` and ``shape_chart``: charts in plain SVG written here (no
  plotting library): each ticket's completion rate with its interval, the sources of the points
  at each player count, and the histograms of game length, final scores and winning margin;
- ``html_report``: one self-contained page with the pictures inline and every table (no
  script, no file or font from elsewhere: it opens from the disk);
- ``write_report``: all of it in a directory, with ``figures.json`` and, where CairoSVG is
  installed, a PNG beside each SVG.

Everything is drawn from the figures document alone, so the same figures give the same files.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import secrets
from collections.abc import Callable, Sequence
from html import escape
from pathlib import Path
from typing import Any, NamedTuple

from ..board import Map
from ..render import (  # the board picture's own layout, shared
    MAP_WIDTH,
    MARGIN,
    _label_places,
    _layout,
    label_width,
)
from . import scale

SHARE_COLOURS = {
    "routes": "#4c72b0",
    "tickets": "#55a868",
    "stations": "#8172b2",
    "bonus": "#ccb974",
    "lost": "#c44e52",
}
LONG_TICKET = "#8c2d04"  # a long ticket's bar in the ticket chart
TICKET_KEY = "(n): the ticket's points; bar: its holdings completed; line: 95 % interval;"
FONT = 'font-family="sans-serif" font-size="11"'
PAPER = "#ffffff"  # the heat map's ground: no board colour under the scale
INK = "#111111"
HEAT_WIDTH = 6.0  # a route's heat stroke
HEAT_CITY = 6.5  # a city's heat disc
LEGEND_HEIGHT = 90.0
BOLD = ' font-weight="bold"'
TITLE_LINE = 18.0  # each line of the heat picture's visible title above the map


class Painted(NamedTuple):
    """How a heat picture draws one route or city: its colour, its tooltip (plain text) and an
    optional mark, ``"rare"`` (a dash along a route) or ``"added"`` (a plus at its middle)."""

    colour: str
    tip: str
    mark: str = ""


Paint = Callable[[dict[str, Any]], Painted]


def heat_map(board: Map, count: dict[str, Any]) -> str:
    """The board in the heat scale alone (SVG): each route a thick stroke in the step of its
    claim rate, each city a disc in the step of the share of games that reached it, routes
    rarely claimed dashed, and a legend of the steps with their numbers. No card colour is
    drawn, so nothing competes with the scale."""
    rare = {r["id"] for r in count["rarely_used"]["routes"]}

    def route(r: dict[str, Any]) -> Painted:
        share = r["claimed"]["rate"]
        tip = f"{r['id']}: claimed in {share:.0%} of games"
        return Painted(scale.colour(share), tip, "rare" if r["id"] in rare else "")

    def city(c: dict[str, Any]) -> Painted:
        share = c["reached"]["rate"]
        return Painted(scale.colour(share), f"{c['name']}: reached in {share:.0%} of games")

    title = f"{board.name}: route contention, {count['players']} players, {count['finished']} games"
    return heat_svg(
        board,
        title,
        (count["routes"], route),
        (count["cities"], city),
        lambda top: heat_legend(count, top),
    )


def heat_svg(
    board: Map,
    title: str,
    routes: tuple[Sequence[dict[str, Any]], Paint],
    cities: tuple[Sequence[dict[str, Any]], Paint],
    legend: Callable[[float], list[str]],
    legend_height: float = LEGEND_HEIGHT,
) -> str:
    """A heat picture of ``board`` (SVG) laid out as ``render.render_svg`` lays it out, under
    its ``title`` (its lines split at newlines, the first in bold): each of the ``routes``
    (entries with an ``id``) a thick stroke and each of the ``cities`` a disc, coloured by the
    paint given with them, the city names, and ``legend(top)`` below the map.
    Nothing but the scale is coloured, so nothing competes with it."""
    map_height, pos = _layout(board)
    lines = title.split("\n")
    title_height = 8 + TITLE_LINE * len(lines)
    height = title_height + map_height + legend_height
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{MAP_WIDTH}" '
        f'height="{height:.0f}" viewBox="0 0 {MAP_WIDTH} '
        f'{height:.0f}" {FONT} class="ttr-heat" data-map="{escape(board.id)}">',
        f"<title>{escape(', '.join(lines))}</title>",
        f'<rect width="100%" height="100%" fill="{PAPER}"/>',
        # drawn too, as the other charts' titles are: a picture passed on alone (a PNG in a
        # message) still says which board, player count and number of games it shows
        *(
            f'<text class="heat-title" x="10" y="{18 + TITLE_LINE * i:.0f}" '
            f'font-size="{13 if i == 0 else 11}"{BOLD if i == 0 else ""} '
            f'fill="{INK}">{escape(line)}</text>'
            for i, line in enumerate(lines)
        ),
        f'<g class="heat-board" transform="translate(0 {title_height:.0f})">',
        '<g class="heat-routes">',
    ]
    entries, paint = routes
    for r in entries:
        out += _heat_route(board, pos, r["id"], paint(r))
    out += ["</g>", '<g class="heat-cities">']
    entries, paint = cities
    for c in entries:
        x, y = pos[board.city_index[c["id"]]]
        painted = paint(c)
        out.append(
            f'<circle class="heat-city" data-city="{escape(c["id"])}" cx="{x:.1f}" cy="{y:.1f}" '
            f'r="{HEAT_CITY}" fill="{painted.colour}" stroke="{scale.CASING}" '
            f'stroke-width="1.5"><title>{escape(painted.tip)}</title></circle>'
        )
    labels = _label_places(board)
    for city in board.cities:
        lx, ly, anchor = labels[city.index]
        at = f'x="{lx:.1f}" y="{ly:.1f}" text-anchor="{anchor}"'
        out.append(
            f'<text {at} fill="{PAPER}" stroke="{PAPER}" stroke-width="3" '
            f'stroke-linejoin="round">{escape(city.name)}</text>'
            f'<text {at} fill="{INK}">{escape(city.name)}</text>'
        )
    out += ["</g>", "</g>", *legend(title_height + map_height), "</svg>"]
    return "\n".join(out) + "\n"


def _heat_route(
    board: Map, pos: Sequence[tuple[float, float]], key: str, painted: Painted
) -> list[str]:
    """One route: a neutral casing, the heat stroke, and its mark (a dash along it, or a plus
    at its middle)."""
    route = board.route(key)
    (x1, y1), (x2, y2) = pos[route.a], pos[route.b]
    norm = math.hypot(x2 - x1, y2 - y1) or 1.0
    off = (
        0.0
        if route.twin is None
        else (HEAT_WIDTH / 2 + 1) * (1 if route.index < route.twin else -1)
    )
    ox, oy = -(y2 - y1) / norm * off, (x2 - x1) / norm * off
    line = f'x1="{x1 + ox:.1f}" y1="{y1 + oy:.1f}" x2="{x2 + ox:.1f}" y2="{y2 + oy:.1f}"'
    mark = f" {painted.mark}" if painted.mark else ""
    out = [
        f'<g class="heat-route{mark}" data-route="{escape(key)}">'
        f"<title>{escape(painted.tip)}</title>",
        f'<line {line} stroke="{scale.CASING}" stroke-width="{HEAT_WIDTH + 2.5}"/>',
        f'<line class="heat" {line} stroke="{painted.colour}" stroke-width="{HEAT_WIDTH}"/>',
    ]
    if painted.mark == "rare":
        out.append(
            f'<line {line} stroke="{scale.CASING}" stroke-width="2" '
            'stroke-dasharray="4,4" class="dash"/>'
        )
    elif painted.mark == "added":
        out.append(plus((x1 + x2) / 2 + ox, (y1 + y2) / 2 + oy))
    out.append("</g>")
    return out


def plus(x: float, y: float) -> str:
    """The mark of a route only one board has: a plus in a white disc."""
    return (
        f'<g class="plus"><circle cx="{x:.1f}" cy="{y:.1f}" r="7" fill="{PAPER}" '
        f'stroke="{scale.CASING}" stroke-width="1.5"/><path d="M{x - 4:.1f} {y:.1f}h8M{x:.1f} '
        f'{y - 4:.1f}v8" stroke="{INK}" stroke-width="2"/></g>'
    )


def _n(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else many or one + 's'}"


def legend_steps(
    steps: Sequence[tuple[str, str, int, int]], pitch: int = 150, width: int = 140
) -> list[str]:
    """The swatches of a scale in a row, each ``(colour, range, routes, cities)`` with its
    range and how many routes and cities fall in it."""
    out = []
    for i, (ink, label, routes, cities) in enumerate(steps):
        x = i * pitch
        out += [
            f'<rect class="step" x="{x}" y="10" width="{width}" height="16" fill="{ink}" '
            f'stroke="{scale.CASING}"/>',
            f'<text x="{x}" y="40">{escape(label)}</text>',
            f'<text x="{x}" y="54" class="step-count">{_n(routes, "route")}, '
            f"{_n(cities, 'city', 'cities')}</text>",
        ]
    return out


def heat_legend(count: dict[str, Any], top: float) -> list[str]:
    """The scale's steps, each with its range and how many routes and cities fall in it."""
    routes = [0] * len(scale.HEAT)
    cities = [0] * len(scale.HEAT)
    for r in count["routes"]:
        routes[scale.step(r["claimed"]["rate"])] += 1
    for c in count["cities"]:
        cities[scale.step(c["reached"]["rate"])] += 1
    y = top + 20
    out = [
        f'<g class="heat-legend" transform="translate({MARGIN} {y:.0f})">',
        '<text x="0" y="0" font-weight="bold">Share of games in which a route was claimed '
        "(stroke) or a city reached (disc)</text>",
        *legend_steps(
            [
                (ink, f"{scale.BOUNDS[i]:.0%}-{scale.BOUNDS[i + 1]:.0%}", routes[i], cities[i])
                for i, ink in enumerate(scale.HEAT)
            ]
        ),
    ]
    rare = count["rarely_used"]
    out += [
        f'<line x1="{len(scale.HEAT) * 150 + 10}" y1="18" x2="{len(scale.HEAT) * 150 + 44}" '
        f'y2="18" stroke="{scale.CASING}" stroke-width="{HEAT_WIDTH + 2.5}"/>',
        f'<line x1="{len(scale.HEAT) * 150 + 10}" y1="18" x2="{len(scale.HEAT) * 150 + 44}" '
        f'y2="18" stroke="{scale.HEAT[0]}" stroke-width="{HEAT_WIDTH}"/>',
        f'<line x1="{len(scale.HEAT) * 150 + 10}" y1="18" x2="{len(scale.HEAT) * 150 + 44}" '
        f'y2="18" stroke="{scale.CASING}" stroke-width="2" stroke-dasharray="4,4"/>',
        f'<text x="{len(scale.HEAT) * 150 + 50}" y="22">rarely claimed: '
        f"{len(rare['routes'])}</text>",
        f'<text x="{len(scale.HEAT) * 150 + 10}" y="40">(interval below '
        f"{rare['rare_below']:.0%})</text>",
        "</g>",
    ]
    return out


def _svg(width: float, height: float, title: str, body: Sequence[str]) -> str:
    return (
        "\n".join(
            [
                f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" '
                f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" {FONT}>',
                f"<title>{escape(title)}</title>",
                '<rect width="100%" height="100%" fill="#ffffff"/>',
                *body,
                "</svg>",
            ]
        )
        + "\n"
    )


def ticket_chart(count: dict[str, Any]) -> str:
    """Each ticket held in the games: completion rate when held (bar), 95 % interval (whisker),
    points, and the share of games it was held in (a ticket no seat kept is left out)."""
    rows = sorted(
        (t for t in count["tickets"] if t["completed"]["of"]),
        key=lambda t: (-t["completed"]["rate"], t["id"]),
    )
    names = [f"{t['a']} - {t['b']} ({t['points']}{', long' if t['long'] else ''})" for t in rows]
    shares = [
        f"{t['completed']['rate']:.0%} of {t['completed']['of']} held "
        f"({t['held_rate']['rate']:.0%} of games)"
        for t in rows
    ]
    # as wide as the longest name and share need: long city names, or thousands of holdings
    # in a long run, are not cut off at the picture's edges
    left = max(230, math.ceil(16 + max(map(label_width, names), default=0.0)))
    bar, line, top = 420, 15, 50
    key_end = math.ceil(10 + label_width(TICKET_KEY))
    right = max(190, math.ceil(16 + max(map(label_width, shares), default=0.0)))
    height = top + line * len(rows) + 34
    body = [
        f'<text x="10" y="18" font-size="13" font-weight="bold">Ticket completion when held, '
        f"{count['players']} players ({count['finished']} games)</text>",
        # the key: what the bar, the line, the number and the colours mean
        f'<text x="10" y="38">{escape(TICKET_KEY)}</text>',
        f'<rect x="{key_end + 8}" y="29" width="10" height="10" fill="{LONG_TICKET}"/>',
        f'<text x="{key_end + 22}" y="38">long ticket</text>',
    ]
    for tick in range(0, 101, 25):
        x = left + bar * tick / 100
        body += [
            f'<line x1="{x:.1f}" y1="{top - 4}" x2="{x:.1f}" y2="{height - 26}" stroke="#ddd"/>',
            f'<text x="{x:.1f}" y="{height - 12}" text-anchor="middle">{tick}%</text>',
        ]
    for i, (t, name, share) in enumerate(zip(rows, names, shares, strict=True)):
        y = top + i * line
        done = t["completed"]
        colour = LONG_TICKET if t["long"] else SHARE_COLOURS["routes"]
        body += [
            f'<text x="{left - 6}" y="{y + 10}" text-anchor="end">{escape(name)}</text>',
            f'<rect x="{left}" y="{y + 2}" width="{bar * done["rate"]:.1f}" height="{line - 4}" '
            f'fill="{colour}"><title>{escape(t["id"])}: {done["count"]} of {done["of"]} '
            f"completed</title></rect>",
            f'<line x1="{left + bar * done["low"]:.1f}" y1="{y + line / 2:.1f}" '
            f'x2="{left + bar * done["high"]:.1f}" y2="{y + line / 2:.1f}" stroke="#111" '
            'stroke-width="1.2"/>',
            f'<text x="{left + bar + 6}" y="{y + 10}">{share}</text>',
        ]
    return _svg(left + bar + right, height, "ticket completion", body)


def shares_chart(doc: dict[str, Any]) -> str:
    """Where the points come from at each player count: one stacked bar of the points earned,
    and below it the points lost to failed tickets, both as shares of the points earned."""
    counts = doc["counts"]
    left, bar, step, top = 90, 560, 46, 58
    height = top + step * len(counts) + 10
    body = [
        f'<text x="10" y="18" font-size="13" font-weight="bold">Where the points come '
        f"from ({escape(doc['name'])})</text>"
    ]
    x = 10
    for name in ("routes", "tickets", "stations", "bonus", "lost"):
        label = "tickets failed (lost)" if name == "lost" else name
        body += [
            f'<rect x="{x}" y="28" width="12" height="12" fill="{SHARE_COLOURS[name]}"/>',
            f'<text x="{x + 16}" y="38">{label}</text>',
        ]
        x += 30 + 7 * len(label)
    for i, count in enumerate(counts):
        y = top + i * step
        shares = count["points"]["shares"]
        body += [
            f'<text x="{left - 8}" y="{y + 14}" text-anchor="end">{count["players"]} players'
            "</text>",
            # the sample under each bar, as the other charts give theirs
            f'<text x="{left - 8}" y="{y + 29}" text-anchor="end" font-size="10" '
            f'fill="#555">{count["finished"]} games</text>',
        ]
        at = float(left)
        for name in ("routes", "tickets", "stations", "bonus"):
            part = shares[name]
            width = bar * part["rate"]
            body.append(
                f'<rect x="{at:.1f}" y="{y}" width="{width:.1f}" height="20" '
                f'fill="{SHARE_COLOURS[name]}"><title>{name}: {_share(part)}'
                "</title></rect>"
            )
            if part["rate"] >= 0.06:
                body.append(
                    f'<text x="{at + width / 2:.1f}" y="{y + 14}" text-anchor="middle" '
                    f'fill="#fff">{part["rate"]:.0%}</text>'
                )
            at += width
        lost_part = count["points"]["lost_share"]
        lost = lost_part["rate"]
        body += [
            f'<rect x="{left}" y="{y + 23}" width="{bar * min(lost, 1.0):.1f}" height="8" '
            f'fill="{SHARE_COLOURS["lost"]}"><title>lost: {_share(lost_part)}</title></rect>',
            f'<text x="{left + bar * min(lost, 1.0) + 4:.1f}" y="{y + 31}">{lost:.0%} lost</text>',
        ]
    return _svg(left + bar + 60, height, "point shares", body)


SHAPES = (
    ("turns", "turns a game"),
    ("scores", "final score of a seat"),
    ("margin", "winning margin"),
)
# each histogram's unit along its axis, and what its bars count: the chart has no vertical
# axis, so the tallest bar's count is written over it instead
SHAPE_UNITS = {"turns": ("", "games"), "scores": (" (points)", "seats"),
               "margin": (" (points)", "games")}  # fmt: skip


def shape_chart(count: dict[str, Any]) -> str:
    """The three distributions of a player count side by side: a bar per histogram bin, the
    median marked."""
    panel, gap, top, high = 300, 30, 40, 120
    body = [
        f'<text x="10" y="18" font-size="13" font-weight="bold">The shape of the game, '
        f"{count['players']} players ({count['finished']} games)</text>"
    ]
    for k, (key, label) in enumerate(SHAPES):
        d = count["distributions"][key]
        left = 10 + k * (panel + gap)
        unit, counted = SHAPE_UNITS[key]
        body.append(f'<text x="{left}" y="{top - 8}">{escape(label + unit)}</text>')
        if not d["counts"]:
            continue
        most = max(d["counts"])
        body.append(
            f'<text x="{left + panel}" y="{top - 8}" text-anchor="end" fill="#555">'
            f"tallest bar: {most} {counted}</text>"
        )
        wide = panel / len(d["counts"])
        for i, n in enumerate(d["counts"]):
            h = high * n / most
            low = d["start"] + i * d["width"]
            body.append(
                f'<rect class="bin" x="{left + i * wide:.1f}" y="{top + high - h:.1f}" '
                f'width="{max(wide - 1, 0.5):.1f}" height="{h:.1f}" fill="#4c72b0">'
                f"<title>{low}-{low + d['width'] - 1}: {n}</title></rect>"
            )
        median = d["quantiles"]["0.5"]
        x = left + (median - d["start"]) / (d["width"] * len(d["counts"])) * panel
        end = d["start"] + d["width"] * len(d["counts"])
        body += [
            f'<line x1="{x:.1f}" y1="{top - 2}" x2="{x:.1f}" y2="{top + high}" stroke="#c44e52" '
            'stroke-width="1.5"/>',
            f'<text x="{left}" y="{top + high + 14}">{d["start"]}</text>',
            f'<text x="{left + panel}" y="{top + high + 14}" text-anchor="end">{end}</text>',
            f'<text x="{x:.1f}" y="{top + high + 28}" text-anchor="middle" fill="#c44e52">'
            f"median {median:g}</text>",
        ]
    return _svg(3 * panel + 2 * gap + 20, top + high + 40, "the shape of the game", body)


# --------------------------------------------------------------------------- the page


def _pct(r: dict[str, Any]) -> str:
    return f"{r['rate']:.1%} <small>({r['low']:.1%}-{r['high']:.1%})</small>"


def _share(r: dict[str, Any]) -> str:
    """A ratio's share with its interval, as a chart's tooltip reads it."""
    if r["low"] is None:
        return f"{r['rate']:.1%}"
    return f"{r['rate']:.1%} ({r['low']:.1%}-{r['high']:.1%})"


def _num(m: dict[str, Any], digits: int = 1) -> str:
    if m["mean"] is None:
        return "-"
    if m["low"] is None:
        return f"{m['mean']:.{digits}f}"
    return f"{m['mean']:.{digits}f} <small>({m['low']:.{digits}f}-{m['high']:.{digits}f})</small>"


def _table(head: Sequence[str], rows: Sequence[Sequence[str]], cls: str = "") -> str:
    out = [
        f'<table class="{cls}"><thead><tr>'
        + "".join(f"<th>{escape(h)}</th>" for h in head)
        + "</tr></thead><tbody>"
    ]
    out += ["<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows]
    out.append("</tbody></table>")
    return "\n".join(out)


QUANTILE_NAMES = {"0": "min", "0.1": "10 %", "0.25": "25 %", "0.5": "median", "0.75": "75 %",
                  "0.9": "90 %", "1": "max"}  # fmt: skip
VERDICTS = {"above": "above fair", "below": "below fair", "fair": "consistent with fair"}


def _verdict(wins: dict[str, Any], fair: float) -> str:
    side = "above" if wins["low"] > fair else "below" if wins["high"] < fair else "fair"
    return f"{VERDICTS[side]} ({fair:.1%})"


def _first_seat(advantage: dict[str, Any]) -> str:
    """Seat 1's win rate, the fair share and whether its interval excludes it."""
    return (
        f"{_pct(advantage['first'])}, fair {advantage['fair']:.1%}: "
        f"{VERDICTS[advantage['first_verdict']]}"
    )


def _rarely_used(rare: dict[str, Any]) -> list[str]:
    """Routes never or rarely claimed and cities never or rarely reached, named."""

    def named(items: list[dict[str, Any]], key: str) -> str:
        return ", ".join(
            f"{escape(x['id'])} ({'never' if x['never'] else _pct(x[key])})" for x in items
        )

    out = [f"<p>Rarely used: the upper end of the interval is below {rare['rare_below']:.0%}.</p>"]
    out.append(f"<p>Routes rarely claimed ({len(rare['routes'])}): "
               f"{named(rare['routes'], 'claimed') or 'none'}.</p>")  # fmt: skip
    out.append(f"<p>Cities rarely reached ({len(rare['cities'])}): "
               f"{named(rare['cities'], 'reached') or 'none'}.</p>")  # fmt: skip
    return out


def _outliers(found: list[dict[str, Any]]) -> list[str]:
    """The tickets far from the rest, named with the figure and its fences."""
    if not found:
        return ["<p>Ticket outliers: none (no ticket lies beyond the Tukey fences).</p>"]
    words = {"points_per_train": "points a train", "completed": "completion"}
    return [
        "<p>Ticket outliers (beyond the Tukey fences of all tickets):</p><ul>",
        *(
            f"<li>{escape(o['id'])}: {words[o['figure']]} {o['value']:.2f}, {o['side']} "
            f"(fences {o['fences'][0]:.2f}-{o['fences'][1]:.2f})</li>"
            for o in found
        ),
        "</ul>",
    ]


def warnings(count: dict[str, Any]) -> list[str]:
    """What a designer must know first: games that do not end, stalls."""
    out = []
    if count["unfinished"]:
        out.append(
            f"{count['unfinished']} of {count['games']} games did not end within the "
            "action cap: on this board (with these bots) games may not end."
        )
    if count["finished"] == 0:
        out.append("No game ended: there are no figures to show.")
    passed = count["stalls"]["ended_by_passes"]
    if passed:
        out.append(
            f"{passed} games ended because every seat passed in a row (no seat could "
            "draw or claim)."
        )
    return out


PAGE_STYLE = """
body { font-family: sans-serif; margin: 1.5em; color: #111; max-width: 1200px; }
table { border-collapse: collapse; margin: 0.5em 0 1.2em; font-size: 13px; }
th, td { border: 1px solid #ccc; padding: 2px 8px; text-align: right; }
th { background: #f0f0f0; } td:first-child, th:first-child { text-align: left; }
small { color: #666; } svg { max-width: 100%; height: auto; } details { margin: 0.4em 0 1em; }
"""
"""The playtest pages' style (the report's and the comparison's)."""
_STYLE = PAGE_STYLE + ".warn { background: #fff3cd; border: 1px solid #e0c060; padding: 0.5em; }\n"


def html_report(board: Map, doc: dict[str, Any]) -> str:
    """The whole report as one HTML page: summary, pictures, tables."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>Playtest of {escape(doc['name'])}</title><style>{_STYLE}</style></head><body>",
        f"<h1>Playtest of {escape(doc['name'])} <small>({escape(doc['map'])}, variant "
        f"{escape(doc['variant'])})</small></h1>",
        f"<p>Bots: {escape(', '.join(doc.get('bots', [])))}; seeds from {doc.get('seed', 0)}; "
        "intervals are 95 % (Wilson for rates, normal for means).</p>",
        made_with(doc),
        _table(
            [
                "players",
                "games",
                "finished",
                "turns",
                "rounds a seat",
                "longest path",
                "bonus decides",
                "ended by passes",
                "seat 1 wins (fair share)",
                "win rate by seat",
                "winning margin",
            ],
            [
                [
                    str(c["players"]),
                    str(c["games"]),
                    str(c["finished"]),
                    _num(c["turns"]),
                    _num(c["rounds"]),
                    _num(c["longest_path"]["length"]),
                    _pct(c["longest_path"]["bonus_decides"]),
                    _pct(c["ended_by_passes"]),
                    _first_seat(c["seat_advantage"]),
                    "<br>".join(
                        f"{q + 1}: {_pct(w)}" for q, w in enumerate(c["seat_advantage"]["wins"])
                    ),
                    _num(c["distributions"]["margin"]["mean"]),
                ]
                for c in doc["counts"]
            ],
            "summary",
        ),
        shares_chart(doc),
    ]
    for count in doc["counts"]:
        parts += _count_section(board, count)
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _count_section(board: Map, c: dict[str, Any]) -> list[str]:
    n = c["players"]
    out = [f'<h2 id="players-{n}">{n} players</h2>']
    out += [f'<p class="warn">{escape(w)}</p>' for w in warnings(c)]
    if c["finished"] == 0:
        return out
    pts = c["points"]["per_seat"]
    fair = c["seat_advantage"]["fair"]
    out += [
        "<h3>Bots</h3>",
        _table(
            ["bot", "seats", "win rate", "mean score"],
            [
                [escape(b["name"]), str(b["seats"]), _pct(b["wins"]), _num(b["score"])]
                for b in c["bots"]
            ],
        ),
        "<h3>Seats</h3>",
        f"<p>Seat 1 plays first; it wins {_first_seat(c['seat_advantage'])}.</p>",
        _table(
            ["seat", "win rate", "against the fair share", "mean score"],
            [
                [str(s["seat"] + 1), _pct(s["wins"]), _verdict(s["wins"], fair), _num(s["score"])]
                for s in c["seats"]
            ],
        ),
        "<h3>The shape of the game</h3>",
        shape_chart(c),
        _table(
            ["figure", "mean", *(f"{q}" for q in QUANTILE_NAMES.values())],
            [
                [label, _num(c["distributions"][key]["mean"])]
                + [f"{c['distributions'][key]['quantiles'][q]:g}" for q in QUANTILE_NAMES]
                for key, label in SHAPES
            ],
        ),
        "<h3>Points a seat</h3>",
        _table(
            ["routes", "tickets won", "tickets lost", "stations kept", "bonus", "total"],
            [
                [
                    *(
                        _num(pts[k])
                        for k in ("routes", "tickets_won", "tickets_lost", "stations", "bonus")
                    ),
                    _num(c["points"]["total"]),
                ]
            ],
        ),
        "<h3>Route contention and cities reached</h3>",
        heat_map(board, c),
    ]
    routes = sorted(c["routes"], key=lambda r: (-r["claimed"]["rate"], r["id"]))
    out += [
        "<details open><summary>Routes, most claimed first</summary>",
        _table(
            ["route", "length", "colour", "claimed", "round", "by a winner"],
            [
                [
                    escape(r["id"]),
                    str(r["length"]),
                    escape(
                        r["colour"]
                        + (" tunnel" if r["tunnel"] else "")
                        + (f" ferry {r['ferry']}" if r["ferry"] else "")
                    ),
                    _pct(r["claimed"]),
                    _num(r["round"]),
                    _pct(r["by_winner"]) if r["by_winner"]["of"] else "-",
                ]
                for r in routes
            ],
        ),
        "</details>",
    ]
    if c["doubles"]:
        out += [
            "<details><summary>Double routes: the second track</summary>",
            _table(
                ["double route", "a track claimed", "second track too"],
                [
                    [
                        escape(f"{d['a']} - {d['b']}"),
                        _pct(d["claimed"]),
                        _pct(d["second_track"]) if d["second_track"]["of"] else "-",
                    ]
                    for d in c["doubles"]
                ],
            ),
            "</details>",
        ]
    cities = sorted(c["cities"], key=lambda x: (-x["desirability"]["mean"], x["id"]))
    out += [
        *_rarely_used(c["rarely_used"]),
        "<details open><summary>Cities, most desirable first</summary>",
        _table(
            ["city", "reached", "claims a game", "stations a game", "desirability"],
            [
                [
                    escape(x["name"]),
                    _pct(x["reached"]),
                    _num(x["claims"], 2),
                    _num(x["stations"], 2),
                    _num(x["desirability"], 2),
                ]
                for x in cities
            ],
        ),
        "</details>",
        "<h3>Tickets</h3>",
        ticket_chart(c),
        *_outliers(c["ticket_outliers"]),
        "<details><summary>Tickets: completion, points and difficulty</summary>",
        _table(
            [
                "ticket",
                "points",
                "trains",
                "points a train",
                "held (share of games)",
                "completed",
                "contested",
                "points won a game",
                "points lost a game",
            ],
            [
                [
                    escape(t["id"]),
                    str(t["points"]) + (" long" if t["long"] else ""),
                    "-" if t["trains"] is None else str(t["trains"]),
                    "-" if t["points_per_train"] is None else f"{t['points_per_train']:.2f}",
                    _pct(t["held_rate"]),
                    _pct(t["completed"]) if t["completed"]["of"] else "-",
                    _pct(t["contention"]) if t["contention"]["of"] else "-",
                    _num(t["won"], 2),
                    _num(t["lost"], 2),
                ]
                for t in sorted(c["tickets"], key=lambda t: (-t["completed"]["rate"], t["id"]))
            ],
        ),
        "</details>",
        "<h3>Stalls</h3>",
        _table(
            ["seats that passed", "games with a pass", "passes", "games ended by passes"],
            [
                [
                    _pct(c["stalls"]["seats_that_passed"]),
                    _pct(c["stalls"]["games_with_a_pass"]),
                    str(c["stalls"]["passes"]),
                    str(c["stalls"]["ended_by_passes"]),
                ]
            ],
        ),
    ]
    return out


def png_of(svg: str) -> bytes | None:
    """The PNG of ``svg`` where CairoSVG is installed, else None."""
    try:
        import cairosvg  # type: ignore[import-untyped]
    except (ImportError, OSError):  # not installed, or its cairo library is missing
        return None
    data: bytes = cairosvg.svg2png(bytestring=svg.encode())
    return data


def made_with(doc: dict[str, Any]) -> str:
    """The command that plays the same games again, where the document names one: figures
    beside the command that made them can be checked by anyone."""
    if "command" not in doc:
        return ""
    return (
        f'<p class="command">Made with <code>{escape(doc["command"])}</code> (the same games '
        "on any backend and number of workers).</p>"
    )


def write_report(
    board: Map, doc: dict[str, Any], folder: str | Path, *, png: bool = True
) -> list[Path]:
    """Write ``figures.json``, ``report.html`` and every picture (SVG, PNG where CairoSVG is
    installed and ``png``) into ``folder``; the paths written."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    pictures = {"shares.svg": shares_chart(doc)}
    for c in doc["counts"]:
        if c["finished"]:
            pictures[f"heatmap-{c['players']}p.svg"] = heat_map(board, c)
            pictures[f"tickets-{c['players']}p.svg"] = ticket_chart(c)
            pictures[f"shape-{c['players']}p.svg"] = shape_chart(c)
    files = [
        ("figures.json", json.dumps(doc, indent=1, ensure_ascii=False) + "\n"),
        ("report.html", html_report(board, doc)),
        *pictures.items(),
    ]
    return write_files(out, files, png)


def write_files(out: Path, files: Sequence[tuple[str, str]], png: bool) -> list[Path]:
    """Write each ``(name, text)`` into ``out``, and beside each SVG its PNG when ``png`` and
    CairoSVG allow; the paths written, in order."""
    written = []
    for name, text in files:
        written.append(_replace(out, name, text.encode("utf-8")))
        if png and name.endswith(".svg"):
            data = png_of(text)
            if data is not None:
                written.append(_replace(out, name[: -len(".svg")] + ".png", data))
    return written


def _replace(out: Path, name: str, data: bytes) -> Path:
    """Put ``data`` at ``out / name`` by writing a new file and renaming it there: whatever
    held that name (a symbolic link to a file outside the folder, in a folder received from
    someone else) is replaced, never written through."""
    path = out / name
    spare = out / f".{name}.{secrets.token_hex(6)}.tmp"
    fd = os.open(spare, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(spare, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(spare)
        raise
    return path
