"""The playtest report in a real browser: opened from the file, it asks for nothing from
elsewhere, raises no error and shows its pictures. ``TTR_SCREENSHOTS=dir`` also writes the
screenshot there (docs/playtest/report.png is made so)."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import pytest

from ttr_europe.maps import load_map_file
from ttr_europe.playtest import playtest
from ttr_europe.playtest.report import write_report

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "tessel.json"


def test_the_report_opens_from_the_file_and_shows_its_pictures(
    browser: Any, tmp_path: Path
) -> None:
    result = playtest(load_map_file(str(EXAMPLE)), players=(2, 3), games=8, backend="serial")
    write_report(result.map, result.figures(), tmp_path, png=False)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    asked: list[str] = []
    errors: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((tmp_path / "report.html").as_uri())
    assert page.title() == "Playtest of Tessel (an example board)"
    assert errors == [] and all(url.startswith("file:") for url in asked)
    sizes = page.eval_on_selector_all(
        "svg",
        "all => all.map(s => [s.getBoundingClientRect().width, s.getBoundingClientRect().height])",
    )
    assert len(sizes) == 7 and all(w > 300 and h > 100 for w, h in sizes)
    routes = page.eval_on_selector_all("#players-3 ~ svg .heat-route", "all => all.length")
    assert routes == len(result.map.routes)
    image = pytest.importorskip("PIL.Image")
    out = Path(os.environ.get("TTR_SCREENSHOTS", tmp_path)) / "playtest-report.png"
    picture = image.open(io.BytesIO(page.screenshot())).convert("RGB")
    assert picture.size == (1280, 900) and len(picture.getcolors(1 << 20) or ()) > 50
    picture.quantize(colors=256).save(out, optimize=True)
    page.close()
