"""`ttr-europe replay`: a saved game record, turn by turn, in the same log as `play`."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .common import Command, add_lang_argument, read_text

if TYPE_CHECKING:
    from ..actions import Action
    from ..events import Event
    from ..state import GameState


def configure_replay(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", help="a game record (JSON), as written by `play --record`")
    parser.add_argument(
        "--at",
        metavar="N",
        type=int,
        help="stop at position N (after N moves; the first number of each line) and show it",
    )
    parser.add_argument(
        "--svg", metavar="FILE", help="also draw the board as SVG (the final one, or position N)"
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="write JSON lines for a client in another language instead of the log: per position"
        " its view, the move that led to it and that move's events, then the scoreboard",
    )
    parser.add_argument(
        "--player",
        metavar="N",
        type=int,
        help="with --json, the views and events of player N (1 to the player count); default"
        " a spectator's",
    )
    add_lang_argument(parser)


def run_replay(args: argparse.Namespace) -> int:
    from ..errors import SetupError
    from ..i18n import from_environment, translator
    from ..records import GameRecord, replay_moves
    from ..scoring import score
    from ..table.terminal import LEGEND, describe_state, play_log, scoreboard_text

    tr = translator(args.lang or from_environment())
    record = GameRecord.from_json(read_text(args.record), source=args.record)
    start = record.start()
    moves = list(replay_moves(record, start))  # each move applied once, with its events
    states = [start, *(after for _, after, _ in moves)]
    actions = [action for action, _, _ in moves]
    at = len(actions) if args.at is None else args.at
    if not 0 <= at <= len(actions):
        raise SetupError(f"--at: positions are 0 to {len(actions)}, not {at}")
    if args.player is not None and not args.json:
        raise SetupError("--player chooses whose views --json writes; give --json too")
    if args.json and args.svg:  # a picture shows the whole position, not one seat's view
        raise SetupError("--svg draws the whole position: give it without --json")
    if args.json:
        return _json_lines(record.players, states, actions, [e for _, _, e in moves], at, args)
    options = " ".join(f"{k}={v}" for k, v in record.options)
    first = "random" if record.first_player is None else record.first_player
    print(
        f"# map={record.map} variant={record.variant} players={record.players} "
        f"seed={record.seed} first_player={first}" + (f" {options}" if options else "")
    )
    print(tr.marked(LEGEND))
    events = [e for _, _, e in moves[:at]]
    for line in play_log(states[: at + 1], actions[:at], events=events, tr=tr):
        print(line)
    position = states[at]
    if args.at is not None:
        print("\n" + tr.t("Position {n}:", n=at))
        for line in describe_state(position, tr):
            print(line)
    print()
    print(scoreboard_text(score(position), tr, position))
    if args.svg:
        from ..render import render_svg

        with open(args.svg, "w", encoding="utf-8") as f:
            f.write(render_svg(position, lang=tr.lang))
    return 0


def _json_lines(
    players: int,
    states: Sequence[GameState],
    actions: Sequence[Action],
    events: Sequence[Sequence[Event]],
    at: int,
    args: argparse.Namespace,
) -> int:
    """The replay as a front end reads it: one JSON object a line, positions 0 to ``at``, each
    with the view a seat (or a spectator) has there, then, if the game is over there, the
    scoreboard. A seat sees only its own secrets, as ``observe`` and ``events.visible_to``
    allow; a scoreboard before the end would show every seat's tickets, so none is written."""
    import json

    from ..errors import SetupError
    from ..events import visible_to
    from ..jsonio import action_to_json, scoreboard_to_json
    from ..scoring import score
    from ..state import Phase
    from ..views import observe

    if args.player is not None and not 1 <= args.player <= players:
        raise SetupError(f"--player: players are 1 to {players}, not {args.player}")
    seat = None if args.player is None else args.player - 1
    for i in range(at + 1):
        shown = [] if i == 0 else [visible_to(e, seat) for e in events[i - 1]]
        secret = i > 0 and _secret(actions[i - 1], states[i - 1].current, seat)
        line = {
            "position": i,
            "action": None if i == 0 or secret else action_to_json(actions[i - 1]),
            "events": [e.to_json() for e in shown if e is not None],
            "view": observe(states[i], seat).to_json(),
        }
        print(json.dumps(line, ensure_ascii=False))
    if states[at].phase is Phase.GAME_OVER:
        print(json.dumps(scoreboard_to_json(score(states[at])), ensure_ascii=False))
    return 0


def _secret(action: Action, mover: int, seat: int | None) -> bool:
    """Whether ``action`` is hidden from ``seat``: another seat's ticket choice (its events
    say only how many it kept)."""
    from ..actions import KeepTickets

    return isinstance(action, KeepTickets) and mover != seat


COMMAND = Command(
    "replay",
    "replay a saved game record: every turn with what it did, then the scoreboard",
    configure_replay,
    run_replay,
)
