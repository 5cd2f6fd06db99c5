"""Pictures of the board: an SVG drawing of a map, of a game state or of one seat's view.

Cities sit near their geographic positions (an equirectangular projection, then close cities
nudged apart so short routes keep room for their spaces). A route
is drawn as its train spaces, one rectangle each, in its card colour with the colour's symbol
(``colours.SYMBOLS``: no colour is told by hue alone); tunnels have a dashed black border and
ferries the locomotive card's ✚ on each space that needs a locomotive. A claimed space carries
its owner's piece: a seat colour chosen far from every card colour (``colours.SEAT_COLOURS``),
with the seat's number, so a green route owned by a seat never reads as an unclaimed green
route, and owners are told apart without their colours. Every route and city is an SVG
group with an ``id`` and classes a UI can hook (``route-Dieppe-Paris``, ``route tunnel claimed
seat-1``, ``city-Paris``; ``data-route``/``data-city`` hold the exact ids, since an ``id`` may
not contain spaces). A view adds the seat's hand, the face-up row and its tickets beside the map.
The words drawn (legend, titles, sidebar) speak ``lang`` from the gettext catalogs
(``ttr_europe.i18n``); city names, route and ticket ids stay as the map spells them.
Pure text output, no dependency: open the file in any browser.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Sequence
from html import escape

import attrs

from ._unionfind import UnionFind
from .board import Map, Route
from .cards import EMPTY, KIND_NAMES, LOCOMOTIVE
from .colours import BACKGROUND as BACKGROUND  # noqa: PLC0414 (re-exported from its old home)
from .colours import CARD_COLOURS as CARD_COLOURS  # noqa: PLC0414 (re-exported from its old home)
from .colours import SEAT_COLOURS as SEAT_COLOURS  # noqa: PLC0414 (re-exported)
from .colours import SYMBOLS, ink
from .errors import RenderError as RenderError  # noqa: PLC0414 (re-exported from its old home)
from .i18n import N_, Translator, translator
from .maps import load_map
from .scoring import Scoreboard
from .state import NO_CARD, NO_OWNER, GameState
from .views import View

HIGHLIGHT_COLOURS = ("#ffd000", "#ff4fa3", "#00e070", "#ff7a00", "#40a0ff")
DARK_COLOURS = frozenset({"black", "red"})  # card colours a black tunnel border would vanish on
TUNNEL_DASH_ON_DARK = "#ffd000"  # the dashed tunnel border of a black route
PIECE_MARK = "#ffffff"  # the seat's number on every claimed space, station and seat key

MAP_WIDTH = 1100
MARGIN = 40
RIGHT_MARGIN = 90  # room for the labels of the easternmost cities
SIDEBAR = 300
CITY_RADIUS = 6.0
CITY_HIT = 12.0  # radius of a city's transparent hit circle
ROUTE_HIT = 20.0  # width of a route's transparent hit line (40 px once drawn twice as large)
SPACE_THICKNESS = 8.0
SPACE_GAP = 2.0
LINE = 18  # legend and sidebar line height
MIN_CITY_GAP = 85.0  # pixels between city centres the layout aims for
RELAX_ROUNDS = 60
# pixels between a city's centre and the middle line of any route that does not end there:
# its circle, half a space and a gap, so no route is drawn across a city
ROUTE_CLEARANCE = CITY_RADIUS + SPACE_THICKNESS / 2 + 10.0


def _ids(items: Iterable[str] | str) -> tuple[str, ...]:
    """Route or city ids; a lone string is one id, not a sequence of letters."""
    return (items,) if isinstance(items, str) else tuple(items)


@attrs.frozen
class Highlight:
    """Routes and cities to draw attention to: a ticket's path, the longest path."""

    label: str
    routes: tuple[str, ...] = attrs.field(default=(), converter=_ids)
    cities: tuple[str, ...] = attrs.field(default=(), converter=_ids)
    colour: str = HIGHLIGHT_COLOURS[0]
    width: float | None = None  # of the outline (None: 20 for the first mark, else 13; rings 4)


def score_highlights(
    board: Scoreboard, seat: int, *, map: Map | None = None, lang: str = "en"
) -> tuple[Highlight, ...]:
    """The seat's ticket paths (completed tickets, with both ends) and its longest path,
    labelled in ``lang``."""
    tr = translator(lang)
    found = load_map(board.map) if map is None else map
    player = board.players[seat]
    path = player.longest_path
    out = []
    if path.routes:  # first, so the wider outline frames the ticket paths drawn over it
        out.append(
            Highlight(
                tr.t("longest path ({length})", length=path.length),
                path.routes,
                (),
                HIGHLIGHT_COLOURS[0],
            )
        )
    for result in player.tickets:
        if result.completed:
            ticket = found.ticket(result.ticket)
            out.append(
                Highlight(
                    tr.t("ticket {ticket} ({points})", ticket=result.ticket, points=result.points),
                    result.routes,
                    (found.cities[ticket.a].id, found.cities[ticket.b].id),
                    HIGHLIGHT_COLOURS[1],
                )
            )
    return tuple(out)


