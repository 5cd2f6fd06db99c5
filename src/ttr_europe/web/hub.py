"""The browser protocol: the matches a server hosts, who sits where, and what each message does.

Free of any web framework, so every message can be tested without a network: ``Hub.receive``
takes the text of one WebSocket message from one ``Client`` and returns the JSON documents to
send and to whom (an accepted move updates every tab of the match, each with its own seat's
view). The engine (``Match``) decides everything about the game; this module only checks the
shape of messages, which seat a connection holds, and turns refusals into JSON errors. A refused
message changes nothing.

Messages from the browser (JSON objects with a ``"type"``):

- ``{"type": "join", "match": id or null, "seat": n or null, "token": text or null}``: sit at a
  person's seat (null: watch). The first tab at a seat gets a secret ``token``; a tab that comes
  back with it (a reload, a closed tab reopened) gets its seat again, anyone else is refused.
- ``{"type": "act", "action": "claim Dieppe-Paris with 2pink"}``: a move in the notation, or as
  an action JSON document (a match begins ``MOVE_RATE`` turns a second, ``MOVE_BURST`` at once;
  a turn's second move is never refused for speed).
- ``{"type": "options", "route": id}`` or ``{"type": "options", "city": id}``: the legal claims
  of a route, or stations in a city, with their payments.
- ``{"type": "new"}``: start another match with the same settings; ``{"type": "play"}``: a
  person's seat to play at, in the latest match if nobody has sat or been sent there yet, else
  in a new one (what the page asks for when opened without a match); ``{"type": "ping"}``.
- ``join`` may carry ``"name"``: the name the seat's player goes by (at most 24 characters: a
  longer one is refused, ``bad_name``, as in ``create``),
  and ``"invite"``: the secret of the seat's invite link, which seats its first holder only.
- ``{"type": "create", "map": ..., "variant": ..., "seats": [{"kind": "here" | "invite" |
  "open" | bot, "name": ...}, ...], "public": true}``: a match made from the page (``lobby``);
  the answer ``created`` carries the tokens of the ``here`` seats and the invite secrets of the
  ``invite`` seats (kept for the friend the link goes to: never open to anyone else).
- ``{"type": "lobby"}``: the public matches still being played, with their free (``open``) seats.
- ``{"type": "mine", "games": [{"match", "seat", "token"}, ...]}``: "my games": how each of a
  browser's seats stands (``games``), sent again to this tab after every move in any of them.
- ``{"type": "rematch"}``: once a game is over, from a seated tab: a new match with the same
  map, variant, seats, bots, names and listing, each person's seat held by the same token
  (each person's browser sits again with what it holds), an unseated person's seat by a new
  invite; every tab of the old match is told ``rematch`` (the answer to a second ask is the
  same match).

Bots: after a message, the bots of each match it left to them move (``answer``: each decision
in a thread, so a slow bot or a ``cmd:`` program delays its own match only; ``receive``: at
once), and the match's tabs hear of the person's move with the bots' replies.

Matches live in a ``Store`` (SQLite): each move, seat token (hashed) and new match is committed
before any tab hears of it (``answer`` waits for the store's writer; ``receive`` is the same
for callers without an event loop), and a hub made on the same database restores every match
it held, bots included. Match ids are random and never reused, so a tab from before a restart
or from another server finds its own match or is told ``unknown_match``, never seated
elsewhere. At most ``max_matches`` are held in memory; to make room the hub archives (in the
database) a match nobody is connected to, never one whose person was seen within
``PERSON_IDLE`` seconds (``JOIN_GRACE`` for a match nobody has sat at yet); an archived match
comes back when a tab joins it. A match whose change the database did not take leaves memory
at once: each of its tabs gets ``not_saved`` (and nothing the database lacks), and a tab that
joins it again finds it as the database holds it.

Answers: ``joined``, ``update`` (view, board SVG, new events, the moves of the seat to act,
the seat's tickets with points and done marks, the scoreboard once over), ``options``,
``created``, ``pong`` and ``error`` (``code``, ``message``, and when a rule refused the move
``rule``, ``text``: the reason in a player's words, without the rule number, and ``words``:
that sentence in each language of the catalogs, ``ttr_europe.i18n``).
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import json
import logging
import secrets
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from concurrent.futures import wait as wait_for
from contextlib import suppress
from typing import Any

import attrs

from .._seeds import Deal
from ..actions import (
    Action,
    BuildStation,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
    PayTunnel,
    WithdrawTunnel,
)
from ..board import Map, Ticket
from ..errors import (
    ActionParseError,
    BotError,
    DataError,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    TTRError,
    in_words,
)
from ..errors import WebError as WebError  # noqa: PLC0414 (re-exported from its old home)
from ..i18n import LANGUAGES, translator
from ..jsonio import action_from_json, cards_json, parse_json, scoreboard_to_json
from ..loop import MAX_ACTIONS
from ..maps import available_maps
from ..players import close_bots, decide, make_bot
from ..render import render_svg, score_highlights
from ..state import Phase
from ..table.match import PERSON, Match, Seat
from . import lobby
from .store import SeatSpec, Store, Stored, mark_joined, share, sharing, token_hash

MAX_MESSAGE_CHARS = 16_384  # far above any legal message; the server's frame limit is larger
MAX_MATCHES = 64
JOIN_EVENTS = 200  # events replayed to a tab that joins late or comes back
MAX_WATCHERS = 32  # tabs watching one match; each costs work at every move
MAX_TABS_PER_SEAT = 8  # tabs at one seat (its token's holder may open several)
MESSAGE_TYPES = ("join", "act", "options", "new", "play", "ping", "create", "lobby", "mine",
                 "rematch")  # fmt: skip
MAX_NAME = 24  # characters of a player's chosen name
RATE = 20.0  # message credits a tab regains per second: above any person's clicking
BURST = 200.0  # credits a tab may hold: a quick series of moves, two joins back to back
# What a message costs beyond one credit: dealing and playing bots to a person's turn (``new``,
# ``play``); sending the whole position, about 120 kB (a granted ``join``); others cost one.
COSTS = {"new": 29.0, "play": 29.0, "create": 29.0, "join": 79.0, "lobby": 4.0}
# What a match may be asked to play: each accepted move (with the bots' replies, a commit and
# an update to every tab) costs the server a few milliseconds, so a match starts at most
# MOVE_RATE turns a second once its MOVE_BURST is spent, whatever number of tabs send them.
# Turns, not moves: the move that finishes a turn already started (the second card, the
# tickets kept, a tunnel paid or withdrawn) is never refused nor counted, so a person drawing
# two cards in quick succession is never stopped, while a turn has at most two moves and a
# flood is still held to the rate. Moves refused by the rules are cheap and not counted.
MOVE_RATE = 1.0
MOVE_BURST = 5.0
TURN_GOES_ON = frozenset({Phase.SECOND_DRAW, Phase.CHOOSE_TICKETS, Phase.TUNNEL})
PERSON_IDLE = 30 * 60.0  # seconds after a person was last seen during which a match stays
JOIN_GRACE = 60.0  # seconds a new match nobody has sat at yet stays, for its tab to join
ID_BYTES = 9  # random bytes in a match id (12 characters)
log = logging.getLogger("ttr_europe.web")

Json = dict[str, Any]
_CONNECTIONS = itertools.count()  # numbers the connections


@attrs.define(eq=False)
class Client:
    """One connection: the match and seat it joined, and the last event number it was sent.
    ``address``: where it comes from, as the server sees it (None: a connection of its own,
    as for a caller without a network)."""

    hosted: Hosted | None = None
    address: str | None = None
    seat: int | None = None
    seen: int = 0
    credits: float = BURST  # the rate limit's bucket (``Hub.receive``)
    checked: float | None = None  # when it was last filled
    follows: dict[str, set[int]] = attrs.field(factory=dict)  # "my games": match -> seats
    dealt: lobby.Window = attrs.field(factory=lobby.Window)  # the matches dealt for it lately
    number: int = attrs.field(factory=functools.partial(next, _CONNECTIONS))

    @property
    def dealer(self) -> str:
        """Whose limits on new matches it counts against: its address, else itself."""
        return self.address if self.address is not None else f"connection {self.number}"


@attrs.define(eq=False)
class Seating:
    """Who may sit where: each taken seat's token, each invited seat's secret (both hashed),
    the names people chose, and whether anyone has sat yet."""

    tokens: dict[int, str] = attrs.field(factory=dict)  # seat -> its token's hash
    invites: dict[int, str] = attrs.field(factory=dict)  # seat -> its invite secret's hash
    names: dict[int, str] = attrs.field(factory=dict)  # the names people chose for their seats
    joined: bool = False  # a person has taken a seat
    offered: bool = False  # ``play`` has handed out its first person's seat


@attrs.define(eq=False)
class Tabs:
    """The connections showing a match, and when a person was last seen at it."""

    seen: float  # wall clock
    clients: list[Client] = attrs.field(factory=list)
    waiting: tuple[int, float] | None = None  # a held seat to act with no tab, seen since


@attrs.define(eq=False)
class MoveBudget:
    """The turns a match may still begin now (``MOVE_RATE`` a second, ``MOVE_BURST`` at once),
    whatever number of tabs send them; refused moves and a turn's second move are not
    counted."""

    credits: float = MOVE_BURST
    checked: float | None = None  # when it was last filled

    def check(self, now: float) -> None:
        """Refill, then refuse (``too_fast``) unless a move may be made now."""
        if self.checked is not None:
            self.credits = min(MOVE_BURST, self.credits + (now - self.checked) * MOVE_RATE)
        self.checked = now
        if self.credits < 1:
            wait = (1 - self.credits) / MOVE_RATE
            raise WebError("too_fast", f"this match begins {MOVE_RATE:g} turn(s) a second: "
                           f"wait {wait:.2f} s")  # fmt: skip


@attrs.define(eq=False)
class Saving:
    """What of a match the database holds: its moves saved, its last change queued, and
    whether a change failed (the match is then out of play)."""

    saved: int = 0  # moves in the database
    writing: Future[None] | None = None  # its last change queued for the database
    lost: bool = False  # the database did not take a change: out of play, memory dropped


@attrs.define(eq=False)
class Shown:
    """What tabs are shown of one position (``seq``): per seat, the parts of an update that
    depend on the position alone, and the same as JSON text."""

    seq: int = -1
    docs: dict[int | None, Json] = attrs.field(factory=dict)
    texts: dict[int | None, str] = attrs.field(factory=dict)


@attrs.define(eq=False)
class Listing:
    """A match as the lobby knows it: listed or not, and whose message dealt it."""

    public: bool | None = None  # listed in the lobby; None: dealt by the server's settings
    maker: str | None = None  # the address whose message dealt it (``Client.dealer``)
    open: frozenset[int] = frozenset()  # seats open to anyone who finds it in the lobby


@attrs.define(eq=False)
class Thinking:
    """A match's bots deciding off the event loop, one decision at a time (``turn``)."""

    turn: asyncio.Lock = attrs.field(factory=asyncio.Lock)  # held while its bots decide
    busy: bool = False  # a bot of it is deciding in a thread: it stays in memory


