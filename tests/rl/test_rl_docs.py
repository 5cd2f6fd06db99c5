"""Every Python example of docs/rl.md runs as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

DOC = Path(__file__).resolve().parents[2] / "docs" / "rl.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text("utf-8"), re.DOTALL)


def test_the_page_has_its_five_examples() -> None:
    assert len(BLOCKS) == 5


@pytest.mark.slow
@pytest.mark.parametrize(
    "block", BLOCKS, ids=["observations", "pettingzoo", "gymnasium", "bot", "baseline"]
)
def test_example_runs(block: str) -> None:
    exec(compile(block, str(DOC), "exec"), {"__name__": "docs_example"})


def test_the_layout_table_lists_every_part_in_order() -> None:
    from ttr_europe.rl import layout_for

    section = DOC.read_text("utf-8").split("### Layout (version 1)")[1].split("\n## ")[0]
    named = [n for row in re.findall(r"^\| ((?:`\w+`(?:, )?)+) \|", section, re.MULTILINE)
             for n in re.findall(r"`(\w+)`", row)]  # fmt: skip
    assert named == list(layout_for("europe", "base").slices)
