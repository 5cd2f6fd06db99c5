"""The pictures and the report of a playtest: a heat map of the board, charts, one HTML file.

- ``heat_map``: the board as ``render.render_svg`` draws it, each route glowing in the colour
  of how often it was claimed and the most desirable cities ringed (render's ``Highlight``
  bands, so the picture is the project's board picture with its legend);
- ``ticket_chart`` and ``shares_chart``: bar charts in plain SVG written here (no plotting
  library): each ticket's completion rate with its interval, and the sources of the points at
  each player count;
- ``html_report``: one self-contained page with the pictures inline and every table (no
  script, no file or font from elsewhere: it opens from the disk);
- ``write_report``: all of it in a directory, with ``figures.json`` and, where CairoSVG is
  installed, a PNG beside each SVG.

Everything is drawn from the figures document alone, so the same figures give the same files.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any

from ..board import Map
from ..render import Highlight, render_svg

ROUTE_BANDS = (  # (lowest claim rate, colour): red for contested, blue for neglected
    (0.8, "#b2182b"),
    (0.6, "#ef6548"),
    (0.4, "#fdae61"),
    (0.2, "#74add1"),
    (0.0, "#313695"),
)
ROUTE_GLOW = 18.0  # the width of a route's band colour around its spaces
CITY_BANDS = ((0.1, "#111111"), (0.25, "#1b9e77"))  # (top share of the cities, ring colour)
SHARE_COLOURS = {
    "routes": "#4c72b0",
    "tickets": "#55a868",
    "stations": "#8172b2",
    "bonus": "#ccb974",
    "lost": "#c44e52",
}
FONT = 'font-family="sans-serif" font-size="11"'


def heat_map(board: Map, count: dict[str, Any]) -> str:
    """The board with routes banded by claim rate and the top cities ringed (SVG)."""
    marks: list[Highlight] = []
    upper = 1.0
    for low, colour in ROUTE_BANDS:
        ids = tuple(
            r["id"]
            for r in count["routes"]
            if low <= r["claimed"]["rate"] and (r["claimed"]["rate"] < upper or upper == 1.0)
        )
        if ids:
            label = (
                f"claimed in {low:.0%}-{upper:.0%} of games ({len(ids)} "
                f"route{'s' * (len(ids) != 1)})"
            )
            marks.append(Highlight(label, ids, (), colour, ROUTE_GLOW))
        upper = low
    ranked = sorted(count["cities"], key=lambda c: (-c["desirability"], c["id"]))
    start = 0
    for share, colour in CITY_BANDS:
        end = max(start + 1, round(share * len(ranked)))
        chosen = ranked[start:end]
        if chosen:
            least = chosen[-1]["desirability"]
            marks.append(
                Highlight(
                    f"cities: the most desirable {share:.0%} (claims and stations a game "
                    f">= {least:.1f})",
                    (),
                    tuple(c["id"] for c in chosen),
                    colour,
                    ROUTE_GLOW,
                )
            )
        start = end
    svg = render_svg(board, highlights=marks)
    title = f"{board.name}: route contention, {count['players']} players, {count['finished']} games"
    return svg.replace(f"<title>{escape(board.name)}</title>", f"<title>{escape(title)}</title>", 1)


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
    left, bar, line, top = 230, 420, 15, 34
    height = top + line * len(rows) + 34
    body = [
        f'<text x="10" y="18" font-size="13" font-weight="bold">Ticket completion when held, '
        f"{count['players']} players ({count['finished']} games)</text>"
    ]
    for tick in range(0, 101, 25):
        x = left + bar * tick / 100
        body += [
            f'<line x1="{x:.1f}" y1="{top - 4}" x2="{x:.1f}" y2="{height - 26}" stroke="#ddd"/>',
            f'<text x="{x:.1f}" y="{height - 12}" text-anchor="middle">{tick}%</text>',
        ]
    for i, t in enumerate(rows):
        y = top + i * line
        done = t["completed"]
        colour = "#8c2d04" if t["long"] else "#4c72b0"
        name = f"{t['a']} - {t['b']} ({t['points']}{', long' if t['long'] else ''})"
        body += [
            f'<text x="{left - 6}" y="{y + 10}" text-anchor="end">{escape(name)}</text>',
            f'<rect x="{left}" y="{y + 2}" width="{bar * done["rate"]:.1f}" height="{line - 4}" '
            f'fill="{colour}"><title>{escape(t["id"])}: {done["count"]} of {done["of"]} '
            f"completed</title></rect>",
            f'<line x1="{left + bar * done["low"]:.1f}" y1="{y + line / 2:.1f}" '
            f'x2="{left + bar * done["high"]:.1f}" y2="{y + line / 2:.1f}" stroke="#111" '
            'stroke-width="1.2"/>',
            f'<text x="{left + bar + 6}" y="{y + 10}">{done["rate"]:.0%} of {done["of"]} held '
            f"({t['held_rate']['rate']:.0%} of games)</text>",
        ]
    return _svg(left + bar + 190, height, "ticket completion", body)


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
        body.append(
            f'<text x="{left - 8}" y="{y + 14}" text-anchor="end">{count["players"]} players</text>'
        )
        at = float(left)
        for name in ("routes", "tickets", "stations", "bonus"):
            width = bar * shares[name]
            body.append(
                f'<rect x="{at:.1f}" y="{y}" width="{width:.1f}" height="20" '
                f'fill="{SHARE_COLOURS[name]}"><title>{name}: {shares[name]:.1%}'
                "</title></rect>"
            )
            if shares[name] >= 0.06:
                body.append(
                    f'<text x="{at + width / 2:.1f}" y="{y + 14}" text-anchor="middle" '
                    f'fill="#fff">{shares[name]:.0%}</text>'
                )
            at += width
        lost = count["points"]["lost_share"]
        body += [
            f'<rect x="{left}" y="{y + 23}" width="{bar * min(lost, 1.0):.1f}" height="8" '
            f'fill="{SHARE_COLOURS["lost"]}"><title>lost: {lost:.1%}</title></rect>',
            f'<text x="{left + bar * min(lost, 1.0) + 4:.1f}" y="{y + 31}">{lost:.0%} lost</text>',
        ]
    return _svg(left + bar + 60, height, "point shares", body)


# --------------------------------------------------------------------------- the page


def _pct(r: dict[str, Any]) -> str:
    return f"{r['rate']:.1%} <small>({r['low']:.1%}-{r['high']:.1%})</small>"


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


_STYLE = """
body { font-family: sans-serif; margin: 1.5em; color: #111; max-width: 1200px; }
table { border-collapse: collapse; margin: 0.5em 0 1.2em; font-size: 13px; }
th, td { border: 1px solid #ccc; padding: 2px 8px; text-align: right; }
th { background: #f0f0f0; } td:first-child, th:first-child { text-align: left; }
small { color: #666; } .warn { background: #fff3cd; border: 1px solid #e0c060; padding: 0.5em; }
svg { max-width: 100%; height: auto; } details { margin: 0.4em 0 1em; }
"""


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
    out += [
        "<h3>Bots</h3>",
        _table(
            ["bot", "seats", "win rate", "mean score"],
            [
                [escape(b["name"]), str(b["seats"]), _pct(b["wins"]), _num(b["score"])]
                for b in c["bots"]
            ],
        ),
        _table(
            ["seat", "win rate", "mean score"],
            [[str(s["seat"]), _pct(s["wins"]), _num(s["score"])] for s in c["seats"]],
        ),
        "<h3>Points a seat</h3>",
        _table(
            ["routes", "tickets won", "tickets lost", "stations kept", "bonus", "total"],
            [
                [
                    f"{pts['routes']:.1f}",
                    f"{pts['tickets_won']:.1f}",
                    f"{pts['tickets_lost']:.1f}",
                    f"{pts['stations']:.1f}",
                    f"{pts['bonus']:.1f}",
                    _num(c["points"]["total"]),
                ]
            ],
        ),
        "<h3>Route contention and city desirability</h3>",
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
    cities = sorted(c["cities"], key=lambda x: (-x["desirability"], x["id"]))
    out += [
        "<details open><summary>Cities, most desirable first</summary>",
        _table(
            ["city", "claims a game", "stations a game", "desirability"],
            [
                [
                    escape(x["name"]),
                    f"{x['claims']:.2f}",
                    f"{x['stations']:.2f}",
                    f"{x['desirability']:.2f}",
                ]
                for x in cities
            ],
        ),
        "</details>",
        "<h3>Tickets</h3>",
        ticket_chart(c),
        "<details><summary>Tickets: completion and points</summary>",
        _table(
            [
                "ticket",
                "points",
                "held (share of games)",
                "completed",
                "points won a game",
                "points lost a game",
            ],
            [
                [
                    escape(t["id"]),
                    str(t["points"]) + (" long" if t["long"] else ""),
                    _pct(t["held_rate"]),
                    _pct(t["completed"]) if t["completed"]["of"] else "-",
                    f"{t['won']:.2f}",
                    f"{t['lost']:.2f}",
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
    written = []
    for name, text in [
        ("figures.json", json.dumps(doc, indent=1, ensure_ascii=False) + "\n"),
        ("report.html", html_report(board, doc)),
        *pictures.items(),
    ]:
        path = out / name
        path.write_text(text, "utf-8")
        written.append(path)
        if png and name.endswith(".svg"):
            data = png_of(text)
            if data is not None:
                path = path.with_suffix(".png")
                path.write_bytes(data)
                written.append(path)
    return written
