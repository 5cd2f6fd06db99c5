"""docs/rules-index.md is current, and every rule and decision has a test."""

from __future__ import annotations

import pytest

from repo_scripts import load_script

index = load_script("rules_index")


def test_the_rule_index_is_current_and_every_rule_has_a_test(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = index.main(["--check"])
    assert status == 0, capsys.readouterr().out


@pytest.mark.parametrize(
    ("text", "rules"),
    [
        ("R5-R10", {"R5", "R6", "R7", "R8", "R9", "R10"}),
        ("rules R43–R50 and D10", {f"R{i}" for i in range(43, 51)} | {"D10"}),
        ("D2c, R15b and R49 3'", {"D2", "R15", "R49"}),
        ("R5-10", {"R5", "R6", "R7", "R8", "R9", "R10"}),
        ("SR12 R53 D37 R0", set()),
    ],
)
def test_rule_references_and_ranges(text: str, rules: set[str]) -> None:
    assert index.rules_named(text) == rules


@pytest.mark.slow
def test_a_rule_with_no_test_fails_the_check(monkeypatch: pytest.MonkeyPatch) -> None:
    code, tests = index.collect()
    tests.pop("R21")
    monkeypatch.setattr(index, "collect", lambda: (code, tests))
    assert index.main(["--check"]) == 1
