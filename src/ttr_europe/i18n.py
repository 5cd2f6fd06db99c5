"""The players' words in English, Portuguese, Russian and Romanian: gettext catalogs.

The catalogs are the ``.po`` files under ``locale/<lang>/LC_MESSAGES/ttr_europe.po``, written
by translators and read by people; English is the source language (its words are the message
ids). A catalog is compiled to gettext's ``.mo`` form in memory the first time it is used
(``compile_mo``, the few lines of ``msgfmt`` a catalog needs) and read by the standard
library's ``gettext.GNUTranslations``, so plural forms follow each catalog's ``Plural-Forms``
header (Russian has three) and nothing compiled is shipped or can go stale. The page gets the
same catalogs as JSON (``catalog_json``), with the plural formula.

Messages use named ``{placeholders}``, filled with ``str.format`` here and by the page's
``t``/``tn`` (web/static/i18n.js). ``scripts/i18n_catalogs.py`` extracts the messages of the
code (``t("...")``, ``tn("...", "...", n)``, ``N_("...")``) and writes the template; ``t`` and
``tn`` take literals only, and a message written elsewhere (a table's ``N_``, the map data's
titles and variant names) is said through ``marked``, so that the extractor sees every one.

The engine's ``IllegalActionError`` keeps its rule and English reason (the library's API);
``refusal`` says the reason in a player's words from the catalogs. The rules core never imports
this module.
"""

from __future__ import annotations

import ast
import functools
import gettext
import io
import os
import re
import struct
from collections.abc import Mapping
from importlib.resources import files
from typing import Any

import attrs

from .cards import KIND_NAMES
from .errors import DataError, IllegalActionError

DOMAIN = "ttr_europe"
LANGUAGES = {"en": "English", "pt": "Português", "ru": "Русский", "ro": "Română"}
SOURCE_LANGUAGE = "en"
ENGLISH_PLURAL = "n != 1"
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def N_(message: str) -> str:  # noqa: N802 (the name gettext's tools know)
    """Marks a message for extraction where it is defined; translated where it is shown."""
    return message


def NP_(singular: str, plural: str) -> tuple[str, str]:  # noqa: N802
    """Marks a message with a plural for extraction; ``Translator.tn`` translates the pair."""
    return singular, plural


@attrs.frozen
class Entry:
    """One message of a catalog: its id, plural id and translations (one per plural form)."""

    msgid: str
    plural: str | None
    msgstr: tuple[str, ...]


def po_path(lang: str) -> Any:
    """The catalog file of a language (a Traversable inside the package)."""
    return files("ttr_europe") / "locale" / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_po(text: str, source: str = "catalog") -> tuple[dict[str, str], list[Entry]]:
    """The header fields and entries of a ``.po`` text (comments and fuzzy flags ignored).
    A malformed line raises ``DataError`` naming the source and line."""
    entries: list[Entry] = []
    field: str | None = None
    parts: dict[str, list[str]] = {}

    def flush() -> None:
        if "msgid" in parts:
            msgid = "".join(parts["msgid"])
            plural = "".join(parts["msgid_plural"]) if "msgid_plural" in parts else None
            forms = sorted(k for k in parts if k.startswith("msgstr"))
            msgstr = tuple("".join(parts[k]) for k in forms)
            entries.append(Entry(msgid, plural, msgstr))
        parts.clear()

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            if not line and parts:
                flush()
            continue
        match = re.fullmatch(r'(msgid|msgid_plural|msgstr(?:\[\d\])?)\s+(".*")', line)
        if match:
            field = match.group(1)
            if field == "msgid" and parts:
                flush()
            parts[field] = [_unquote(match.group(2), source, number)]
        elif line.startswith('"') and field is not None:
            parts[field].append(_unquote(line, source, number))
        else:
            raise DataError(f"cannot read {line[:40]!r}", source=source, path=f"line {number}")
    flush()
    header: dict[str, str] = {}
    for entry in entries:
        if entry.msgid == "":
            for line in entry.msgstr[0].splitlines():
                key, _, value = line.partition(":")
                header[key.strip()] = value.strip()
    return header, [e for e in entries if e.msgid != ""]


def _unquote(text: str, source: str, number: int) -> str:
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        value = None
    if not isinstance(value, str):
        raise DataError(f"not a quoted string: {text[:40]!r}", source=source, path=f"line {number}")
    return value


