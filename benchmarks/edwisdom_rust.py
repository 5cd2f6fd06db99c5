"""Build edwisdom's Rust core (``crates/ttr-core``) offline from Debian's crate packages.

Usage::

    apt-get install -y librust-rayon-dev librust-blake2b-simd-dev librust-serde-json-dev
    python benchmarks/edwisdom_rust.py CHECKOUT [--work DIR]     # prints the driver's path

``CHECKOUT`` is a checkout of github.com/edwisdom/ticket_to_ride, outside this repository. It
is never copied into the repository and never changed: the build works on a copy in ``--work``
(default ``$TMPDIR/ttr_edwisdom_rust``), adapted in two ways that do not touch the engine:

- the workspace lists ``crates/ttr-core`` only (its PyO3 member needs ``pyo3``, which Debian
  does not package), and ``rayon`` is relaxed to ``1.6`` (the version Debian has);
- cargo gets a private ``CARGO_HOME`` whose ``config.toml`` replaces crates.io by the directory
  Debian's ``librust-*-dev`` packages fill (``/usr/share/cargo/registry``), offline.

Beside the copy it writes a small driver crate, ``ttr-peer-driver``, that depends on
``ttr-core`` by path with the peer's own release profile (fat LTO, one codegen unit). The
driver runs ``ttr_core::vecenv::random_playouts`` (what the peer's ``ttr bench`` times:
deal and uniformly random legal actions from its ``"bench"`` stream, no final scoring) or the
same loop with ``scoring::final_scores`` of every game, on one thread, and prints one JSON
line: ``games``, ``steps``, ``cpu`` (process CPU time around the timed games only), ``wall``
and ``checksum`` (the sum of the final scores, so that scoring cannot be elided).
"""

from __future__ import annotations

import argparse
import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

REGISTRY = Path("/usr/share/cargo/registry")
DRIVER = "ttr-peer-driver"

_CARGO_CONFIG = """\
[source.crates-io]
replace-with = "debian"

[source.debian]
directory = "{registry}"

[net]
offline = true
"""

_DRIVER_TOML = """\
[package]
name = "ttr-peer-driver"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
ttr-core = {{ path = "{core}" }}

[profile.release]
lto = "fat"
codegen-units = 1
"""

# The driver's only unsafe line reads the process CPU clock (std has none); timespec is two
# 64-bit fields on the 64-bit Linux this benchmark runs on.
_DRIVER_MAIN = """\
use std::hint::black_box;
use std::time::Instant;

use ttr_core::config::RuleConfig;
use ttr_core::rng::{stream, Part};
use ttr_core::scoring::final_scores;
use ttr_core::state::Game;
use ttr_core::vecenv::random_playouts;

#[repr(C)]
struct Timespec {
    sec: i64,
    nsec: i64,
}

unsafe extern "C" {
    fn clock_gettime(clock: i32, out: *mut Timespec) -> i32;
}

const CLOCK_PROCESS_CPUTIME_ID: i32 = 2;

fn cpu() -> f64 {
    let mut t = Timespec { sec: 0, nsec: 0 };
    // SAFETY: a valid clock id and a pointer to a live timespec.
    assert_eq!(unsafe { clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &mut t) }, 0);
    t.sec as f64 + t.nsec as f64 * 1e-9
}

/// `random_playouts`' loop (same seeds, same "bench" stream, same games) plus final scores.
fn scored(game: &Game, games: u64, base: u64) -> (u64, i64) {
    let (mut steps, mut checksum) = (0u64, 0i64);
    let mut scratch = Vec::new();
    for seed in base..base + games {
        let mut state = game.new_initial_state(seed);
        let mut rng = stream(seed, &[Part::Str("bench")]);
        while !state.is_terminal() {
            let Some(action) = state.sample_legal_into(&mut rng, &mut scratch) else { break };
            state.step(action).expect("a legal action");
            steps += 1;
        }
        checksum += final_scores(&mut state).iter().map(|&s| i64::from(s)).sum::<i64>();
    }
    (steps, checksum)
}

fn run(mode: &str, game: &Game, games: u64, base: u64) -> (u64, i64) {
    match mode {
        "plain" => (random_playouts(game, games, base).steps, 0),
        "scored" => scored(game, games, base),
        _ => panic!("mode: plain | scored"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    assert!(args.len() == 4, "usage: ttr-peer-driver plain|scored GAMES WARM");
    let games: u64 = args[2].parse().expect("GAMES");
    let warm: u64 = args[3].parse().expect("WARM");
    let cfg = RuleConfig { track_history: false, ..RuleConfig::new("usa", 2).expect("usa/2") };
    let game = Game::new(cfg).expect("usa/2");
    black_box(run(&args[1], &game, warm, 1 << 40));
    let (w0, c0) = (Instant::now(), cpu());
    let (steps, checksum) = black_box(run(&args[1], black_box(&game), games, 0));
    let (c, w) = (cpu() - c0, w0.elapsed().as_secs_f64());
    println!(
        "{{\\"games\\": {games}, \\"steps\\": {steps}, \\"cpu\\": {c:.6}, \\"wall\\": {w:.6}, \\
         \\"checksum\\": {checksum}}}"
    );
}
"""


