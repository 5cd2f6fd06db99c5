"""SVG pictures of boards, positions and views: well-formed, hookable, and readable in pixels."""

from __future__ import annotations

import io
import json
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ttr_europe import load_map, observe, score
from ttr_europe.colours import ROUTE_COLOURS, SYMBOLS, contrast, ink
from ttr_europe.maps import parse_map
from ttr_europe.render import (
    BACKGROUND,
    CARD_COLOURS,
    SEAT_COLOURS,
    Highlight,
    RenderError,
    render_svg,
    score_highlights,
)
from ttr_europe.state import Phase
from ttr_europe.testing import finished, scenario

SVG = "{http://www.w3.org/2000/svg}"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
RGB = tuple[int, int, int]


def _rgb(colour: str) -> RGB:
    return (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))


def _groups(root: ET.Element, cls: str) -> dict[str, ET.Element]:
    """Groups whose class list holds ``cls``, by their id."""
    return {
        g.attrib["id"]: g
        for g in root.iter(f"{SVG}g")
        if cls in g.attrib.get("class", "").split() and "id" in g.attrib
    }


def _space_rects(group: ET.Element) -> list[ET.Element]:
    return [
        rect
        for space in group.iter(f"{SVG}g")
        if "space" in space.attrib.get("class", "").split()
        for rect in space.findall(f"{SVG}rect")
    ]


@pytest.mark.parametrize("map_id", ["europe", "usa"])
def test_every_route_is_its_spaces_and_every_city_a_hookable_group(map_id: str) -> None:
    board = load_map(map_id)
    root = ET.fromstring(render_svg(board))
    routes = _groups(root, "route")
    cities = _groups(root, "city")
    assert len(routes) == len(board.routes)
    assert len(cities) == len(board.cities)
    for route in board.routes:
        group = routes["route-" + route.id.replace(" ", "_")]
        assert group.attrib["data-route"] == route.id
        classes = group.attrib["class"].split()
        assert ("tunnel" in classes) == route.tunnel
        assert ("ferry" in classes) == bool(route.ferry)
        assert route.colour_name in classes
        assert "claimed" not in classes
        assert len(_space_rects(group)) == route.length
        assert _loco_marks(group) == ["✚"] * route.ferry
        fills = {r.attrib["fill"] for r in _space_rects(group)}
        assert fills == {CARD_COLOURS[route.colour_name]}
        dashed = {"stroke-dasharray" in r.attrib for r in _space_rects(group)}
        assert dashed == {route.tunnel}
    width = float(root.attrib["width"])
    height = float(root.attrib["height"])
    for city in board.cities:
        group = cities["city-" + city.id.replace(" ", "_")]
        assert group.attrib["data-city"] == city.id
        for circle in group.findall(f"{SVG}circle"):
            assert 0 <= float(circle.attrib["cx"]) <= width
            assert 0 <= float(circle.attrib["cy"]) <= height


def _loco_marks(group: ET.Element) -> list[str | None]:
    """The texts of a route's ferry locomotive marks (class ``loco``), space by space."""
    return [t.text for t in group.iter(f"{SVG}text") if t.get("class") == "loco"]


@pytest.mark.parametrize("colour", ROUTE_COLOURS)
def test_a_ferrys_locomotive_spaces_carry_the_locomotive_symbol_in_ink_that_reads(
    colour: str,
) -> None:
    """A ferry's locomotive space shows ✚, the locomotive card's own symbol, never a dot that
    could pass for blue's ●, on a ferry of any colour (a custom map may colour one), in the
    ink that reads on it; its other spaces keep their colour's symbol."""
    doc = json.loads((EXAMPLES / "tessel.json").read_text("utf-8"))
    ferry = next(r for r in doc["routes"] if r["ferry_locomotives"])
    ferry.update(color=colour, ferry_locomotives=2)
    board = parse_map(json.dumps(doc))
    route = board.route(ferry["id"])
    group = _groups(ET.fromstring(render_svg(board)), "route")["route-" + route.id]
    spaces = [g for g in group.iter(f"{SVG}g") if g.get("class") == "space"]
    assert len(spaces) == route.length == 3
    for i, space in enumerate(spaces):
        assert space.find(f"{SVG}circle") is None
        (mark,) = space.findall(f"{SVG}text")
        want = ("loco", SYMBOLS["loco"]) if i < route.ferry else ("sym", SYMBOLS[colour])
        assert (mark.get("class"), mark.text) == want
        assert mark.get("fill") == ink(CARD_COLOURS[colour])
        assert contrast(mark.attrib["fill"], CARD_COLOURS[colour]) >= 4.5