@attrs.frozen
class _Scene:
    """What the picture shows, whatever it was drawn from."""

    board: Map
    owners: dict[int, int]  # route index -> seat
    stations: dict[int, int]  # city index -> seat
    seats: tuple[str, ...]  # one summary line per seat
    pending: int | None  # the route of a tunnel being paid
    tr: Translator


def _seat_line(
    tr: Translator, seat: int, points: int, trains: int, cards: int, tickets: int, stations: int
) -> str:
    """A seat's summary in the legend: "Player 1: 12 points, 30 trains, 5 cards, ..."."""
    return tr.t(
        "Player {n}: {points}, {trains}, {cards}, {tickets}, {stations}",
        n=seat + 1,
        points=tr.tn("{n} point", "{n} points", points),
        trains=tr.tn("{n} train", "{n} trains", trains),
        cards=tr.tn("{n} card", "{n} cards", cards),
        tickets=tr.tn("{n} ticket", "{n} tickets", tickets),
        stations=tr.tn("{n} station", "{n} stations", stations),
    )


def _scene_of_state(state: GameState, tr: Translator) -> _Scene:
    board = state.map
    owners = {r: s for r, s in enumerate(state.owners) if s != NO_OWNER}
    stations = {c: seat for seat, p in enumerate(state.players) for c in p.stations}
    seats = tuple(
        _seat_line(tr, seat, p.score, p.trains, p.hand.total, len(p.tickets), len(p.stations))
        for seat, p in enumerate(state.players)
    )
    pending = None if state.tunnel is None else state.tunnel.route
    return _Scene(board, owners, stations, seats, pending, tr)


def _scene_of_view(view: View, board: Map, tr: Translator) -> _Scene:
    owners = {board.route_index[r]: s for r, s in view.owners.items()}
    stations = {board.city_index[c]: p.seat for p in view.players for c in p.stations}
    seats = tuple(
        _seat_line(tr, p.seat, p.score, p.trains, p.hand_size, p.ticket_count, len(p.stations))
        for p in view.players
    )
    pending = None if view.tunnel is None else board.route_index[view.tunnel.route]
    return _Scene(board, owners, stations, seats, pending, tr)


@functools.lru_cache(maxsize=8)
def _layout(board: Map) -> tuple[float, tuple[tuple[float, float], ...]]:
    """Map height and city positions: geographic, then nudged apart so no two cities crowd.

    An equirectangular projection packs western Europe tight; a few rounds of pushing close
    pairs apart (deterministic) keep every short route long enough to show its spaces, and
    then a city that lies on another route's line (Athína on Palermo-Smyrna) is pushed off it.
    """
    pts = _projected(board)
    for _ in range(RELAX_ROUNDS):
        _push_close_pairs_apart(pts)
    neighbours = [[r.b if r.a == c else r.a for r in board.routes if c in (r.a, r.b)]
                  for c in range(len(pts))]  # fmt: skip
    for _ in range(RELAX_ROUNDS):
        for route in board.routes:
            _clear_route_line(route, pts, neighbours)
    return _fitted(pts)


def _projected(board: Map) -> list[list[float]]:
    """The cities' places, equirectangular about the map's middle latitude, scaled to the
    drawing's width (mutable pairs: the relaxation moves them in place)."""
    lats = [c.lat for c in board.cities]
    lons = [c.lon for c in board.cities]
    mid = math.cos(math.radians((min(lats) + max(lats)) / 2))
    pts = [[(lon - min(lons)) * mid, max(lats) - lat] for lat, lon in zip(lats, lons, strict=True)]
    span_x = max(p[0] for p in pts) or 1.0
    span_y = max(p[1] for p in pts) or 1.0
    scale = (MAP_WIDTH - MARGIN - RIGHT_MARGIN) / max(span_x, span_y)
    return [[x * scale, y * scale] for x, y in pts]


def _push_close_pairs_apart(pts: list[list[float]]) -> None:
    """One round: every two cities nearer than ``MIN_CITY_GAP`` each move a quarter of the
    shortfall away from the other (two on one spot part along x)."""
    for i in range(len(pts)):
        for j in range(i + 1, len(pts)):
            dx, dy = pts[j][0] - pts[i][0], pts[j][1] - pts[i][1]
            dist = math.hypot(dx, dy)
            if dist < MIN_CITY_GAP:
                push = (MIN_CITY_GAP - dist) / 4 / (dist or 1.0)
                ux, uy = (dx, dy) if dist else (1.0, 0.0)
                pts[i][0] -= ux * push
                pts[i][1] -= uy * push
                pts[j][0] += ux * push
                pts[j][1] += uy * push


