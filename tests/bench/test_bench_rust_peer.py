"""The side-by-side run against edwisdom's Rust core (``benchmarks/peers.py --edwisdom-rust``).

What is checked here needs no peer: the copy's two edits and their refusals, and the C loop
(``benchmarks/core_driver.c``) playing and scoring the very games ``FastGame`` does. The Rust
build itself needs a checkout of the peer, cargo and Debian's crate sources, so it is run with
the benchmark (by hand, docs/performance.md), whose checks fail the run on any inconsistency.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from repo_scripts import load_script
from ttr_europe import fast

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _load(name: str) -> ModuleType:
    return load_script(name, "benchmarks")


def _fake_peer(root: Path) -> Path:
    """The two files the build edits, as the peer's snapshot has them."""
    (root / "crates/ttr-core").mkdir(parents=True)
    (root / "Cargo.toml").write_text(
        '[workspace]\nmembers = ["crates/ttr-core", "crates/ttr-py"]\n', encoding="utf-8"
    )
    (root / "crates/ttr-core/Cargo.toml").write_text(
        '[package]\nname = "ttr-core"\n\n[dependencies]\nrayon = "1.12.0"\n', encoding="utf-8"
    )
    (root / "Cargo.lock").write_text("# resolved against crates.io\n", encoding="utf-8")
    return root


def test_the_copy_drops_the_pyo3_member_and_relaxes_rayon(tmp_path: Path) -> None:
    rust = _load("edwisdom_rust")
    tree = _fake_peer(tmp_path / "peer")
    rust._adapt(tree)
    assert 'members = ["crates/ttr-core"]' in (tree / "Cargo.toml").read_text(encoding="utf-8")
    core = (tree / "crates/ttr-core/Cargo.toml").read_text(encoding="utf-8")
    assert 'rayon = "1.6"' in core and "1.12.0" not in core
    assert not (tree / "Cargo.lock").exists()


def test_a_changed_peer_is_refused_not_half_edited(tmp_path: Path) -> None:
    rust = _load("edwisdom_rust")
    tree = _fake_peer(tmp_path / "peer")
    (tree / "crates/ttr-core/Cargo.toml").write_text('rayon = "2.0"\n', encoding="utf-8")
    with pytest.raises(SystemExit, match="the peer changed"):
        rust._adapt(tree)


def test_the_build_names_what_is_missing(tmp_path: Path) -> None:
    rust = _load("edwisdom_rust")
    with pytest.raises(SystemExit, match="not a checkout of edwisdom/ticket_to_ride"):
        rust.build(tmp_path, tmp_path / "work")
    tree = _fake_peer(tmp_path / "peer")
    with pytest.raises(SystemExit, match="apt-get install librust-rayon-dev"):
        rust.build(tree, tmp_path / "work", registry=tmp_path / "no-registry")
    assert not (tmp_path / "work").exists()


def _driver_json(cmd: list[str]) -> dict[str, Any]:
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


@pytest.mark.skipif(
    not fast.available(), reason="the compiled core is not built (python -m ttr_europe.fast.build)"
)
@pytest.mark.skipif(shutil.which(os.environ.get("CC", "cc")) is None, reason="no C compiler")
def test_the_c_loop_plays_and_scores_the_games_fastgame_does(tmp_path: Path) -> None:
    peers = _load("peers")
    driver = peers.build_core_driver(str(tmp_path))
    rules = str(tmp_path / "rules.txt")
    info = peers.core_info("usa", 2, rules)
    for mode in ("plain", "scored"):
        native = _driver_json(
            [driver, info["lib"], rules, str(info["fields"]), str(info["total"]), mode, "40", "3"]
        )
        python = peers.bulk_worker(mode == "scored", "usa", 2, 40, 3)
        assert native["games"] == 40 and native["deferred"] == 0
        assert native["steps"] == python["steps"] > 40 * 100
        assert native["checksum"] == python["checksum"]
        assert (native["checksum"] != 0) == (mode == "scored")
        assert native["cpu"] > 0
    bad = subprocess.run([driver, info["lib"], rules, "8", "6", "both", "1", "0"], check=False)
    assert bad.returncode == 2


def test_more_programs_are_written_beside_the_driver_and_built_with_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rust = _load("edwisdom_rust")
    tree = _fake_peer(tmp_path / "peer")
    (tmp_path / "registry").mkdir()
    builds: list[Path] = []

    def cargo(cmd: list[str], cwd: Path, env: dict[str, str], check: bool) -> None:
        assert cmd[:2] == ["cargo", "build"] and check
        assert env["CARGO_HOME"].endswith("cargo-home")
        builds.append(Path(cwd))

    monkeypatch.setattr(rust.subprocess, "run", cargo)
    work = tmp_path / "work"
    path = rust.build(tree, work, registry=tmp_path / "registry", bins={"bridge": "fn main() {}"})
    driver = work / rust.DRIVER
    assert builds == [driver] and path == driver / "target/release" / rust.DRIVER
    assert (driver / "src/bin/bridge.rs").read_text(encoding="utf-8") == "fn main() {}"
    rust.build(tree, work, registry=tmp_path / "registry")  # a later build without it
    assert not (driver / "src/bin").exists()


def test_two_runs_building_at_once_build_one_after_the_other(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two bridge runs started together built into the same folder: one removed the copy the
    other was making (``FileExistsError``), or cargo ran twice on one tree. They now take
    turns (a lock on the folder)."""
    import threading
    import time

    rust = _load("edwisdom_rust")
    tree = _fake_peer(tmp_path / "peer")
    (tmp_path / "registry").mkdir()
    building: list[int] = []
    overlaps: list[int] = []

    def cargo(cmd: list[str], cwd: Path, env: dict[str, str], check: bool) -> None:
        building.append(1)
        overlaps.append(len(building))
        time.sleep(0.2)
        building.pop()

    monkeypatch.setattr(rust.subprocess, "run", cargo)
    start = threading.Barrier(2)
    errors: list[BaseException] = []

    def run() -> None:
        start.wait()
        try:
            rust.build(tree, tmp_path / "work", registry=tmp_path / "registry")
        except BaseException as exc:  # what the run would have died of
            errors.append(exc)

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and overlaps == [1, 1]
