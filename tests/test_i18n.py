"""The catalogs: every message translated in every language with the same placeholders, plural
forms as each language counts, the rules' refusals in players' words, languages chosen from
``--lang``, the locale or ``Accept-Language``, and a terminal game in Portuguese and Russian."""

from __future__ import annotations

import ast
import gettext
import io
import random
import re
from pathlib import Path

import pytest

import ttr_europe
from repo_scripts import load_script
from ttr_europe import i18n
from ttr_europe.errors import DataError, IllegalActionError
from ttr_europe.i18n import (
    LANGUAGES,
    PLACEHOLDER,
    catalog,
    catalog_json,
    compile_mo,
    from_environment,
    negotiate,
    read_po,
    translator,
)
from ttr_europe.table.match import Match
from ttr_europe.table.terminal import Terminal

TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
SRC = Path(ttr_europe.__file__).parent
catalogs = load_script("i18n_catalogs")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_with_the_same_placeholders(lang: str) -> None:
    messages = catalogs.extract()
    assert len(messages) > 250  # the page, the terminal, the command line and the refusals
    header, entries = catalog(lang)
    count, _ = i18n.plural_rule(lang)
    by_id = {e.msgid: e for e in entries}
    assert set(by_id) == set(messages), "run scripts/i18n_catalogs.py --update"
    for msgid, plural in messages.items():
        entry = by_id[msgid]
        assert entry.plural == plural, msgid
        assert len(entry.msgstr) == (1 if plural is None else count), msgid
        wanted = set(PLACEHOLDER.findall(msgid)) | set(PLACEHOLDER.findall(plural or ""))
        for form in entry.msgstr:
            assert form.strip(), f"{lang}: {msgid!r} is not translated"
            assert set(PLACEHOLDER.findall(form)) == wanted, (lang, msgid, form)
    assert header["Language"].startswith(lang)


# A name said in a sentence is anyone's: a woman's, a man's, or a bot's described in words
# ("robô que persegue seus Bilhetes 1"). Romanian "lui {name}" is the dative of a man's name only
# (Ana's is "Anei"); a Portuguese "vitória de {name}" lacks the article a bot's words need
# ("do robô"). Each catalog says such a name where it needs neither ("câștigă {name}",
# "{name} venceu", "stația jucătorului {name}"). A Russian preposition or verb that governs an
# oblique case ("для Игрок 2", "остаться «Игрок 3»") needs an ending a name cannot take: the
# catalog says "Ссылка-приглашение: {name}", "остаться под именем «{name}»".
DECLINED_NAME = {
    "ro": re.compile(r"\blui \{(name|last)\}"),
    "pt": re.compile(r"\bvitória de \{"),
    "ru": re.compile(
        r"(?<!\w)(для|у|от|к|с|со|о|об|без|после|против|вместо|кроме|остаться|стать|впереди)"
        r"\s+«?\{(name|names|last|player|a|b)\}",
        re.IGNORECASE,
    ),
}


@pytest.mark.parametrize("lang", sorted(DECLINED_NAME))
def test_a_players_name_is_never_declined_as_one_gender_or_without_its_article(lang: str) -> None:
    _, entries = catalog(lang)
    declined = [form for e in entries for form in e.msgstr if DECLINED_NAME[lang].search(form)]
    assert not declined, declined


# A card's colour is said as an adjective in Russian ("красный", masculine, for "карта
# состава"), so a catalog line that sets {card} right after a word ("открытая карта зелёный",
# "место 3 теперь красный") reads as a noun and an adjective that disagree in gender: the colour
# comes after a colon or a dash, as "Вы взяли открытую карту: {card}" does.
def test_a_russian_card_colour_never_follows_a_word_it_would_disagree_with() -> None:
    _, entries = catalog("ru")
    bare = re.compile(r"\w\s+\{card\}")
    disagreeing = [form for e in entries for form in e.msgstr if bare.search(form)]
    assert not disagreeing, disagreeing
    ru = translator("ru")
    said = ru.t("{name} took a face-up {card}", name="Анна", card=ru.t("green"))
    assert said == "Анна: открытая карта — зелёный"