def compile_mo(header: Mapping[str, str], entries: list[Entry]) -> bytes:
    """The GNU ``.mo`` bytes of a catalog (what ``msgfmt`` writes): the header as the empty
    message, then every translated entry sorted by id; an untranslated one is left out."""
    head = "".join(f"{k}: {v}\n" for k, v in header.items())
    pairs = [(b"", head.encode())]
    for e in entries:
        if not all(e.msgstr):
            continue
        key = e.msgid if e.plural is None else f"{e.msgid}\0{e.plural}"
        pairs.append((key.encode(), "\0".join(e.msgstr).encode()))
    pairs.sort()
    count = len(pairs)
    ids_at = 7 * 4
    strs_at = ids_at + count * 8
    data_at = strs_at + count * 8
    ids = b"".join(k + b"\0" for k, _ in pairs)
    offsets_ids, offsets_strs = [], []
    at = data_at
    for k, _ in pairs:
        offsets_ids.append((len(k), at))
        at += len(k) + 1
    for _, v in pairs:
        offsets_strs.append((len(v), at))
        at += len(v) + 1
    out = struct.pack("<7I", 0x950412DE, 0, count, ids_at, strs_at, 0, 0)
    out += b"".join(struct.pack("<2I", n, o) for n, o in offsets_ids)
    out += b"".join(struct.pack("<2I", n, o) for n, o in offsets_strs)
    return out + ids + b"".join(v + b"\0" for _, v in pairs)


@functools.cache
def catalog(lang: str) -> tuple[dict[str, str], tuple[Entry, ...]]:
    """The header and entries of a shipped language's catalog (English has none)."""
    if lang not in LANGUAGES or lang == SOURCE_LANGUAGE:
        return {}, ()
    path = po_path(lang)
    header, entries = read_po(path.read_text("utf-8"), source=str(path))
    return header, tuple(entries)


@functools.cache
def translations(lang: str) -> gettext.NullTranslations:
    """The gettext translations of a language; English (and anything unknown): the ids."""
    header, entries = catalog(lang)
    if not entries:
        return gettext.NullTranslations()
    return gettext.GNUTranslations(io.BytesIO(compile_mo(header, list(entries))))


def plural_rule(lang: str) -> tuple[int, str]:
    """How many plural forms a language has and gettext's formula choosing one for ``n``."""
    header, _ = catalog(lang)
    match = re.search(
        r"nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*([^;]+)", header.get("Plural-Forms", "")
    )
    if match is None:
        return 2, ENGLISH_PLURAL
    return int(match.group(1)), match.group(2).strip()


@attrs.frozen
class Translator:
    """The words of one language: ``t`` for a message, ``tn`` for one with a count."""

    lang: str

    def t(self, message: str, /, **params: Any) -> str:
        return translations(self.lang).gettext(message).format(**params)

    def tn(self, singular: str, plural: str, n: int, /, **params: Any) -> str:
        """A message whose words agree with ``n``; a negative count (a total of -58 points)
        agrees as its size does, since the catalogs' formulas are written for n >= 0."""
        form = translations(self.lang).ngettext(singular, plural, abs(n))
        return form.format(n=n, **params)

    def marked(self, message: str, /, **params: Any) -> str:
        """A message marked where it is written rather than here: a table's ``N_`` value, or a
        name of the map data (a map's title, a variant's name, its bonus), which the
        extractor reads from the data. ``t`` and ``tn`` take literals only (a test holds it),
        so that the extractor sees every message the code asks for."""
        return translations(self.lang).gettext(message).format(**params)

    def marked_n(self, pair: tuple[str, str], n: int, /, **params: Any) -> str:
        """An ``NP_`` pair marked elsewhere, its words agreeing with ``n`` (as ``tn``)."""
        form = translations(self.lang).ngettext(pair[0], pair[1], abs(n))
        return form.format(n=n, **params)

    def card(self, kind: int | str, *, short: bool = False) -> str:
        """A card kind's name ("red", "locomotive"; ``short``: "loco") in this language."""
        name = KIND_NAMES[kind] if isinstance(kind, int) else kind
        if short and name == "loco":
            return self.t("loco")
        return self.marked(CARD_NAMES.get(name, name))

    def seat_kind(self, name: str) -> str:
        """Who plays a seat, in words: "person", or a built-in bot's style described ("Ticket
        chasing bot" for ``greedy``); any other bot spec (a program, a class) as it is written."""
        described = SEAT_KINDS.get(name)
        return name if described is None else self.marked(described)

    def unreadable(self, detail: str) -> str:
        """Why a typed move could not be read (``ActionParseError``'s text, candidates left
        off), in this language; a shape the book does not know reads as a plain sentence."""
        said = PARSE_PROBLEMS.say(detail, self)
        return said if said is not None else self.t("That is not a move I can read.")

    def refusal(self, exc: IllegalActionError) -> str:
        """Why the rules refused a move, as a sentence for players."""
        return refusal(exc, self)