def test_the_example_ids_a_ui_hooks() -> None:
    svg = render_svg(load_map("europe"))
    assert 'id="route-Dieppe-Paris" class="route pink"' in svg
    assert 'id="route-Madrid-Pamplona-white" class="route white tunnel"' in svg
    assert 'id="route-Dieppe-London-1" class="route gray ferry"' in svg
    assert 'id="city-Paris" class="city big"' in svg


def test_seat_colours_cannot_be_taken_for_card_colours() -> None:
    """Apart from the route colours for every vision (tests/test_colours.py measures it) and
    from each other in RGB; where two seats come close their numbers tell them apart."""
    seats = [_rgb(c) for c in SEAT_COLOURS]
    assert len(set(SEAT_COLOURS)) == 5
    for i, seat in enumerate(seats):
        assert math.dist(seat, _rgb(BACKGROUND)) >= 80
        assert all(math.dist(seat, other) >= 40 for other in seats[i + 1 :])


def test_every_claimed_space_station_and_seat_key_carries_the_seats_number() -> None:
    state = scenario(
        players=3, owners={"Berlin-Wien": 1, "Paris-Zurich": 2}, stations={0: ["Paris"]}
    )
    root = ET.fromstring(render_svg(state))
    routes = _groups(root, "route")
    for route_id, seat in (("Berlin-Wien", 1), ("Paris-Zurich", 2)):
        spaces = [g for g in routes[f"route-{route_id}"].iter(f"{SVG}g") if "piece" in
                  g.attrib.get("class", "")]  # fmt: skip
        assert spaces
        for space in spaces:
            mark = space.find(f"{SVG}text[@class='owner']")
            assert mark is not None and mark.text == str(seat + 1), route_id
            assert contrast(mark.attrib["fill"], SEAT_COLOURS[seat]) >= 4.5
    station = next(g for g in root.iter(f"{SVG}g")
                   if {"station", "seat-0"} <= set(g.attrib.get("class", "").split()))  # fmt: skip
    assert station.findtext(f"{SVG}text[@class='owner']") == "1"
    keys = [g for g in root.iter(f"{SVG}g") if "seat-key" in g.attrib.get("class", "").split()]
    assert [k.findtext(f"{SVG}text[@class='owner']") for k in keys] == ["1", "2", "3"]


def test_claimed_spaces_carry_the_owners_pieces_and_stations_their_seat() -> None:
    state = scenario(owners={"Berlin-Wien": 1, "Bruxelles-Dieppe": 0}, stations={0: ["Paris"]})
    root = ET.fromstring(render_svg(state))
    routes = _groups(root, "route")
    for route_id, seat in (("Berlin-Wien", 1), ("Bruxelles-Dieppe", 0)):
        group = routes[f"route-{route_id}"]
        assert {"claimed", f"seat-{seat}", "green"} <= set(group.attrib["class"].split())
        assert {r.attrib["fill"] for r in _space_rects(group)} == {SEAT_COLOURS[seat]}
        assert f"claimed by Player {seat + 1}" in group.findtext(f"{SVG}title", "")
    claimed = [g for g in routes.values() if "claimed" in g.attrib["class"].split()]
    assert len(claimed) == 2
    paris = _groups(root, "city")["city-Paris"]
    assert "station-seat-0" in paris.attrib["class"].split()
    stations = [g for g in root.iter(f"{SVG}g") if "station" in g.attrib.get("class", "").split()]
    assert [s.attrib["class"] for s in stations] == ["station seat-0"]