@attrs.define(eq=False)
class Hosted:
    """A match on the server, its state by concern: who sits where (``seating``), its tabs,
    its move budget, what the database holds (``saving``), what tabs are shown of its position,
    what the lobby knows of it (``listing``) and its bots thinking."""

    id: str
    match: Match
    specs: list[SeatSpec]  # the seats as stored (a bot's spec makes it again on a restart)
    tabs: Tabs
    seating: Seating = attrs.field(factory=Seating)
    budget: MoveBudget = attrs.field(factory=MoveBudget)
    saving: Saving = attrs.field(factory=Saving)
    shown: Shown = attrs.field(factory=Shown)
    listing: Listing = attrs.field(factory=Listing)
    bots: Thinking = attrs.field(factory=Thinking)


Outgoing = list[tuple[Client, Json]]


def error(code: str, message: str, rule: str | None = None, **extra: Any) -> Json:
    return {"type": "error", "code": code, "message": message, "rule": rule, **extra}


class Hub:
    """The matches of one server. Not thread-safe: the server calls it from one event loop.

    ``store`` holds the matches (a throwaway in-memory database by default); the hub restores
    those it held when it was made. ``clock`` paces the rate limits, ``now`` (wall clock,
    stored) dates when people were seen.
    """

    def __init__(
        self,
        make_match: Callable[[], Match],
        *,
        store: Store | None = None,
        max_matches: int = MAX_MATCHES,
        clock: Callable[[], float] = time.monotonic,
        now: Callable[[], float] = time.time,
    ) -> None:
        self._make_match = make_match
        self._max_matches = max_matches
        self._clock = clock
        self._now = now
        self.store = store if store is not None else Store()
        self.matches: dict[str, Hosted] = {}
        self._maps: dict[str, Any] = {}  # the maps of the matches made here, by id
        self._writes: list[tuple[Hosted | None, Future[None]]] = []  # not yet settled
        self.followers: dict[str, set[Client]] = {}  # match id -> tabs whose "my games" has it
        self._created = lobby.Window()  # the matches made with ``create`` lately, server-wide
        self._dealt: dict[str, lobby.Window] = {}  # the same, per address
        self._lobby: tuple[float, Json, str] | None = None  # when made, the list, its text
        self._due: list[Hosted] | None = None  # during a message: matches whose bots move next
        self._playing: set[asyncio.Future[Outgoing]] = set()  # bots moving for a message
        # how answers reach a tab when the one who asked has gone (the server sets it)
        self.deliver: Callable[[Client, Json], None] | None = None
        self._rematches: dict[str, str] = {}  # a finished match -> its rematch (this run's)
        self._restore_all()
        # the server's own deals only: a match made in the lobby is its people's, never
        # handed to whoever asks for "the latest" (a private one's id is its privacy)
        live = [h for h in self.matches.values()
                if not h.match.finished and h.listing.public is None]  # fmt: skip
        self.latest = live[-1] if live else self.new_match()
        self._settle(self._wait(), [])

    # ------------------------------------------------------------------ matches

    def new_match(self, match: Match | None = None) -> Hosted:
        """A new match (``match``, else one the server's settings deal: the ``latest``, which
        ``play`` and a ``join`` without a match go to; bots move first if they are to act),
        saved before it is shown."""
        self._make_room()
        own = match is None
        match = self._make_match() if match is None else match
        self._maps.setdefault(match.state.map.id, match.state.map)
        specs = [SeatSpec(s.name, None if s.is_person else s.name) for s in match.seats]
        now = self._now()
        hosted = Hosted("", match, specs, Tabs(now))
        while True:  # a clash of 72 random bits is unheard of, but an id is never reused
            hosted.id = secrets.token_urlsafe(ID_BYTES)
            if hosted.id not in self.matches and not self.store.exists(hosted.id):
                break
        added = self.store.add(hosted.id, match.record(), hosted.specs, _rngs(hosted), now=now,
                               finished=match.finished)  # fmt: skip
        self._wrote(hosted, added)
        hosted.saving.saved = len(match.actions)
        self.matches[hosted.id] = hosted
        if own:
            self.latest = hosted
        self._bots_due(hosted)
        return hosted

    def find(self, match_id: str) -> Hosted | None:
        """The match of that id, brought back from the archive if need be; None if unknown."""
        hosted = self.matches.get(match_id)
        if hosted is not None:
            return hosted
        try:
            if not self.store.exists(match_id):
                return None
            self._make_room()
            stored = self.store.load(match_id)
            assert stored is not None
            # seen when it was last played, not now: a tab that asks for it and is refused (or
            # goes) does not hold it in memory, where it would keep others' matches out
            hosted = self._restore(stored, seen=stored.seen)
        except WebError:
            raise
        except TTRError as exc:  # a row, or a file, that cannot be read
            # why goes to the log alone: it may quote a move, a seat's ticket choice included
            log.warning("match %s cannot be restored: %s", match_id, exc)
            raise WebError("broken_match", f"match {match_id} cannot be restored") from None
        self._wrote(hosted, self.store.archive(match_id, None))
        return hosted

    def evictable(self, hosted: Hosted, now: float) -> bool:
        """Whether ``hosted`` may leave memory: nobody connected, and no person seen within
        ``PERSON_IDLE`` (``JOIN_GRACE`` when nobody has sat at it yet)."""
        quiet = PERSON_IDLE if hosted.seating.joined else JOIN_GRACE
        return not hosted.tabs.clients and not hosted.bots.busy and now - hosted.tabs.seen >= quiet

    def _make_room(self) -> None:
        """Archive one match if memory is full: finished ones first, then the longest idle."""
        if len(self.matches) < self._max_matches:
            return
        now = self._now()
        idle = [h for h in self.matches.values() if self.evictable(h, now)]
        if not idle:
            raise WebError(
                "too_many_matches",
                f"people are playing all {len(self.matches)} matches this server holds; "
                "try again in a few minutes",
            )
        self._archive(min(idle, key=lambda h: (not h.match.finished, h.tabs.seen)), now)

    def _archive(self, gone: Hosted, now: float) -> None:
        """``gone`` leaves memory, kept in the database (a tab that joins it brings it back)."""
        del self.matches[gone.id]
        self._wrote(None, self.store.archive(gone.id, now))
        close_bots(seat.bot for seat in gone.match.seats)  # a joined archive starts them anew

    def _deal(self, client: Client, match: Match | None = None) -> Hosted:
        """A new match for ``client``'s message (``new_match``), within the limits on new
        matches: its connection's, its address's, then (a match made from the page, ``match``,
        which the lobby may list) the server's (``lobby``), so that one client cannot use up
        what everyone shares; an address holding ``MAX_HELD_PER_ADDRESS`` unfinished matches
        gives up its oldest that no tab shows. Refused with ``too_many_new``, changing
        nothing. (The server's own deals, ``new`` and ``play``, are bounded server-wide by
        ``max_matches``.)"""
        now, wall = self._clock(), self._now()
        self._expire(wall)
        who = client.dealer
        mine = self._dealt.setdefault(who, lobby.Window())
        limits = [(client.dealt, lobby.MAX_NEW_PER_TAB, "by this tab"),
                  (mine, lobby.MAX_NEW_PER_ADDRESS, "from your address")]  # fmt: skip
        if match is not None:
            limits.append((self._created, lobby.MAX_CREATES, "on this server"))
        for window, most, whose in limits:
            wait = window.wait(now, most)
            if wait is not None:
                raise WebError("too_many_new", f"{most} matches were made {whose} in the last "
                               f"minute; try again in {wait:.0f} s")  # fmt: skip
        held = [h for h in self.matches.values() if h.listing.maker == who and not h.match.finished]
        if len(held) >= lobby.MAX_HELD_PER_ADDRESS:
            unshown = [h for h in held if not h.tabs.clients and not h.bots.busy]
            if not unshown:
                raise WebError("too_many_new", f"{len(held)} unfinished matches made from your "
                               "address are open in tabs; finish or close one first")  # fmt: skip
            self._archive(min(unshown, key=lambda h: h.tabs.seen), wall)
        hosted = self.new_match(match)
        hosted.listing.maker = who
        for window, _, _ in limits:
            window.times.append(now)
        return hosted

    def _expire(self, now: float) -> None:
        """Archive the junk: matches nobody has sat at, with no tab, for ``UNPLAYED_TTL`` (they
        leave the lobby); and forget the windows of quiet addresses."""
        for hosted in list(self.matches.values()):
            quiet = not hosted.tabs.clients and not hosted.bots.busy and not hosted.seating.joined
            if quiet and now - hosted.tabs.seen >= lobby.UNPLAYED_TTL:
                self._archive(hosted, now)
        clock = self._clock()
        for who in [w for w, window in self._dealt.items() if window.wait(clock, 1) is None]:
            del self._dealt[who]

    def _free_away_seats(self, now: float) -> None:
        """A match listed in the lobby that has waited ``SEAT_AWAY`` on an open seat taken by
        someone with no tab there now (they left) frees that seat: its token and name are
        forgotten and the lobby offers it again, so a stranger who took it and went cannot
        hold the match up. The wait is counted from the first time this sees it (the lobby's
        list is made again whenever someone looks at it, and only someone looking could take
        the seat). The maker's seats and an invited friend's are kept for them (a device
        passed from hand to hand holds its seats with no tab at them). The match's tabs are
        told at once."""
        for hosted in list(self.matches.values()):
            match, seating, tabs = hosted.match, hosted.seating, hosted.tabs
            seat = match.state.current
            if (hosted.listing.public is not True or match.finished
                    or seat not in seating.tokens or seat not in hosted.listing.open
                    or any(c.seat == seat for c in tabs.clients)):  # fmt: skip
                tabs.waiting = None
                continue
            if tabs.waiting is None or tabs.waiting[0] != seat:
                tabs.waiting = (seat, now)
            if now - tabs.waiting[1] < lobby.SEAT_AWAY:
                continue
            del seating.tokens[seat]
            seating.names.pop(seat, None)
            tabs.waiting = None
            self._wrote(hosted, self.store.seat_freed(hosted.id, seat))
            if self.deliver is not None:
                for other in list(tabs.clients):
                    if other.hosted is hosted:
                        self.deliver(other, self._update(other))

    def _restore_all(self) -> None:
        """Bring back the matches the database says were live (the ``max_matches`` most
        recently seen; any others are archived), in the order they were made; one that cannot
        be restored (its map is gone, its row unreadable) is archived and logged."""
        loaded: list[Stored] = []
        for match_id in self.store.live():
            try:
                stored = self.store.load(match_id)
            except TTRError as exc:
                log.warning("match %s not restored: %s", match_id, exc)
                self._wrote(None, self.store.archive(match_id, self._now()))
                continue
            if stored is not None:
                loaded.append(stored)
        by_seen = sorted(loaded, key=lambda s: s.seen)
        keep = {s.id for s in by_seen[max(0, len(loaded) - self._max_matches) :]}
        for stored in loaded:  # oldest first, as they were made
            try:
                if stored.id in keep:
                    self._restore(stored)
                    continue
            except TTRError as exc:
                log.warning("match %s not restored: %s", stored.id, exc)
            self._wrote(None, self.store.archive(stored.id, self._now()))

    def _rebuild(self, stored: Stored) -> tuple[Match, list[SeatSpec]]:
        """A stored match's moves replayed, its bots seated with their generators as they
        were (a bot this server cannot build is replaced by a random one)."""
        specs: list[SeatSpec] = []
        seats: list[Seat] = []
        for i, saved in enumerate(stored.seats):
            spec = saved
            if spec.bot is None:
                seats.append(Seat(spec.name))
            else:
                try:
                    seats.append(Seat(spec.name, make_bot(spec.bot)))
                except TTRError as exc:
                    log.warning("match %s seat %d: %s; a random bot plays it", stored.id, i, exc)
                    spec = SeatSpec(f"random for {spec.name}", "random")
                    seats.append(Seat(spec.name, make_bot("random")))
            specs.append(spec)
        match = Match.from_record(stored.record, seats, map=self._maps.get(stored.record.map))
        self._maps.setdefault(match.state.map.id, match.state.map)
        for seat, state in stored.rngs.items():
            match.rngs[seat].setstate(state)
        return match, specs

    def _restore(self, stored: Stored, seen: float | None = None) -> Hosted:
        """A stored match in memory again; its bots move if it is their turn. Its people count
        as seen at ``seen``, or now (a restart: their tabs come back within seconds)."""
        match, specs = self._rebuild(stored)
        public, invites, opened = sharing(self.store, stored.id)
        seating = Seating(dict(stored.tokens), invites, dict(stored.names), stored.joined)
        seen = self._now() if seen is None else seen
        hosted = Hosted(stored.id, match, specs, Tabs(seen), seating,
                        saving=Saving(len(stored.record.actions)),
                        listing=Listing(public, open=opened))  # fmt: skip
        self.matches[hosted.id] = hosted
        self._bots_due(hosted)
        return hosted

    # ------------------------------------------------------------------ bots

    def _bots_due(self, hosted: Hosted) -> bool:
        """Whether a bot of ``hosted`` is to act and moves once the message being handled is
        (the answer tells of its moves); outside a message (a restart, a caller of
        ``new_match``) its bots move now, and nobody is there to be told."""
        if hosted.match.bot_to_act() is None:
            return False
        if self._due is None:
            if _bots_move(hosted):
                log.warning("match %s: a bot failed; a stand-in plays on", hosted.id)
            self._save(hosted)
            return False
        if hosted not in self._due:
            self._due.append(hosted)
        return True

    async def _think(self, hosted: Hosted) -> list[str]:
        """The bots' moves until a person must act or the game ends, each decision in a
        thread (a program's answer, a search) so that the event loop serves every other match
        meanwhile; the moves are made here, on the loop, one match's at a time (``turn``).
        Returns what failed, each failed bot's seat given to a random stand-in."""
        faults: list[str] = []
        async with hosted.bots.turn:
            hosted.bots.busy = True
            try:
                for _ in range(MAX_ACTIONS):  # the game loop's cap on a bot never ending it
                    asked = hosted.match.bot_to_act()
                    if asked is None or hosted.saving.lost:
                        break
                    try:
                        action = await asyncio.to_thread(decide, *asked)
                    except BotError as exc:
                        faults.append(_stand_in(hosted, exc))
                        continue
                    if not hosted.saving.lost:
                        hosted.match.bot_move(action)
            finally:
                hosted.bots.busy = False
        return faults

    def _moved(self, hosted: Hosted, faults: list[str]) -> Outgoing:
        """The moves since the last save queued for the database, and what each tab of the
        match (and each "my games" holding it) is told of them."""
        if hosted.saving.lost:
            return []
        self._save(hosted)
        updates = [(c, self._update(c)) for c in hosted.tabs.clients]
        updates += [(c, error("bot_failed", f)) for f in faults for c in hosted.tabs.clients]
        return updates + [(c, self._games(c)) for c in self.followers.get(hosted.id, ())]

    def _save(self, hosted: Hosted) -> None:
        """Queue the moves made since the last save for the database (what is told of them
        waits for the commit, ``answer``)."""
        match = hosted.match
        if len(match.actions) == hosted.saving.saved:
            return
        texts = [str(a) for a in match.actions[hosted.saving.saved :]]
        self._wrote(hosted, self.store.moved(hosted.id, hosted.saving.saved, texts, hosted.specs,
                                             _rngs(hosted), now=self._now(),
                                             finished=match.finished))  # fmt: skip
        hosted.saving.saved = len(match.actions)
        if match.finished:  # a bot's program has nothing more to do: end it now, not at exit
            close_bots(seat.bot for seat in match.seats)

    def leave(self, client: Client) -> None:
        """Forget a closed connection (its seat stays reserved for its token). When it was its
        seat's last tab, the match's other tabs hear at once that the seat is no longer at the
        table (``online``), as they hear a person come, not at the next move."""
        hosted, seat = client.hosted, client.seat
        if hosted is not None and client in hosted.tabs.clients:
            hosted.tabs.clients.remove(client)
            if seat is not None:
                hosted.tabs.seen = self._now()
        client.hosted, client.seat = None, None
        if hosted is None or seat is None or self.deliver is None:
            return
        if not any(c.seat == seat for c in hosted.tabs.clients):
            for other in list(hosted.tabs.clients):  # a tab too far behind may leave meanwhile
                if other.hosted is hosted:
                    self.deliver(other, self._update(other))

    # ------------------------------------------------------------------ durability

    def _wrote(self, hosted: Hosted | None, change: Future[None]) -> None:
        """A change queued for the database on behalf of ``hosted`` (None: of no match)."""
        self._writes.append((hosted, change))
        if hosted is not None:
            hosted.saving.writing = change

    def _wait(self) -> list[tuple[Client, Json, Hosted | None]]:
        """Block until every queued change is settled (for callers without an event loop)."""
        wait_for([change for _, change in self._writes])
        return []

    async def answer(self, client: Client, text: str | bytes) -> Outgoing:
        """``receive`` for the server's event loop: the answers come once the database holds
        what they tell (each change queued for the matches they show is committed), and other
        messages are handled meanwhile; many matches' moves share one commit. An answer that
        shows no match (a pong, most refusals) waits for nothing.

        The bots of the matches the message left to them move in a task of their own: if the
        asking tab goes (its connection closes while they think), they play on, and what the
        other tabs are to hear goes to them through ``deliver``."""
        out, due = self._handled(client, text)
        if not due:
            return await self._told(out, client)
        work = asyncio.ensure_future(self._bots_then_told(out, due, client))
        self._playing.add(work)
        work.add_done_callback(self._playing.discard)
        try:
            return await asyncio.shield(work)
        except asyncio.CancelledError:
            work.add_done_callback(self._told_late)
            raise

    def _handled(self, client: Client, text: str | bytes) -> tuple[Outgoing, list[Hosted]]:
        """The answers to one message, and the matches whose bots are to move after it."""
        self._due = []
        try:
            out = self._handle(client, text)
        finally:
            due, self._due = self._due, None
        return out, due

    async def _bots_then_told(self, out: Outgoing, due: list[Hosted], client: Client) -> Outgoing:
        for hosted in due:  # their bots decide off the loop; other messages are served meanwhile
            out += self._moved(hosted, await self._think(hosted))
        return await self._told(out, client)

    async def _told(self, out: Outgoing, client: Client) -> Outgoing:
        """``out`` once every change queued for the matches it shows is settled."""
        told = self._tag(out)
        for change in {
            h.saving.writing for _, _, h in told if h is not None and h.saving.writing is not None
        }:
            with suppress(Exception):  # a failure is read from each change by _settle
                await asyncio.wrap_future(change)
        return self._settle(told, [client])

    def _told_late(self, work: asyncio.Future[Outgoing]) -> None:
        """The answers of bots that moved after their asking tab went, to the tabs still here."""
        if work.cancelled():
            return
        failure = work.exception()
        if failure is not None:
            log.error("the bots' moves were not told: %s", failure, exc_info=failure)
            return
        if self.deliver is not None:
            for target, doc in work.result():
                self.deliver(target, doc)

    def disconnect(self, client: Client) -> None:
        """Forget a closed connection, its "my games" included."""
        self.leave(client)
        self.disconnect_follows(client)

    def receive(self, client: Client, text: str | bytes) -> Outgoing:
        """Handle one message and return its answers once the database holds what they tell
        (``answer`` without an event loop)."""
        out, due = self._handled(client, text)
        for hosted in due:
            out += self._moved(hosted, _bots_move(hosted))
        told = self._tag(out)
        self._wait()
        return self._settle(told, [client])

    def _tag(self, out: Outgoing) -> list[tuple[Client, Json, Hosted | None]]:
        """Each answer with the match it shows, as it is now in memory."""
        return [(c, d, self.matches.get(d.get("match", ""))) for c, d in out]

    def _settle(self, told: list[tuple[Client, Json, Hosted | None]],
                senders: list[Client]) -> Outgoing:  # fmt: skip
        """The answers that may go out now that the changes before them are settled: a match
        whose change failed is lost (``_lose``), and nothing of it is told but ``not_saved``."""
        done = [(h, c) for h, c in self._writes if c.done()]
        self._writes = [(h, c) for h, c in self._writes if not c.done()]
        out: Outgoing = []
        for hosted, change in done:
            failure = change.exception()
            if failure is not None and hosted is not None and not hosted.saving.lost:
                out += self._lose(hosted, failure)
        told_lost = {c for c, _, h in told if h is not None and h.saving.lost}
        out += [(c, d) for c, d, h in told if h is None or not h.saving.lost]
        warned = {c for c, d in out if d.get("code") == "not_saved"}
        out += [(c, _not_saved()) for c in senders if c in told_lost and c not in warned]
        return out

    def _lose(self, hosted: Hosted, failure: BaseException) -> Outgoing:
        """Take a match the database did not follow out of play: out of memory, its tabs let
        go with ``not_saved``; joined again, it comes back as the database holds it."""
        hosted.saving.lost = True
        log.error("match %s: not saved (%s); its tabs are told and it leaves memory",
                  hosted.id, failure)  # fmt: skip
        if self.matches.get(hosted.id) is hosted:
            del self.matches[hosted.id]
        tabs = list(hosted.tabs.clients)
        for client in tabs:
            client.hosted, client.seat = None, None
        hosted.tabs.clients.clear()
        close_bots(seat.bot for seat in hosted.match.seats)
        return [(c, _not_saved()) for c in tabs]

    def _handle(self, client: Client, text: str | bytes) -> Outgoing:
        """Handle one message; every refusal is a JSON error to the sender alone.

        Each tab has a bucket of ``BURST`` credits that refills at ``RATE`` a second; a message
        costs one credit, a ``new`` and an accepted ``join`` ``COSTS`` more, and a tab out of
        credits is refused (``too_fast``) before the work is done, so no tab can keep the server
        busy for the others.
        """
        try:
            self._charge(client, 1.0)
            if client.hosted is not None and client.seat is not None:
                client.hosted.tabs.seen = self._now()  # a person is here
            message = _parse(text)
            handler = getattr(self, f"_on_{message['type']}")
            out: Outgoing = handler(client, message)
            return out
        except WebError as exc:
            return [(client, error(exc.code, str(exc)))]
        except GameOverError as exc:
            text = "The game is over."
            return [(client, error("game_over", str(exc), exc.rule, text=text, words=_words(exc)))]
        except NotYourTurnError as exc:
            text = "It is not your turn."
            return [
                (client, error("not_your_turn", str(exc), exc.rule, text=text, words=_words(exc)))
            ]
        except IllegalActionError as exc:
            return [
                (
                    client,
                    error(
                        "illegal", str(exc), exc.rule, text=in_words(exc.reason), words=_words(exc)
                    ),
                )
            ]
        except ActionParseError as exc:
            candidates = list(exc.candidates)
            return [(client, error("unreadable", str(exc), None, candidates=candidates))]
        except TTRError as exc:
            return [(client, error("bad_message", str(exc)))]

    def credit_wait(self, client: Client) -> float:
        """Seconds until the tab holds a message's credit again: its connection is not read
        meanwhile, so a tab sending faster than ``RATE`` is held back by the network (its
        frames wait unread, not inflated, decoded and refused one by one)."""
        credits = client.credits
        if client.checked is not None:
            credits = min(BURST, credits + (self._clock() - client.checked) * RATE)
        return max(0.0, (1.0 - credits) / RATE)

    def _charge(self, client: Client, cost: float) -> None:
        now = self._clock()
        if client.checked is not None:
            client.credits = min(BURST, client.credits + (now - client.checked) * RATE)
        client.checked = now
        if client.credits < cost:
            wait = (cost - client.credits) / RATE
            raise WebError("too_fast", f"too many messages: wait {wait:.2f} s")
        client.credits -= cost

    # ------------------------------------------------------------------ messages

    def _on_ping(self, client: Client, message: Json) -> Outgoing:
        _fields(message, ())
        return [(client, {"type": "pong"})]

    def _on_new(self, client: Client, message: Json) -> Outgoing:
        _fields(message, ())
        self._charge(client, COSTS["new"])
        hosted = self._deal(client)
        people = [i for i, s in enumerate(hosted.match.seats) if s.is_person]
        created = {"type": "created", "match": hosted.id, "seat": people[0] if people else None}
        return [(client, created)]

    def _on_play(self, client: Client, message: Json) -> Outgoing:
        _fields(message, ())
        self._charge(client, COSTS["play"])
        latest = self.latest  # dealt at the start, or by the last "new"
        people = any(s.is_person for s in latest.match.seats)
        seating = latest.seating
        fresh = (latest.id in self.matches and not seating.tokens and not seating.offered
                 and not latest.match.finished)  # fmt: skip
        # nobody sat there or was sent there yet: that seat, for this tab alone (many tabs
        # asking at once each get their own); only bots play (every match alike): watch them
        hosted = latest if fresh or not people else self._deal(client)
        hosted.seating.offered = people
        first = next((i for i, s in enumerate(hosted.match.seats) if s.is_person), None)
        return [(client, {"type": "created", "match": hosted.id, "seat": first})]

    def _on_join(self, client: Client, message: Json) -> Outgoing:
        _fields(message, ("match", "seat", "token", "name", "invite"))
        match_id = _optional(message, "match", str)
        seat = _optional(message, "seat", int)
        token = _optional(message, "token", str)
        invite = _optional(message, "invite", str)
        name = _name(_optional(message, "name", str))
        archived = (match_id is not None and match_id not in self.matches
                    and self.store.exists(match_id))  # fmt: skip
        if archived:  # bringing a match back replays its moves: that costs, whatever follows
            self._charge(client, COSTS["join"])
        hosted = self._joined_match(client, match_id)
        if seat is not None:
            _may_sit(hosted, seat, token, invite)
        others = [c for c in hosted.tabs.clients if c is not client and c.seat == seat]
        if len(others) >= (MAX_WATCHERS if seat is None else MAX_TABS_PER_SEAT):
            where = "watching this match" if seat is None else f"at {_player(seat)}'s seat"
            raise WebError("too_many_tabs", f"{len(others)} tabs are {where} already")
        if not archived:  # else paid above; only a join that sends the position costs more
            self._charge(client, COSTS["join"])
        seated = seat is not None and seat not in hosted.seating.tokens
        renamed = seat is not None and name is not None and hosted.seating.names.get(seat) != name
        if seat is not None:
            token = self._sit(hosted, seat, token, name)
        self.leave(client)
        client.hosted, client.seat, client.seen = hosted, seat, 0
        hosted.tabs.clients.append(client)
        joined = {"type": "joined", "match": hosted.id, "seat": seat, "token": token}
        # the tabs whose "my games" hold this match hear that the seat is taken or renamed
        told = [(c, self._games(c)) for c in self.followers.get(hosted.id, ()) if seated or renamed]
        # ...and a new name, or a person come to a seat no tab held (shown "at the table now"),
        # shows at once on every other tab of the match, not at the next move
        arrived = seat is not None and not others
        redrawn = [(c, self._update(c)) for c in hosted.tabs.clients
                   if c is not client and (renamed or arrived)]  # fmt: skip
        return [(client, joined), (client, self._update(client)), *redrawn, *told]

    def _joined_match(self, client: Client, match_id: str | None) -> Hosted:
        """The match a ``join`` names (None: the latest, or a new one if it left memory)."""
        if match_id is None:
            return self.latest if self.latest.id in self.matches else self._deal(client)
        found = self.find(match_id)
        if found is None:
            raise WebError(
                "unknown_match", f"no match {match_id!r} on this server: start a new game"
            )
        return found

    def _sit(self, hosted: Hosted, seat: int, token: str | None, name: str | None) -> str | None:
        """A person at ``seat`` (allowed by ``_may_sit``): the seat's first tab gets its token,
        saved first; the name its player chose, saved. Returns the tab's token."""
        hosted.tabs.seen = self._now()
        if seat not in hosted.seating.tokens:
            token = secrets.token_urlsafe(16)
            taken = self.store.seat_taken(hosted.id, seat, token_hash(token), now=hosted.tabs.seen)
            self._wrote(hosted, taken)
            hosted.seating.tokens[seat] = token_hash(token)
            hosted.seating.joined = True
        elif not hosted.seating.joined:  # a seat reserved for its maker's device
            self._wrote(hosted, mark_joined(self.store, hosted.id, now=hosted.tabs.seen))
            hosted.seating.joined = True
        if name and hosted.seating.names.get(seat) != name:
            self._wrote(hosted, self.store.named(hosted.id, seat, name))
            hosted.seating.names[seat] = name
        return token

    def _on_act(self, client: Client, message: Json) -> Outgoing:
        _fields(message, ("action", "seat"))
        hosted, seat = _seated(client)
        claimed = _optional(message, "seat", int)
        if claimed is not None and claimed != seat:
            raise WebError(
                "not_your_seat", f"this tab holds {_player(seat)}'s seat, not {_player(claimed)}'s"
            )
        action = message.get("action")
        match = hosted.match
        if isinstance(action, dict):
            action = action_from_json(action, map=match.state.map, source="action")
        elif not isinstance(action, str):
            raise WebError("bad_message", '"action" is the text or JSON document of an action')
        counted = match.state.phase not in TURN_GOES_ON  # a turn's first move
        if counted:
            hosted.budget.check(self._clock())
        match.play(seat, action, bots=False)
        if counted:
            hosted.budget.credits -= 1  # only a turn begun counts
        if self._bots_due(hosted):
            return []  # the tabs hear of it with the bots' replies (``answer``)
        return self._moved(hosted, [])  # saved before any tab hears of the move

    def _on_create(self, client: Client, message: Json) -> Outgoing:
        _fields(message, ("map", "variant", "seats", "public"))
        wanted = lobby.settings(message, available_maps(), _name)
        deal = Deal.fresh()  # a secret deal: nothing a seat sees leads back to it
        match = wanted.match(deal.game_seed(0), deal.bot_seed(0))  # bad settings: refused now
        self._charge(client, COSTS["create"])
        hosted = self._deal(client, match)
        tokens = {i: secrets.token_urlsafe(16) for i, k in enumerate(wanted.seats) if k == "here"}
        invites = {i: secrets.token_urlsafe(16) for i, k in enumerate(wanted.seats)
                   if k == "invite"}  # fmt: skip
        hashed = {i: token_hash(t) for i, t in tokens.items()}
        invited = {i: token_hash(t) for i, t in invites.items()}
        opened = frozenset(i for i, k in enumerate(wanted.seats) if k == "open")
        self._wrote(hosted, share(self.store, hosted.id, public=wanted.public, reserved=hashed,
                                  invites=invited, open=opened))  # fmt: skip
        hosted.listing.open = opened
        for i, name in enumerate(wanted.names):
            if name is not None:
                self._wrote(hosted, self.store.named(hosted.id, i, name))
                hosted.seating.names[i] = name
        hosted.seating.tokens.update(hashed)
        hosted.listing.public = wanted.public
        hosted.seating.invites = {i: token_hash(t) for i, t in invites.items()}
        first = min(tokens, default=None)
        created = {"type": "created", "match": hosted.id, "seat": first,
                   "tokens": {str(i): t for i, t in tokens.items()},
                   "invites": {str(i): t for i, t in invites.items()}}  # fmt: skip
        return [(client, created)]

    def _on_rematch(self, client: Client, message: Json) -> Outgoing:
        """The same table again once a game is over: same settings and people, a new deal."""
        _fields(message, ())
        hosted, _ = _seated(client)
        if not hosted.match.finished:
            raise WebError("not_over", "a rematch is made once the game is over")
        again = self._rematches.get(hosted.id)
        invites: dict[int, str] = {}
        if again is None or self.find(again) is None:
            self._charge(client, COSTS["create"])
            state = hosted.match.state
            kinds = [PERSON if s.bot is None else s.bot for s in hosted.specs]
            deal = Deal.fresh()  # a new secret deal, as every match the lobby makes
            match = Match.new(state.map, state.rules.variant.id, len(kinds), deal.game_seed(0),
                              kinds, bot_seed=deal.bot_seed(0))  # fmt: skip
            made = self._deal(client, match)
            people = [i for i, s in enumerate(match.seats) if s.is_person]
            # a person who never came: a new invite, unless the seat was open to anyone
            seating = hosted.seating
            unseated = [i for i in people if i not in seating.tokens]
            invites = {i: secrets.token_urlsafe(16) for i in unseated
                       if i in seating.invites or not hosted.listing.public}  # fmt: skip
            made.seating.invites = {i: token_hash(t) for i, t in invites.items()}
            made.seating.tokens.update({i: h for i, h in seating.tokens.items() if i in people})
            made.listing.public = bool(hosted.listing.public)
            made.listing.open = frozenset(i for i in unseated if i not in invites)
            shared = share(self.store, made.id, public=made.listing.public,
                           reserved=dict(made.seating.tokens),
                           invites=dict(made.seating.invites), open=made.listing.open)  # fmt: skip
            self._wrote(made, shared)
            for i, name in seating.names.items():
                self._wrote(made, self.store.named(made.id, i, name))
                made.seating.names[i] = name
            again = self._rematches[hosted.id] = made.id
        told = {"type": "rematch", "match": hosted.id, "rematch": again}
        mine = {**told, "invites": {str(i): t for i, t in invites.items()}}
        return [(c, mine if c is client else told) for c in hosted.tabs.clients]

    def _on_lobby(self, client: Client, message: Json) -> Outgoing:
        """The lobby's list, made at most once every ``LOBBY_FRESH`` seconds and turned into
        text once for every tab that asks meanwhile (the page asks every few seconds)."""
        _fields(message, ())
        self._charge(client, COSTS["lobby"])
        now = self._clock()
        if self._lobby is None or now - self._lobby[0] >= lobby.LOBBY_FRESH:
            self._expire(self._now())
            self._free_away_seats(self._now())
            listed = [h for h in self.matches.values() if h.listing.public and not h.match.finished]
            rows = [self._summary(h) for h in reversed(listed[-lobby.MAX_LOBBY :])]
            doc = {"type": "lobby", "matches": rows, "choices": lobby.choices()}
            self._lobby = (now, doc, json.dumps(doc))
        return [(client, self._lobby[1])]

    def _on_mine(self, client: Client, message: Json) -> Outgoing:
        _fields(message, ("games",))
        asked = message.get("games")
        if not isinstance(asked, list) or len(asked) > lobby.MAX_MINE:
            raise WebError("bad_message", f'"games" lists at most {lobby.MAX_MINE} seats')
        wanted: dict[str, set[int]] = {}
        for entry in asked:
            if not isinstance(entry, dict) or set(entry) != {"match", "seat", "token"}:
                raise WebError("bad_message", 'each of "games" is {"match", "seat", "token"}')
            match_id, seat, token = entry["match"], entry["seat"], entry["token"]
            if not (isinstance(match_id, str) and isinstance(token, str)
                    and isinstance(seat, int) and not isinstance(seat, bool)):  # fmt: skip
                raise WebError("bad_message", "a game is a match id, a seat number and a token")
            hosted = self.matches.get(match_id)
            if hosted is None:  # kept in the database, not in memory now (or no such match)
                held = self.store.token_hash(match_id, seat) if abs(seat) < 1 << 62 else None
            else:
                held = hosted.seating.tokens.get(seat)
            if held is not None and _same(held, token):
                wanted.setdefault(match_id, set()).add(seat)
        self._charge(client, len(asked) / 4)
        self.disconnect_follows(client)
        client.follows = wanted
        for match_id in wanted:
            self.followers.setdefault(match_id, set()).add(client)
        return [(client, self._games(client))]

    def disconnect_follows(self, client: Client) -> None:
        """Stop sending this tab "my games" (it asks again with its new list)."""
        follows, client.follows = client.follows, {}
        for match_id in follows:
            followers = self.followers.get(match_id)
            if followers is not None:
                followers.discard(client)
                if not followers:
                    del self.followers[match_id]

    def _summary(self, hosted: Hosted) -> Json:
        names = lobby.seat_names(hosted.match, hosted.seating.names)
        taken, invited = set(hosted.seating.tokens), set(hosted.seating.invites)
        return lobby.summary(hosted.id, hosted.match, taken, names, invited)

    def _games(self, client: Client) -> Json:
        """How each of the tab's seats stands; a match not in memory is named as kept."""
        games: list[Json] = []
        for match_id, seats in client.follows.items():
            hosted = self.matches.get(match_id)
            row = {"match": match_id, "kept": True} if hosted is None else self._summary(hosted)
            games += [{**row, "seat": s} for s in sorted(seats)]
        return {"type": "games", "games": games}

    def _on_options(self, client: Client, message: Json) -> Outgoing:
        _fields(message, ("route", "city"))
        hosted, seat = _seated(client)
        route = _optional(message, "route", str)
        city = _optional(message, "city", str)
        board = hosted.match.state.map
        if (route is None) == (city is None):
            raise WebError("bad_message", 'ask the options of one "route" or one "city"')
        if route is not None and route not in board.route_index:
            raise WebError("bad_message", f"no route {route!r} on {board.id}")
        if city is not None and city not in board.city_index:
            raise WebError("bad_message", f"no city {city!r} on {board.id}")
        found = [
            {"action": str(a), "payment": cards_json(a.payment)}
            for a in hosted.match.legal(seat)
            if (isinstance(a, ClaimRoute) and a.route == route)
            or (isinstance(a, BuildStation) and a.city == city)
        ]
        answer = {"type": "options", "route": route, "city": city, "actions": found}
        return [(client, answer)]

    # ------------------------------------------------------------------ updates

    def _update(self, client: Client) -> Json:
        """Everything a tab shows, as its seat may know it, with the events it has not seen.

        What depends only on the position and the seat (view, board, moves, scores) is made
        once per position and seat and shared by every tab and every join until the next move.
        """
        hosted = client.hosted
        assert hosted is not None
        match, seat = hosted.match, client.seat
        if hosted.shown.seq != match.seq:
            hosted.shown.docs, hosted.shown.texts, hosted.shown.seq = {}, {}, match.seq
        shown = hosted.shown.docs.get(seat)
        if shown is None:
            shown = hosted.shown.docs[seat] = self._position(hosted, seat)
        events = match.events_since(client.seen, seat)[-JOIN_EVENTS:]
        client.seen = match.seq
        names = lobby.seat_names(match, hosted.seating.names)
        kept = set(hosted.seating.tokens) | set(hosted.seating.invites)  # the friend's alone
        seats = [
            {
                "seat": i,
                "name": s.name,
                "person": s.is_person,
                "taken": i in hosted.seating.tokens,
                "open": s.is_person and i not in kept and hosted.listing.public is not False,
                "invited": i in hosted.seating.invites and i not in hosted.seating.tokens,
                "online": sum(c.seat == i for c in hosted.tabs.clients),
                "player": names[i],
                "stations_left": match.state.stations_left(i),
            }
            for i, s in enumerate(match.seats)
        ]
        doc: Json = {"type": "update", "match": hosted.id, "seat": seat, "seq": match.seq,
                     "current": match.current, "finished": match.finished, "seats": seats,
                     "view": shown["view"], "board": shown["board"],
                     "events": [{"seq": n, "event": e.to_json()} for n, e in events],
                     "moves": shown["moves"], "tickets": shown["tickets"],
                     "offer": shown["offer"],
                     "ticket_names": shown["ticket_names"]}  # fmt: skip
        if match.finished:
            doc["scoreboard"] = shown["scoreboard"]
            doc["highlights"] = shown["highlights"]
            doc["rematch"] = self._rematches.get(hosted.id)
        return doc

    def encode(self, doc: Json) -> str:
        """The JSON text of a document to send. The parts of an update shared by every tab at
        a position (the board alone is about 100 kB) are turned into text once, not per tab."""
        if self._lobby is not None and doc is self._lobby[1]:
            return self._lobby[2]
        if doc.get("type") != "update":
            return json.dumps(doc)
        hosted = self.matches.get(doc["match"])
        seat = doc["seat"]
        parts = (
            None
            if hosted is None or hosted.shown.seq != doc["seq"]
            else hosted.shown.docs.get(seat)
        )
        if parts is None or hosted is None or any(doc.get(k) is not v for k, v in parts.items()):
            return json.dumps(doc)
        text = hosted.shown.texts.get(seat)
        if text is None:
            text = hosted.shown.texts[seat] = json.dumps(parts)[1:-1]
        rest = json.dumps({k: v for k, v in doc.items() if k not in parts})
        return f"{rest[:-1]}, {text}}}"

    @staticmethod
    def _position(hosted: Hosted, seat: int | None) -> Json:
        """The parts of an update that depend on the position and seat only."""
        match = hosted.match
        view = match.view(seat)
        to_act = seat is not None and seat == match.current  # None == None once it is over
        offer = [] if seat is None else view.players[seat].offer or ()
        parts: Json = {
            "view": view.to_json(),
            "board": render_svg(view, sidebar=False),
            "moves": moves(match.legal(seat)) if to_act else None,
            "tickets": _tickets(match, seat),
            "offer": [_ticket(match.state.map.ticket(t)) for t in offer],
            "ticket_names": ticket_names(match.state.map),
        }
        if match.finished:
            board = match.scoreboard()
            parts["scoreboard"] = scoreboard_to_json(board)
            parts["highlights"] = [
                [
                    {"label": h.label, "routes": list(h.routes), "cities": list(h.cities)}
                    for h in score_highlights(board, i, map=match.state.map)
                ]
                for i in range(len(match.seats))
            ]
        return parts


