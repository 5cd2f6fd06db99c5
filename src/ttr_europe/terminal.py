"""Playing in a terminal, and the readable play log shared by ``play`` and ``replay``.

The play log has one line per turn: the position after it (what ``replay --at N`` draws), the
turn (``start`` for the starting tickets), the seat, then each move in notation with what it did
in brackets, from the events (the card a draw took, the refills, what a tunnel revealed).

``Terminal`` runs a ``Match`` for the persons at one keyboard: before each decision it shows the
seat's view (face-up row, hand, tickets with those already connected, trains and points of
every seat, what happened since) and a short numbered menu; a person answers with a number, a
move in the friendly notation (``parse_action``), ``help``, ``undo`` or ``quit``. Bad input is
answered with a message and the game is unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from .actions import Action, BuildStation, ClaimRoute, DrawFaceUp, KeepTickets, parse
from .cards import KIND_NAMES, Cards
from .errors import (
    ActionParseError,
    BotError,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    TTRError,
    in_words,
)
from .events import (
    BlindDrawn,
    Event,
    FaceUpTaken,
    GameOver,
    LastRound,
    Passed,
    Reshuffled,
    RouteClaimed,
    RowReset,
    SlotRefilled,
    StationBuilt,
    TicketsDrawn,
    TicketsKept,
    TunnelPaid,
    TunnelRevealed,
    TunnelWithdrawn,
    TurnStarted,
    visible_to,
)
from .match import Match, MatchError
from .rules import events_between, legal_actions
from .state import NO_CARD, GameState, Phase
from .views import View

LEGEND = (
    "Each line: the position after it (replay --at N), the turn, the seat, then its moves "
    "in notation with what they did in brackets."
)
MAX_LINE = 2000  # characters read from one line of input; a real move is under 300
MENU_CLAIMS = 20  # routes offered in the numbered menu (any other move can be typed)
MENU_SIZE = 40
STEPS = {
    Phase.INITIAL_TICKETS: "choose your starting tickets",
    Phase.TURN: "your turn",
    Phase.SECOND_DRAW: "take a second card",
    Phase.CHOOSE_TICKETS: "keep tickets",
    Phase.TUNNEL: "the tunnel asks for more cards",
    Phase.GAME_OVER: "game over",
}


def printable(text: str) -> str:
    """``text`` with every unprintable character (escapes, controls) shown as ``?``."""
    return "".join(c if c.isprintable() else "?" for c in text)


def card_name(kind: int | None) -> str:
    return "-" if kind is None or kind == NO_CARD else KIND_NAMES[kind]


def plural(n: int, word: str) -> str:
    """``1 ticket``, ``2 tickets``: a count with its noun agreeing."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def describe(event: Event) -> str:
    """A short phrase for one event ("" when the move's notation says it all)."""
    if isinstance(event, FaceUpTaken):
        return f"took {card_name(event.card)}"
    if isinstance(event, BlindDrawn):
        return "drew a card" if event.card is None else f"drew {card_name(event.card)}"
    if isinstance(event, SlotRefilled):
        return f"slot {event.slot + 1} now {card_name(event.card)}"
    if isinstance(event, RowReset):
        return "three locomotives: row " + " ".join(map(card_name, event.discarded)) + " discarded"
    if isinstance(event, Reshuffled):
        return f"{event.cards} discarded cards shuffled into a new pile"
    if isinstance(event, TunnelRevealed):
        shown = " ".join(map(card_name, event.revealed)) or "nothing (no cards left)"
        due = f"{event.extra} more due" if event.extra else "nothing more due"
        return f"tunnel shows {shown}: {due}"
    if isinstance(event, RouteClaimed):
        return (
            f"claimed, +{plural(event.points, 'point')}, {plural(event.trains_left, 'train')} left"
        )
    if isinstance(event, TunnelWithdrawn):
        return f"took back {event.returned}"
    if isinstance(event, TicketsDrawn):
        if event.tickets is None:
            return f"drew {plural(event.count, 'ticket')}"
        return "drew " + ", ".join(event.tickets)
    if isinstance(event, TicketsKept):
        kept = f"kept {event.kept_count}"
        return f"{kept}, returned {event.returned_count} to the {event.returned_to}"
    if isinstance(event, LastRound):
        trains, turns = plural(event.trains, "train"), plural(event.turns, "turn")
        return f"LAST ROUND: seat {event.seat} has {trains} left; {turns} to go"
    if isinstance(event, GameOver):
        return "game over"
    assert isinstance(event, TurnStarted | Passed | TunnelPaid | StationBuilt)
    return ""