def _clear_route_line(route: Route, pts: list[list[float]], neighbours: list[list[int]]) -> None:
    """Move each city lying within ``ROUTE_CLEARANCE`` of ``route``'s line (between its ends)
    half way out to that distance, on the side its own routes go, so they do not cross it."""
    (ax, ay), (bx, by) = pts[route.a], pts[route.b]
    length = math.hypot(bx - ax, by - ay) or 1.0
    nx, ny = -(by - ay) / length, (bx - ax) / length  # the line's unit normal
    for c, p in enumerate(pts):
        along = ((p[0] - ax) * (bx - ax) + (p[1] - ay) * (by - ay)) / length**2
        if c in (route.a, route.b) or not 0.0 < along < 1.0:
            continue
        side = (p[0] - ax) * nx + (p[1] - ay) * ny  # signed distance from the line
        if abs(side) >= ROUTE_CLEARANCE:
            continue
        pull = sum((pts[n][0] - ax) * nx + (pts[n][1] - ay) * ny for n in neighbours[c])
        to = math.copysign(ROUTE_CLEARANCE, pull if abs(pull) > 1e-9 else side or 1.0)
        p[0] += nx * (to - side) / 2
        p[1] += ny * (to - side) / 2


def _fitted(pts: list[list[float]]) -> tuple[float, tuple[tuple[float, float], ...]]:
    """The relaxed places moved into the margins and scaled back to the drawing's width: the
    map's height and each city's position."""
    low_x = min(p[0] for p in pts)
    low_y = min(p[1] for p in pts)
    fit = (MAP_WIDTH - MARGIN - RIGHT_MARGIN) / ((max(p[0] for p in pts) - low_x) or 1.0)
    pos = [(MARGIN + (x - low_x) * fit, MARGIN + (y - low_y) * fit) for x, y in pts]
    return max(y for _, y in pos) + MARGIN, tuple(pos)


LABEL_SIZE = 11.0  # font size of city names


def _label_places_around() -> tuple[tuple[float, float, str], ...]:
    """Where a name may go, nearest first: (dx, dy of the text's anchor, text-anchor), on rings
    around the city, the name starting, ending or centred on the side it lies."""
    places = []
    for radius in (8.0, 13.0, 19.0, 25.0, 31.0):
        for step in (0, 8, 4, 12, 2, 14, 6, 10, 1, 15, 7, 9, 3, 13, 5, 11):  # right, left, up..
            angle = math.pi * 2 * step / 16
            dx, dy = math.cos(angle) * radius, -math.sin(angle) * radius
            anchor = "start" if dx > 3 else "end" if dx < -3 else "middle"
            places.append((round(dx, 1), round(dy + 4 + (6 if dy > 3 else 0), 1), anchor))
    return tuple(places)


LABEL_PLACES = _label_places_around()
LABEL_ROUNDS = 3  # the names' first choices, then two rounds of second thoughts

Box = tuple[float, float, float, float]  # left, top, right, bottom


NARROW, WIDE = frozenset("fijlrtI.,'- "), frozenset("mwMW")


def label_width(text: str) -> float:
    """A city name's (or a legend word's) drawn width, a little over what common sans-serif
    fonts give; Cyrillic letters are wider than Latin ones."""
    return 1.08 * sum(LABEL_SIZE * _em(c) for c in text)


def _em(c: str) -> float:
    if "\u0400" <= c <= "\u04ff":
        return 0.78 if c.isupper() else 0.7
    return 0.34 if c in NARROW else 0.9 if c in WIDE else 0.72 if c.isupper() else 0.6


def fit(text: str, size: float, room: float, *, bold: bool = False) -> float:
    """The font size, at most ``size``, at which ``text`` fits in ``room`` pixels: a word of a
    longer language ("чёрный" on a card) is drawn a little smaller rather than spill over."""
    width = label_width(text) * size / LABEL_SIZE * (1.1 if bold else 1.0)
    return size if width <= room else round(max(size * room / width, size * 0.6), 1)


def label_box(x: float, y: float, anchor: str, text: str) -> Box:
    """The box a city name drawn at (x, y) with this text-anchor covers (estimated)."""
    width = label_width(text)
    left = x - {"start": 0.0, "middle": width / 2, "end": width}[anchor]
    return (left, y - LABEL_SIZE * 0.8, left + width, y + LABEL_SIZE * 0.25)


def segment_meets_box(a: tuple[float, float], b: tuple[float, float], box: Box) -> bool:
    """Whether the segment a-b passes through the box (Liang-Barsky clipping)."""
    (x1, y1), (x2, y2) = a, b
    dx, dy = x2 - x1, y2 - y1
    low, high = 0.0, 1.0
    for p, q in ((-dx, x1 - box[0]), (dx, box[2] - x1), (-dy, y1 - box[1]), (dy, box[3] - y1)):
        if p == 0:
            if q < 0:
                return False
        else:
            t = q / p
            if p < 0:
                low = max(low, t)
            else:
                high = min(high, t)
            if low > high:
                return False
    return True


def _grow(box: Box, by: float) -> Box:
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