# "осталось", "взято", "оставлено" are neuter singular: right for "2 вагончика", "5 вагончиков",
# wrong for a count ending in 1 ("остался 1 вагончик", "оставлен 1 маршрут"). A counted phrase
# filled into a sentence cannot change the verb, so the catalog says what fits every count:
# "в запасе {trains}", "{name} оставляет {kept}".
def test_a_russian_counted_phrase_never_follows_a_verb_that_cannot_agree_with_it() -> None:
    _, entries = catalog("ru")
    counted = re.compile(
        r"(осталось|осталась|остался|остались|взято|оставлено|возвращено)"
        r"\s+\{(trains|tickets|count|turns)\}"
    )
    unagreeing = [form for e in entries for form in e.msgstr if counted.search(form)]
    assert not unagreeing, unagreeing
    ru = translator("ru")
    for n, trains in (
        (1, "1 вагончик"),
        (21, "21 вагончик"),
        (2, "2 вагончика"),
        (5, "5 вагончиков"),
    ):
        said = ru.tn("{n} train", "{n} trains", n)
        assert said == trains
        assert ru.t("You have {trains} left: the last round begins", trains=said) == (
            f"У вас в запасе {trains}: начинается последний круг"
        )
    # a bot keeps one ticket of three: "оставлено 1 маршрут" was the log's line for it
    kept = ru.tn("{n} ticket", "{n} tickets", 1)
    assert ru.t(
        "{name} kept {kept} and returned {returned}", name="Бот", kept=kept, returned=2
    ) == ("Бот оставляет 1 маршрут, возвращает 2")


# Nor can a Russian name give its gender: "должен смотреть только Анна" is a man's word for a
# woman. The hand-over on a shared device tells the others to look away instead.
def test_a_russian_name_is_never_the_subject_of_a_word_with_a_gender() -> None:
    _, entries = catalog("ru")
    gendered = re.compile(r"(должен|должна|сам|сама)\b[^.;]*\{(name|last|player|a|b)\}")
    wrong = [form for e in entries for form in e.msgstr if gendered.search(form)]
    assert not wrong, wrong
    said = translator("ru").t(
        "It is {name}'s turn. Only {name} should look at the screen now.", name="Анна"
    )
    assert said == "Ходит Анна; остальные, не смотрите на экран."


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_lobby_has_one_name_in_each_language(lang: str) -> None:
    """The header's link, the lobby's title, its box and its seat choice call it by one word
    (the Portuguese seat choice said "saguão" beside "Lobby")."""
    _, entries = catalog(lang)
    by_id = {e.msgid: e.msgstr[0] for e in entries}
    word = by_id["Lobby"].lower()
    said = {msgid: text for msgid, text in by_id.items() if "lobby" in msgid.lower()}
    assert len(said) >= 4
    assert all(word in text.lower() for text in said.values()), said


def test_a_missing_translation_or_a_changed_placeholder_fails_the_check() -> None:
    """The check above on a broken catalog: what it reads, it would refuse."""
    text = 'msgid "Keep {n}"\nmsgstr "Garde {m}"\n\nmsgid "Draw tickets"\nmsgstr ""\n'
    _, entries = read_po(text)
    placeholders = [
        set(PLACEHOLDER.findall(e.msgstr[0])) == set(PLACEHOLDER.findall(e.msgid)) for e in entries
    ]
    assert placeholders == [False, True]
    assert [bool(e.msgstr[0]) for e in entries] == [True, False]


def test_the_template_lists_what_the_code_marks() -> None:
    pot = (SRC / "locale" / "ttr_europe.pot").read_text("utf-8")
    assert pot == catalogs.template(catalogs.extract()), "run scripts/i18n_catalogs.py --update"
    assert catalogs.main([]) == 0  # nothing missing, nothing unused