def move_text(action: Action, events: Iterable[Event]) -> str:
    """A move in notation with what it did; a keep hides its tickets when its events do."""
    phrases = [p for p in map(describe, events) if p]
    text = str(action)
    hidden_keep = any(isinstance(e, TicketsKept) and e.kept is None for e in events)
    if isinstance(action, KeepTickets) and hidden_keep:
        text = "keep"
    return f"{text} ({'; '.join(phrases)})" if phrases else text


class PlayLog:
    """Turn lines from moves as they are played; events shown as ``viewer`` may see them
    (``everything=True``: unfiltered, for a game between bots or a replay)."""

    def __init__(self, viewer: int | None = None, *, everything: bool = False) -> None:
        self.viewer = viewer
        self.everything = everything
        self.turn = 0
        self.position = 0
        self.lines: list[str] = []
        self._moves: list[str] = []

    def add(self, before: GameState, action: Action, after: GameState) -> str | None:
        """Note one move; returns the turn's line when this move ended the turn."""
        events: Iterable[Event] = events_between(before, action, after)
        if not self.everything:
            shown = (visible_to(e, self.viewer) for e in events)
            events = [e for e in shown if e is not None]
        self.position += 1
        self._moves.append(move_text(action, list(events)))
        if after.current == before.current and after.phase is not Phase.GAME_OVER:
            return None
        if before.phase is Phase.INITIAL_TICKETS:
            label = "start"
        else:
            self.turn += 1
            label = str(self.turn)
        line = f"{self.position:>4} {label:>5} seat {before.current}: {'; '.join(self._moves)}"
        self._moves = []
        self.lines.append(line)
        return line


def play_log(
    states: Sequence[GameState], actions: Sequence[Action], *, everything: bool = True
) -> list[str]:
    """The turn lines of a whole game (``states[i + 1]`` follows ``actions[i]``)."""
    log = PlayLog(everything=everything)
    lines = []
    for i, action in enumerate(actions):
        line = log.add(states[i], action, states[i + 1])
        if line is not None:
            lines.append(line)
    return lines


# --------------------------------------------------------------------------- the view


def _cards_line(cards: Cards) -> str:
    parts = [f"{n} {KIND_NAMES[k]}" for k, n in enumerate(cards) if n]
    return ", ".join(parts) if parts else "no cards"


def _table_line(row: Sequence[int], pile: int, discard: int, ticket_deck: int) -> str:
    """The face-up row with slot numbers and the sizes of the piles."""
    slots = "  ".join(f"{i + 1}:{card_name(k)}" for i, k in enumerate(row))
    return f"Face-up  {slots}    pile {pile}, discard {discard}, ticket deck {ticket_deck}"


def show_view(match: Match, seat: int) -> list[str]:
    """The lines a person sees before deciding."""
    view: View = match.view(seat)
    state = match.state
    board = state.map
    me = view.players[seat]
    lines = [_table_line(view.row, view.pile_size, view.discard.total, view.ticket_deck_size)]
    hand = me.hand if me.hand is not None else Cards()
    lines.append(f"Hand ({hand.total})  {_cards_line(hand)}")
    done = _connected(match, seat)
    tickets = [
        f"{'done' if t in done else 'open'} {t} ({board.tickets[board.ticket_index[t]].points})"
        for t in me.tickets or ()
    ]
    lines.append("Tickets  " + (" | ".join(tickets) if tickets else "none yet"))
    if me.offer:
        lines.append(
            "Offer    "
            + " | ".join(
                f"{i + 1}: {t} ({board.tickets[board.ticket_index[t]].points})"
                for i, t in enumerate(me.offer)
            )
        )
    stations = board.variants[view.variant].stations
    for p in view.players:
        who = "you" if p.seat == seat else match.seats[p.seat].name
        station_part = f", stations left {stations - len(p.stations)}" if stations else ""
        lines.append(
            f"  seat {p.seat} ({who}): trains {p.trains}, route points {p.score}, "
            f"cards {p.hand_size}, tickets {p.ticket_count}{station_part}"
        )
    if view.tunnel is not None:
        t = view.tunnel
        lines.append(
            f"Tunnel {t.route}: laid {t.laid}, revealed "
            + " ".join(card_name(k) for k in t.revealed)
            + f": pay {t.extra} more {card_name(t.colour)} or loco, or withdraw"
        )
    if view.final_turns >= 0:
        lines.append(last_round_text(view.final_turns))
    return lines


