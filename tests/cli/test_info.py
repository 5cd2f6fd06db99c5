"""The ``ttr-europe`` command line and its ``info`` subcommand."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ttr_europe import __version__, load_map
from ttr_europe.cli import COMMANDS, main, map_summary


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name", ["europe", "usa"])
def test_info_text(capsys: pytest.CaptureFixture[str], name: str) -> None:
    board = load_map(name)
    code, out, err = run(capsys, "info", name)
    assert (code, err) == (0, "")
    assert out.startswith(f"{board.name} ({name})\n")
    pairs = len(board.routes_between)
    doubles = sum(len(v) == 2 for v in board.routes_between.values())
    assert f"{len(board.routes)} on {pairs} city pairs, {doubles} double pairs" in out
    assert f"train spaces    {sum(r.length for r in board.routes)}\n" in out
    for vid, v in board.variants.items():
        assert f"  {vid:<15} {v.name}\n" in out


def test_info_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "info", "europe", "--json")
    assert code == 0
    summary = json.loads(out)
    board = load_map("europe")
    assert summary == json.loads(json.dumps(map_summary(board)))
    assert summary["cities"] == len(board.cities) == 47
    assert summary["tunnels"] == sum(r.tunnel for r in board.routes)
    assert summary["decks"]["base"]["points"] == sum(
        t.points for t in board.tickets if t.deck == "base"
    )
    assert summary["variants"]["mega"]["deal"] == [2, 5]


def test_info_of_a_map_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = Path(__file__).resolve().parents[2] / "src" / "ttr_europe" / "data" / "maps"
    doc = json.loads((source / "usa.json").read_text("utf-8"))
    doc["name"] = "My USA"
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps(doc), "utf-8")
    code, out, _ = run(capsys, "info", str(mine))
    assert code == 0
    assert out.startswith("My USA (usa)\n")


def test_info_reports_bad_data(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Bad input is a message naming the place and exit status 2, not a traceback."""
    code, out, err = run(capsys, "info", "atlantis")
    assert (code, out) == (2, "")
    assert err == "ttr-europe: error: no such map 'atlantis'; known: europe, usa\n"
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "ttr_europe/map", "version": 2}', "utf-8")
    code, _, err = run(capsys, "info", str(broken))
    assert code == 2
    assert f"{broken}: $.version:" in err


def test_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main([])
    assert info.value.code == 2
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert __version__ in capsys.readouterr().out


@pytest.mark.parametrize("command", [c.name for c in COMMANDS])
def test_every_command_has_help(capsys: pytest.CaptureFixture[str], command: str) -> None:
    with pytest.raises(SystemExit) as info:
        main([command, "--help"])
    assert info.value.code == 0
    assert command in capsys.readouterr().out


def test_python_dash_m(tmp_path: Path) -> None:
    """``python -m ttr_europe`` runs the same command line."""
    done = subprocess.run(
        [sys.executable, "-m", "ttr_europe", "info", "usa"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Ticket to Ride (USA) (usa)")


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("ru", ["города", "47 (9 больших городов)", "на 90 парах городов, 11 двойных перегонов",
                "серый 37", "13 (17 символов локомотива)", "варианты", "«Европейский экспресс»",
                "(остальные — в коробку)"]),
        ("pt", ["cidades", "47 (9 Cidades Grandes)", "em 90 pares de cidades, 11 Rotas Duplas",
                "cinza 37", "variantes", "Expresso Europeu", "(os outros vão para a caixa)"]),
        ("ro", ["orașe", "47 (9 orașe mari)", "pe 90 de perechi de orașe, 11 rute duble",
                "gri 37", "variante", "(celelalte în cutie)"]),
    ],
)  # fmt: skip
def test_info_speaks_the_chosen_language(
    capsys: pytest.CaptureFixture[str], lang: str, words: list[str]
) -> None:
    from repo_scripts import load_script

    code, out, err = run(capsys, "info", "europe", "--lang", lang)
    assert (code, err) == (0, "")
    title = {
        "ru": "Ticket to Ride: Европа",
        "pt": "Ticket to Ride: Europa",
        "ro": "Ticket to Ride: Europa",
    }
    assert out.startswith(f"{title[lang]} (europe)\n")  # the map's title in the language, its id
    for word in words:
        assert word in out, word
    assert not load_script("i18n_catalogs").english_left(out, lang)
    # the figures stand in one column, however long the language's labels
    lines = out.splitlines()[1:]
    column = min(len(line) - len(line.lstrip()) for line in lines if line.startswith("   "))
    rows = [line for line in lines if line.startswith("  ") and line[2] != " "]
    assert rows and all(line[column - 1] == " " != line[column] for line in rows), column
    assert json.loads(run(capsys, "info", "europe", "--json", "--lang", lang)[1]) == json.loads(
        json.dumps(map_summary(load_map("europe")))
    )  # the JSON is data: the same in every language
