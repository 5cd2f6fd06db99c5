"""Matches people make and share from the page: their settings, invites, the lobby's rows and
the rows of a browser's "my games", and the names seats go by.

Free of the hub's bookkeeping (``hub`` calls these with what it holds), so each part is a plain
function of a match and its seats. A seat of a created match is one of:

- ``"here"``: a person on the device that made the match (pass-and-play when there are several);
  its token goes to that device at once.
- ``"invite"``: the friend the seat's invite link is sent to, alone: the link's secret is
  kept hashed, the first browser to open it takes the seat, and the lobby never offers it.
- ``"open"``: a free seat of a public match, for whoever takes it from the lobby first.
- a bot of ``WEB_BOTS`` (programs and slow searches stay on the command line).
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Collection, Sequence
from typing import Any

import attrs

from ..errors import SetupError, WebError
from ..maps import available_maps, load_map
from ..table.match import PERSON, Match

Json = dict[str, Any]

WEB_BOTS = ("greedy", "saver", "claimer", "random")  # quick: a page cannot ask for searches
PEOPLE = ("here", "invite", "open")
MAX_SEATS = 5
# Matches dealt for messages (``new``, ``create``, a ``play`` or ``join`` that deals) in any
# ``CREATE_WINDOW`` seconds: each connection's and each address's own limits come first, so
# that one client, or one address opening fresh sockets, is refused before it can fill the
# server-wide window that everyone shares.
MAX_NEW_PER_TAB = 4  # by one connection
MAX_NEW_PER_ADDRESS = 10  # by all the connections of one address
MAX_CREATES = 30  # made with ``create`` by everyone, server-wide
CREATE_WINDOW = 60.0
# Unfinished matches in memory that one address made: its next match archives its own oldest
# that no tab shows (it comes back when a tab joins it), or is refused if every one is shown.
MAX_HELD_PER_ADDRESS = 8
UNPLAYED_TTL = 600.0  # seconds a match nobody has sat at stays with no tab, then archived
SEAT_AWAY = 300.0  # seconds a listed match waits on a seat whose player left, then frees it
MAX_MINE = 40  # seats one "mine" message may ask about
MAX_LOBBY = 50  # rows the lobby lists, the newest first
LOBBY_FRESH = 1.0  # seconds the lobby's list is answered as made, before it is made again


@attrs.define
class Window:
    """When the latest matches of one dealer (a connection, an address, the server) were
    made, for a limit of so many in any ``CREATE_WINDOW`` seconds."""

    times: deque[float] = attrs.field(factory=deque)

    def wait(self, now: float, most: int) -> float | None:
        """Seconds until one more may be made (None: now), forgetting what left the window."""
        while self.times and now - self.times[0] >= CREATE_WINDOW:
            self.times.popleft()
        return None if len(self.times) < most else CREATE_WINDOW - (now - self.times[0])


@attrs.frozen
class Settings:
    """What a ``create`` message asks for, checked."""

    map: str
    variant: str
    seats: tuple[str, ...]  # "here", "invite" or a bot of WEB_BOTS
    names: tuple[str | None, ...]  # the names of the "here" seats' players
    public: bool

    def match(self, seed: int, bot_seed: int | None = None) -> Match:
        """The match these settings deal from ``seed``, its bots' generators from ``bot_seed``
        (``Match``)."""
        specs = [PERSON if s in PEOPLE else s for s in self.seats]
        try:
            return Match.new(
                self.map, self.variant, len(self.seats), seed, specs, bot_seed=bot_seed
            )
        except SetupError as exc:
            raise WebError("bad_settings", str(exc)) from None


def settings(message: Json, maps: Sequence[str], clean: Any) -> Settings:
    """The settings of a ``create`` message; ``clean`` tidies a chosen name. Refuses anything
    else with ``bad_settings`` naming the field."""
    board = message.get("map", "europe")
    if board not in maps:
        raise WebError("bad_settings", f'"map" is one of {", ".join(maps)}, not {board!r}')
    variant = message.get("variant", "base")
    if not isinstance(variant, str):
        raise WebError("bad_settings", f'"variant" is the name of a variant, not {variant!r}')
    seats = message.get("seats")
    if not isinstance(seats, list) or not 2 <= len(seats) <= MAX_SEATS:
        raise WebError("bad_settings", f'"seats" lists 2 to {MAX_SEATS} seats')
    kinds: list[str] = []
    names: list[str | None] = []
    for i, seat in enumerate(seats):
        if not isinstance(seat, dict) or set(seat) - {"kind", "name"}:
            raise WebError("bad_settings", f'seat {i + 1} is {{"kind": ..., "name": ...}}')
        kind = seat.get("kind")
        if kind not in (*PEOPLE, *WEB_BOTS):
            known = ", ".join((*PEOPLE, *WEB_BOTS))
            raise WebError(
                "bad_settings", f"seat {i + 1}: the kind is one of {known}, not {kind!r}"
            )
        name = seat.get("name")
        if name is not None and not isinstance(name, str):
            raise WebError("bad_settings", f"seat {i + 1}: a name is text")
        kinds.append(kind)
        try:
            names.append(clean(name) if kind == "here" else None)
        except WebError as exc:  # too long: said of its seat
            raise WebError(exc.code, f"seat {i + 1}: {exc}") from None
    if not any(k in PEOPLE for k in kinds):
        raise WebError("bad_settings", "a match made here has at least one person's seat")
    public = message.get("public", True)
    if not isinstance(public, bool):
        raise WebError("bad_settings", '"public" is true or false')
    if "open" in kinds and not public:
        seat = kinds.index("open") + 1
        raise WebError("bad_settings", f"seat {seat}: a seat open to anyone is in a public match")
    return Settings(board, variant, tuple(kinds), tuple(names), public)


@functools.lru_cache(maxsize=1)
def choices() -> Json:
    """What the page may choose from: each map with its variants and their player counts, and
    the bots."""
    maps = []
    for name in available_maps():
        board = load_map(name)
        variants = [{"id": v.id, "name": v.name, "min": v.min_players, "max": v.max_players}
                    for v in board.variants.values()]  # fmt: skip
        maps.append({"id": board.id, "name": board.name, "variants": variants})
    return {"maps": maps, "bots": list(WEB_BOTS)}


def seat_names(match: Match, chosen: dict[int, str]) -> list[str]:
    """What each seat is called: the name its player chose, else "Player 2" for a person and
    "Greedy bot" for a bot, numbered ("Greedy bot 1", "Greedy bot 2") when several bots share
    a kind, so a result never names two seats alike."""
    kinds = [s.name for s in match.seats]
    bots = [k for k, s in zip(kinds, match.seats, strict=True) if not s.is_person]
    seen: dict[str, int] = {}
    out = []
    for i, seat in enumerate(match.seats):
        if seat.is_person:
            out.append(chosen.get(i) or f"Player {i + 1}")
            continue
        kind = seat.name
        seen[kind] = seen.get(kind, 0) + 1
        label = f"{kind[:1].upper()}{kind[1:]} bot"
        out.append(f"{label} {seen[kind]}" if bots.count(kind) > 1 else label)
    return out


def summary(match_id: str, match: Match, taken: set[int], names: list[str],
            invited: Collection[int] = ()) -> Json:  # fmt: skip
    """What the lobby and "my games" say of a match: settings, who sits where, whose turn.
    A seat kept for an invited friend (``invited``, not yet taken) is never free."""
    seats = [
        {"seat": i, "player": names[i], "person": s.is_person, "taken": i in taken,
         "invited": i in invited and i not in taken}
        for i, s in enumerate(match.seats)
    ]  # fmt: skip
    current = None if match.finished else match.current
    return {
        "match": match_id,
        "map": match.state.map.id,
        "map_name": match.state.map.name,
        "variant": match.state.rules.variant.id,
        "variant_name": match.state.rules.variant.name,
        "players": len(match.seats),
        "seats": seats,
        "current": current,
        "current_name": None if current is None else names[current],
        "finished": match.finished,
        "seq": match.seq,
        "free": [s["seat"] for s in seats if s["person"] and not s["taken"] and not s["invited"]],
    }