def last_round_text(owed: int) -> str:
    """The last round's count as the page says it: the turns still owed count the one being
    played (R46), so on the very last turn none come after it."""
    after = owed - 1
    return (f"Last round: {plural(after, 'turn')} left after this one" if after > 0
            else "Last round: this is the last turn")  # fmt: skip


_MID_TURN = (Phase.SECOND_DRAW, Phase.CHOOSE_TICKETS, Phase.TUNNEL)


def this_turn(match: Match, seat: int) -> list[str]:
    """The moves ``seat`` has made in the turn still under way, with what they did."""
    states, actions = match.states, match.actions
    moves: list[str] = []
    i = len(actions) - 1
    while i >= 0 and states[i + 1].phase in _MID_TURN and states[i].current == seat:
        shown = [visible_to(e, seat) for e in events_between(states[i], actions[i], states[i + 1])]
        moves.insert(0, move_text(actions[i], [e for e in shown if e is not None]))
        if states[i].phase not in _MID_TURN:
            break
        i -= 1
    return moves


def _connected(match: Match, seat: int) -> set[str]:
    """The seat's tickets already joined by its routes (and stations), as scoring sees them."""
    if not match.state.players[seat].tickets:
        return set()
    from .scoring import score

    return {t.ticket for t in score(match.state).players[seat].tickets if t.completed}


def menu(state: GameState) -> list[Action]:
    """A short list of likely moves: every choice of a pending step, or the draws, tickets and
    one payment (fewest locomotives) per claimable route."""
    legal = legal_actions(state)
    if state.phase is not Phase.TURN:
        return list(legal[:MENU_SIZE])
    out: list[Action] = []
    claims: dict[str, ClaimRoute] = {}
    for action in legal:
        if isinstance(action, ClaimRoute):
            best = claims.get(action.route)
            if best is None or action.payment.locomotives < best.payment.locomotives:
                claims[action.route] = action
        elif not isinstance(action, BuildStation):  # typed: there are too many cities
            out.append(action)
    ranked = sorted(claims.values(), key=lambda a: -state.map.routes[
        state.map.route_index[a.route]].length)  # fmt: skip
    return out + ranked[:MENU_CLAIMS]


def numbered(state: GameState) -> dict[int, Action]:
    """The menu by number: a face-up draw is numbered by its slot, as ``draw N`` says it (a
    slot that cannot be taken leaves its number out); the other moves follow from 6."""
    choices = menu(state)
    draws = {a.slot + 1: a for a in choices if isinstance(a, DrawFaceUp)}
    rest = [a for a in choices if not isinstance(a, DrawFaceUp)]
    first = len(state.row) + 1 if draws else 1
    return draws | {first + i: a for i, a in enumerate(rest)}


def menu_text(state: GameState, action: Action) -> str:
    if isinstance(action, DrawFaceUp):
        return f"{action} ({card_name(state.row[action.slot])})"
    if isinstance(action, ClaimRoute):
        route = state.map.route(action.route)
        kind = ", tunnel" if route.tunnel else ""
        kind += f", ferry ({plural(route.ferry, 'loco')})" if route.ferry else ""
        return f"{action}  [length {route.length}, {plural(route.points, 'point')}{kind}]"
    return str(action)


def help_text(state: GameState) -> str:
    """The moves and commands, with examples that exist on this map and variant."""
    board = state.map
    route = min(board.routes, key=lambda r: (len(r.id), r.id))  # short names fit the column
    city = min(board.cities, key=lambda c: (len(c.name), c.name))
    ticket = min(board.tickets, key=lambda t: (len(t.id), t.id))
    claim, station = f"claim {route.id}", f"station {city.name}"
    stations = tunnels = ""
    if state.rules.variant.stations:
        stations = f'  {station:<22} build a station (add "with 2blue" to choose the cards)\n'
    if any(r.tunnel for r in board.routes):
        tunnels = (
            "  pay / pay 1loco        pay a tunnel's extra; withdraw to take your cards back\n"
        )
    return f"""\
Moves (words in any case; cities by name, id or English name):
  draw 3 / draw red      take a face-up card (slot 1-5, or a colour)
  blind                  take the top card of the pile
  tickets                draw destination tickets; then keep 1 3 / keep all / keep {ticket.id}
  {claim:<22} claim a route (add "with 2red+1loco" to choose the cards)
{stations}{tunnels}  pass                   only when nothing else is possible
Or type the number of a choice in the menu.
Commands: help, view (show the position again), routes (your routes), board (every seat's
routes and stations), undo (take back your last move), quit (save the game record and stop)."""