def _ticket(ticket: Ticket) -> Json:
    return {"ticket": ticket.id, "points": ticket.points, "long": ticket.long}


@functools.lru_cache(maxsize=8)
def ticket_names(board: Map) -> dict[str, str]:
    """Each ticket as the map spells its cities ("Zürich – Brindisi"; ids are plain ASCII)."""
    return {t.id: f"{board.cities[t.a].name} – {board.cities[t.b].name}" for t in board.tickets}


def _tickets(match: Match, seat: int | None) -> list[Json]:
    """The seat's kept tickets: points, long or not, and whether its routes (and stations, as
    final scoring would use them) join the two cities yet, with the path when they do."""
    if seat is None or not match.state.players[seat].tickets:
        return []
    board = match.state.map
    scored = match.scoreboard().players[seat].tickets
    return [
        {**_ticket(board.ticket(t.ticket)), "done": t.completed, "routes": list(t.routes),
         "cities": [board.cities[board.ticket(t.ticket).a].id,
                    board.cities[board.ticket(t.ticket).b].id]}
        for t in scored
    ]  # fmt: skip


def _same(hashed: str, secret: str) -> bool:
    """Whether ``secret`` is the token or invite secret whose hash is ``hashed``."""
    return secrets.compare_digest(hashed, token_hash(secret))


