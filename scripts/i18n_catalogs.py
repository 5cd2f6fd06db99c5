"""Extract the players' messages from the code and keep the gettext catalogs in step.

    python scripts/i18n_catalogs.py            # list what each catalog lacks or no longer uses
    python scripts/i18n_catalogs.py --update   # write the template, add missing entries

Messages are found where the code marks them: ``t("...")``, ``tn("...", "...", n)``,
``N_("...")`` and ``NP_("...", "...")`` calls in Python (read with ``ast``) and in the page's
JavaScript (double-quoted literals), ``says(seat, "You ...", "{name} ...")`` in app.js, and
``data-i18n*="..."`` attributes in the pages, and the names of the shipped map data (each map's
title, its variants' names and their bonus: their English is the message id, said through
``Translator.marked`` and the page's ``named``). A message must be a literal for extraction to
see it: ``tests/test_i18n.py`` fails on a ``t``/``tn``/``N_``/``NP_`` call whose message is not.
The template is ``src/ttr_europe/locale/ttr_europe.pot``; ``--update`` appends each missing
message to every catalog with an empty translation for a translator to fill in (the tests
fail until then) and reports the catalog entries no code uses any more.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "ttr_europe"
LOCALE = PACKAGE / "locale"
STATIC = PACKAGE / "web" / "static"
sys.path.insert(0, str(ROOT / "src"))

from ttr_europe.i18n import (  # noqa: E402
    LANGUAGES,
    PLACEHOLDER,
    SOURCE_LANGUAGE,
    po_path,
    read_po,
    translations,
)

Messages = dict[str, str | None]  # msgid -> plural id (None: no plural)

_JS_STRING = r'"((?:[^"\\]|\\.)*)"'
_JS_CALLS = (
    re.compile(rf"(?<![\w.])t\(\s*{_JS_STRING}"),
    re.compile(rf"(?<![\w.])tn\(\s*{_JS_STRING}\s*,\s*{_JS_STRING}"),
    re.compile(rf"(?<![\w.])says\(\s*[^,()]+,\s*{_JS_STRING}\s*,\s*{_JS_STRING}"),
)
_HTML = re.compile(r'data-i18n(?:-label|-title|-placeholder)?="([^"]*)"')
_PY_NAMES = {"t": 1, "N_": 1, "tn": 2, "NP_": 2}


def _js_unquote(text: str) -> str:
    return str(ast.literal_eval(f'"{text}"'))


def from_python(path: Path) -> Messages:
    """The messages a Python file marks: ``t``, ``tn`` (two ids) and ``N_`` calls."""
    found: Messages = {}
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        wanted = _PY_NAMES.get(name or "")
        if wanted is None or len(node.args) < wanted:
            continue
        args = node.args[:wanted]
        if not all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args):
            continue
        values = [a.value for a in args if isinstance(a, ast.Constant)]
        found[values[0]] = values[1] if wanted == 2 else None
    return found


def from_javascript(text: str) -> Messages:
    """The messages of the page's scripts."""
    found: Messages = {}
    for m in _JS_CALLS[0].finditer(text):
        found.setdefault(_js_unquote(m.group(1)), None)
    for m in _JS_CALLS[1].finditer(text):
        found[_js_unquote(m.group(1))] = _js_unquote(m.group(2))
    for m in _JS_CALLS[2].finditer(text):
        for group in (1, 2):
            found.setdefault(_js_unquote(m.group(group)), None)
    return found


def from_map(path: Path) -> Messages:
    """The names a map's data gives players: its title, its variants' names and bonuses."""
    data = json.loads(path.read_text("utf-8"))
    found: Messages = {data["name"]: None}
    for variant in data.get("variants", {}).values():
        found[variant["name"]] = None
        bonus = variant.get("longest_path_bonus")
        if bonus:
            found[bonus["name"]] = None
    return found


def extract() -> Messages:
    """Every message of the package, the page's included."""
    found: Messages = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        found.update(from_python(path))
    for path in sorted(STATIC.glob("*.js")):
        found.update(from_javascript(path.read_text("utf-8")))
    for path in sorted((PACKAGE / "data" / "maps").glob("*.json")):
        found.update(from_map(path))
    for path in sorted(STATIC.glob("*.html")):
        for m in _HTML.finditer(path.read_text("utf-8")):
            found.setdefault(m.group(1), None)
    found.pop("", None)
    return found


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def entry_text(msgid: str, plural: str | None, forms: int) -> str:
    if plural is None:
        return f'msgid {_quote(msgid)}\nmsgstr ""\n'
    out = f"msgid {_quote(msgid)}\nmsgid_plural {_quote(plural)}\n"
    return out + "".join(f'msgstr[{i}] ""\n' for i in range(forms))


def template(messages: Messages) -> str:
    head = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    return head + "\n".join(entry_text(m, p, 2) for m, p in sorted(messages.items()))


def differences(lang: str, messages: Messages) -> tuple[list[str], list[str]]:
    """The messages a catalog lacks, and those it has that no code uses."""
    _, entries = read_po(po_path(lang).read_text("utf-8"), str(po_path(lang)))
    have = {e.msgid for e in entries}
    return sorted(set(messages) - have), sorted(have - set(messages))


def english_left(text: str, lang: str) -> list[str]:
    """The English pieces of the messages (between placeholders, a few words long, not kept
    in ``lang``'s translation) that ``text`` still shows: what a screen in ``lang`` lacks."""
    found = translations(lang)
    left = []
    for msgid, plural in extract().items():
        said = found.gettext(msgid) if plural is None else found.ngettext(msgid, plural, 5)
        for part in PLACEHOLDER.split(msgid):
            piece = part.strip(" :;,.()+=[]")
            if len(piece) >= 8 and " " in piece and piece not in said and piece in text:
                left.append(piece)
    return left


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--update", action="store_true", help="write the template, add entries")
    args = parser.parse_args(argv)
    messages = extract()
    status = 0
    if args.update:
        (LOCALE / "ttr_europe.pot").write_text(template(messages), "utf-8")
    for lang in LANGUAGES:
        if lang == SOURCE_LANGUAGE:
            continue
        missing, unused = differences(lang, messages)
        if args.update and missing:
            header = read_po(po_path(lang).read_text("utf-8"))[0]
            forms = int(re.search(r"nplurals=(\d+)", header.get("Plural-Forms", "nplurals=2"))[1])  # type: ignore[index]
            with open(str(po_path(lang)), "a", encoding="utf-8") as out:
                for m in missing:
                    out.write("\n" + entry_text(m, messages[m], forms))
        for m in missing:
            print(f"{lang}: missing {m!r}")
            status = 1
        for m in unused:
            print(f"{lang}: unused {m!r}")
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
