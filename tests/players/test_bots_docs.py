"""Every example of docs/bots.md runs: the Python blocks here, the interactive ones in
test_docs.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[2] / "docs" / "bots.md"
BLOCKS = [
    block
    for block in re.findall(r"```python\n(.*?)```", PAGE.read_text("utf-8"), re.DOTALL)
    if not block.lstrip().startswith(">>>")
]


def test_the_page_has_python_examples() -> None:
    assert len(BLOCKS) >= 2


@pytest.mark.parametrize("block", BLOCKS, ids=lambda b: b.split("\n", 1)[0][:40])
def test_python_block_runs(block: str, capsys: pytest.CaptureFixture[str]) -> None:
    namespace: dict[str, object] = {"__name__": "docs_bots"}
    exec(compile(block, str(PAGE), "exec"), namespace)
    if "print(" in block:
        assert capsys.readouterr().out.strip()