def test_russian_has_three_plural_forms_and_romanian_its_de() -> None:
    ru, ro, pt, en = (translator(x) for x in ("ru", "ro", "pt", "en"))
    trains = [1, 2, 4, 5, 11, 12, 21, 22, 25, 101, 111]
    assert [ru.tn("{n} train", "{n} trains", n) for n in trains] == [
        "1 вагончик",
        "2 вагончика",
        "4 вагончика",
        "5 вагончиков",
        "11 вагончиков",
        "12 вагончиков",
        "21 вагончик",
        "22 вагончика",
        "25 вагончиков",
        "101 вагончик",
        "111 вагончиков",
    ]
    assert [ro.tn("{n} point", "{n} points", n) for n in (1, 2, 19, 20, 101, 119)] == [
        "1 punct",
        "2 puncte",
        "19 puncte",
        "20 de puncte",
        "101 puncte",
        "119 puncte",
    ]
    # Brazilian players count zero as plural ("0 vagões"), so no "restam 0 vagão"
    assert [pt.tn("{n} ticket", "{n} tickets", n) for n in (0, 1, 2)] == [
        "0 Bilhetes",
        "1 Bilhete",
        "2 Bilhetes",
    ]
    assert pt.tn("{n} train", "{n} trains", 0) == "0 vagões"
    assert [en.tn("{n} ticket", "{n} tickets", n) for n in (0, 1, 2)] == [
        "0 tickets",
        "1 ticket",
        "2 tickets",
    ]
    # a negative total agrees as its size does (the formulas are written for n >= 0)
    assert [ru.tn("{n} point", "{n} points", n) for n in (-58, -21, -3)] == [
        "-58 очков",
        "-21 очко",
        "-3 очка",
    ]
    assert [ro.tn("{n} point", "{n} points", n) for n in (-1, -20)] == ["-1 punct", "-20 de puncte"]
    assert en.tn("{n} point", "{n} points", -1) == "-1 point"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_page_gets_the_same_catalog_and_plural_rule(lang: str) -> None:
    doc = catalog_json(lang)
    count, formula = i18n.plural_rule(lang)
    assert doc["lang"] == lang and doc["nplurals"] == count and doc["plural"] == formula
    for msgid, value in doc["messages"].items():
        if isinstance(value, list):
            assert len(value) == count
            pick = gettext.c2py(formula)  # the formula the page evaluates as JavaScript
            for n in range(130):
                said = i18n.translations(lang).ngettext(msgid, msgid, n)
                assert value[pick(n)] == said, msgid
        else:
            assert value == i18n.translations(lang).gettext(msgid)
    assert catalog_json("xx")["lang"] == "en" and catalog_json("en")["messages"] == {}


def test_the_game_words_follow_the_rulebooks_glossary() -> None:
    """A sample of ../shared/glossary.md's terms, as the catalogs use them."""
    expected = {
        "pt": {
            "Tunnel": "Túnel",
            "{n} ticket": "Bilhete",
            "Face-up cards": "abertas",
            "locomotive": "Locomotiva",
            "European Express": "Expresso Europeu",
            "{n} station": "Estação",
            "Draw from the pile": "pilha",
        },
        "ru": {
            "Tunnel": "Туннель",
            "{n} ticket": "маршрут",
            "Face-up cards": "Открытый ряд",
            "locomotive": "локомотив",
            "{n} route": "перегон",
            "{n} station": "станция",
            "{n} train": "вагончик",
            "Draw from the pile": "колод",
        },
        "ro": {
            "Tunnel": "Tunel",
            "{n} ticket": "bilet",
            "Face-up cards": "deschise",
            "locomotive": "locomotivă",
            "{n} route": "rută",
            "{n} train": "vagon",
            "Draw from the pile": "pachet",
        },
    }
    for lang, terms in expected.items():
        tr = translator(lang)
        for msgid, word in terms.items():
            said = tr.tn(msgid, msgid, 1) if msgid.startswith("{n}") else tr.t(msgid)
            assert word.lower() in said.lower(), (lang, msgid, said)


# --------------------------------------------------------------------------- the refusals


def _engine_reasons() -> list[str]:
    """Every reason text the engine can give, from its source: the constant parts of each
    ``IllegalActionError``-family call and payment check, with samples for the f-string parts."""
    reasons = []
    samples = {"route.id": "Paris-Wien", "KIND_NAMES[colour]": "red", "why": None}
    for name in ("rules.py", "_payments.py", "table/match.py"):
        tree = ast.parse((SRC / name).read_text("utf-8"))
        for node in ast.walk(tree):
            texts: list[ast.expr] = []
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in (
                "IllegalActionError",
                "NotYourTurnError",
                "GameOverError",
            ):
                texts = node.args[1:2]
            elif (
                name == "_payments.py"
                and isinstance(node, ast.Return)
                and isinstance(node.value, ast.Tuple | ast.JoinedStr | ast.Constant)
            ):
                value = node.value
                texts = value.elts[1:2] if isinstance(value, ast.Tuple) else [value]
            for text in texts:
                if isinstance(text, ast.Constant) and isinstance(text.value, str):
                    reasons.append(text.value)
                elif isinstance(text, ast.JoinedStr):
                    parts = []
                    for v in text.values:
                        if isinstance(v, ast.Constant):
                            parts.append(str(v.value))
                        else:
                            inner = ast.unparse(v.value)  # type: ignore[attr-defined]
                            parts.append(samples.get(inner, "2") or "\0")
                    reasons.append("".join(parts))
    return [r for r in reasons if "\0" not in r and " " in r]


