"""Generate docs/rules-index.md: each rule and decision, the code that implements it, the tests.

    python scripts/rules_index.py            # rewrite docs/rules-index.md
    python scripts/rules_index.py --check    # exit 1 if it is stale or a rule has no test

A function, class or module-level constant "implements" a rule when its docstring, its
comments or its strings name the rule (``R21``, ``D31``, ``R26b``; a range such as ``R5-R10``
or ``R43–R50`` names every rule in it); so does an entry of a shipped map file whose ``note``
names it (a rule decided by the data alone, such as a route's length). A test "checks" a
rule when its name (``test_claim_r21``), its docstring, its comments or its strings name it.
The rules are R1–R52 (Part A) and D1–D36 (Part D) of the rules text; a sub-rule (``R15b``)
counts for its rule.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "src" / "ttr_europe"
TESTS = REPO / "tests"
OUT = REPO / "docs" / "rules-index.md"
RULES = tuple(f"R{i}" for i in range(1, 53)) + tuple(f"D{i}" for i in range(1, 37))

_REF = re.compile(r"(?<![A-Za-z0-9])([RD])(\d{1,2})[a-z]?'?(?:\s*[-–]\s*\1?(\d{1,2})[a-z]?)?(?!\d)")
_TEST_TOKEN = re.compile(r"^([rd])(\d{1,2})[a-z]?$")


def rules_named(text: str) -> set[str]:
    """The rules a text names, ranges expanded: "R5-R10" and "R43–R50" name every rule in
    them, "D2c" names D2."""
    found: set[str] = set()
    for letter, first, last in _REF.findall(text):
        low = int(first)
        high = int(last) if last else low
        if high < low or high - low > 20:  # "R9-2" is not a range of rules
            high = low
        found.update(f"{letter}{n}" for n in range(low, high + 1))
    return found & set(RULES)


def _test_name_rules(name: str) -> set[str]:
    out: set[str] = set()
    for token in name.split("_"):
        m = _TEST_TOKEN.match(token)
        if m:
            out.add(f"{m.group(1).upper()}{int(m.group(2))}")
    return out & set(RULES)


def _definitions(tree: ast.Module) -> Iterator[tuple[str, ast.AST]]:
    """Every function and class with its dotted name inside the module, outermost first."""

    def walk(node: ast.AST, prefix: str) -> Iterator[tuple[str, ast.AST]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{prefix}{child.name}"
                yield name, child
                yield from walk(child, f"{name}.")

    yield from walk(tree, "")


def _own_lines(node: ast.AST, inner: Iterable[ast.AST]) -> set[int]:
    """The source lines of ``node`` not inside one of its nested definitions."""
    lines = set(range(node.lineno, (node.end_lineno or node.lineno) + 1))  # type: ignore[attr-defined]
    for child in inner:
        lines -= set(range(child.lineno, (child.end_lineno or child.lineno) + 1))  # type: ignore[attr-defined]
    return lines


def _scan(path: Path, module: str, tests: bool) -> dict[str, set[str]]:
    """Rule -> names of the definitions in ``path`` that name it."""
    text = path.read_text("utf-8")
    lines = text.splitlines()
    tree = ast.parse(text)
    out: dict[str, set[str]] = defaultdict(set)
    for name, node in _definitions(tree):
        leaf = name.rsplit(".", 1)[-1]
        if tests and not (leaf.startswith("test_") or isinstance(node, ast.ClassDef)):
            continue
        inner = [
            n
            for n in ast.walk(node)
            if n is not node
            and isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        ]
        own = "\n".join(lines[i - 1] for i in sorted(_own_lines(node, inner)))
        found = rules_named(own)
        if tests:
            found |= _test_name_rules(leaf)
            if isinstance(node, ast.ClassDef):  # a test class counts through its methods
                found = _test_name_rules(leaf) | rules_named(ast.get_docstring(node) or "")
        for rule in found:
            out[rule].add(f"{module}::{name}" if tests else f"{module}.{name}")
    if not tests:  # module-level constants, such as a table of rule functions
        for stmt in tree.body:
            target = stmt.targets[0] if isinstance(stmt, ast.Assign) else None
            if isinstance(stmt, ast.AnnAssign):
                target = stmt.target
            if isinstance(target, ast.Name):
                own = "\n".join(lines[stmt.lineno - 1 : stmt.end_lineno])
                for rule in rules_named(own):
                    out[rule].add(f"{module}.{target.id}")
    return out


def _notes(doc: object, path: str) -> Iterator[tuple[str, str]]:
    """(JSON path, note) of every object with a ``note`` in a map document; list items are
    named by their ``id`` where they have one."""
    if isinstance(doc, dict):
        if isinstance(doc.get("note"), str):
            yield path, doc["note"]
        for key, value in doc.items():
            yield from _notes(value, f"{path}.{key}")
    elif isinstance(doc, list):
        for i, item in enumerate(doc):
            name = item.get("id") if isinstance(item, dict) else None
            yield from _notes(item, f"{path}[{name if isinstance(name, str) else i}]")


def collect() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(rule -> implementing definitions, rule -> tests)."""
    code: dict[str, set[str]] = defaultdict(set)
    for path in sorted(SRC.rglob("*.py")):
        parts = path.relative_to(SRC.parent).with_suffix("").parts
        module = ".".join(p for p in parts if p != "__init__")
        for rule, names in _scan(path, module, tests=False).items():
            code[rule] |= names
    for path in sorted((SRC / "data" / "maps").glob("*.json")):
        where = path.relative_to(SRC).as_posix()
        for at, note in _notes(json.loads(path.read_text("utf-8")), "$"):
            for rule in rules_named(note):
                code[rule].add(f"{where} {at}")
    tests: dict[str, set[str]] = defaultdict(set)
    for path in sorted(TESTS.rglob("test_*.py")):
        module = str(path.relative_to(REPO))
        for rule, names in _scan(path, module, tests=True).items():
            tests[rule] |= names
    return code, tests


