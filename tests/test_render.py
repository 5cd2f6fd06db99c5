"""SVG pictures of boards and positions are well-formed and show what they claim to."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from ttr_europe import load_map
from ttr_europe.render import SEAT_COLOURS, render_svg
from ttr_europe.testing import scenario

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("map_id", ["europe", "usa"])
def test_board_picture_has_every_city_and_route(map_id: str) -> None:
    board = load_map(map_id)
    root = ET.fromstring(render_svg(board))
    assert root.tag == f"{SVG}svg"
    circles = root.findall(f"{SVG}circle")
    assert len(circles) == len(board.cities)
    titled = [e for e in root.iter(f"{SVG}line") if e.find(f"{SVG}title") is not None]
    assert len(titled) == len(board.routes)
    width = float(root.attrib["width"])
    height = float(root.attrib["height"])
    for c in circles:
        assert 0 <= float(c.attrib["cx"]) <= width
        assert 0 <= float(c.attrib["cy"]) <= height


def test_state_picture_marks_owned_routes_and_stations() -> None:
    state = scenario(owners={"Berlin-Wien": 1}, stations={0: ["Paris"]})
    root = ET.fromstring(render_svg(state))
    owner_lines = [e for e in root.iter(f"{SVG}line") if e.attrib.get("stroke-width") == "9"]
    assert len(owner_lines) == 1
    assert owner_lines[0].attrib["stroke"] == SEAT_COLOURS[1]
    fills = [e.attrib["fill"] for e in root.findall(f"{SVG}rect")]
    # background, one station in seat 0's colour, then one legend swatch per seat
    assert fills == ["#f4efe1", SEAT_COLOURS[0], SEAT_COLOURS[0], SEAT_COLOURS[1]]