def _boxes_meet(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def route_line(
    board: Map, pos: Sequence[tuple[float, float]], index: int
) -> tuple[tuple[float, float], tuple[float, float]]:
    """The centre line of a route's spaces: from the edge of one city's circle to the other's."""
    route = board.routes[index]
    (x1, y1), (x2, y2) = pos[route.a], pos[route.b]
    norm = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / norm, (y2 - y1) / norm
    offset = _offset(board, index)
    ox, oy = -uy * offset, ux * offset
    cut = min(CITY_RADIUS + 1, norm / 2)
    return (
        (x1 + ux * cut + ox, y1 + uy * cut + oy),
        (x2 - ux * cut + ox, y2 - uy * cut + oy),
    )


@functools.lru_cache(maxsize=8)
def _label_places(board: Map) -> tuple[tuple[float, float, str], ...]:
    """Where each city's name goes: the first of ``LABEL_PLACES`` that crosses the fewest
    routes, cities and other names. Busiest cities choose first; then each name chooses again
    knowing where all the others are, so a crowded corner settles."""
    _, pos = _layout(board)
    lines = [route_line(board, pos, route.index) for route in board.routes]
    half = SPACE_THICKNESS / 2
    dots = [_grow((x, y, x, y), CITY_RADIUS + 1) for x, y in pos]
    names = [c.name for c in board.cities]
    boxes: dict[int, Box] = {}
    places: dict[int, tuple[float, float, str]] = {}

    def near(i: int) -> Box:  # where any of a city's names may reach
        x, y = pos[i]
        reach = 40 + label_width(names[i])
        return (x - reach, y - 60, x + reach, y + 60)

    def costs(i: int) -> Callable[[tuple[float, float, str]], int]:
        x, y = pos[i]
        region = near(i)
        close = [(a, b) for a, b in lines if segment_meets_box(a, b, region)]
        others = [b for j, b in boxes.items() if j != i and _boxes_meet(b, region)]
        spots = [d for d in dots if _boxes_meet(d, region)]

        def cost(place: tuple[float, float, str]) -> int:
            box = label_box(x + place[0], y + place[1], place[2], names[i])
            wide = _grow(box, half)
            return (
                sum(segment_meets_box(a, b, wide) for a, b in close) * 6
                + sum(_boxes_meet(box, d) for d in spots) * 4
                + sum(_boxes_meet(box, t) for t in others) * 3
                + (box[0] < 2 or box[2] > MAP_WIDTH - 2) * 30
            )

        return cost

    order = sorted(range(len(names)), key=lambda i: (-len(board.routes_at[i]), i))
    for _ in range(LABEL_ROUNDS):
        for i in order:
            best = min(LABEL_PLACES, key=costs(i))
            x, y = pos[i]
            places[i] = (x + best[0], y + best[1], best[2])
            boxes[i] = label_box(*places[i], names[i])
    return tuple(places[i] for i in range(len(names)))


def _slug(text: str) -> str:
    """An ``id``-safe form of a route or city id (ids may not contain white space)."""
    return "_".join(text.split())


def _attr(text: str) -> str:
    return escape(text, quote=True)


def render_svg(
    target: Map | GameState | View,
    *,
    map: Map | None = None,
    highlights: Iterable[Highlight] = (),
    labels: bool = True,
    sidebar: bool = True,
    lang: str = "en",
) -> str:
    """An SVG picture of a board, a game state or a seat's view.

    ``map`` is needed only for a view of a map that is not shipped. ``highlights`` outline routes
    and ring cities (see ``score_highlights``). A view of a seat shows its hand, the face-up row
    and its tickets in a sidebar unless ``sidebar`` is false. ``lang`` ("en", "pt", "ru", "ro"
    or a tag such as "pt-BR"; English when none is shipped) is the language of its words.
    """
    for name, flag in (("labels", labels), ("sidebar", sidebar)):
        if not isinstance(flag, bool):
            raise RenderError(f"{name} is true or false, not {type(flag).__name__}")
    tr = translator(lang)
    if isinstance(target, GameState):
        scene = _scene_of_state(target, tr)
    elif isinstance(target, View):
        board = load_map(target.map) if map is None else map
        if board.id != target.map:
            raise RenderError(f"the view is of map {target.map!r}, not {board.id!r}")
        scene = _scene_of_view(target, board, tr)
    elif isinstance(target, Map):
        scene = _Scene(target, {}, {}, (), None, tr)
    else:
        raise RenderError(f"cannot draw {type(target).__name__}: give a Map, GameState or View")
    marks = tuple(highlights)
    board = scene.board
    for mark in marks:
        for r in mark.routes:
            if r not in board.route_index:
                raise RenderError(f"highlight {mark.label!r}: no route {r!r} on {board.id}")
        for c in mark.cities:
            if c not in board.city_index:
                raise RenderError(f"highlight {mark.label!r}: no city {c!r} on {board.id}")
    view = target if isinstance(target, View) else None
    side = view is not None and view.me is not None and sidebar
    map_height, pos = _layout(board)
    rows = _legend(scene, marks)
    legend = [line for row in rows for line in row]
    height = map_height + LINE * len(rows) + 16
    width = MAP_WIDTH + (SIDEBAR if side else 0)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height:.0f}" '
        f'viewBox="0 0 {width} {height:.0f}" font-family="sans-serif" class="ttr-board" '
        f'data-map="{_attr(board.id)}">',
        f"<title>{escape(scene.tr.marked(board.name))}</title>",
        f'<rect class="background" width="100%" height="100%" fill="{BACKGROUND}"/>',
    ]
    out += _highlight_layer(board, pos, marks)
    out += _route_hits(board)
    out += _routes(scene)
    out += _cities(scene, labels, {c for m in marks for c in m.cities})
    out += [f'<g class="legend" transform="translate({MARGIN} {map_height:.0f})">', *legend, "</g>"]
    if side and view is not None:
        out += _sidebar(view, board, MAP_WIDTH, tr)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _spaces(
    a: tuple[float, float], b: tuple[float, float], length: int, offset: float
) -> list[tuple[float, float, float, float]]:
    """Centre x, centre y, long side and angle (degrees) of each train space from a to b."""
    (x1, y1), (x2, y2) = a, b
    dx, dy = x2 - x1, y2 - y1
    dist = math.hypot(dx, dy) or 1.0
    ux, uy = dx / dist, dy / dist
    ox, oy = -uy * offset, ux * offset
    usable = max(dist - 2 * (CITY_RADIUS + 1), 1.0)
    step = usable / length
    long_side = max(step - SPACE_GAP, 1.0)
    angle = math.degrees(math.atan2(dy, dx))
    start = CITY_RADIUS + 1 + step / 2
    return [
        (x1 + ux * (start + i * step) + ox, y1 + uy * (start + i * step) + oy, long_side, angle)
        for i in range(length)
    ]


