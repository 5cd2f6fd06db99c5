"""Pictures of the board: an SVG drawing of a map or of a game state.

Cities sit at their (approximate) geographic positions in an equirectangular projection; a
route is a line in its colour (gray dashed), tunnels are drawn hatched, ferries with their
locomotive count, and claimed routes and stations in their owner's colour. Pure text output, no
dependency: open the file in any browser.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from html import escape

from .board import Map
from .guards import expect
from .state import NO_OWNER, GameState

ROUTE_COLOURS = {
    "red": "#d62728", "orange": "#ff7f0e", "yellow": "#e6c200", "green": "#2ca02c",
    "blue": "#1f77b4", "pink": "#e377c2", "white": "#dddddd", "black": "#222222",
    "gray": "#9a9a9a",
}  # fmt: skip
SEAT_COLOURS = ("#0050d0", "#d00000", "#008a00", "#a000c0", "#ff9000")
WIDTH = 1000
MARGIN = 40
RIGHT_MARGIN = 100  # room for the labels of the easternmost cities
LEGEND_LINE = 16


def _projector(board: Map) -> tuple[float, Callable[[float, float], tuple[float, float]]]:
    lats = [c.lat for c in board.cities]
    lons = [c.lon for c in board.cities]
    mid = math.cos(math.radians((min(lats) + max(lats)) / 2))
    span_x = (max(lons) - min(lons)) * mid or 1.0
    span_y = (max(lats) - min(lats)) or 1.0
    scale = (WIDTH - MARGIN - RIGHT_MARGIN) / span_x
    height = span_y * scale + 2 * MARGIN

    def project(lat: float, lon: float) -> tuple[float, float]:
        return (MARGIN + (lon - min(lons)) * mid * scale, MARGIN + (max(lats) - lat) * scale)

    return height, project


def render_svg(target: Map | GameState, *, labels: bool = True) -> str:
    """An SVG picture of a board, or of a game state with owners and stations."""
    expect(target, (Map, GameState), "render_svg", "target")
    state = target if isinstance(target, GameState) else None
    board = state.map if state is not None else target
    assert isinstance(board, Map)
    map_height, project = _projector(board)
    height = map_height + (LEGEND_LINE * len(state.players) + 8 if state is not None else 0)
    pos = [project(c.lat, c.lon) for c in board.cities]
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height:.0f}" '
        f'viewBox="0 0 {WIDTH} {height:.0f}" font-family="sans-serif">',
        f"<title>{escape(board.name)}</title>",
        '<rect width="100%" height="100%" fill="#f4efe1"/>',
    ]
    for route in board.routes:
        (x1, y1), (x2, y2) = pos[route.a], pos[route.b]
        offset = 0.0
        if route.twin is not None:
            offset = 3.5 if route.index < route.twin else -3.5
        dx, dy = x2 - x1, y2 - y1
        norm = math.hypot(dx, dy) or 1.0
        ox, oy = -dy / norm * offset, dx / norm * offset
        colour = ROUTE_COLOURS[route.colour_name]
        owner = state.owners[route.index] if state is not None else NO_OWNER
        style = f'stroke="{colour}" stroke-width="4"'
        if route.tunnel:
            style += ' stroke-dasharray="6,3"'
        if route.colour is None:
            style += ' stroke-opacity="0.8"'
        title = f"{route.id}: {route.length} {route.colour_name}" + (
            " tunnel" if route.tunnel else "") + (
            f" ferry x{route.ferry}" if route.ferry else "")  # fmt: skip
        line = (f'<line x1="{x1 + ox:.1f}" y1="{y1 + oy:.1f}" x2="{x2 + ox:.1f}" '
                f'y2="{y2 + oy:.1f}"')  # fmt: skip
        if owner != NO_OWNER:  # the owner's colour as a wide band under the route's colour
            ink = SEAT_COLOURS[owner % len(SEAT_COLOURS)]
            out.append(f'{line} stroke="{ink}" stroke-width="9" stroke-opacity="0.85"/>')
        out.append(f"{line} {style}><title>{escape(title)}</title></line>")
        if route.ferry:
            mx, my = (x1 + x2) / 2 + ox, (y1 + y2) / 2 + oy
            out.append(f'<text x="{mx:.1f}" y="{my:.1f}" font-size="9" fill="#333" '
                       f'text-anchor="middle">{route.ferry}L</text>')  # fmt: skip
    station_owner: dict[int, int] = {}
    if state is not None:
        for seat, player in enumerate(state.players):
            for c in player.stations:
                station_owner[c] = seat
    for city in board.cities:
        x, y = pos[city.index]
        fill = "#fff" if not city.big else "#ffe9a8"
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="5" fill="{fill}" stroke="#333"/>')
        if city.index in station_owner:
            ink = SEAT_COLOURS[station_owner[city.index] % len(SEAT_COLOURS)]
            out.append(f'<rect x="{x - 4:.1f}" y="{y - 14:.1f}" width="8" height="8" '
                       f'fill="{ink}" stroke="#000"/>')  # fmt: skip
        if labels:
            out.append(f'<text x="{x + 7:.1f}" y="{y + 4:.1f}" font-size="11" '
                       f'fill="#111">{escape(city.name)}</text>')  # fmt: skip
    if state is not None:
        for seat, player in enumerate(state.players):
            colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
            y = map_height + LEGEND_LINE * (seat + 1) - 4
            swatch = f'x="{MARGIN}" y="{y - 9:.0f}" width="18" height="9"'
            out.append(f'<rect {swatch} fill="{colour}"/>')
            out.append(f'<text x="{MARGIN + 24}" y="{y:.0f}" font-size="12" fill="#111">'
                       f"seat {seat}: {player.score} route points, {player.trains} trains, "
                       f"{len(player.stations)} stations</text>")  # fmt: skip
    out.append("</svg>")
    return "\n".join(out) + "\n"
