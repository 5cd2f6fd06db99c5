"""Game records: a game is its rules, its seed and its actions (rules.md D19).

A ``GameRecord`` holds the map, variant, player count, seed, first player, options and the
actions in their readable text form; ``replay`` rebuilds every state from it. A game on a map
that is not shipped carries the whole map document (``map_data``), so that the record replays
anywhere, even where the map file is gone or has changed since. A record is a
JSON document (``"format": "ttr_europe/record"``) and can also be written as a playthrough:
one line per action with a short summary of the state after it. The playthroughs of a few
seeded random games are kept under ``tests/golden/`` so that any change of behaviour shows
as a diff.
"""

from __future__ import annotations

import json
import random
import re
from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import attrs

from ._guards import check_map, check_state, expect
from .actions import Action, parse
from .board import Map
from .cards import KIND_NAMES
from .errors import BadArgumentError, DataError, IllegalActionError
from .jsonio import MAX_TEXT, VERSION, _Reader, parse_json

# a record holds as many actions as a game lasts
from .loop import MAX_ACTIONS, Move, play_out, uniform
from .maps import build_map, load_map, parse_map
from .rules import new_game
from .state import NO_CARD, GameState
from .views import OptionValue

RECORD_FORMAT = "ttr_europe/record"
_SEED_LIMIT = 1 << 64


def _options(items: Any) -> tuple[tuple[str, OptionValue], ...]:
    pairs = items.items() if isinstance(items, Mapping) else items
    if not isinstance(pairs, Iterable) or isinstance(pairs, str | bytes):
        raise BadArgumentError("a record's options are a mapping or (name, value) pairs",
                               argument="options")  # fmt: skip
    pairs = tuple(pairs)
    if not all(isinstance(p, tuple) and len(p) == 2 and type(p[0]) is str for p in pairs):
        raise BadArgumentError("a record's options are (name, value) pairs named by strings",
                               argument="options")  # fmt: skip
    return tuple(sorted(pairs, key=lambda p: p[0]))


def _texts(items: Iterable[str]) -> tuple[str, ...]:
    if not isinstance(items, Iterable) or isinstance(items, str | bytes):
        raise BadArgumentError("a record's actions are a sequence of texts", argument="actions")
    texts = tuple(items)
    if len(texts) > MAX_ACTIONS:
        raise BadArgumentError(f"a record holds at most {MAX_ACTIONS} actions", argument="actions")
    return texts


def _compact(text: str | None) -> str | None:
    """JSON text in one canonical spelling, so that equal documents give equal records."""
    if text is None:
        return None
    return json.dumps(parse_json(text, "<map_data>"), ensure_ascii=False, separators=(",", ":"))


@attrs.frozen
class GameRecord:
    """Everything that fixes a game: ``new_game`` arguments and the actions taken, as text."""

    map: str = "europe"
    variant: str = "base"
    players: int = 2
    seed: int = 0
    first_player: int | None = None
    options: tuple[tuple[str, OptionValue], ...] = attrs.field(default=(), converter=_options)
    actions: tuple[str, ...] = attrs.field(default=(), converter=_texts)
    map_data: str | None = attrs.field(default=None, kw_only=True, repr=False, converter=_compact)
    """The map document as JSON text, for a map that is not shipped (None for shipped maps)."""

    def board(self) -> Map:
        """The record's map: the embedded document, or the shipped map of that id."""
        if self.map_data is None:
            return load_map(self.map)
        board = parse_map(self.map_data, source=f"<record of map {self.map}>")
        if board.id != self.map:
            raise DataError(f"the embedded map is {board.id!r}, not {self.map!r}",
                            source="<record>", path="$.map_data.id")  # fmt: skip
        return board

    def start(self, map: Map | None = None) -> GameState:
        """The dealt position before the first action."""
        board = self.board() if map is None else map
        return new_game(
            board, self.variant, self.players, self.seed, self.first_player, **dict(self.options)
        )

    def then(self, *actions: Action | str) -> GameRecord:
        """This record with more actions appended (not checked until replayed)."""
        return attrs.evolve(self, actions=(*self.actions, *(str(a) for a in actions)))

    def to_json(self) -> dict[str, Any]:
        return {
            "format": RECORD_FORMAT,
            "version": VERSION,
            "map": self.map,
            "variant": self.variant,
            "players": self.players,
            "seed": self.seed,
            "first_player": self.first_player,
            "options": dict(self.options),
            "actions": list(self.actions),
            **({} if self.map_data is None else {"map_data": parse_json(self.map_data)}),
        }

    @classmethod
    def from_json(cls, doc: Any, *, map: Map | None = None, source: str = "<record>") -> GameRecord:
        """Check a record document: types, known map and variant, readable actions.

        Whether each action is legal is found out by ``replay``.
        """
        if isinstance(doc, str | bytes):
            doc = parse_json(doc, source)
        r = _Reader(source)
        fields = ("map", "variant", "players", "seed", "first_player", "options", "actions")
        d = r.header(doc, RECORD_FORMAT, fields, ("map_data",))
        map_data = None
        if "map_data" in d:
            map_data = json.dumps(d["map_data"], ensure_ascii=False)
            if map is None:
                map = build_map(d["map_data"], f"{source}: $.map_data")
        rules = r.make_rules(d, "$", map, d["players"], "$.players")
        first = d["first_player"]
        if first is not None:
            first = r.int_(first, "$.first_player", 0, rules.players - 1)
        seed = r.int_(d["seed"], "$.seed", -_SEED_LIMIT + 1, _SEED_LIMIT - 1)
        texts = r.list_(d["actions"], "$.actions", MAX_ACTIONS)
        for i, text in enumerate(texts):
            path = f"$.actions[{i}]"
            try:
                parse(r.str_(text, path))
            except ValueError as exc:  # ActionParseError, or a number too long for int()
                raise r.fail(path, str(exc)) from None
        return cls(
            rules.map.id,
            rules.variant.id,
            rules.players,
            seed,
            first,
            r.options(d["options"], "$.options"),
            texts,
            map_data=map_data,
        )