def routes_text(state: GameState, seat: int, viewer: int) -> str:
    """One seat's routes with their lengths and points, and its stations."""
    board = state.map
    who = "You have" if seat == viewer else f"Seat {seat} has"
    mine = [r for r in board.routes if state.owners[r.index] == seat]
    stations = [board.cities[c].name for c in state.players[seat].stations]
    if not mine:
        text = f"{who} no routes yet"
    else:
        listed = ", ".join(f"{r.id} ({r.length})" for r in mine)
        points = sum(r.points for r in mine)
        text = f"{who} {plural(len(mine), 'route')} ({plural(points, 'point')}): {listed}"
    return text + (f"; stations in {', '.join(stations)}" if stations else "")


# --------------------------------------------------------------------------- the loop


class Terminal:
    """A match played at one keyboard: persons type, bots move, the log is printed."""

    def __init__(
        self,
        match: Match,
        read: Callable[[str], str | None],
        write: Callable[[str], None],
        save: Callable[[Match], str],
        *,
        draw: Callable[[Match, int], str] | None = None,
    ) -> None:
        """``save`` writes the record and returns where; ``draw`` (for ``board``) draws the
        board as a seat sees it and returns where."""
        self.match = match
        self.read = read
        self.write = write
        self.save = save
        self.draw = draw
        persons = [i for i, s in enumerate(match.seats) if s.is_person]
        self.viewer = persons[0] if len(persons) == 1 else None
        self._menu: dict[int, Action] = {}
        self._rebuild_log()

    def _rebuild_log(self) -> None:
        """The log as if every move so far had been printed (after a resume or an undo)."""
        self.log = PlayLog(self.viewer)
        states, actions = self.match.states, self.match.actions
        for i, action in enumerate(actions):
            self.log.add(states[i], action, states[i + 1])
        self._printed = len(actions)

    def run(self) -> bool:
        """Play until the game ends (True) or a person quits (False; the record is saved).

        A bot that fails (``BotError``) gives its seat to a random stand-in
        (``Match.stand_in``) and the game goes on; the reason is written."""
        recent = self.log.lines[-len(self.match.seats) :]
        if recent:
            self.write("Recent turns:")
            for line in recent:
                self.write(line)
        self._catch_up()
        while not self.match.finished:
            seat = self.match.state.current
            try:
                if not self.match.seats[seat].is_person:
                    self.match.step()
                    self._catch_up()
                    continue
                self._show(seat)
                if not self._decide(seat):
                    self._saved()
                    return False
            except BotError as exc:  # the moves made stand, the person's included
                self._catch_up()
                failed = self.match.state.current
                self.match.stand_in(failed)
                self.write(f"{exc}; a random bot plays seat {failed} from now on.")
        return True

    def _saved(self) -> None:
        path = self.save(self.match)
        self.write(f"Game saved to {path}; continue with: {resume_command(self.match, path)}")

    def _catch_up(self) -> None:
        states, actions = self.match.states, self.match.actions
        for i in range(self._printed, len(actions)):
            line = self.log.add(states[i], actions[i], states[i + 1])
            if line is not None:
                self.write(line)
        self._printed = len(actions)

    def _show(self, seat: int) -> None:
        state = self.match.state
        self.write("")
        self.write(f"== seat {seat} ({self.match.seats[seat].name}): {STEPS[state.phase]} ==")
        for line in show_view(self.match, seat):
            self.write(line)
        so_far = this_turn(self.match, seat)
        if so_far:
            self.write("This turn: " + "; ".join(so_far))
        self._menu = numbered(state)
        for number, action in self._menu.items():
            self.write(f"  {number:>2}  {menu_text(state, action)}")
        self.write("Type a number or a move (help, view, routes, board, undo, quit).")

    def _decide(self, seat: int) -> bool:
        """Read lines until one moves the game (True) or asks to quit (False)."""
        while True:
            line = self.read("> ")
            if line is None:  # end of input: like quit
                return False
            text = " ".join(line.split())
            if len(line.rstrip("\r\n")) > MAX_LINE:
                self.write(f"That line is too long (over {MAX_LINE} characters).")
                continue
            word = text.lower()
            if not text:
                continue
            if word in ("quit", "exit", "q"):
                return False
            if word in ("help", "?", "h"):
                self.write(help_text(self.match.state))
                continue
            if word == "routes":
                self.write(routes_text(self.match.state, seat, seat))
                continue
            if word == "board":
                self._board(seat)
                continue
            if word in ("view", "menu", "list", "v"):
                self._show(seat)
                continue
            if word == "undo":
                try:
                    self.match.undo()
                except MatchError as exc:
                    self.write(str(exc))
                    continue
                self._rebuild_log()
                self.write(f"Undone: back to seat {self.match.state.current}'s choice.")
                return True
            action: Action | str = text
            if text.isdecimal() and len(text) < 5:
                number = int(text)
                if number not in self._menu:
                    numbers = ", ".join(map(str, self._menu))
                    self.write(f"No choice {number}: the menu has {numbers}.")
                    continue
                action = self._menu[number]
            try:
                self.match.play(seat, action)
            except BotError:
                raise  # the move was made; a bot after it failed
            except ActionParseError as exc:
                if exc.refusal is not None:  # a move the rules forbid now: as the page says it
                    self.write(f"{in_words(exc.refusal.reason)} (rule {exc.refusal.rule})")
                    continue
                self.write(str(exc).split("; candidates:")[0])
                picks = _moves(exc.candidates)
                if picks:  # whole moves: numbered, to pick rather than retype
                    self._menu = dict(enumerate(picks, start=1))
                    for number, candidate in self._menu.items():
                        self.write(f"  {number:>2}  {candidate}")
                    self.write("Type a number to choose one (view shows the whole menu again).")
                else:  # names to finish a move with
                    for name in exc.candidates:
                        self.write(f"    {name}")
                continue
            except GameOverError:
                self.write("The game is over.")
                continue
            except NotYourTurnError:
                self.write("It is not your turn.")
                continue
            except IllegalActionError as exc:  # the page's words; the rule's number after them
                self.write(f"{in_words(exc.reason)} (rule {exc.rule})")
                continue
            except TTRError as exc:
                self.write(f"Not possible: {exc}")
                continue
            self._catch_up()
            return True

    def _board(self, seat: int) -> None:
        """Every seat's routes and stations, and the drawing when the caller can make one."""
        state = self.match.state
        for other in range(len(state.players)):
            self.write("  " + routes_text(state, other, seat))
        if self.draw is not None:
            self.write(f"Board drawn to {self.draw(self.match, seat)} (open it in a browser)")