def _player(seat: int) -> str:
    """A seat as the page numbers it: "Player 1" for seat 0."""
    return f"Player {seat + 1}"


def _name(text: str | None) -> str | None:
    """A chosen name, printable (controls and bidi overrides dropped, spaces collapsed); None
    when nothing is left of it. A longer name than ``MAX_NAME`` is refused (``bad_name``), never
    cut: the page's fields stop at the limit, so a cut would only hide a client's mistake."""
    if text is None:
        return None
    kept = " ".join("".join(c for c in text if c.isprintable()).split())
    if len(kept) > MAX_NAME:
        raise WebError("bad_name", f"a name is at most {MAX_NAME} characters, not {len(kept)}")
    return kept or None


def _words(exc: IllegalActionError) -> dict[str, str]:
    """The refusal in each language of the catalogs: the page shows the one it speaks."""
    return {lang: translator(lang).refusal(exc) for lang in LANGUAGES}


def _bots_move(hosted: Hosted) -> list[str]:
    """Bot moves until a person must act or the game ends; each bot that fails on the way
    hands its seat to a random stand-in, so the game goes on. Returns what failed."""
    faults: list[str] = []
    while True:
        try:
            hosted.match.advance()
        except BotError as exc:
            faults.append(_stand_in(hosted, exc))
        else:
            return faults