def language(code: str | None) -> str | None:
    """The shipped language a tag names ("pt-BR", "ru_RU.UTF-8", "ro"), or None."""
    if not code:
        return None
    base = re.split(r"[-_.@]", code.strip().lower(), maxsplit=1)[0]
    return base if base in LANGUAGES else None


def translator(lang: str | None = None) -> Translator:
    """The translator of ``lang`` (a tag as ``language`` reads it); English if none fits."""
    return Translator(language(lang) or SOURCE_LANGUAGE)


def from_environment(env: Mapping[str, str] | None = None) -> str:
    """The language the terminal's locale asks for (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``,
    ``LANG``, as gettext reads them), English when none is shipped."""
    env = os.environ if env is None else env
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(key)
        if value:
            for tag in value.split(":"):
                found = language(tag)
                if found:
                    return found
            if key != "LANGUAGE":
                break  # the first locale variable set decides, as in C
    return SOURCE_LANGUAGE


def negotiate(accept_language: str | None) -> str:
    """The shipped language an HTTP ``Accept-Language`` header prefers (English if none)."""
    best: list[tuple[float, int, str]] = []
    for i, item in enumerate((accept_language or "").split(",")):
        tag, _, params = item.strip().partition(";")
        weight = 1.0
        match = re.search(r"q\s*=\s*([0-9.]+)", params)
        if match:
            try:
                weight = float(match.group(1))
            except ValueError:
                weight = 0.0
        found = language(tag)
        if found and weight > 0:
            best.append((-weight, i, found))
    return min(best)[2] if best else SOURCE_LANGUAGE


def catalog_json(lang: str) -> dict[str, Any]:
    """What the page needs of a catalog: the language, its plural rule, every message (a list
    of forms for a message with a plural) and who plays a seat in words (``seat_kinds``)."""
    lang = language(lang) or SOURCE_LANGUAGE
    count, formula = plural_rule(lang)
    messages: dict[str, str | list[str]] = {}
    for e in catalog(lang)[1]:
        if all(e.msgstr):
            messages[e.msgid] = list(e.msgstr) if e.plural is not None else e.msgstr[0]
    return {
        "lang": lang,
        "name": LANGUAGES[lang],
        "nplurals": count,
        "plural": formula,
        "languages": LANGUAGES,
        "messages": messages,
        "seat_kinds": {kind: Translator(lang).seat_kind(kind) for kind in SEAT_KINDS},
    }


Phrase = tuple[str, str | tuple[str, str]]
"""An English text's shape (a regular expression) and the message that says it for people,
or a (singular, plural) pair whose count is the group ``n``."""


@attrs.frozen
class Phrasebook:
    """Texts of known shapes in English (the engine's reasons, the command line's errors) and
    the players' message for each: the one mechanism behind ``refusal`` and the command line's
    error lines. A group fills the placeholder of its name; ``n`` is the count of a plural
    message, ``colour`` a card colour said in the language, ``why`` a text of its own, said
    again with the same book (kept as it is when no shape fits it), and ``refusal`` an
    ``IllegalActionError``'s text ("R9: keep at least 2 ticket(s)"), said as ``refusal`` does
    after its rule."""

    entries: tuple[tuple[re.Pattern[str], str | tuple[str, str]], ...]

    @classmethod
    def of(cls, table: tuple[Phrase, ...]) -> Phrasebook:
        return cls(tuple((re.compile(pattern), message) for pattern, message in table))

    def say(self, text: str, tr: Translator) -> str | None:
        """``text`` in ``tr``'s language, or None when no entry knows its shape."""
        for pattern, message in self.entries:
            found = pattern.fullmatch(text)
            if found is None:
                continue
            params: dict[str, Any] = {k: v for k, v in found.groupdict().items() if k != "n"}
            if "colour" in params:
                params["colour"] = tr.card(params["colour"])
            if "why" in params:
                params["why"] = self.say(params["why"], tr) or params["why"]
            if "refusal" in params:
                params["refusal"] = _refusal_text(params["refusal"], tr)
            if isinstance(message, str):
                return tr.marked(message, **params)
            return tr.marked_n(message, int(found.group("n")), **params)
        return None


