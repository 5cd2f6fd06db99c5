"""Build the compiled core: ``python -m ttr_europe.fast.build [--sanitize] [--output PATH]``.

Compiles the core's C files (``_library.SOURCES``: plain C11, no Python headers) into one shared
library with the system's C compiler (``$CC``, else the first of ``cc``, ``gcc``, ``clang`` on
``PATH``; ``cl`` first on Windows); nothing is downloaded. ``pip install`` runs the same build
(``hatch_build.py``); this command is for rebuilds (changed sources, a sanitizer build) and
writes into the user's cache directory, where the package finds it (``_library``), never into
the installed package.
``--sanitize`` builds with AddressSanitizer and UndefinedBehaviorSanitizer for the checks
described in docs/fast.md.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from ._library import LIBRARY_ENV, PURE_ENV, SOURCES, SUFFIX, cache_path, pure_forced, source_hash

FLAGS = ("-std=c11", "-O2", "-shared", "-fPIC", "-Wall", "-Wextra")
"""The build's flags (gcc and clang spelling): the one place to tune the optimisation. ``$CFLAGS``
is added after them."""
MSVC_FLAGS = ("/nologo", "/std:c11", "/O2", "/LD", "/W4")
"""The same build in MSVC's spelling (``cl``, ``clang-cl``)."""
SANITIZE = ("-O1", "-g", "-fno-omit-frame-pointer", "-fsanitize=address,undefined")
STRICT = ("-pedantic", "-Wvla", "-Werror")
"""Added by the tests, which hold the core warning-free as ISO C11 under gcc and clang, without
variable-length arrays (MSVC has none)."""


def compiler() -> list[str] | None:
    """The C compiler's command: ``$CC``, else the first usual one on ``PATH`` (None if none)."""
    named = os.environ.get("CC")
    if named:
        return shlex.split(named)
    usual = ("cl", "clang", "gcc", "cc") if sys.platform == "win32" else ("cc", "gcc", "clang")
    found = next((shutil.which(name) for name in usual if shutil.which(name)), None)
    return None if found is None else [found]


def command(
    output: Path, sanitize: bool = False, cc: Sequence[str] | None = None, strict: bool = False
) -> list[str]:
    """The compiler command line that builds the core into ``output``: every C file at once,
    each its own translation unit, linked into one library."""
    cc = list(cc or compiler() or ["cc"])
    stamp = f"FG_SOURCE_HASH={source_hash():#x}ULL"
    if Path(cc[-1]).stem.lower() in ("cl", "clang-cl"):
        return [*cc, *MSVC_FLAGS, f"/D{stamp}", *map(str, SOURCES), f"/Fe{output}"]
    flags = [f for f in FLAGS if f != "-fPIC" or sys.platform != "win32"]
    if sys.platform == "darwin":  # a cross or universal build (cibuildwheel sets ARCHFLAGS)
        flags += shlex.split(os.environ.get("ARCHFLAGS", ""))
    flags += [*(SANITIZE if sanitize else ()), *(STRICT if strict else ())]
    flags += shlex.split(os.environ.get("CFLAGS", ""))
    return [*cc, *flags, f"-D{stamp}", "-o", str(output), *map(str, SOURCES)]


def build(output: Path | None = None, sanitize: bool = False, quiet: bool = False) -> Path:
    """Compile the core; return the library's path (``CalledProcessError`` if cc fails; its
    ``stderr`` holds the compiler's words when ``quiet``).

    The library is written under a temporary name and then moved into place, so a process
    loading it meanwhile never sees half a file."""
    if output is None:
        target = cache_path()
        if sanitize:  # never where the package looks: it loads only under the sanitizer
            target = target.with_name(f"{target.stem}-sanitize{SUFFIX}")
        target.parent.mkdir(parents=True, exist_ok=True)
    else:
        target = output
    partial = target.with_name(f".{target.name}.{os.getpid()}.tmp{SUFFIX}")
    try:
        line = command(partial, sanitize)
        subprocess.run(line, check=True, cwd=target.parent, capture_output=quiet, text=True)
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return target


def build_or_explain(output: Path | None = None) -> tuple[Path | None, str]:
    """Build quietly for an installer or a test run: the library and a line saying how it was
    built, or ``None`` and one line saying why not. Never raises."""
    if pure_forced():
        return None, f"{PURE_ENV} is set: not compiled, the pure-Python engine only"
    cc = compiler()
    if cc is None:
        return None, "no C compiler found (cc, gcc or clang on PATH; or set CC)"
    try:
        path = build(output, quiet=True)
    except OSError as exc:
        return None, f"the C compiler {shlex.join(cc)!r} did not run ({exc.strerror or exc})"
    except subprocess.CalledProcessError as exc:
        said = [line for line in (exc.stderr or "").splitlines() if line.strip()]
        last = f": {said[-1].strip()}" if said else ""
        return None, f"the C compiler {shlex.join(cc)!r} failed (exit {exc.returncode}){last}"
    return path, f"compiled {path.name} with {shlex.join(cc)}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ttr_europe.fast.build", description=__doc__)
    parser.add_argument("--output", type=Path, help="where to write the library")
    parser.add_argument("--sanitize", action="store_true", help="an ASan/UBSan build")
    args = parser.parse_args(argv)
    try:
        path = build(args.output, args.sanitize)
    except (OSError, subprocess.CalledProcessError) as exc:
        print(f"building the compiled core failed: {exc}", file=sys.stderr)
        return 1
    print(f"built {path}")
    if args.output is not None or args.sanitize:
        print(f"load it with {LIBRARY_ENV}={path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