def _stand_in(hosted: Hosted, exc: BotError) -> str:
    """Give the seat of the bot that just failed to a random bot; the fault, said for tabs.

    The tabs hear which seat's bot failed, never why: the reason holds what the bot said or
    raised (its standard error, its answer), made from its view, and its stand-in plays on with
    the same hand and tickets. The reason goes to the server's log, for the operator."""
    seat = hosted.match.state.current
    name = hosted.match.seats[seat].name  # the table's name for it, not one the bot chose
    log.warning("match %s: %s failed: %s", hosted.id, _player(seat), exc)
    hosted.specs[seat] = SeatSpec(hosted.match.stand_in(seat).name, "random")
    return (
        f"the bot {name!r} of {_player(seat)} failed; a random bot plays for {_player(seat)} "
        "from now on"
    )


def _rngs(hosted: Hosted) -> dict[int, Any]:
    """The generator state of each bot seat, to be saved with its moves."""
    rngs = hosted.match.rngs
    return {i: rngs[i].getstate() for i, s in enumerate(hosted.specs) if s.bot is not None}


def moves(actions: Sequence[Action]) -> Json:
    """The legal moves of the seat to act, summarised for buttons: face-up slots, the blind
    draw, tickets, how many payments each route and city allows, ticket choices, tunnel
    payments. A claim or station is then asked for with an ``options`` message."""
    claims: Counter[str] = Counter()
    stations: Counter[str] = Counter()
    out: Json = {"draw": [], "blind": False, "tickets": False, "withdraw": False, "pass": False,
                 "keep": [], "pay": []}  # fmt: skip
    for action in actions:
        if isinstance(action, ClaimRoute):
            claims[action.route] += 1
        elif isinstance(action, BuildStation):
            stations[action.city] += 1
        elif isinstance(action, DrawFaceUp):
            out["draw"].append(action.slot)
        elif isinstance(action, KeepTickets):
            out["keep"].append({"action": str(action), "tickets": list(action.tickets)})
        elif isinstance(action, PayTunnel):
            out["pay"].append({"action": str(action), "payment": cards_json(action.payment)})
        else:
            key = {DrawBlind: "blind", DrawTickets: "tickets", WithdrawTunnel: "withdraw",
                   Pass: "pass"}[type(action)]  # fmt: skip
            out[key] = True
    out["claims"] = dict(claims)
    out["stations"] = dict(stations)
    return out


