"""`ttr-europe play`: a game between bots, or between persons at this keyboard and bots."""

from __future__ import annotations

import argparse
import io
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..maps import parse_map
from .common import (
    Command,
    add_lang_argument,
    add_map_arguments,
    error_line,
    int_between,
    open_map,
    read_text,
    seed_int,
)

if TYPE_CHECKING:
    from ..i18n import Translator
    from ..table.match import Match

DEFAULT_SAVE = "ttr-europe-game.json"
DEMO_SEED = 2026
"""The seed of a game of bots alone when none is given: the same demo every time."""


def configure_play(parser: argparse.ArgumentParser) -> None:
    add_map_arguments(parser)
    parser.add_argument("--players", type=int_between(2, 5), default=3, help="2 to 5 (default 3)")
    parser.add_argument(
        "--seed",
        type=seed_int,
        help="game seed: the deal anyone who knows it can see (default: a secret deal when a "
        "person or a cmd: program plays, revealed in the saved record; 2026 for bots alone)",
    )
    parser.add_argument(
        "--bots",
        default="greedy,random",
        help="comma-separated bots (random, greedy, mcts, package.module:Class or "
        "cmd:COMMAND), repeated over the seats (default greedy,random)",
    )
    parser.add_argument(
        "--human",
        metavar="PLAYERS",
        default="",
        help="the players at this keyboard, numbered from 1 as on the page (e.g. 1, or 1,3 "
        "for hot-seat play)",
    )
    parser.add_argument(
        "--resume",
        metavar="FILE",
        help="go on with a saved game record (its map, variant, players and seed)",
    )
    add_lang_argument(parser)
    parser.add_argument("--quiet", action="store_true", help="print only the final scoreboard")
    parser.add_argument("--svg", metavar="FILE", help="also draw the final board as SVG")
    parser.add_argument(
        "--record",
        metavar="FILE",
        help="also save the game record (JSON) for `replay`; `quit` saves here too "
        f"(default {DEFAULT_SAVE})",
    )


def _seats(text: str, players: int) -> list[int]:
    """The seats (from 0, the engine's) of ``--human``'s players (from 1, as people count).
    The old form, seats from 0, is refused rather than guessed: "1" would mean either."""
    seats: list[int] = []
    for item in text.split(","):
        part = item.strip()
        if not part:
            continue
        if part == "0":
            raise ValueError(
                f"--human: players are numbered from 1, as on the page (1 to {players}), not 0: "
                "the old --human 0,2 is now --human 1,3"
            )
        number = int(part) if part.isascii() and part.isdecimal() and len(part) <= 3 else 0
        if not 0 < number <= players:
            raise ValueError(f"--human: players are 1 to {players}, not {part!r}")
        seats.append(number - 1)
    return seats


def _read_line(prompt: str) -> str | None:
    """One line of standard input (None at its end). An overlong line is cut (the terminal
    refuses it) and the rest of it dropped; piped input is echoed, with unprintable characters
    shown as ``?``. ``run_play`` makes bytes that are not UTF-8 read as U+FFFD."""
    from ..table.terminal import MAX_LINE, printable

    sys.stdout.write(prompt)
    sys.stdout.flush()
    try:
        line = rest = sys.stdin.readline(MAX_LINE + 1)  # characters, not bytes
        while len(rest) > MAX_LINE and not rest.endswith("\n"):
            rest = sys.stdin.readline(MAX_LINE + 1)
    except KeyboardInterrupt:
        line = ""
    if not line:
        sys.stdout.write("\n")
        return None
    if not sys.stdin.isatty():
        sys.stdout.write(printable(line.rstrip("\n")[:200]) + "\n")
    return line


def _saver(path: str, map_data: str | None = None) -> Callable[[object], str]:
    """Writes the match's record; ``map_data`` (a map file's text) travels inside it, so that
    a game on a map file replays anywhere."""

    def save(match: object) -> str:
        import attrs

        from ..table.match import Match

        assert isinstance(match, Match)
        record = match.record()
        if map_data is not None and record.map_data is None:
            record = attrs.evolve(record, map_data=map_data)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(record.to_json(), f, indent=1)
        return path

    return save


def _drawer(record_path: str, lang: str = "en") -> Callable[[object, int], str]:
    """Draws the board as a seat sees it next to the record (``board`` in the terminal), its
    words in ``lang``."""

    def draw(match: object, seat: int) -> str:
        from ..render import render_svg
        from ..table.match import Match

        assert isinstance(match, Match)
        path = (record_path[:-5] if record_path.endswith(".json") else record_path) + "-board.svg"
        with open(path, "w", encoding="utf-8") as f:
            f.write(render_svg(match.view(seat), lang=lang))
        return path

    return draw