def _offset(board: Map, index: int) -> float:
    twin = board.routes[index].twin
    if twin is None:
        return 0.0
    half = SPACE_THICKNESS / 2 + 1
    return half if index < twin else -half


@functools.lru_cache(maxsize=8)
def _route_hits(board: Map) -> tuple[str, ...]:
    """A wide transparent line along each route, under every route's spaces, so a narrow route
    is easy to tap while a visible space always belongs to its own route (double routes)."""
    pos = _layout(board)[1]
    out = ['<g class="route-hits">']
    for route in board.routes:
        (x1, y1), (x2, y2) = pos[route.a], pos[route.b]
        dx, dy = x2 - x1, y2 - y1
        norm = math.hypot(dx, dy) or 1.0
        offset = _offset(board, route.index)
        ox, oy = -dy / norm * offset, dx / norm * offset
        out.append(
            f'<line class="hit" data-route="{_attr(route.id)}" x1="{x1 + ox:.1f}" '
            f'y1="{y1 + oy:.1f}" x2="{x2 + ox:.1f}" y2="{y2 + oy:.1f}" stroke="#000" '
            f'stroke-opacity="0" stroke-width="{ROUTE_HIT}"/>'
        )
    out.append("</g>")
    return tuple(out)


def _routes(scene: _Scene) -> list[str]:
    board = scene.board
    return [
        '<g class="routes">',
        *(_route(board, r.index, scene.owners.get(r.index), r.index == scene.pending, scene.tr)
          for r in board.routes),
        "</g>",
    ]  # fmt: skip


@functools.lru_cache(maxsize=8192)
def _route(board: Map, index: int, owner: int | None, pending: bool, tr: Translator) -> str:
    """One route's group, its spaces one per line. Remembered: a route looks one of a few ways
    (free, or whose, and whether a tunnel is being paid for it), and a server draws the board
    again for every seat at every move."""
    route = board.routes[index]
    pos = _layout(board)[1]
    classes = ["route", route.colour_name]
    if route.tunnel:
        classes.append("tunnel")
    if route.ferry:
        classes.append("ferry")
    if owner is not None:
        classes += ["claimed", f"seat-{owner}"]
    if pending:
        classes.append("pending")
    title = _route_title(route, owner, tr)
    offset = _offset(board, route.index)
    out = [
        f'<g id="route-{_attr(_slug(route.id))}" class="{" ".join(classes)}" '
        f'data-route="{_attr(route.id)}" data-length="{route.length}" '
        f'data-colour="{route.colour_name}" data-a="{_attr(board.cities[route.a].id)}" '
        f'data-b="{_attr(board.cities[route.b].id)}" data-points="{route.points}" '
        f'data-ferry="{route.ferry}"{_twin(board, route)}><title>{escape(title)}</title>'
    ]
    for i, (cx, cy, long_side, angle) in enumerate(
        _spaces(pos[route.a], pos[route.b], route.length, offset)
    ):
        out.append(_space(route.colour_name, owner, route.tunnel, i < route.ferry,
                          cx, cy, long_side, angle))  # fmt: skip
    out.append("</g>")
    return "\n".join(out)


def _twin(board: Map, route: Route) -> str:
    """A double route's track: ``data-twin`` names the other track, ``data-track`` says which
    of the two this is (1: the first in the map's order), so a UI can tell two tracks of one
    colour apart in words."""
    if route.twin is None:
        return ""
    track = 1 if route.index < route.twin else 2
    return f' data-twin="{_attr(board.routes[route.twin].id)}" data-track="{track}"'