def _parse(text: str | bytes) -> Json:
    if not isinstance(text, str):
        raise WebError("bad_message", "send text frames holding JSON objects")
    if len(text) > MAX_MESSAGE_CHARS:
        raise WebError(
            "too_large", f"a message holds at most {MAX_MESSAGE_CHARS} characters, not {len(text)}"
        )
    try:
        message = parse_json(text, "message", MAX_MESSAGE_CHARS)
    except DataError as exc:  # the path names a repeated key ("$.type: key given twice")
        raise WebError(
            "not_json", exc.reason if exc.path == "$" else f"{exc.path}: {exc.reason}"
        ) from None
    if not isinstance(message, dict):
        raise WebError("bad_message", 'a message is a JSON object with a "type"')
    kind = message.get("type")
    if kind not in MESSAGE_TYPES:
        raise WebError("bad_message", f'"type" is one of {", ".join(MESSAGE_TYPES)}, not {kind!r}')
    return message


def _fields(message: Json, allowed: tuple[str, ...]) -> None:
    extra = sorted(set(message) - {"type", *allowed})
    if extra:
        raise WebError("bad_message", f"unknown field {extra[0]!r} in a {message['type']!r}")


def _optional(message: Json, name: str, kind: type) -> Any:
    value = message.get(name)
    # bool is an int to Python, never a seat to us
    if value is not None and (not isinstance(value, kind) or isinstance(value, bool)):
        raise WebError("bad_message", f'"{name}" must be {kind.__name__} or null, not {value!r}')
    return value