def run_play(args: argparse.Namespace) -> int:
    """Seat the players, play the game (a person at the terminal, or the bots alone), then
    show the end and keep what was asked for (a record, a picture)."""
    from ..i18n import from_environment, translator
    from ..players import close_bots

    tr = translator(args.lang or from_environment())
    try:
        match, map_data, humans, secret = _seated(args)
    except ValueError as exc:
        print(error_line(exc, tr), file=sys.stderr)
        return 2
    width, rows = _screen()
    say = _sayer(width)
    if not args.quiet:
        _introduce(match, tr, secret, say)
    if humans:
        if not _at_the_terminal(match, args, map_data, tr, (width, rows)):
            return 0  # the person quit (the game is saved)
    else:
        _bots_alone(match, args.quiet, tr, say)
    close_bots(seat.bot for seat in match.seats)  # programs in other processes: quit
    _the_end(match, args.quiet, tr, say)
    _keep(match, args, map_data, tr, say)
    return 0


Say = Callable[[str], None]


def _screen() -> tuple[int | None, int | None]:
    """The terminal's columns and rows when standard output is one (lines are broken between
    words to fit it, a decision fits its height); None for a pipe or a file, which get the
    lines whole and the whole menu."""
    import shutil

    try:
        if not sys.stdout.isatty():
            return None, None
    except (AttributeError, ValueError):  # a closed or unusual stream
        return None, None
    size = shutil.get_terminal_size()
    return max(20, size.columns), max(10, size.lines)


def _sayer(width: int | None) -> Say:
    """``print`` with lines fitted to ``width`` (``terminal.fit``)."""
    from ..table.terminal import fit

    def say(text: str = "") -> None:
        print(fit(text, width))

    return say


def _seated(args: argparse.Namespace) -> tuple[Match, str | None, list[int], bool]:
    """The match to play, new or resumed from a record, the map file's text to keep in its
    record (a map that is not shipped), the seats of people (``ValueError``: bad seats), and
    whether it is dealt in secret (no ``--seed`` and a person or a ``cmd:`` program at the
    table: nothing printed or handed to a seat leads to the deal; the saved record holds it)."""
    from .._seeds import PUBLIC, Deal
    from ..players import make_bot, sandbox, split_specs
    from ..players.protocol import ProcessBot
    from ..records import GameRecord
    from ..table.match import PERSON, Match

    sandbox.forbid(p for p in (args.resume, args.record) if p)  # the game's seed is in them
    names = split_specs(args.bots) or ["greedy"]
    record = None
    bot_seed, secret = None, False
    if args.resume:
        record = GameRecord.from_json(read_text(args.resume), source=args.resume)
        players, seed = record.players, record.seed
    else:
        players, seed = args.players, args.seed
    humans = _seats(args.human, players)
    seats = [PERSON if i in humans else make_bot(names[i % len(names)])
             for i in range(players)]  # fmt: skip
    if record is not None:
        return Match.from_record(record, seats), None, humans, False
    if seed is None:
        strangers = humans or any(isinstance(seat, ProcessBot) for seat in seats)
        deal = Deal.fresh() if strangers else PUBLIC
        seed, bot_seed, secret = (
            deal.game_seed(DEMO_SEED),
            deal.bot_seed(DEMO_SEED),
            bool(strangers),
        )
    map_data = None
    if args.map.endswith(".json"):  # as open_map reads it, read once: the record keeps this text
        map_data = read_text(args.map)
        board = parse_map(map_data, source=args.map)
    else:
        board = open_map(args.map)
    match = Match.new(board, args.variant, players, seed, seats, bot_seed=bot_seed)
    return match, map_data, humans, secret


def _introduce(match: Match, tr: Translator, secret: bool = False, say: Say = print) -> None:
    """The game's first line: map, variant, players, seed and who sits where; the legend."""
    from ..table.terminal import LEGEND, player

    state = match.state
    seated = ", ".join(
        tr.t("{player} ({name})", player=player(i, tr), name=tr.seat_kind(s.name))
        for i, s in enumerate(match.seats)
    )
    say(
        tr.t(
            "{map}, variant {variant}, {players} players, seed {seed}: {seats}",
            map=tr.marked(state.map.name),
            variant=tr.marked(state.rules.variant.name),
            players=state.rules.players,
            seed=match.record().seed,
            seats=seated,
        )
        if not secret
        else tr.t(
            "{map}, variant {variant}, {players} players, a secret deal: {seats}",
            map=tr.marked(state.map.name),
            variant=tr.marked(state.rules.variant.name),
            players=state.rules.players,
            seats=seated,
        )
    )
    say(tr.marked(LEGEND))