def render(code: dict[str, set[str]], tests: dict[str, set[str]]) -> str:
    lines = [
        "# Rule index",
        "",
        "<!-- generated by scripts/rules_index.py; do not edit by hand -->",
        "",
        "Every rule (R1–R52) and decision (D1–D36) of the rules text, with the functions,",
        "classes and constants that name it in their docstrings, comments or messages (and the",
        "map data whose notes name it), and the tests that check it. It is generated from the",
        "code and the tests by `python scripts/rules_index.py`; a test fails when it is stale or",
        "when a rule has no test. How the engine reads each rule: [rules.md](rules.md).",
        "",
        "| rule | implemented in | checked by |",
        "|---|---|---|",
    ]
    for rule in RULES:
        impl = ", ".join(f"`{n}`" for n in sorted(code.get(rule, ()))) or "—"
        checked = "<br>".join(f"`{n}`" for n in sorted(tests.get(rule, ()))) or "**none**"
        lines.append(f"| {rule} | {impl} | {checked} |")
    return "\n".join(lines) + "\n"


def untested(tests: dict[str, set[str]]) -> list[str]:
    return [rule for rule in RULES if not tests.get(rule)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if stale or incomplete")
    args = parser.parse_args(argv)
    code, tests = collect()
    text = render(code, tests)
    missing = untested(tests)
    if args.check:
        status = 0
        if not OUT.exists() or OUT.read_text("utf-8") != text:
            print(f"{OUT.relative_to(REPO)} is stale: run python scripts/rules_index.py")
            status = 1
        if missing:
            print("rules with no test: " + ", ".join(missing))
            status = 1
        return status
    OUT.write_text(text, "utf-8")
    print(f"wrote {OUT.relative_to(REPO)}; rules with no test: {', '.join(missing) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
