"""`ttr-europe bench`: the throughput benchmark."""

from __future__ import annotations

import argparse

from .common import Command, positive_int, require


def configure_bench(parser: argparse.ArgumentParser) -> None:
    from ..bench import add_arguments

    add_arguments(parser)


def run_bench(args: argparse.Namespace) -> int:
    from ..bench import run_from_args

    for name in ("games", "rounds", "samples"):  # declared by ttr_europe.bench as plain ints
        require(args, name, positive_int)
    return run_from_args(args)


COMMAND = Command(
    "bench", "measure random-play throughput and per-call costs", configure_bench, run_bench
)
