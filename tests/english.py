"""What English a screen still shows: a reader shared by the terminal's and the page's tests.

A Latin word of the messages' or the engine's English that the language's own catalog does not
use is English left on a screen, apart from what stays English on purpose (docs/web.md): the
notation a person types and the commands, ``--`` options, what the person typed said back in
quotes, the record's header, the brand, and the maps' ids and city names. On a Russian screen
every Latin word outside that list is English."""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterable
from pathlib import Path

import ttr_europe
from ttr_europe.i18n import catalog
from ttr_europe.maps import available_maps, load_map
from ttr_europe.players.registry import BUILTIN_BOTS

SRC = Path(ttr_europe.__file__).parent

# What a person types (docs/play.md): the verbs and commands of the notation and the terminal.
NOTATION = {
    "draw", "take", "blind", "tickets", "ticket", "keep", "claim", "with", "station",
    "build", "pay", "withdraw", "pass", "help", "view", "routes", "board", "undo", "quit", "exit",
    "menu", "list", "replay", "play", "resume", "human", "bots", "lang", "svg", "json",
}  # fmt: skip
BRAND = {"ticket", "to", "ride"}
HEADER = re.compile(r"^# map=.*$", re.MULTILINE)  # the record's header line: a format read back
TYPING = re.compile(r"^> .*$", re.MULTILINE)  # a line the person typed, after the prompt
CARDS = re.compile(r"\b\d+[a-z]+(?:\+\d+[a-z]+)*\b")  # "3red+1loco" in a move
QUOTED = re.compile(r"'[^'\n]*'")  # what the person typed, said back in quotes
TYPED = re.compile(r"\b(?:draw|pay|keep) [a-z]+\b|\b\d+loco\b|ttr-europe|--\w+|\S+\.(?:json|svg)\b")


def _words(text: str) -> set[str]:
    """The Latin words of three letters or more ("big_cities" is one: an id)."""
    return {w.lower() for w in re.findall(r"[A-Za-z][A-Za-z_]{2,}", text)}


@functools.cache
def _english() -> frozenset[str]:
    """The English a screen could show: the words of every message id, of the engine's and the
    move parser's English texts, and the bots' names."""
    found = set(BUILTIN_BOTS) | {"person", "open", "done"}
    for e in catalog("pt")[1]:
        found |= _words(e.msgid) | _words(e.plural or "")
    for name in ("notation.py", "rules.py", "_payments.py", "scoring.py"):
        for node in ast.walk(ast.parse((SRC / name).read_text("utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found |= _words(node.value)
    return frozenset(found)


@functools.cache
def _names() -> frozenset[str]:
    """The maps' ids, their variants' ids and the cities' ids and names (in English)."""
    found: set[str] = set()
    for map_id in available_maps():
        board = load_map(map_id)
        found |= _words(map_id) | _words(" ".join(board.variants))
        for city in board.cities:
            found |= _words(f"{city.id} {city.name}")
    return frozenset(found)


@functools.cache
def _ids() -> re.Pattern[str]:
    """The route and ticket ids of every map ("Frankfurt-Paris-orange"): taken out whole, so
    that a colour in a route's id does not pass for one said on a screen."""
    ids = set()
    for map_id in available_maps():
        board = load_map(map_id)
        ids |= {r.id for r in board.routes} | {t.id for t in board.tickets}
    return re.compile("|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True)))


def english_left(text: str, lang: str, people: Iterable[str] = ()) -> set[str]:
    """The English words of ``text`` that are not on the allowed list, nor words ``lang``'s
    catalog itself uses (Romanian "are", Portuguese "total"), nor the names ``people`` chose."""
    chosen = {word for name in people for word in _words(name)}
    own: set[str] = set()
    for e in catalog(lang)[1]:
        for form in e.msgstr:
            own |= _words(form)
    text = QUOTED.sub(" ", TYPING.sub(" ", HEADER.sub(" ", text)))
    text = TYPED.sub(" ", CARDS.sub(" ", _ids().sub(" ", text)))
    latin = _words(text)
    if lang == "ru":  # a Latin word on a Russian screen is English unless it is a name
        return latin - chosen - NOTATION - BRAND - _names()
    return (latin & _english()) - own - chosen - NOTATION - BRAND - _names()
