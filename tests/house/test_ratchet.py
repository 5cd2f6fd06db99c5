"""The size ratchet: ruff's complexity, branch and statement ceilings (pyproject.toml) are each
the largest figure in the tree, so no new function may exceed them, and a function made simpler
lets a ceiling come down: this test then asks for it to be lowered. A ceiling only goes down."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
RULES = {
    # rule: (the pyproject setting under [tool.ruff.lint], the option ruff takes on its line)
    "C901": ("mccabe", "max-complexity"),
    "PLR0912": ("pylint", "max-branches"),
    "PLR0915": ("pylint", "max-statements"),
}


def _ruff() -> list[str]:
    found = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if found is None:
        pytest.skip("ruff is not installed (the dev extra)")
    return [found]


def _ceilings() -> dict[str, int]:
    lint = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["tool"]["ruff"]["lint"]
    return {rule: int(lint[table][option]) for rule, (table, option) in RULES.items()}


def _figures(rule: str, below: int) -> list[int]:
    """Every figure of ``rule`` in the tree above ``below`` (ruff run with that ceiling)."""
    table, option = RULES[rule]
    done = subprocess.run(
        [*_ruff(), "check", "--no-cache", "--select", rule, "--output-format", "concise",
         "--config", f"lint.{table}.{option} = {below}", "."],
        cwd=REPO, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    return [int(n) for n in re.findall(r"\((\d+) > \d+\)", done.stdout)]


def test_the_rules_are_on() -> None:
    lint = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["tool"]["ruff"]["lint"]
    for rule in RULES:
        assert any(rule.startswith(chosen) for chosen in lint["select"]), rule
        assert rule not in lint.get("ignore", []), rule


@pytest.mark.parametrize("rule", sorted(RULES))
def test_each_ceiling_is_the_largest_figure_in_the_tree(rule: str) -> None:
    ceiling = _ceilings()[rule]
    assert _figures(rule, ceiling) == [], f"a function is above the {rule} ceiling"
    over = _figures(rule, ceiling - 1)
    assert over, (
        f"nothing reaches the {rule} ceiling of {ceiling} any more: lower "
        f"{RULES[rule][1]} in pyproject.toml to the largest figure left"
    )


def test_a_function_above_a_ceiling_is_found(tmp_path: Path) -> None:
    """The check reads what it guards: a planted function one branch past the ceiling."""
    ceiling = _ceilings()["PLR0912"]
    body = "".join(f"    if x == {i}:\n        return {i}\n" for i in range(ceiling + 1))
    (tmp_path / "big.py").write_text(f"def big(x: int) -> int:\n{body}    return -1\n", "utf-8")
    done = subprocess.run(
        [*_ruff(), "check", "--no-cache", "--isolated", "--select", "PLR0912",
         "--config", f"lint.pylint.max-branches = {ceiling}", str(tmp_path / "big.py")],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert "PLR0912" in done.stdout