def _moves(candidates: Sequence[str]) -> list[Action]:
    """The candidates as moves, when each is one ("claim X with 2red"); else nothing (they are
    names to finish a move with, such as the tickets on offer)."""
    try:
        return [parse(text) for text in candidates]
    except TTRError:
        return []


def resume_command(match: Match, path: str) -> str:
    """The command that goes on with a saved match, each person keeping their seat."""
    persons = [str(i) for i, s in enumerate(match.seats) if s.is_person]
    bots = [s.name for s in match.seats if not s.is_person]
    if len(set(bots)) > 1:  # --bots names every seat in turn, persons' seats included
        bots = [bots[0] if s.is_person else s.name for s in match.seats]
    command = f"ttr-europe play --resume {path}"
    if persons:
        command += f" --human {','.join(persons)}"
    if bots:
        command += f" --bots {bots[0] if len(set(bots)) == 1 else ','.join(bots)}"
    return command


def describe_state(state: GameState) -> list[str]:
    """A whole position in a few lines, every secret shown (for replays)."""
    board = state.map
    lines = [
        "game over" if state.phase is Phase.GAME_OVER
        else f"seat {state.current} to act ({state.phase.name.lower().replace('_', ' ')})",
        _table_line(state.row, state.pile_size, state.discard.total, len(state.ticket_deck)),
    ]  # fmt: skip
    for seat, p in enumerate(state.players):
        tickets = ", ".join(board.tickets[t].id for t in p.tickets) or "none"
        offer = f"; offered {', '.join(board.tickets[t].id for t in p.offer)}" if p.offer else ""
        lines.append(
            f"  seat {seat}: trains {p.trains}, route points {p.score}, "
            f"hand {_cards_line(p.hand)}; tickets {tickets}{offer}"
        )
    if state.tunnel is not None:
        t = state.tunnel
        lines.append(
            f"Tunnel {board.routes[t.route].id}: laid {t.laid}, revealed "
            + " ".join(card_name(k) for k in t.revealed)
            + f", {t.extra} more due"
        )
    return lines
