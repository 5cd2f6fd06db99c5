"""Build the compiled core: ``python -m ttr_europe.fast.build [--sanitize] [--output PATH]``.

Compiles ``core.c`` (plain C11, no Python headers) into a shared library beside it with the
system's C compiler (``$CC``, else ``cc``); nothing is downloaded. ``--sanitize`` builds with
AddressSanitizer and UndefinedBehaviorSanitizer for the checks described in docs/fast.md.
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from ._library import SOURCE, library_path, source_hash

FLAGS = ("-std=c11", "-O2", "-shared", "-fPIC", "-Wall", "-Wextra", "-Werror")
SANITIZE = ("-O1", "-g", "-fno-omit-frame-pointer", "-fsanitize=address,undefined")


def command(output: Path, sanitize: bool = False) -> list[str]:
    """The compiler command line that builds the core into ``output``."""
    cc = shlex.split(os.environ.get("CC", "cc"))
    extra = SANITIZE if sanitize else ()
    stamp = f"-DFG_SOURCE_HASH={source_hash():#x}ULL"
    return [*cc, *FLAGS, *extra, stamp, "-o", str(output), str(SOURCE)]


def build(output: Path | None = None, sanitize: bool = False) -> Path:
    """Compile the core; return the library's path (``CalledProcessError`` if cc fails)."""
    target = output or library_path()
    subprocess.run(command(target, sanitize), check=True)
    return target


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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