def _route_title(route: Route, owner: int | None, tr: Translator) -> str:
    """What a route's ``<title>`` says: "Paris-Wien: 3 orange tunnel, 8 points, claimed by ..."."""
    what = [tr.card(route.colour_name)]
    if route.tunnel:
        what.append(tr.t("tunnel"))
    if route.ferry:
        what.append(tr.tn("ferry ({n} locomotive)", "ferry ({n} locomotives)", route.ferry))
    title = tr.t(
        "{route}: {length} {kind}, {points}",
        route=route.id,
        length=route.length,
        kind=" ".join(what),
        points=tr.tn("{n} point", "{n} points", route.points),
    )
    if owner is not None:
        title = tr.t("{title}, claimed by Player {n}", title=title, n=owner + 1)
    return title


def _space(
    colour: str,
    owner: int | None,
    tunnel: bool,
    loco: bool,
    cx: float,
    cy: float,
    long_side: float,
    angle: float,
) -> str:
    """One train space: the card colour, or the owner's piece with the seat's number (an owner
    told by more than hue). A ferry's locomotive space carries the locomotive's own symbol,
    not a dot that could pass for blue's ●."""
    w, h = long_side, SPACE_THICKNESS
    place = f'transform="translate({cx:.1f} {cy:.1f}) rotate({angle:.1f})"'
    box = f'x="{-w / 2:.1f}" y="{-h / 2:.1f}" width="{w:.1f}" height="{h:.1f}" rx="1.5"'
    if owner is not None:
        ink = SEAT_COLOURS[owner % len(SEAT_COLOURS)]
        return (
            f'<g class="space piece" {place}><rect {box} fill="{ink}" stroke="#111" '
            f'stroke-width="1"/>{_seat_mark(owner, min(6.5, w - 1))}</g>'
        )
    dash = TUNNEL_DASH_ON_DARK if colour in DARK_COLOURS else "#000"  # seen on black spaces too
    border = f'stroke="{dash}" stroke-width="1.6" stroke-dasharray="2.5,1.5"' if tunnel else (
        'stroke="#333" stroke-width="0.8"')  # fmt: skip
    inner = _symbol(colour, min(6.5, w - 1), mark="loco" if loco else None)
    return (
        f'<g class="space" {place}><rect {box} fill="{CARD_COLOURS[colour]}" {border}/>{inner}</g>'
    )


def _symbol(colour: str, size: float, x: float = 0, y: float = 0, mark: str | None = None) -> str:
    """The colour's symbol, centred at (x, y), in the ink that reads on it: a colour is never
    told by hue alone. With ``mark="loco"`` it is a ferry's locomotive symbol (class ``loco``,
    which the page never thins) in the ink that reads on the space's ``colour``."""
    glyph, cls = (SYMBOLS[mark], mark) if mark else (SYMBOLS[colour], "sym")
    return (
        f'<text class="{cls}" x="{x:.1f}" y="{y + size * 0.36:.1f}" font-size="{size:.1f}" '
        f'text-anchor="middle" fill="{ink(CARD_COLOURS[colour])}">{glyph}</text>'
    )


def _highlight_layer(
    board: Map, pos: Sequence[tuple[float, float]], marks: Sequence[Highlight]
) -> list[str]:
    out = []
    for n, mark in enumerate(marks):
        out.append(f'<g class="highlight" data-highlight="{n}" data-label="{_attr(mark.label)}">')
        for route_id in mark.routes:
            route = board.route(route_id)
            offset = _offset(board, route.index)
            (x1, y1), (x2, y2) = pos[route.a], pos[route.b]
            dx, dy = x2 - x1, y2 - y1
            norm = math.hypot(dx, dy) or 1.0
            ox, oy = -dy / norm * offset, dx / norm * offset
            wide = mark.width if mark.width is not None else 20 if n == 0 else 13
            out.append(
                f'<line x1="{x1 + ox:.1f}" y1="{y1 + oy:.1f}" x2="{x2 + ox:.1f}" '
                f'y2="{y2 + oy:.1f}" stroke="{_attr(mark.colour)}" stroke-width="{wide}" '
                f'stroke-opacity="0.6" stroke-linecap="round"/>'
            )
        ring, thick = (11.0, 4.0) if mark.width is None else (mark.width * 0.8, mark.width / 2.5)
        for city_id in mark.cities:
            x, y = pos[board.city_index[city_id]]
            out.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{ring:g}" fill="none" '
                f'stroke="{_attr(mark.colour)}" stroke-width="{thick:g}"/>'
            )
        out.append("</g>")
    return out


def _station(x: float, y: float, seat: int) -> str:
    ink = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    return (
        f'<g class="station seat-{seat}" transform="translate({x:.1f} {y:.1f})">'
        f'<path d="M-6 4 V-3 L0 -8 L6 -3 V4 Z" fill="{ink}" stroke="#111" stroke-width="1"/>'
        f"{_seat_mark(seat, 6.5, 0, -0.5)}</g>"
    )


def _seat_mark(seat: int, size: float, x: float = 0, y: float = 0) -> str:
    """The seat's number in white on its piece: owners told apart without their colours."""
    return (
        f'<text class="owner" x="{x:.1f}" y="{y + size * 0.36:.1f}" font-size="{size:.1f}" '
        f'font-weight="bold" text-anchor="middle" fill="{PIECE_MARK}">{seat + 1}</text>'
    )