def _not_saved() -> Json:
    return error("not_saved", "the server could not save that; reload the page to go on from "
                 "the last move it saved")  # fmt: skip


def _may_sit(hosted: Hosted, seat: int, token: str | None, invite: str | None) -> None:
    """Refuse a tab the seat it asks for unless it is a person's seat and the tab holds its
    token, its invite, or (a public match's free seat) nothing is needed."""
    seats = hosted.match.seats
    if not 0 <= seat < len(seats):
        raise WebError("no_seat", f"no {_player(seat)} in a {len(seats)}-player game")
    if not seats[seat].is_person:
        raise WebError("bot_seat", f"{_player(seat)} is played by a bot")
    held = hosted.seating.tokens.get(seat)
    mine = held is not None and token is not None and _same(held, token)
    if invite is not None and not mine:
        expected = hosted.seating.invites.get(seat)
        if expected is None or not _same(expected, invite):
            raise WebError("bad_invite", "this invite link is not one of this match's")
        if held is not None:  # only this link seats anyone there: it was opened
            raise WebError(
                "invite_used",
                f"{_player(seat)}'s invite link was opened already, in another "
                "browser, which holds the seat now",
            )
    elif held is not None and not mine:
        raise WebError("seat_taken", f"{_player(seat)}'s seat is taken, in another browser")
    elif held is None and (hosted.listing.public is False or seat in hosted.seating.invites):
        raise WebError(
            "invite_only", f"{_player(seat)}'s seat is kept for the friend invited to it"
        )


def _seated(client: Client) -> tuple[Hosted, int]:
    if client.hosted is None:
        raise WebError("not_joined", "join a match first")
    if client.seat is None:
        raise WebError("spectator", "a spectator cannot move; join a seat")
    return client.hosted, client.seat