def _adapt(tree: Path) -> None:
    """The two edits the offline build needs, checked so a changed peer fails loudly."""
    edits = [
        (
            tree / "Cargo.toml",
            'members = ["crates/ttr-core", "crates/ttr-py"]',
            'members = ["crates/ttr-core"]',
        ),
        (tree / "crates/ttr-core/Cargo.toml", 'rayon = "1.12.0"', 'rayon = "1.6"'),
    ]
    for path, old, new in edits:
        text = path.read_text(encoding="utf-8")
        if old not in text:
            raise SystemExit(f"{path}: expected {old!r}; the peer changed, adapt this script")
        path.write_text(text.replace(old, new), encoding="utf-8")
    (tree / "Cargo.lock").unlink(missing_ok=True)


def default_work() -> Path:
    """Where the build goes unless told: a folder of the system's temporary directory."""
    return Path(tempfile.gettempdir()) / "ttr_edwisdom_rust"


def build(
    checkout: str | Path,
    work: str | Path,
    registry: Path = REGISTRY,
    bins: Mapping[str, str] | None = None,
) -> Path:
    """Copy and adapt ``checkout`` under ``work``, build the driver; return its path.

    ``bins`` adds more programs to the driver crate, name to Rust source (the bridge of
    ``edwisdom_bridge.py``); each is built beside the driver, in the same folder.
    """  # fmt: skip
    checkout, work = Path(checkout).resolve(), Path(work).resolve()
    if not (checkout / "crates/ttr-core/Cargo.toml").is_file():
        raise SystemExit(f"{checkout}: not a checkout of edwisdom/ticket_to_ride")
    if not registry.is_dir():
        raise SystemExit(f"{registry}: missing; apt-get install librust-rayon-dev "
                         "librust-blake2b-simd-dev librust-serde-json-dev")  # fmt: skip
    work.mkdir(parents=True, exist_ok=True)
    with (work / ".build.lock").open("w") as lock:  # two runs at once build one after the other
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _build(checkout, work, registry, bins or {})


def _build(checkout: Path, work: Path, registry: Path, bins: Mapping[str, str]) -> Path:
    """``build``'s work, under its lock: the copy, its edits, the driver and cargo."""
    tree = work / "edwisdom"
    shutil.rmtree(tree, ignore_errors=True)
    shutil.copytree(checkout, tree, ignore=shutil.ignore_patterns(".git", "target"))
    _adapt(tree)
    home = work / "cargo-home"
    home.mkdir(exist_ok=True)
    (home / "config.toml").write_text(_CARGO_CONFIG.format(registry=registry), encoding="utf-8")
    driver = work / DRIVER
    (driver / "src").mkdir(parents=True, exist_ok=True)
    core = tree / "crates/ttr-core"
    (driver / "Cargo.toml").write_text(_DRIVER_TOML.format(core=core), encoding="utf-8")
    (driver / "src/main.rs").write_text(_DRIVER_MAIN, encoding="utf-8")
    shutil.rmtree(driver / "src/bin", ignore_errors=True)
    for name, source in bins.items():
        (driver / "src/bin").mkdir(exist_ok=True)
        (driver / "src/bin" / f"{name}.rs").write_text(source, encoding="utf-8")
    env = dict(os.environ, CARGO_HOME=str(home))
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=driver, env=env, check=True)
    return driver / "target/release" / DRIVER


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("checkout", type=Path, help="checkout of edwisdom/ticket_to_ride")
    default = default_work()
    ap.add_argument("--work", type=Path, default=default, help=f"build directory ({default})")
    args = ap.parse_args(argv)
    print(build(args.checkout, args.work))
    return 0


if __name__ == "__main__":
    sys.exit(main())