def test_every_reason_the_engine_gives_has_players_words_in_every_language() -> None:
    reasons = _engine_reasons()
    assert len(reasons) >= 28
    reasons += [
        f"Paris-Wien: {r}" for r in ("needs exactly 2 cards, got 3", "colours may not be mixed")
    ]
    reasons += ["station 2: needs exactly 2 cards, got 1"]
    for lang in LANGUAGES:
        tr = translator(lang)
        for reason in reasons:
            if reason.startswith(
                (
                    "no route",
                    "no city",
                    "not an action",
                    "a payment must",
                    "ticket ",
                    "no face-up slot",
                )
            ):
                continue  # malformed moves: no page or menu sends them
            said = tr.refusal(IllegalActionError("R1", reason))
            assert said != tr.t("That move is not possible."), (lang, reason)
            assert said.endswith("."), (lang, reason, said)


def test_a_refusal_keeps_its_rule_and_english_and_reads_in_each_language() -> None:
    exc = IllegalActionError("R9", "keep at least 2 ticket(s)")
    assert exc.rule == "R9" and str(exc) == "R9: keep at least 2 ticket(s)"
    said = {lang: translator(lang).refusal(exc) for lang in LANGUAGES}
    assert said == {
        "en": "Keep at least 2 tickets.",
        "pt": "Fique com pelo menos 2 Bilhetes.",
        "ru": "Оставьте хотя бы 2 маршрута.",
        "ro": "Păstrează cel puțin 2 bilete.",
    }
    one = translator("ru").refusal(IllegalActionError("R9", "keep at least 1 ticket(s)"))
    assert one == "Оставьте хотя бы 1 маршрут."
    colour = IllegalActionError("R21", "Paris-Wien: needs red cards or locomotives")
    assert translator("pt").refusal(colour) == (
        "Paris-Wien: É preciso usar cartas da cor “vermelho” ou Locomotivas."
    )
    unknown = IllegalActionError("input", "no route 'X-Y' on this map")
    assert translator("ro").refusal(unknown) == "Mutarea aceasta nu este posibilă."


def test_the_rules_core_never_imports_the_catalogs() -> None:
    for path in SRC.glob("*.py"):
        if path.stem in ("i18n", "terminal"):
            continue
        text = path.read_text("utf-8")
        if path.stem in ("rules", "state", "actions", "scoring", "cards", "board", "errors"):
            assert "i18n" not in text, path.name


# --------------------------------------------------------------------------- choosing


def test_the_language_comes_from_lang_the_locale_or_accept_language() -> None:
    assert i18n.language("pt-BR") == "pt" and i18n.language("ru_RU.UTF-8") == "ru"
    assert i18n.language("de") is None and i18n.language(None) is None
    assert from_environment({"LANG": "ro_RO.UTF-8"}) == "ro"
    assert from_environment({"LANGUAGE": "de:ru", "LANG": "pt_BR"}) == "ru"
    assert from_environment({"LC_ALL": "C", "LANG": "pt_BR"}) == "en"  # LC_ALL decides
    assert from_environment({}) == "en"
    assert negotiate("de-DE,ru;q=0.9,pt;q=0.8") == "ru"
    assert negotiate("pt-BR;q=0.5, ro;q=0.7") == "ro"
    assert negotiate("ro;q=0, en;q=0.1") == "en"
    assert negotiate(None) == "en" and negotiate("fr, de") == "en"
    assert translator("klingon").lang == "en"


def test_the_catalogs_compile_to_mo_that_gettext_reads() -> None:
    header, entries = catalog("ru")
    mo = compile_mo(header, list(entries))
    read = gettext.GNUTranslations(io.BytesIO(mo))
    assert read.gettext("Draw tickets") == "Взять маршруты"
    assert read.ngettext("{n} ticket", "{n} tickets", 5) == "{n} маршрутов"
    assert read.info()["plural-forms"].startswith("nplurals=3")


def test_an_unreadable_catalog_line_is_a_data_error() -> None:
    with pytest.raises(DataError, match="line 2"):
        read_po('msgid "a"\nmsgstr oops\n', "x.po")
    with pytest.raises(DataError, match="line 1"):
        read_po('msgid "unclosed\n', "x.po")


# --------------------------------------------------------------------------- the terminal


