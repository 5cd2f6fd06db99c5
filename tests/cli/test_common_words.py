"""The command line's one-line errors in the chosen language (``cli/common.py``: ``--lang``,
else the locale): argparse's, the files', the maps', the records' and the bots', each in
Portuguese, Russian and Romanian with nothing of the catalogs' English left, and English as
it always read."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from repo_scripts import load_script
from ttr_europe.actions import parse
from ttr_europe.cli import main
from ttr_europe.cli.common import _ERRORS, chosen_language, error_line
from ttr_europe.errors import IllegalActionError
from ttr_europe.i18n import PLACEHOLDER, translator
from ttr_europe.records import random_game
from ttr_europe.rules import apply

catalogs = load_script("i18n_catalogs")


@pytest.fixture(autouse=True)
def _no_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests' own locale decides nothing: English unless a test asks."""
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(key, raising=False)


def _error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The one line on stderr of a command that fails with status 2 (argparse's exit too)."""
    try:
        status = main(list(argv))
    except SystemExit as exc:
        status = exc.code  # type: ignore[assignment]
    assert status == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    return err.rstrip("\n")


def _record(tmp_path: Path, name: str, text: str | bytes) -> str:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, "utf-8")
    return str(path)


def test_every_error_shape_fills_each_placeholder_of_its_message() -> None:
    for pattern, message in _ERRORS:
        groups = set(re.compile(pattern).groupindex)
        words = message if isinstance(message, str) else " ".join(message)
        assert set(PLACEHOLDER.findall(words)) == groups, (pattern, message)