def test_pictures_drawn_one_after_another_each_show_their_own_position() -> None:
    """Routes and cities are drawn from remembered parts: a picture of one position never
    shows another's owners or stations, and the same position is the same text again."""
    free = scenario()
    claimed = scenario(owners={"Berlin-Wien": 1}, stations={0: ["Paris"]})
    other = scenario(owners={"Berlin-Wien": 0}, stations={1: ["Paris"]})
    texts = [render_svg(s) for s in (free, claimed, other, free, claimed)]
    assert texts[0] == texts[3] and texts[1] == texts[4]
    for text, seat in ((texts[1], 1), (texts[2], 0)):
        root = ET.fromstring(text)
        wien = _groups(root, "route")["route-Berlin-Wien"]
        assert {"claimed", f"seat-{seat}"} <= set(wien.attrib["class"].split())
        paris = _groups(root, "city")["city-Paris"]
        assert f"station-seat-{1 - seat}" in paris.attrib["class"].split()
    root = ET.fromstring(texts[0])
    assert "claimed" not in _groups(root, "route")["route-Berlin-Wien"].attrib["class"]
    assert "station" not in _groups(root, "city")["city-Paris"].attrib["class"]


def _centres(group: ET.Element) -> list[tuple[float, float, float, float]]:
    """Centre, long side and angle of each space, read back from the SVG."""
    out = []
    for space in group.iter(f"{SVG}g"):
        if "space" not in space.attrib.get("class", "").split():
            continue
        m = re.fullmatch(r"translate\(([-\d.]+) ([-\d.]+)\) rotate\(([-\d.]+)\)",
                         space.attrib["transform"])  # fmt: skip
        assert m is not None
        width = float(space.find(f"{SVG}rect").attrib["width"])  # type: ignore[union-attr]
        out.append((float(m[1]), float(m[2]), width, float(m[3])))
    return out


def _samples(group: ET.Element) -> list[list[tuple[int, int]]]:
    """For every space, two pixels inside it a quarter of its length from the centre (off the
    seat's number), one on each side. A city's name may cover one of them."""
    out = []
    for cx, cy, width, angle in _centres(group):
        ux, uy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        out.append([
            (round(cx + ux * sign * width / 4), round(cy + uy * sign * width / 4))
            for sign in (-1, 1)
        ])  # fmt: skip
    return out


@pytest.mark.slow
def test_pixels_of_a_claimed_route_show_its_owners_colour() -> None:
    cairosvg = pytest.importorskip("cairosvg")
    image = pytest.importorskip("PIL.Image")
    owners = {"Berlin-Wien": 2, "Bruxelles-Dieppe": 0, "Paris-Zurich": 1}
    state = scenario(players=3, owners=owners)
    svg = render_svg(state)
    png = cairosvg.svg2png(bytestring=svg.encode())
    pixels = image.open(io.BytesIO(png)).convert("RGB")
    routes = _groups(ET.fromstring(svg), "route")

    def near(point: tuple[int, int], colour: str) -> bool:
        return math.dist(pixels.getpixel(point), _rgb(colour)) < 40

    for route_id, seat in owners.items():
        for space in _samples(routes[f"route-{route_id}"]):
            assert any(near(p, SEAT_COLOURS[seat]) for p in space), route_id
    # An unclaimed green route shows the card colour, and no seat colour anywhere.
    for space in _samples(routes["route-Essen-Frankfurt"]):
        assert any(near(p, CARD_COLOURS["green"]) for p in space)
        assert not any(near(p, c) for p in space for c in SEAT_COLOURS)
    # A white route stands out from the background: white inside.
    for space in _samples(routes["route-Moskva-Petrograd"]):
        assert any(pixels.getpixel(p) == (255, 255, 255) for p in space)
    assert math.dist(_rgb(BACKGROUND), (255, 255, 255)) > 30