def _terminal_game(lang: str) -> list[str]:
    """A whole game at the terminal, seat 0 typed (a random choice of its menu each time)."""
    match = Match.new("europe", "base", 2, 5, ["person", "greedy"])
    out: list[str] = []
    rng = random.Random(1)
    holder: list[Terminal] = []

    def read(prompt: str) -> str:
        menu = list(holder[0]._menu)
        return str(rng.choice(menu))

    terminal = Terminal(match, read, out.append, lambda m: "saved.json", tr=translator(lang))
    holder.append(terminal)
    assert terminal.run()
    assert match.finished
    from ttr_europe.table.terminal import scoreboard_text

    out.append(scoreboard_text(match.scoreboard(), translator(lang)))
    return out


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("pt", ["seu turno", "Abertas", "Mão", "Bilhetes", "Pontuação final", "vagões"]),
        ("ru", ["ваш ход", "Открытые", "Рука", "Маршруты", "Итоговые очки", "вагончик"]),
    ],
)
def test_a_terminal_game_in_portuguese_and_russian(lang: str, words: list[str]) -> None:
    out = "\n".join(_terminal_game(lang))
    for word in words:
        assert word in out, word
    # no English words of the catalogs are left (notation and ids stay as typed)
    assert not catalogs.english_left(out, lang)


def test_the_command_lines_words_agree_with_their_counts_in_russian() -> None:
    ru = translator("ru")
    assert [ru.tn("{n} Big City", "{n} Big Cities", n) for n in (1, 3, 9, 21)] == [
        "1 большой город",
        "3 больших города",
        "9 больших городов",
        "21 большой город",
    ]
    assert [ru.tn("{n} double pair", "{n} double pairs", n) for n in (1, 2, 11, 22)] == [
        "1 двойной перегон",
        "2 двойных перегона",
        "11 двойных перегонов",
        "22 двойных перегона",
    ]
    ro = translator("ro")
    assert ro.tn("{n} city pair", "{n} city pairs", 90) == "90 de perechi de orașe"


def test_a_phrasebook_says_known_shapes_and_leaves_the_rest() -> None:
    """The one mechanism behind refusals and the command line's errors: a group fills its
    placeholder, ``why`` is said again, ``refusal`` as ``refusal`` says it."""
    book = i18n.Phrasebook.of(
        (
            (r"cannot read the file: (?P<why>.+)", i18n.N_("cannot read the file: {why}")),
            (r"\[Errno (?P<code>\d+)\] (?P<why>[^:]+): (?P<path>.+)",
             i18n.N_("[Errno {code}] {why}: {path}")),
            ("No such file or directory", i18n.N_("No such file or directory")),
            (r"action (?P<index>\d+) \((?P<action>.*)\) is illegal: (?P<refusal>.+)",
             i18n.N_("action {index} ({action}) is illegal: {refusal}")),
        )
    )  # fmt: skip
    pt = translator("pt")
    assert book.say("cannot read the file: [Errno 2] No such file or directory: 'x'", pt) == (
        "não é possível ler o arquivo: [Errno 2] Arquivo ou diretório inexistente: 'x'"
    )
    assert book.say("cannot read the file: it is Tuesday", pt) == (
        "não é possível ler o arquivo: it is Tuesday"
    )
    assert book.say("something else", pt) is None
    said = book.say("action 3 ('pass') is illegal: R9: keep at least 2 ticket(s) (pass)", pt)
    assert said == "a ação 3 ('pass') não é permitida: R9: Fique com pelo menos 2 Bilhetes."


# --------------------------------------------------------------------------- every message seen


_MARKERS = {"t": 1, "tn": 2, "N_": 1, "NP_": 2}


def _unseen_calls(tree: ast.AST) -> list[str]:
    """The ``t``/``tn``/``N_``/``NP_`` calls whose message is not a string literal: what the
    extractor cannot see (a message chosen by a condition, a variable, a table's value)."""
    bad = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        wanted = _MARKERS.get(name or "")
        if wanted is None:
            continue
        args = node.args[:wanted]
        if len(args) < wanted or not all(
            isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args
        ):
            bad.append(f"{node.lineno}: {ast.unparse(node)[:80]}")
    return bad