# --------------------------------------------------------------------------- the game's words

CARD_NAMES = {
    "red": N_("red"),
    "orange": N_("orange"),
    "yellow": N_("yellow"),
    "green": N_("green"),
    "blue": N_("blue"),
    "pink": N_("pink"),
    "white": N_("white"),
    "black": N_("black"),
    "gray": N_("gray"),
    "loco": N_("locomotive"),
}

# Who plays a seat (``Match`` seats' names: "person", or ``players.registry``'s bot names), said
# as what each style does, so that a player who reads no English knows whom they face.
SEAT_KINDS = {
    "person": N_("person"),
    "random": N_("random-move bot"),
    "claimer": N_("route-grabbing bot"),
    "saver": N_("card-saving bot"),
    "racer": N_("racing bot"),
    "greedy": N_("ticket-chasing bot"),
    "ambitious": N_("long-ticket bot"),
    "mcts-fast": N_("quick look-ahead bot"),
    "mcts": N_("look-ahead bot"),
    "mcts-core": N_("deep look-ahead bot"),
    "baseline": N_("trained bot"),
    "bc-ppo": N_("self-trained bot"),
    "bc-ppo-multi": N_("self-trained bot for many players"),
    "guided": N_("learned look-ahead bot"),
}

# Why a typed move could not be read (``notation.parse_action``'s ``ActionParseError``): its
# shapes, so that a player meets no English inside a translated sentence.
PARSE_PROBLEMS = Phrasebook.of(
    (
        (r"cannot read (?P<text>.+): unknown verb (?P<verb>.+)",
         N_("cannot read {text}: no move starts with {verb}")),
        (r"cannot read (?P<text>.+) after the verb",
         N_("cannot read {text} after the move's word")),
        (r"cannot read (?P<text>.+) as an action", N_("cannot read {text} as a move")),
        (r"cannot read the cards (?P<text>.+): .*", N_("cannot read the cards {text}")),
        (r"cannot read (?P<text>.+): .*", N_("cannot read {text}")),
        (r"(?P<text>.+) fits (?P<n>\d+) legal actions(?: \(first \d+ of \d+\))?",
         NP_("{text} fits {n} possible move", "{text} fits {n} possible moves")),
        (r"no legal action matches (?P<text>.+?)(?:: .*)?",
         N_("no possible move matches {text}")),
        (r"no (?P<colour>\w+) card is face up", N_("no {colour} card is face up")),
        (r"(?P<text>.+) is not a card colour", N_("{text} is not a card colour")),
        (r"no route (?P<text>.+) on the (?P<map>\S+) map",
         N_("no route {text} on the {map} map")),
        (r"no city (?P<text>.+) on the (?P<map>\S+) map", N_("no city {text} on the {map} map")),
        (r"no ticket on offer matches (?P<text>.+)", N_("no ticket on offer matches {text}")),
        (r"more than one ticket on offer matches (?P<text>.+)",
         N_("more than one ticket on offer matches {text}")),
        (r"the offer has places 1 to (?P<size>\d+), not (?P<bad>\d+)",
         N_("the offer has places 1 to {size}, not {bad}")),
        (r"an action is at most (?P<n>\d+) characters, not \d+",
         NP_("a move is at most {n} character long", "a move is at most {n} characters long")),
        (r"an action is text, not .*", N_("a move is text")),
    )
)  # fmt: skip