def test_a_view_shows_the_seats_own_hand_row_and_tickets_only() -> None:
    state = scenario(
        hands={0: "2red+1loco", 1: "3blue"},
        row="red blue loco green white",
        tickets={0: ["Paris-Wien"], 1: ["Berlin-Roma"]},
        owners={"Berlin-Wien": 1},
    )
    mine = render_svg(observe(state, 1))
    root = ET.fromstring(mine)
    sidebar = next(g for g in root.iter(f"{SVG}g") if g.attrib.get("class") == "sidebar")
    assert sidebar.attrib["data-seat"] == "1"
    hand = [g for g in sidebar.iter(f"{SVG}g") if "hand-card" in g.attrib.get("class", "")]
    assert [(g.attrib["class"], g.findtext(f"{SVG}text")) for g in hand] == [
        ("hand-card card-blue", "3")
    ]
    row = [g.attrib["class"] for g in sidebar.iter(f"{SVG}g") if "row-card" in g.attrib["class"]]
    assert row == [f"row-card card-{k}" for k in ("red", "blue", "loco", "green", "white")]
    tickets = [e.attrib["data-ticket"] for e in root.iter() if "data-ticket" in e.attrib]
    assert tickets == ["Berlin-Roma"]
    assert "Paris-Wien" not in mine and "2red" not in mine
    spectator = ET.fromstring(render_svg(observe(state, None)))
    assert not [g for g in spectator.iter(f"{SVG}g") if g.attrib.get("class") == "sidebar"]
    assert "claimed" in _groups(spectator, "route")["route-Berlin-Wien"].attrib["class"]
    no_side = ET.fromstring(render_svg(observe(state, 1), sidebar=False))
    assert float(no_side.attrib["width"]) < float(root.attrib["width"])


def test_a_ticket_joined_by_own_routes_is_ticked_in_the_view() -> None:
    two = {"Frankfurt-Paris-white": 0, "Frankfurt-Munchen": 0}
    for owners, ticked in ((two, False), ({**two, "Munchen-Wien": 0}, True)):
        state = scenario(owners=owners, tickets={0: ["Paris-Wien"]})
        root = ET.fromstring(render_svg(observe(state, 0)))
        texts = [e for e in root.iter(f"{SVG}text") if "data-ticket" in e.attrib]
        assert len(texts) == 1
        assert ("done" in texts[0].attrib["class"].split()) == ticked
        assert texts[0].text is not None and texts[0].text.startswith("✓") == ticked


def test_highlights_outline_the_scored_ticket_paths_and_the_longest_path() -> None:
    owners = {"Frankfurt-Paris-white": 0, "Frankfurt-Munchen": 0, "Munchen-Wien": 0}
    state = finished(owners, tickets={0: ["Paris-Wien"]})
    board = score(state)
    marks = score_highlights(board, 0)
    assert [m.label for m in marks] == ["longest path (8)", "ticket Paris-Wien (8)"]
    assert set(marks[0].routes) == set(owners)
    assert set(marks[1].routes) == set(owners)
    assert marks[1].cities == ("Paris", "Wien")
    root = ET.fromstring(render_svg(state, highlights=marks))
    layers = [g for g in root.iter(f"{SVG}g") if g.attrib.get("class") == "highlight"]
    assert [g.attrib["data-label"] for g in layers] == [m.label for m in marks]
    assert [len(g.findall(f"{SVG}line")) for g in layers] == [3, 3]
    assert [len(g.findall(f"{SVG}circle")) for g in layers] == [0, 2]
    legend = "".join(root.find(f"{SVG}g[@class='legend']").itertext())  # type: ignore[union-attr]
    assert "longest path (8)" in legend and "ticket Paris-Wien (8)" in legend


def test_bad_requests_are_render_errors() -> None:
    board = load_map("europe")
    with pytest.raises(RenderError, match="no route 'Paris-Tokyo'"):
        render_svg(board, highlights=[Highlight("x", ["Paris-Tokyo"])])
    with pytest.raises(RenderError, match="no city 'Tokyo'"):
        render_svg(board, highlights=[Highlight("x", (), "Tokyo")])
    view = observe(scenario(), 0)
    with pytest.raises(RenderError, match="map 'europe', not 'usa'"):
        render_svg(view, map=load_map("usa"))
    with pytest.raises(RenderError, match="cannot draw str"):
        render_svg("europe")  # type: ignore[arg-type]
    with pytest.raises(RenderError, match="labels is true or false, not bytearray"):
        render_svg(board, labels=bytearray(b"x"))  # type: ignore[arg-type]
    with pytest.raises(RenderError, match="sidebar is true or false, not str"):
        render_svg(view, sidebar="no")  # type: ignore[arg-type]
    assert Highlight("one", "Dieppe-Paris").routes == ("Dieppe-Paris",)