def _cities(scene: _Scene, labels: bool, ringed: set[str]) -> list[str]:
    board = scene.board
    return [
        '<g class="cities">',
        *(_city(board, c.index, scene.stations.get(c.index), c.id in ringed, labels, scene.tr)
          for c in board.cities),
        "</g>",
    ]  # fmt: skip


@functools.lru_cache(maxsize=4096)
def _city(
    board: Map, index: int, seat: int | None, ringed: bool, labels: bool, tr: Translator
) -> str:
    """One city's group (remembered, as ``_route``)."""
    city = board.cities[index]
    x, y = _layout(board)[1][index]
    classes = "city big" if city.big else "city"
    if seat is not None:
        classes += f" station-seat-{seat}"
    if ringed:
        classes += " highlighted"
    title = city.name
    if seat is not None:
        title = tr.t("{city}, station of Player {n}", city=city.name, n=seat + 1)
    out = [
        f'<g id="city-{_attr(_slug(city.id))}" class="{classes}" data-city="{_attr(city.id)}">'
        f"<title>{escape(title)}</title>"
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{CITY_HIT}" fill="#000" '
        'fill-opacity="0" class="hit"/>'
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{CITY_RADIUS}" '
        f'fill="{"#ffe9a8" if city.big else "#ffffff"}" stroke="#333" stroke-width="1.5"/>'
    ]
    if seat is not None:
        out.append(_station(x, y - 12, seat))
    if labels:
        lx, ly, anchor = _label_places(board)[index]
        at = f'x="{lx:.1f}" y="{ly:.1f}" font-size="{LABEL_SIZE:g}"'
        at += f' text-anchor="{anchor}"' if anchor != "start" else ""
        name = escape(city.name)
        out.append(  # a halo first, so the name stays readable over the routes
            f'<text {at} fill="{BACKGROUND}" stroke="{BACKGROUND}" stroke-width="3" '
            f'stroke-linejoin="round" class="halo">{name}</text><text {at} fill="#111">'
            f"{name}</text>"
        )
    out.append("</g>")
    return "\n".join(out)


def _swatch(
    x: float, y: float, colour: str, label: str, extra: str = "", symbol: str | None = None
) -> list[str]:
    mark = [] if symbol is None else [_symbol(symbol, 7.5, x + 11, y - 6)]
    return [
        f'<rect x="{x:.0f}" y="{y - 10:.0f}" width="22" height="{SPACE_THICKNESS:.0f}" rx="1.5" '
        f'fill="{colour}" stroke="#333" stroke-width="0.8"{extra}/>',
        *mark,
        f'<text x="{x + 27:.0f}" y="{y - 3:.0f}" font-size="11" fill="#111">{escape(label)}</text>',
    ]


def _room(label: str, least: float) -> float:
    """The width a legend entry takes: its swatch and its label, at least ``least``."""
    return max(least, 27 + label_width(label) + 8)


LEGEND_MARKS = (N_("tunnel"), N_("ferry: a locomotive card per ✚"), N_("station"), N_("big city"))


def _legend(scene: _Scene, marks: Sequence[Highlight]) -> list[list[str]]:
    """Legend rows, drawn below the map (y relative to its bottom), in the scene's language
    (each entry as wide as its words need)."""
    tr = scene.tr
    rows: list[list[str]] = []
    row: list[str] = []
    x = 0.0
    for name in (*KIND_NAMES[:LOCOMOTIVE], "gray"):
        label = tr.card(name)
        row += _swatch(x, LINE, CARD_COLOURS[name], label, symbol=name)
        x += _room(label, 80)
    rows.append(row)
    y = LINE * 2
    board = scene.board
    gray = CARD_COLOURS["gray"]
    marks_of_map = (  # only what this map has
        (any(r.tunnel for r in board.routes), 110, LEGEND_MARKS[0], [
            f'<rect x="0" y="{y - 10}" width="22" height="8" rx="1.5" fill="{gray}" '
            'stroke="#000" stroke-width="1.6" stroke-dasharray="2.5,1.5"/>']),
        (any(r.ferry for r in board.routes), 200, LEGEND_MARKS[1], [
            f'<rect x="0" y="{y - 10}" width="22" height="8" rx="1.5" fill="{gray}" '
            'stroke="#333" stroke-width="0.8"/>', _symbol("gray", 6.5, 11, y - 6, mark="loco")]),
        (board.has_stations, 100, LEGEND_MARKS[2], [
            f'<g transform="translate(11 {y - 2})"><path d="M-6 4 V-3 L0 -8 L6 -3 V4 Z" '
            'fill="#999" stroke="#111"/></g>']),
        (any(c.big for c in board.cities), 100, LEGEND_MARKS[3], [
            f'<circle cx="11" cy="{y - 6}" r="{CITY_RADIUS}" fill="#ffe9a8" stroke="#333"/>']),
    )  # fmt: skip
    row, x = [], 0
    for present, width, label, drawing in marks_of_map:
        if present:
            words = escape(tr.marked(label))
            text = f'<text x="27" y="{y - 3}" font-size="11" fill="#111">{words}</text>'
            row += [f'<g transform="translate({x:g} 0)">', *drawing, text, "</g>"]
            x += _room(tr.marked(label), width)
    if row:
        rows.append(row)
    for seat, text in enumerate(scene.seats):
        y = LINE * (len(rows) + 1)
        ink = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        rows.append(
            [
                f'<g class="seat-key seat-{seat}">',
                *_swatch(0, y, ink, text),
                _seat_mark(seat, 8, 11, y - 6),
                "</g>",
            ]
        )
    for mark in marks:
        y = LINE * (len(rows) + 1)
        rows.append(
            [
                f'<line x1="0" y1="{y - 6}" x2="22" y2="{y - 6}" stroke="{_attr(mark.colour)}" '
                'stroke-width="8" stroke-opacity="0.6"/>',
                f'<text x="27" y="{y - 3}" font-size="11" fill="#111">{escape(mark.label)}</text>',
            ]
        )
    return rows


