"""What every subcommand shares: the ``Command`` record and how a map is named."""

from __future__ import annotations

import argparse
from collections.abc import Callable

import attrs

from ..board import Map
from ..data import load_map, load_map_file


@attrs.frozen
class Command:
    """A subcommand: its name, a one-line help, how it declares its arguments, how it runs."""

    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


def open_map(name: str) -> Map:
    """A shipped map by name, or a map file by path (anything ending in ``.json``)."""
    if name.endswith(".json"):
        return load_map_file(name)
    return load_map(name)