def test_names_are_escaped() -> None:
    svg = render_svg(load_map("europe"), highlights=[Highlight("<b>&", ["Dieppe-Paris"])])
    assert "&lt;b&gt;&amp;" in svg
    ET.fromstring(svg)


@pytest.mark.parametrize(("map_id", "keys"), [
    ("europe", ["tunnel", "ferry: a locomotive card per ✚", "station", "big city"]),
    ("usa", []),
])  # fmt: skip
def test_the_legend_explains_what_the_map_has(map_id: str, keys: list[str]) -> None:
    root = ET.fromstring(render_svg(load_map(map_id)))
    legend = root.find(f"{SVG}g[@class='legend']")
    assert legend is not None
    texts = [t.text for t in legend.iter(f"{SVG}text") if t.get("class") not in ("sym", "loco")]
    assert texts == ["red", "orange", "yellow", "green", "blue", "pink", "white", "black", "gray",
                     *keys]  # fmt: skip
    # the ferry's key shows the mark its spaces carry, ✚, not a dot
    assert _loco_marks(legend) == (["✚"] if keys else [])
    assert legend.find(f".//{SVG}circle[@r='2.2']") is None


def _labels_on_routes(map_id: str, margin: float) -> list[str]:
    """City names whose drawn box (estimated generously) meets a route's spaces."""
    from ttr_europe.render import SPACE_THICKNESS, label_box, segment_meets_box

    root = ET.fromstring(render_svg(load_map(map_id)))
    routes = [_spaces_line(line) for line in root.iter(f"{SVG}line") if line.get("class") == "hit"]
    crossing = []
    for g in root.iter(f"{SVG}g"):
        if "city" not in g.attrib.get("class", "").split():
            continue
        text = next(t for t in g.iter(f"{SVG}text") if t.attrib.get("class") != "halo")
        left, top, right, bottom = label_box(
            float(text.attrib["x"]), float(text.attrib["y"]),
            text.attrib.get("text-anchor", "start"), text.text or "",
        )  # fmt: skip
        assert left >= 0 and right <= float(root.attrib["width"]), text.text
        grow = SPACE_THICKNESS / 2 + margin
        box = (left - grow, top - grow, right + grow, bottom + grow)
        if any(segment_meets_box(a, b, box) for a, b in routes):
            crossing.append(text.text or "")
    return crossing


def _spaces_line(hit: ET.Element) -> tuple[tuple[float, float], tuple[float, float]]:
    """A route's hit line (city centre to city centre) without the parts inside the cities."""
    from ttr_europe.render import CITY_RADIUS

    x1, y1, x2, y2 = (float(hit.attrib[k]) for k in ("x1", "y1", "x2", "y2"))
    length = math.hypot(x2 - x1, y2 - y1)
    ux, uy = (x2 - x1) / length * (CITY_RADIUS + 1), (y2 - y1) / length * (CITY_RADIUS + 1)
    return (x1 + ux, y1 + uy), (x2 - ux, y2 - uy)


def test_city_names_keep_off_the_routes() -> None:
    # A route's centre line between the cities' circles; a name's box must clear it by half a
    # space. Europe has room for every name; the USA map is denser.
    assert _labels_on_routes("europe", 0.0) == []
    crossing = _labels_on_routes("usa", 0.0)
    assert len(crossing) <= 5, crossing  # of 36, each by a few pixels at most
    assert "Salt Lake City" not in crossing
    assert not {"Pamplona", "Roma", "Palermo"} & set(_labels_on_routes("europe", 2.0))