def _card(x: float, y: float, kind: int, text: str, cls: str) -> list[str]:
    name = KIND_NAMES[kind]
    fill = CARD_COLOURS[name]
    out = [
        f'<g class="{cls} card-{name}"><rect x="{x:.0f}" y="{y:.0f}" width="44" height="28" '
        f'rx="4" fill="{fill}" stroke="#333"/>'
    ]
    if kind == LOCOMOTIVE:  # a locomotive shows every colour, as on the cards
        for i, c in enumerate(KIND_NAMES[:LOCOMOTIVE]):
            out.append(
                f'<rect x="{x + 4 + i * 4.5:.1f}" y="{y + 4:.0f}" width="4.5" height="6" '
                f'fill="{CARD_COLOURS[c]}"/>'
            )
    out.append(
        f'<text x="{x + 22:.0f}" y="{y + 22:.0f}" font-size="{fit(text, 11, 44):g}" '
        'text-anchor="middle" '
        f'fill="{ink(fill)}">{escape(text)}</text>{_symbol(name, 9, x + 36, y + 9)}</g>'
    )
    return out


def _connected(board: Map, routes: Iterable[str], a: int, b: int) -> bool:
    """Whether the seat's own routes join two cities (stations are decided at the end)."""
    sets: UnionFind[int] = UnionFind((board.route(rid).a, board.route(rid).b) for rid in routes)
    return sets.connected(a, b)


def _sidebar(view: View, board: Map, left: int, tr: Translator) -> list[str]:
    me = view.me
    assert me is not None
    x = left + 10
    ink = SEAT_COLOURS[me.seat % len(SEAT_COLOURS)]
    title = tr.t(
        "Player {n}: {points}, {trains}",
        n=me.seat + 1,
        points=tr.tn("{n} point", "{n} points", me.score),
        trains=tr.tn("{n} train", "{n} trains", me.trains),
    )
    out = [
        f'<g class="sidebar" data-seat="{me.seat}">',
        f'<rect x="{left}" y="0" width="{SIDEBAR}" height="100%" fill="#ebe4d0"/>',
        f'<rect x="{x}" y="14" width="16" height="16" fill="{ink}" stroke="#111"/>',
        f'<text x="{x + 22}" y="27" font-size="{fit(title, 14, SIDEBAR - 40, bold=True):g}" '
        f'font-weight="bold">{escape(title)}</text>',
        f'<text x="{x}" y="56" font-size="12" font-weight="bold">{escape(tr.t("Hand"))}</text>',
    ]
    hand = me.hand if me.hand is not None else EMPTY
    shown = [k for k in range(len(KIND_NAMES)) if hand[k]]
    for i, kind in enumerate(shown):
        out += _card(x + (i % 5) * 56, 64 + (i // 5) * 34, kind, f"{hand[kind]}", "hand-card")
    y = 64 + 34 * ((len(shown) + 4) // 5 or 1) + 16
    out.append(_heading(x, y, tr.t("Face-up row")))
    for slot, kind in enumerate(view.row):
        if kind != NO_CARD:
            out += _card(x + slot * 56, y + 8, kind, tr.card(kind, short=True), "row-card")
    y += 60
    out.append(_heading(x, y, tr.t("Tickets")))
    for group, ids in (("ticket", me.tickets or ()), ("offer", me.offer or ())):
        for tid in ids:
            y += LINE
            t = board.ticket(tid)
            done = group == "ticket" and _connected(board, me.routes, t.a, t.b)
            mark = "✓ " if done else (tr.t("offered:") + " " if group == "offer" else "")
            out.append(
                f'<text x="{x}" y="{y}" font-size="12" class="{group}{" done" * done}" '
                f'data-ticket="{_attr(tid)}">{escape(mark)}{escape(board.cities[t.a].name)} – '
                f"{escape(board.cities[t.b].name)} ({t.points})</text>"
            )
    out.append("</g>")
    return out


def _heading(x: float, y: float, text: str) -> str:
    return f'<text x="{x:g}" y="{y:g}" font-size="12" font-weight="bold">{escape(text)}</text>'
