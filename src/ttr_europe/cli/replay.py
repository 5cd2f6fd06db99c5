"""`ttr-europe replay`: a saved game record, action by action."""

from __future__ import annotations

import argparse

from .common import Command, read_text


def configure_replay(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", help="a game record (JSON), as written by `play --record`")
    parser.add_argument("--svg", metavar="FILE", help="also draw the final board as SVG")


def run_replay(args: argparse.Namespace) -> int:
    from ..records import GameRecord, playthrough, replay
    from ..scoring import format_scoreboard, score

    record = GameRecord.from_json(read_text(args.record), source=args.record)
    print(playthrough(record))
    final = replay(record)[-1]
    print()
    print(format_scoreboard(score(final)))
    if args.svg:
        from ..render import render_svg

        with open(args.svg, "w", encoding="utf-8") as f:
            f.write(render_svg(final))
    return 0


COMMAND = Command(
    "replay",
    "replay a saved game record: every action, then the scoreboard",
    configure_replay,
    run_replay,
)