def test_the_dashed_tunnel_border_shows_on_black_routes() -> None:
    root = ET.fromstring(render_svg(load_map("europe")))
    tunnels = [g for g in root.iter(f"{SVG}g") if "tunnel" in g.attrib.get("class", "").split()]
    assert any(g.attrib["data-route"] == "Madrid-Pamplona-black" for g in tunnels)

    def light(colour: str) -> float:
        r, g, b = _rgb(colour if len(colour) == 7 else "#" + "".join(c * 2 for c in colour[1:]))
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    for g in tunnels:
        for rect in _space_rects(g):
            assert rect.attrib.get("stroke-dasharray"), g.attrib["id"]
            contrast = abs(light(rect.attrib["stroke"]) - light(rect.attrib["fill"]))
            assert contrast > 60, (g.attrib["id"], rect.attrib["stroke"], rect.attrib["fill"])


def test_hit_shapes_are_wide_and_lie_under_every_routes_spaces() -> None:
    from ttr_europe.render import CITY_HIT, ROUTE_HIT

    board = load_map("europe")
    root = ET.fromstring(render_svg(board))
    layers = [g.attrib.get("class") for g in root.findall(f"{SVG}g")]
    assert layers.index("route-hits") < layers.index("routes") < layers.index("cities")
    hits = [line for line in root.iter(f"{SVG}line") if line.attrib.get("class") == "hit"]
    assert sorted(h.attrib["data-route"] for h in hits) == sorted(r.id for r in board.routes)
    assert {float(h.attrib["stroke-width"]) for h in hits} == {ROUTE_HIT} and ROUTE_HIT >= 20
    circles = [c for c in root.iter(f"{SVG}circle") if c.attrib.get("class") == "hit"]
    assert len(circles) == len(board.cities)
    assert {float(c.attrib["r"]) for c in circles} == {CITY_HIT} and CITY_HIT >= 12


@pytest.mark.parametrize("map_id", ["europe", "usa"])
def test_no_route_is_drawn_across_a_city(map_id: str) -> None:
    """Every route's line keeps clear of each city it does not end at: its circle and half a
    space at least, with room to spare (Palermo-Smyrna passes south of Athína, not across)."""
    from ttr_europe.render import CITY_RADIUS, SPACE_THICKNESS

    board = load_map(map_id)
    root = ET.fromstring(render_svg(board))
    centres = {
        g.attrib["data-city"]: next(
            (float(c.attrib["cx"]), float(c.attrib["cy"])) for c in g.iter(f"{SVG}circle")
        )
        for g in root.iter(f"{SVG}g")
        if "city" in g.attrib.get("class", "").split()
    }
    assert len(centres) == len(board.cities)
    clear = CITY_RADIUS + SPACE_THICKNESS / 2 + 4
    for line in root.iter(f"{SVG}line"):
        if line.attrib.get("class") != "hit":
            continue
        route = board.routes[board.route_index[line.attrib["data-route"]]]
        ends = {board.cities[route.a].id, board.cities[route.b].id}
        ax, ay, bx, by = (float(line.attrib[k]) for k in ("x1", "y1", "x2", "y2"))
        for city, (x, y) in centres.items():
            if city in ends:
                continue
            along = max(0.0, min(1.0, ((x - ax) * (bx - ax) + (y - ay) * (by - ay))
                                 / ((bx - ax) ** 2 + (by - ay) ** 2)))  # fmt: skip
            away = math.hypot(x - ax - along * (bx - ax), y - ay - along * (by - ay))
            assert away > clear, (route.id, city, away)


def _texts(root: ET.Element, cls: str) -> list[str]:
    group = root.find(f"{SVG}g[@class='{cls}']")
    assert group is not None
    return [t.text or "" for t in group.iter(f"{SVG}text") if t.get("class") not in ("sym", "loco")]