def test_every_message_the_code_asks_for_is_a_literal_the_extractor_sees() -> None:
    """``tr.t`` and ``tr.tn`` take literals only; a message written elsewhere (``N_``, the map
    data's names) goes through ``tr.marked``, and the extractor reads the data's names."""
    bad = {
        str(path.relative_to(SRC)): found
        for path in sorted(SRC.rglob("*.py"))
        if (found := _unseen_calls(ast.parse(path.read_text("utf-8"))))
    }
    assert bad == {}
    # the check itself: the terminal's old ticket status, a conditional message, is caught
    old = 'tr.t("done {t}" if ok else "open {t}", t=t)\nN_(name)\ntr.tn("a", plural, n)'
    assert len(_unseen_calls(ast.parse(old))) == 3
    messages = catalogs.extract()
    for message in ("done {ticket} ({points})", "open {ticket} ({points})"):
        assert message in messages
    # the map data's titles, variants and bonuses are messages, their English the key
    names = ("Ticket to Ride: Europe", "Europe Expanded (Europa 1912)", "Big Cities of Europe",
             "Mega Europe", "USA", "Longest Continuous Path")  # fmt: skip
    for name in names:
        assert name in messages, name
    pt = translator("pt")
    assert pt.marked("Europe Expanded (Europa 1912)") == "Europa 1912"
    assert pt.marked("Big Cities of Europe") == "Cidades Grandes da Europa"


def test_the_pages_scripts_look_up_literal_messages_only() -> None:
    """The page's ``t``/``tn`` calls too: a message the extractor cannot see would stay English.
    The two lookups of messages found elsewhere are the known ones: ``translatePage`` (the
    ``data-i18n`` attributes, extracted from the pages) and ``says`` (its messages are
    literals at each call, extracted there); names of the data go through ``named``."""
    call = re.compile(r'(?<![\w.])tn?\(\s*(?!["\s)])')
    known = ("el.dataset.i18n", "t(you, params)", "t(other, {")
    found = []
    for path in sorted((SRC / "web" / "static").glob("*.js")):
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            if (
                call.search(line)
                and not line.lstrip().startswith("function ")
                and not any(k in line for k in known)
            ):
                found.append(f"{path.name}:{number}: {line.strip()[:80]}")
    assert found == []
    assert call.search("x = t(name);") and not call.search('x = t("Lobby");')


def test_every_seat_kind_has_a_descriptive_name_in_every_language() -> None:
    from ttr_europe.players.registry import BUILTIN_BOTS
    from ttr_europe.web.lobby import WEB_BOTS

    assert set(i18n.SEAT_KINDS) == {"person", *BUILTIN_BOTS} >= set(WEB_BOTS)
    for lang in TRANSLATED:
        tr = translator(lang)
        said = {kind: tr.seat_kind(kind) for kind in i18n.SEAT_KINDS}
        assert len(set(said.values())) == len(said), said  # no two styles alike
        for kind, words in said.items():
            assert kind not in words.lower().split(), (lang, kind, words)
        assert catalog_json(lang)["seat_kinds"] == said
    assert translator("ru").seat_kind("greedy") == "бот, выполняющий свои маршруты"
    assert translator("en").seat_kind("cmd:./mybot") == "cmd:./mybot"  # a program: as written


def _parse_problems() -> list[str]:
    """Every ``ActionParseError`` text ``notation.py`` can raise, its f-string parts sampled."""
    texts = []
    tree = ast.parse((SRC / "notation.py").read_text("utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "ActionParseError":
            text = node.args[0]
            if isinstance(text, ast.Constant):
                texts.append(str(text.value))
            elif isinstance(text, ast.JoinedStr):
                parts = []
                for v in text.values:
                    if isinstance(v, ast.Constant):
                        parts.append(str(v.value))
                        continue
                    inner = ast.unparse(v.value)  # type: ignore[attr-defined]
                    if "KIND_NAMES" in inner:
                        parts.append("red")
                    elif inner == "what":
                        parts.append("\0")  # "no" or "more than one"
                    elif inner in ("more", "because"):
                        parts.append(" (first 8 of 12)" if inner == "more" else "")
                    elif "!r" in ast.unparse(v) or getattr(v, "conversion", -1) == 114:
                        parts.append("'Paris-Wien'")
                    else:
                        parts.append("4")
                text = "".join(parts)
                texts += (
                    [text.replace("\0", w) for w in ("no", "more than one")]
                    if "\0" in text
                    else [text]
                )
    return texts


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_reason_the_move_parser_gives_is_said_in_every_language(lang: str) -> None:
    problems = _parse_problems()
    assert len(problems) >= 12
    tr = translator(lang)
    for problem in problems:
        said = tr.unreadable(problem)
        assert said != tr.t("That is not a move I can read."), problem
        english = set(re.findall(r"[a-z]{4,}", re.sub(r"'[^']*'", "", problem)))
        assert not english & set(re.findall(r"\w+", said)), (problem, said)
    assert tr.unreadable("it is Tuesday") == tr.t("That is not a move I can read.")