def _at_the_terminal(
    match: Match,
    args: argparse.Namespace,
    map_data: str | None,
    tr: Translator,
    screen: tuple[int | None, int | None] = (None, None),
) -> bool:
    """A person plays at the terminal; False when they quit before the end."""
    from ..table.terminal import Terminal

    if isinstance(sys.stdin, io.TextIOWrapper):  # a line is counted in characters
        sys.stdin.reconfigure(encoding="utf-8", errors="replace")
    save_to = args.record or DEFAULT_SAVE
    terminal = Terminal(
        match,
        _read_line,
        print,
        _saver(save_to, map_data),
        draw=_drawer(save_to, tr.lang),
        tr=tr,
        width=screen[0],
        rows=screen[1],
        clear=None if screen[0] is None else _clear_screen,
    )
    return terminal.run()


def _clear_screen() -> None:
    """Empties the terminal's screen and its scrollback (ECMA-48 ED 2; ED 3, xterm's, for
    the scrollback), so the next person at a shared keyboard finds nothing of the last."""
    sys.stdout.write("\x1b[H\x1b[2J\x1b[3J")
    sys.stdout.flush()


def _bots_alone(match: Match, quiet: bool, tr: Translator, say: Say = print) -> None:
    """The bots play to the end, every turn printed; a failing bot hands its seat to a
    random stand-in, as in the terminal."""
    from ..errors import BotError
    from ..table.terminal import PlayLog

    log = PlayLog(everything=True, tr=tr)
    while not match.finished:
        before = match.state
        try:
            match.step()
        except BotError as exc:
            match.stand_in(before.current)
            said = tr.t(
                "{error}; a random bot plays for Player {n} from now on.",
                error=exc,
                n=before.current + 1,
            )
            print(f"ttr-europe: {said}", file=sys.stderr)
            continue
        line = log.add(before, match.actions[-1], match.state)
        if line is not None and not quiet:
            say(line)


def _the_end(match: Match, quiet: bool, tr: Translator, say: Say = print) -> None:
    """The final position, the scoreboard and the winners (the scoreboard alone when quiet)."""
    from ..table.terminal import player, scoreboard_text

    state = match.state
    board = match.scoreboard()
    if quiet:
        say(scoreboard_text(board, tr, state))
        return
    say("\n" + tr.t("Final position:"))
    for seat, held in enumerate(state.players):
        routes = [r.id for r in state.map.routes if state.owners[r.index] == seat]
        say(
            tr.t(
                "  {player}: {trains} left, {routes}, {stations}, {cards} in hand",
                player=player(seat, tr),
                trains=tr.tn("{n} train", "{n} trains", held.trains),
                routes=tr.tn("{n} route", "{n} routes", len(routes)),
                stations=tr.tn("{n} station", "{n} stations", len(held.stations)),
                cards=tr.tn("{n} card", "{n} cards", held.hand.total),
            )
        )
    say("")
    say(scoreboard_text(board, tr, state))
    winners = [p.seat for p in board.players if p.rank == 1]
    say("")
    named = ", ".join(
        tr.t(
            "{player} ({name}, {points})",
            player=player(w, tr),
            name=tr.seat_kind(match.seats[w].name),
            points=tr.tn("{n} point", "{n} points", board.players[w].total),
        )
        for w in winners
    )
    say(
        tr.t("Winner: {seats}", seats=named)
        if len(winners) == 1
        else tr.t("Shared win: {seats}", seats=named)
    )


def _keep(
    match: Match,
    args: argparse.Namespace,
    map_data: str | None,
    tr: Translator,
    say: Say = print,
) -> None:
    """The record and the picture of the final position, where they were asked for."""
    if args.record:
        _saver(args.record, map_data)(match)
        if not args.quiet:
            say("\n" + tr.t("game record saved to {path}", path=args.record))
    if args.svg:
        from ..render import render_svg

        with open(args.svg, "w", encoding="utf-8") as f:
            f.write(render_svg(match.state, lang=tr.lang))
        if not args.quiet:
            say("\n" + tr.t("board drawn to {path}", path=args.svg))


COMMAND = Command(
    "play",
    "play a game between bots, or against them with --human PLAYERS, and print the scores",
    configure_play,
    run_play,
)
