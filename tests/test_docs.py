"""The documentation's examples run: interactive examples as doctests, Python blocks as code."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

DOCS = sorted((Path(__file__).resolve().parent.parent / "docs").glob("*.md"))


@pytest.mark.parametrize("page", DOCS, ids=lambda p: p.name)
def test_interactive_examples(page: Path) -> None:
    text = re.sub(r"^```.*$", "", page.read_text("utf-8"), flags=re.MULTILINE)  # fences end output
    parser = doctest.DocTestParser()
    test = parser.get_doctest(text, {}, page.name, str(page), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0, f"{runner.failures} failing example(s) in {page.name}"


@pytest.mark.parametrize("page", DOCS, ids=lambda p: p.name)
def test_python_blocks_compile(page: Path) -> None:
    """Every ```python block (other than interactive sessions) is valid Python."""
    for block in re.findall(r"```python\n(.*?)```", page.read_text("utf-8"), re.DOTALL):
        if not block.lstrip().startswith(">>>"):
            compile(block, page.name, "exec")