def record_of(
    actions: Iterable[Action | str],
    map: str = "europe",
    variant: str = "base",
    players: int = 2,
    seed: int = 0,
    first_player: int | None = None,
    *,
    map_data: str | None = None,
    **options: OptionValue,
) -> GameRecord:
    """A record of ``actions`` played from ``new_game(map, variant, players, seed, ...)``;
    ``map_data`` is the map's JSON text when it is not a shipped map."""
    if not isinstance(actions, Iterable) or isinstance(actions, str | bytes):
        raise BadArgumentError("record_of: actions are a sequence", argument="actions")
    texts = tuple(str(a) for a in actions)
    return GameRecord(map, variant, players, seed, first_player, options, texts, map_data=map_data)


def iter_replay(record: GameRecord, *, map: Map | None = None) -> Iterator[GameState]:
    """The start position, then the state after each action in turn.

    An action that cannot be read or is illegal raises ``DataError`` naming its index
    (``$.actions[12]``) and the rule that refuses it.
    """
    check_record(record, "replay", map)
    start = record.start(map)
    yield start
    for _, state, _ in _moves(record, start, events=False):
        yield state


def replay_moves(
    record: GameRecord, start: GameState | None = None, *, map: Map | None = None
) -> Iterator[Move]:
    """Each action of the record with the state after it and its events, from one pass of the
    reducer (``loop.play_out(..., events=True)``): what a replayed or resumed game shows.
    ``start`` is ``record.start(map)`` when not given; errors as ``iter_replay``."""
    check_record(record, "replay_moves", map)
    return _moves(record, record.start(map) if start is None else start, events=True)


def _moves(record: GameRecord, start: GameState, *, events: bool) -> Iterator[Move]:
    """The record's actions played through the one game loop, parsed as they are reached."""
    texts = record.actions
    index = -1

    def next_action(_: GameState) -> Action | None:
        nonlocal index
        index += 1
        if index == len(texts):
            return None
        try:
            return parse(texts[index])
        except ValueError as exc:  # ActionParseError, or a number too long for int()
            raise DataError(str(exc), source="<record>", path=f"$.actions[{index}]") from None

    try:
        yield from play_out(start, next_action, max_actions=len(texts) + 1, events=events)
    except IllegalActionError as exc:
        raise DataError(
            f"action {index} ({texts[index]!r}) is illegal: {exc}",
            source="<record>",
            path=f"$.actions[{index}]",
        ) from exc
    if index < len(texts) - 1:  # the game ended with actions still to play
        index += 1
        raise DataError(
            f"action {index} ({texts[index]!r}) is illegal: R46: the game is over",
            source="<record>",
            path=f"$.actions[{index}]",
        )


def check_record(record: object, function: str, map: object = None) -> None:
    """``record`` must be a ``GameRecord`` and ``map`` a ``Map``, a map name or None."""
    expect(record, GameRecord, function, "record")
    check_map(map, function, optional=True)


def replay(record: GameRecord, *, map: Map | None = None) -> list[GameState]:
    """Every state of the game: ``replay(r)[0]`` is the start, ``replay(r)[i + 1]`` follows
    action ``i``."""
    return list(iter_replay(record, map=map))


def final_state(record: GameRecord, *, map: Map | None = None) -> GameState:
    """The state after the last action."""
    return deque(iter_replay(record, map=map), maxlen=1)[0]