def test_errors_read_as_before_in_english(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert _error(capsys, "info", "atlantis") == (
        "ttr-europe: error: no such map 'atlantis'; known: europe, usa"
    )
    assert _error(capsys, "play", "--players", "9") == (
        "ttr-europe play: error: argument --players: must be 2 to 5, not 9"
    )
    missing = str(tmp_path / "none.json")
    assert _error(capsys, "replay", missing) == (
        f"ttr-europe: error: [Errno 2] No such file or directory: {missing!r}"
    )
    assert _error(capsys, "info") == (
        "ttr-europe info: error: the following arguments are required: map"
    )


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            "ru",
            [
                "ttr-europe: ошибка: нет карты 'atlantis'; известны: europe, usa",
                "ttr-europe play: ошибка: аргумент --players: должно быть от 2 до 5, а не 9",
                "ttr-europe: ошибка: [Errno 2] Нет такого файла или каталога: {missing}",
                "ttr-europe info: ошибка: не хватает обязательных аргументов: map",
                "ttr-europe: ошибка: {broken}: $: недопустимый JSON: ",
                "ttr-europe: ошибка: {bytes}: $: не текст UTF-8: байт 0 — b'\\xff'",
                "ttr-europe: ошибка: --human: игроки от 1 до 3, а не '7'",
                "ttr-europe: ошибка: бот 'nosuch': неизвестный бот; известны: random, ",
                "ttr-europe: ошибка: аргумент COMMAND: недопустимый выбор: 'infoo' (выберите из ",
            ],
        ),
        (
            "pt",
            [
                "ttr-europe: erro: não existe o mapa 'atlantis'; conhecidos: europe, usa",
                "ttr-europe play: erro: argumento --players: deve ser de 2 a 5, não 9",
                "ttr-europe: erro: [Errno 2] Arquivo ou diretório inexistente: {missing}",
                "ttr-europe info: erro: faltam os argumentos obrigatórios: map",
                "ttr-europe: erro: {broken}: $: JSON inválido: ",
                "ttr-europe: erro: {bytes}: $: não é texto UTF-8: o byte 0 é b'\\xff'",
                "ttr-europe: erro: --human: os jogadores são de 1 a 3, não '7'",
                "ttr-europe: erro: robô 'nosuch': robô desconhecido; conhecidos: random, ",
                "ttr-europe: erro: argumento COMMAND: escolha inválida: 'infoo' (escolha entre ",
            ],
        ),
        (
            "ro",
            [
                "ttr-europe: eroare: nu există harta 'atlantis'; cunoscute: europe, usa",
                "ttr-europe play: eroare: argumentul --players: trebuie să fie între 2 și 5, nu 9",
                "ttr-europe: eroare: [Errno 2] Nu există fișierul sau directorul: {missing}",
                "ttr-europe info: eroare: lipsesc argumentele obligatorii: map",
                "ttr-europe: eroare: {broken}: $: JSON nevalid: ",
                "ttr-europe: eroare: {bytes}: $: nu este text UTF-8: octetul 0 este b'\\xff'",
                "ttr-europe: eroare: --human: jucătorii sunt de la 1 la 3, nu '7'",
                "ttr-europe: eroare: botul 'nosuch': bot necunoscut; cunoscuți: random, ",
                "ttr-europe: eroare: argumentul COMMAND: alegere nevalidă: 'infoo' (alege dintre ",
            ],
        ),
    ],
)
def test_errors_speak_the_language_of_lang(
    lang: str, expected: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    places = {
        "missing": repr(str(tmp_path / "none.json")),
        "broken": _record(tmp_path, "broken.json", "{"),
        "bytes": _record(tmp_path, "bytes.json", b"\xff\xfe{"),
    }
    commands = [
        ["info", "atlantis", "--lang", lang],
        ["play", "--players", "9", f"--lang={lang}"],
        ["replay", str(tmp_path / "none.json"), "--lang", lang],
        ["info", "--lang", lang],
        ["replay", places["broken"], "--lang", lang],
        ["replay", places["bytes"], "--lang", lang],
        ["play", "--human", "7", "--lang", lang],
        ["play", "--bots", "nosuch", "--lang", lang],
        ["infoo", "--lang", lang],
    ]
    said = []
    for argv, wanted in zip(commands, expected, strict=True):
        said.append(_error(capsys, *argv))
        assert said[-1].startswith(wanted.format(**places)), (argv, said[-1])
    assert not catalogs.english_left("\n".join(said), lang)


def test_an_illegal_move_in_a_record_is_the_players_refusal(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = random_game("europe", "base", 2, seed=3, policy_seed=3)
    doc = record.to_json()
    doc["actions"][0] = "blind"  # a draw before the starting tickets are chosen
    with pytest.raises(IllegalActionError) as refused:
        apply(record.start(), parse("blind"))
    path = _record(tmp_path, "illegal.json", json.dumps(doc))
    err = _error(capsys, "replay", path, "--lang", "ru")
    said = translator("ru").refusal(refused.value)
    assert said != translator("ru").t("That move is not possible.")
    rule = refused.value.rule
    assert err == (
        f"ttr-europe: ошибка: <record>: $.actions[0]: ход 0 ('blind') недопустим: {rule}: {said}"
    )


def test_the_language_comes_from_lang_else_the_locale(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert chosen_language(["info", "--lang", "ru"]) == "ru"
    assert chosen_language(["info", "--lang=pt-BR"]) == "pt"
    assert chosen_language(["replay", "--", "--lang", "ru"]) == "en"  # a file named --lang
    assert chosen_language(["info", "--lang"]) == "en"
    monkeypatch.setenv("LANG", "ro_RO.UTF-8")
    assert chosen_language(["info"]) == "ro"
    assert chosen_language(["info", "--lang", "en"]) == "en"
    assert _error(capsys, "info", "atlantis").startswith("ttr-europe: eroare: nu există harta")
    # a language not shipped is refused in the locale's words
    assert _error(capsys, "info", "europe", "--lang", "de") == (
        "ttr-europe info: eroare: argumentul --lang: alegere nevalidă: 'de' "
        "(alege dintre 'en', 'pt', 'ro', 'ru')"
    )


def test_a_text_of_no_known_shape_stays_english_on_one_line() -> None:
    said = error_line("the moon is\nmade of cheese", translator("pt"))
    assert said == "ttr-europe: erro: the moon is made of cheese"


def test_the_tools_errors_follow_the_locale(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``simulate`` and ``playtest``, which have no ``--lang``, say their errors in the
    locale's language."""
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    assert _error(capsys, "simulate", "--bots", "nosuch", "--games", "1").startswith(
        "ttr-europe: ошибка: бот 'nosuch': неизвестный бот; известны: random, "
    )
    monkeypatch.setenv("LANG", "pt_BR.UTF-8")
    assert _error(capsys, "playtest", "atlantis", "--games", "1") == (
        "ttr-europe: erro: não existe o mapa 'atlantis'; conhecidos: europe, usa"
    )