@pytest.mark.parametrize("lang", ["pt", "ru", "ro"])
def test_the_pictures_speak_the_chosen_language(lang: str) -> None:
    from repo_scripts import load_script
    from ttr_europe.i18n import translator
    from ttr_europe.render import LEGEND_MARKS, label_width

    tr = translator(lang)
    owners = {"Berlin-Wien": 1, "Paris-Zurich": 0}
    state = scenario(owners=owners, stations={1: ["Roma"]}, hands={0: "2red+1loco"},
                     tickets={0: ["Paris-Wien"]}, offers={0: ["Athina-Angora"]},
                     phase=Phase.CHOOSE_TICKETS)  # fmt: skip
    svg = render_svg(observe(state, 0), lang=lang)
    root = ET.fromstring(svg)
    colours = [tr.card(c) for c in ("red", "orange", "yellow", "green", "blue", "pink", "white",
                                    "black", "gray")]  # fmt: skip
    texts = _texts(root, "legend")
    assert texts[:11] == [*colours, *(tr.t(m) for m in LEGEND_MARKS[:2])]
    assert texts[13].startswith(tr.t("Player {n}", n=1)), texts
    # each colour's label ends before the next swatch begins, however long its word
    legend = root.find(f"{SVG}g[@class='legend']")
    assert legend is not None
    swatches = [float(r.attrib["x"]) for r in legend.iter(f"{SVG}rect")][:9]
    labels = [t for t in legend.iter(f"{SVG}text") if t.get("class") != "sym"][:9]
    for label, after in zip(labels, swatches[1:], strict=False):
        assert float(label.attrib["x"]) + label_width(label.text or "") < after, label.text
    routes = _groups(root, "route")
    assert routes["route-Berlin-Wien"].findtext(f"{SVG}title") == tr.t(
        "{title}, claimed by Player {n}",
        title=tr.t("{route}: {length} {kind}, {points}", route="Berlin-Wien", length=3,
                   kind=tr.card("green"), points=tr.tn("{n} point", "{n} points", 4)),
        n=2,
    )  # fmt: skip
    roma = _groups(root, "city")["city-Roma"].findtext(f"{SVG}title")
    assert roma == tr.t("{city}, station of Player {n}", city="Roma", n=2)
    side = _texts(root, "sidebar")
    assert {tr.t("Hand"), tr.t("Face-up row"), tr.t("Tickets")} <= set(side)
    assert any(t.startswith(tr.t("offered:")) for t in side)
    everything = " ".join(root.itertext())
    assert not load_script("i18n_catalogs").english_left(everything, lang)
    owners = {"Frankfurt-Paris-white": 0, "Frankfurt-Munchen": 0, "Munchen-Wien": 0}
    scored = score(finished(owners, tickets={0: ["Paris-Wien"]}))
    assert [m.label for m in score_highlights(scored, 0, lang=lang)] == [
        tr.t("longest path ({length})", length=8),
        tr.t("ticket {ticket} ({points})", ticket="Paris-Wien", points=8),
    ]


def test_the_two_tracks_of_a_double_route_say_which_is_which() -> None:
    root = ET.fromstring(render_svg(load_map("europe")))
    routes = _groups(root, "route")
    one, two = routes["route-Dieppe-London-1"], routes["route-Dieppe-London-2"]
    assert (one.get("data-twin"), one.get("data-track")) == ("Dieppe-London-2", "1")
    assert (two.get("data-twin"), two.get("data-track")) == ("Dieppe-London-1", "2")
    assert routes["route-Paris-Zurich"].get("data-twin") is None
    assert routes["route-Paris-Zurich"].get("data-track") is None


@pytest.mark.slow
def test_a_russian_picture_draws_its_cyrillic_words() -> None:
    """Rasterised, the Russian legend's words are ink where the English ones were not."""
    cairosvg = pytest.importorskip("cairosvg")
    image = pytest.importorskip("PIL.Image")
    board = load_map("europe")

    def legend_ink(lang: str) -> set[tuple[int, int]]:
        png = cairosvg.svg2png(bytestring=render_svg(board, lang=lang).encode())
        pixels = image.open(io.BytesIO(png)).convert("L")
        top = pixels.height - 50  # the legend's two rows
        return {(x, y) for x in range(0, 800) for y in range(top, pixels.height)
                if pixels.getpixel((x, y)) < 90}  # fmt: skip

    english, russian = legend_ink("en"), legend_ink("ru")
    assert len(russian) > 500 and len(russian ^ english) > 300