# The engine's reasons (rules.py, _payments.py, table/match.py) and the players' sentence for each:
# (pattern of the English reason, message, plural message or None). A count in the reason is
# the group ``n``; other groups fill the placeholders of the same name.
_REASONS: tuple[Phrase, ...] = (
    ("the second train card must be drawn now", N_("Draw your second train card now.")),
    ("pay the tunnel's extra cards or withdraw", N_("Pay the tunnel's extra cards or withdraw.")),
    ("choose which drawn tickets to keep", N_("Choose which of the drawn tickets to keep.")),
    ("choose the starting tickets first", N_("Choose your starting tickets first.")),
    ("not possible at the start of a turn", N_("That is not possible at the start of a turn.")),
    ("that face-up slot is empty", N_("That face-up slot is empty.")),
    (
        "a face-up locomotive cannot be the second card",
        N_("A face-up locomotive cannot be your second card."),
    ),
    (
        "the draw pile and the discard pile are empty",
        N_("The draw pile and the discard pile are empty."),
    ),
    ("that route is already claimed", N_("That route is already claimed.")),
    (
        "you own the other track of this double route",
        N_("You own the other track of this double route."),
    ),
    (
        "with 2-3 players a double route is closed once one track is claimed",
        N_("With 2 or 3 players a double route closes once one of its tracks is claimed."),
    ),
    (
        r"(?P<n>\d+) trains needed, (?P<left>\d+) left",
        NP_(
            "This route needs {n} train; you have {left} left.",
            "This route needs {n} trains; you have {left} left.",
        ),
    ),
    (
        r"needs exactly (?P<n>\d+) cards, got (?P<got>\d+)",
        NP_(
            "It takes exactly {n} card; you offered {got}.",
            "It takes exactly {n} cards; you offered {got}.",
        ),
    ),
    ("colours may not be mixed", N_("Colours may not be mixed.")),
    (
        r"needs (?P<colour>\w+) cards or locomotives",
        N_("It takes cards of the colour {colour} or locomotives."),
    ),
    (
        r"needs at least (?P<n>\d+) locomotive\(s\)",
        NP_("It takes at least {n} locomotive.", "It takes at least {n} locomotives."),
    ),
    ("you do not hold those cards", N_("You do not hold those cards.")),
    (
        r"the extra cost is exactly (?P<n>\d+) card\(s\)",
        NP_(
            "The tunnel's extra cost is exactly {n} card.",
            "The tunnel's extra cost is exactly {n} cards.",
        ),
    ),
    (
        "a tunnel paid with locomotives only takes locomotives as extra cards",
        N_("A tunnel paid with locomotives takes only locomotives as extra cards."),
    ),
    (
        r"extra cards must be (?P<colour>\w+) or locomotives",
        N_("The extra cards must be of the colour {colour} or locomotives."),
    ),
    ("this game has no stations", N_("This game has no train stations.")),
    (
        r"all (?P<n>\d+) stations are built",
        NP_("Your {n} train station is built.", "All your {n} train stations are built."),
    ),
    ("that city already has a station", N_("That city already has a train station.")),
    ("the ticket deck is empty", N_("There are no destination tickets left.")),
    (
        r"keep at least (?P<n>\d+) ticket\(s\)",
        NP_("Keep at least {n} ticket.", "Keep at least {n} tickets."),
    ),
    (
        r"keep at most (?P<n>\d+) long ticket\(s\)",
        NP_("Keep at most {n} long ticket.", "Keep at most {n} long tickets."),
    ),
    (
        "passing is allowed only when nothing else is",
        N_("You may pass only when no other move is possible."),
    ),
    ("the game is over", N_("The game is over.")),
    (r"it is seat (?P<seat>\d+)'s turn, not \d+'s", N_("It is not your turn.")),
    (r"seat (?P<seat>\d+) is played by a bot", N_("That seat is played by a bot.")),
)
REFUSALS = Phrasebook.of(_REASONS)
_PREFIX = re.compile(r"(?:station (?P<station>\d+)|(?P<route>[^:\s]+)): (?P<rest>.*)")


def _refusal_text(text: str, tr: Translator) -> str:
    """An ``IllegalActionError``'s text ("R9: keep at least 2 ticket(s) (keep A-B)", the move
    in brackets where it names one) in players' words, after its rule ("R9: Keep at least 2
    tickets.")."""
    rule, _, reason = text.partition(": ")
    said = refusal(IllegalActionError(rule, reason), tr)
    bare = re.sub(r"\s*\([^()]*\)$", "", reason)
    if bare != reason and said == tr.t("That move is not possible."):
        said = refusal(IllegalActionError(rule, bare), tr)
    return f"{rule}: {said}"


def refusal(exc: IllegalActionError, tr: Translator) -> str:
    """The reason of a refused move in ``tr``'s language. A reason no entry knows (a malformed
    move, which a player's page or menu never sends) reads as "That move is not possible."."""
    reason = exc.reason.strip()
    sentence = REFUSALS.say(reason, tr)
    if sentence is not None:
        return sentence
    prefix = _PREFIX.fullmatch(reason)
    sentence = None if prefix is None else REFUSALS.say(prefix.group("rest"), tr)
    if prefix is None or sentence is None:
        return tr.t("That move is not possible.")
    if prefix.group("station") is not None:
        return tr.t(
            "Train station {number}: {reason}", number=prefix.group("station"), reason=sentence
        )
    return f"{prefix.group('route')}: {sentence}"