def random_game(
    map: str = "europe",
    variant: str = "base",
    players: int = 2,
    seed: int = 0,
    policy_seed: int = 0,
    *,
    first_player: int | None = None,
    max_actions: int = MAX_ACTIONS,
    **options: OptionValue,
) -> GameRecord:
    """A game played to its end (or ``max_actions``) by picking uniformly among legal actions.

    The pick is ``loop.uniform(random.Random(policy_seed))``, so a record is reproduced exactly
    from its arguments.
    """
    if type(policy_seed) is not int or type(max_actions) is not int:
        raise BadArgumentError("random_game: policy_seed and max_actions must be ints")
    record = GameRecord(map, variant, players, seed, first_player, options)
    moves = play_out(record.start(), uniform(random.Random(policy_seed)), max_actions=max_actions)
    return attrs.evolve(record, actions=tuple(str(action) for action, _, _ in moves))


# --------------------------------------------------------------------------- playthroughs


def _card(kind: int) -> str:
    return "-" if kind == NO_CARD else KIND_NAMES[kind]


def summary(state: GameState) -> str:
    """One line with what a reader of a playthrough wants to follow: phase, seat to act,
    row, pile, discard and ticket deck sizes, then per seat hand size, tickets, trains, route
    points and stations left."""
    check_state(state, "summary")
    v = state.rules.variant
    parts = [
        f"{state.phase.name}@{state.current}",
        "row=" + ",".join(_card(k) for k in state.row),
        f"pile={state.pile_size}",
        f"discard={state.discard.total}",
        f"deck={len(state.ticket_deck)}",
    ]
    if state.tunnel is not None:
        t = state.tunnel
        shown = ",".join(KIND_NAMES[k] for k in t.revealed)
        parts.append(f"tunnel={state.map.routes[t.route].id}[{shown}]+{t.extra}")
    if state.final_turns >= 0:
        parts.append(f"final={state.final_turns}")
    if state.passes:
        parts.append(f"passes={state.passes}")
    seats = [
        f"p{i} h{p.hand.total} t{len(p.tickets)}"
        + (f"+{len(p.offer)}" if p.offer else "")
        + f" c{p.trains} s{p.score}"
        + (f" st{state.stations_left(i)}" if v.stations else "")
        for i, p in enumerate(state.players)
    ]
    return " ".join(parts) + " | " + " | ".join(seats)


def playthrough(record: GameRecord, *, map: Map | None = None) -> str:
    """The game as text: a header naming the record, then ``index action => summary``, then
    the totals and ranks (final, or provisional when the record stops early)."""
    check_record(record, "playthrough", map)
    options = " ".join(f"{k}={v}" for k, v in record.options)
    first = "random" if record.first_player is None else record.first_player
    lines = [
        f"# map={record.map} variant={record.variant} players={record.players} "
        f"seed={record.seed} first_player={first}" + (f" {options}" if options else ""),
    ]
    actions = ("(start)", *record.actions)
    for i, (text, state) in enumerate(zip(actions, iter_replay(record, map=map), strict=True)):
        lines.append(f"{i} {text} => {summary(state)}")
    from .scoring import outcome  # networkx, only when a playthrough is written

    result = outcome(state)
    lines.append(
        f"# {'over' if result.final else 'unfinished'}: totals "
        + " ".join(_strs(result.totals))
        + "; ranks "
        + " ".join(_strs(result.ranks))
    )
    return "\n".join(lines) + "\n"


def _strs(values: Iterable[int]) -> list[str]:
    return [str(v) for v in values]


def read_playthrough(text: str, source: str = "<playthrough>") -> GameRecord:
    """The record a playthrough was written from (its header and actions)."""
    if not isinstance(text, str):
        raise DataError(f"a playthrough is text, not {type(text).__name__}", source=source)
    if len(text) > MAX_TEXT:
        raise DataError(f"a playthrough is at most {MAX_TEXT} characters", source=source)
    lines = text.splitlines()
    if not lines or not lines[0].startswith("# "):
        raise DataError("a playthrough starts with a '# map=...' header", source=source)
    fields = dict(item.split("=", 1) for item in lines[0][2:].split() if "=" in item)
    doc: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "version": VERSION,
        "map": fields.pop("map", None),
        "variant": fields.pop("variant", None),
        "players": _number(fields.pop("players", None)),
        "seed": _number(fields.pop("seed", None)),
        "first_player": _number(fields.pop("first_player", None)),
        "options": {k: _option_text(v) for k, v in fields.items()},
        "actions": [],
    }
    for n, line in enumerate(lines[1:], start=2):
        if line.startswith("#"):
            continue
        m = re.fullmatch(r"(\d+) (.+?) => .*", line)
        if m is None:
            raise DataError("expected 'index action => summary'", source=source, path=f"line {n}")
        if m.group(1) != "0":
            doc["actions"].append(m.group(2))
    return GameRecord.from_json(doc, source=source)


def _number(text: str | None) -> int | str | None:
    if text is None or text == "random":
        return None
    return int(text) if re.fullmatch(r"-?[0-9]{1,30}", text) else text


def _option_text(text: str) -> OptionValue | str:
    return {"True": True, "False": False, "None": None}.get(text, _number(text))
