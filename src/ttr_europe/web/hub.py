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
  an action JSON document.
- ``{"type": "options", "route": id}`` or ``{"type": "options", "city": id}``: the legal claims
  of a route, or stations in a city, with their payments.
- ``{"type": "new"}``: start another match with the same settings; ``{"type": "play"}``: a
  person's seat to play at, in the latest match if nobody has sat there yet, else in a new one
  (what the page asks for when opened without a match); ``{"type": "ping"}``.
- ``join`` may carry ``"name"``: the name the seat's player goes by (at most 24 characters).

Answers: ``joined``, ``update`` (view, board SVG, new events, the moves of the seat to act,
the seat's tickets with points and done marks, the scoreboard once over), ``options``,
``created``, ``pong`` and ``error`` (``code``, ``message``, and when a rule refused the move
``rule`` and ``text``: the reason in a player's words, without the rule number).
"""

from __future__ import annotations

import re
import secrets
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import attrs

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
from ..board import Ticket
from ..errors import (
    ActionParseError,
    BotError,
    DataError,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    TTRError,
)
from ..errors import WebError as WebError  # noqa: PLC0414 (re-exported from its old home)
from ..jsonio import action_from_json, cards_json, parse_json, scoreboard_to_json
from ..match import Match
from ..render import render_svg, score_highlights

MAX_MESSAGE_CHARS = 16_384  # far above any legal message; the server's frame limit is larger
MAX_MATCHES = 64
JOIN_EVENTS = 200  # events replayed to a tab that joins late or comes back
MAX_WATCHERS = 32  # tabs watching one match; each costs work at every move
MAX_TABS_PER_SEAT = 8  # tabs at one seat (its token's holder may open several)
MESSAGE_TYPES = ("join", "act", "options", "new", "play", "ping")
MAX_NAME = 24  # characters of a player's chosen name
RATE = 50.0  # message credits a tab regains per second: far above any person's clicking
BURST = 100.0  # credits a tab may hold, so a quick series of moves is never refused
# What a message costs beyond one credit: dealing and playing bots to a person's turn, drawing
# the board; every other message costs one.
COSTS = {"new": 25.0, "play": 25.0, "join": 5.0}

Json = dict[str, Any]


@attrs.define(eq=False)
class Client:
    """One connection: the match and seat it joined, and the last event number it was sent."""

    hosted: Hosted | None = None
    seat: int | None = None
    seen: int = 0
    credits: float = BURST  # the rate limit's bucket (``Hub.receive``)
    checked: float | None = None  # when it was last filled


@attrs.define(eq=False)
class Hosted:
    """A match on the server with its seat tokens and connected clients."""

    id: str
    match: Match
    tokens: dict[int, str] = attrs.field(factory=dict)
    clients: list[Client] = attrs.field(factory=list)
    names: dict[int, str] = attrs.field(factory=dict)  # the names people chose for their seats


Outgoing = list[tuple[Client, Json]]


def error(code: str, message: str, rule: str | None = None, **extra: Any) -> Json:
    return {"type": "error", "code": code, "message": message, "rule": rule, **extra}


class Hub:
    """The matches of one server. Not thread-safe: the server calls it from one event loop."""

    def __init__(
        self,
        make_match: Callable[[], Match],
        *,
        max_matches: int = MAX_MATCHES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._make_match = make_match
        self._max_matches = max_matches
        self._clock = clock
        self._next = 1
        self.matches: dict[str, Hosted] = {}
        self.latest = self.new_match()

    def new_match(self) -> Hosted:
        """A new match (bots move first if they are to act); an idle one may go: the oldest
        that is over or where nobody sits, else the oldest a person may come back to."""
        if len(self.matches) >= self._max_matches:
            idle = [h for h in self.matches.values() if not h.clients]
            if not idle:
                raise WebError("too_many_matches", "the server holds as many matches as it may")
            gone = min(idle, key=lambda h: not (h.match.finished or not h.tokens))
            del self.matches[gone.id]
        match = self._make_match()
        _bots_move(match)  # nobody to tell yet: the seat names show a stand-in
        hosted = Hosted(str(self._next), match)
        self._next += 1
        self.matches[hosted.id] = hosted
        self.latest = hosted
        return hosted

    def leave(self, client: Client) -> None:
        """Forget a closed connection (its seat stays reserved for its token)."""
        if client.hosted is not None and client in client.hosted.clients:
            client.hosted.clients.remove(client)
        client.hosted, client.seat = None, None

    def receive(self, client: Client, text: str | bytes) -> Outgoing:
        """Handle one message; every refusal is a JSON error to the sender alone.

        Each tab has a bucket of ``BURST`` credits that refills at ``RATE`` a second; a message
        costs one credit and ``COSTS`` more by type, and a tab out of credits is refused
        (``too_fast``) without the message being read further, so no tab can keep the server
        busy for the others.
        """
        try:
            self._charge(client, 1.0)
            message = _parse(text)
            self._charge(client, COSTS.get(message["type"], 0.0))
            handler = getattr(self, f"_on_{message['type']}")
            out: Outgoing = handler(client, message)
            return out
        except WebError as exc:
            return [(client, error(exc.code, str(exc)))]
        except GameOverError as exc:
            text = "The game is over."
            return [(client, error("game_over", str(exc), exc.rule, text=text))]
        except NotYourTurnError as exc:
            text = "It is not your turn."
            return [(client, error("not_your_turn", str(exc), exc.rule, text=text))]
        except IllegalActionError as exc:
            return [(client, error("illegal", str(exc), exc.rule, text=in_words(exc.reason)))]
        except ActionParseError as exc:
            candidates = list(exc.candidates)
            return [(client, error("unreadable", str(exc), None, candidates=candidates))]
        except TTRError as exc:
            return [(client, error("bad_message", str(exc)))]

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
        hosted = self.new_match()
        people = [i for i, s in enumerate(hosted.match.seats) if s.is_person]
        created = {"type": "created", "match": hosted.id, "seat": people[0] if people else None}
        return [(client, created)]

    def _on_play(self, client: Client, message: Json) -> Outgoing:
        _fields(message, ())
        latest = self.latest  # dealt at the start, or by the last "new"
        people = any(s.is_person for s in latest.match.seats)
        fresh = latest.id in self.matches and not latest.tokens and not latest.match.finished
        # nobody sat there yet: that seat; only bots play (every match alike): watch them
        hosted = latest if fresh or not people else self.new_match()
        first = next((i for i, s in enumerate(hosted.match.seats) if s.is_person), None)
        return [(client, {"type": "created", "match": hosted.id, "seat": first})]

    def _on_join(self, client: Client, message: Json) -> Outgoing:
        _fields(message, ("match", "seat", "token", "name"))
        match_id = _optional(message, "match", str)
        seat = _optional(message, "seat", int)
        token = _optional(message, "token", str)
        name = _name(_optional(message, "name", str))
        hosted = self.latest if match_id is None else self.matches.get(match_id)
        if hosted is None:
            raise WebError("unknown_match", f"no match {match_id!r} on this server")
        seats = hosted.match.seats
        if seat is not None:
            if not 0 <= seat < len(seats):
                raise WebError("no_seat", f"no seat {seat} in a {len(seats)}-player game")
            if not seats[seat].is_person:
                raise WebError("bot_seat", f"seat {seat} is played by a bot")
            held = hosted.tokens.get(seat)
            if held is None:
                hosted.tokens[seat] = token = secrets.token_urlsafe(16)
            elif token is None or not secrets.compare_digest(held, token):
                raise WebError("seat_taken", f"seat {seat} is taken by another tab")
        others = [c for c in hosted.clients if c is not client and c.seat == seat]
        if len(others) >= (MAX_WATCHERS if seat is None else MAX_TABS_PER_SEAT):
            where = "watching this match" if seat is None else f"at seat {seat}"
            raise WebError("too_many_tabs", f"{len(others)} tabs are {where} already")
        self.leave(client)
        client.hosted, client.seat, client.seen = hosted, seat, 0
        hosted.clients.append(client)
        if seat is not None and name:
            hosted.names[seat] = name
        joined = {"type": "joined", "match": hosted.id, "seat": seat, "token": token}
        return [(client, joined), (client, self._update(client))]

    def _on_act(self, client: Client, message: Json) -> Outgoing:
        _fields(message, ("action", "seat"))
        hosted, seat = _seated(client)
        claimed = _optional(message, "seat", int)
        if claimed is not None and claimed != seat:
            raise WebError("not_your_seat", f"this tab holds seat {seat}, not seat {claimed}")
        action = message.get("action")
        match = hosted.match
        if isinstance(action, dict):
            action = action_from_json(action, map=match.state.map, source="action")
        elif not isinstance(action, str):
            raise WebError("bad_message", '"action" is the text or JSON document of an action')
        faults: list[str] = []
        try:
            match.play(seat, action)
        except BotError as exc:  # the move stands; a stand-in takes the failed bot's seat
            faults = [_stand_in(match, exc), *_bots_move(match)]
        boards: dict[int | None, str] = {}  # one drawing per seat, however many tabs
        updates = [(c, self._update(c, boards)) for c in hosted.clients]
        return updates + [(c, error("bot_failed", f)) for f in faults for c in hosted.clients]

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

    def _update(self, client: Client, boards: dict[int | None, str] | None = None) -> Json:
        """Everything a tab shows, as its seat may know it, with the events it has not seen
        (``boards``: the board drawn for each seat so far, shared by the tabs of one move)."""
        hosted = client.hosted
        assert hosted is not None
        match, seat = hosted.match, client.seat
        view = match.view(seat)
        state = match.state
        boards = {} if boards is None else boards
        if seat not in boards:
            boards[seat] = render_svg(view, sidebar=False)
        events = match.events_since(client.seen, seat)[-JOIN_EVENTS:]
        client.seen = match.seq
        to_act = seat is not None and seat == match.current  # None == None once it is over
        doc: Json = {
            "type": "update",
            "match": hosted.id,
            "seat": seat,
            "seq": match.seq,
            "current": match.current,
            "finished": match.finished,
            "seats": [
                {
                    "seat": i,
                    "name": s.name,
                    "person": s.is_person,
                    "taken": i in hosted.tokens,
                    "online": sum(c.seat == i for c in hosted.clients),
                    "player": hosted.names.get(i) or _given_name(i, s.name, s.is_person),
                    "stations_left": state.stations_left(i),
                }
                for i, s in enumerate(match.seats)
            ],
            "view": view.to_json(),
            "board": boards[seat],
            "events": [{"seq": n, "event": e.to_json()} for n, e in events],
            "moves": moves(match.legal(seat)) if to_act else None,
            "tickets": _tickets(match, seat),
            "offer": [] if seat is None else [
                _ticket(state.map.ticket(t)) for t in view.players[seat].offer or ()
            ],
        }  # fmt: skip
        if match.finished:
            board = match.scoreboard()
            doc["scoreboard"] = scoreboard_to_json(board)
            doc["highlights"] = [
                [
                    {"label": h.label, "routes": list(h.routes), "cities": list(h.cities)}
                    for h in score_highlights(board, i, map=match.state.map)
                ]
                for i in range(len(match.seats))
            ]
        return doc


def _ticket(ticket: Ticket) -> Json:
    return {"ticket": ticket.id, "points": ticket.points, "long": ticket.long}


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


def _given_name(seat: int, name: str, person: bool) -> str:
    """The name shown for a seat whose player chose none: "Player 1", "Greedy bot"."""
    return f"Player {seat + 1}" if person else f"{name[:1].upper()}{name[1:]} bot"


def _name(text: str | None) -> str | None:
    """A chosen name, printable and short; None when nothing is left of it."""
    if text is None:
        return None
    kept = " ".join("".join(c for c in text if c.isprintable()).split())[:MAX_NAME]
    return kept or None


def in_words(reason: str) -> str:
    """A rule's reason as a sentence for players: "keep at least 2 ticket(s)" becomes "Keep at
    least 2 tickets." (the rule's number travels apart, for those who want it)."""

    def agree(m: re.Match[str]) -> str:
        return m.group(1) + m.group(2) + ("" if m.group(1) == "1 " else "s")

    text = re.sub(r"(\d+ )((?:\w+ )*?\w+)\(s\)", agree, reason.strip())
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def _bots_move(match: Match) -> list[str]:
    """Bot moves until a person must act or the game ends; each bot that fails on the way
    hands its seat to a random stand-in, so the game goes on. Returns what failed."""
    faults: list[str] = []
    while True:
        try:
            match.advance()
        except BotError as exc:
            faults.append(_stand_in(match, exc))
        else:
            return faults


def _stand_in(match: Match, exc: BotError) -> str:
    """Give the seat of the bot that just failed to a random bot; the fault, said for tabs."""
    seat = match.state.current
    match.stand_in(seat)
    return f"{exc}; a random bot plays seat {seat} from now on"


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
    except DataError as exc:
        raise WebError("not_json", exc.reason) from None
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


def _seated(client: Client) -> tuple[Hosted, int]:
    if client.hosted is None:
        raise WebError("not_joined", "join a match first")
    if client.seat is None:
        raise WebError("spectator", "a spectator cannot move; join a seat")
    return client.hosted, client.seat
