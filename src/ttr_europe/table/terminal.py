"""Playing in a terminal, and the readable play log shared by ``play`` and ``replay``.

The play log has one line per turn: the position after it (what ``replay --at N`` draws), the
turn (``start`` for the starting tickets), the seat, then each move in notation with what it did
in brackets, from the events (the card a draw took, the refills, what a tunnel revealed).

``Terminal`` runs a ``Match`` for the persons at one keyboard: before each decision it shows the
seat's view (face-up row, hand, tickets with those already connected, trains and points of
every seat, what happened since) and a short numbered menu; a person answers with a number, a
move in the friendly notation (``parse_action``), ``help``, ``undo`` or ``quit``. Bad input is
answered with a message and the game is unchanged.

Every sentence for people comes from the gettext catalogs (``ttr_europe.i18n``) in the
terminal's language (``--lang``, else the locale); the notation of moves, which a person types,
stays the same in every language, as do route and city ids.
"""

from __future__ import annotations

import contextlib
import os
import textwrap
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from ..actions import Action, BuildStation, ClaimRoute, DrawFaceUp, KeepTickets, parse
from ..cards import Cards
from ..errors import (
    ActionParseError,
    BotError,
    IllegalActionError,
    MalformedActionError,
    TTRError,
)
from ..events import (
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
from ..i18n import N_, Translator, translator
from ..rules import events_between, legal_actions
from ..state import NO_CARD, GameState, Phase
from ..views import View
from .match import Match, MatchError

if TYPE_CHECKING:
    from ..scoring import Scoreboard

LEGEND = N_(
    "Each line: the position after it (replay --at N), the turn, the player, then their moves "
    "in notation with what they did in brackets."
)
MAX_LINE = 2000  # characters read from one line of input; a real move is under 300
QUIT_WORDS = ("quit", "exit", "q")
MENU_CLAIMS = 20  # routes offered in the numbered menu (any other move can be typed)
MENU_SIZE = 40
STEPS = {
    Phase.INITIAL_TICKETS: N_("choose your starting tickets"),
    Phase.TURN: N_("your turn"),
    Phase.SECOND_DRAW: N_("take a second card"),
    Phase.CHOOSE_TICKETS: N_("keep tickets"),
    Phase.TUNNEL: N_("the tunnel asks for more cards"),
    Phase.GAME_OVER: N_("game over"),
}
ENGLISH = translator("en")


def fit(text: str, width: int | None) -> str:
    """``text`` with each line longer than ``width`` broken between words, its continuation
    indented under the line's own indent: a terminal that wraps by itself cuts words in two,
    and a screen reader reads the pieces as two words. A word longer than the line (a long
    route id) is left whole. ``None``: as it is (a pipe, a file)."""
    if width is None:
        return text
    out = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip(" "))]
        out += textwrap.wrap(
            line,
            width=width,
            subsequent_indent=indent + "  ",
            break_long_words=False,
            break_on_hyphens=False,
        )
    return "\n".join(out)


def printable(text: str) -> str:
    """``text`` with every unprintable character (escapes, controls) shown as ``?``."""
    return "".join(c if c.isprintable() else "?" for c in text)


def card_name(kind: int | None, tr: Translator = ENGLISH) -> str:
    return "-" if kind is None or kind == NO_CARD else tr.card(kind, short=True)


def player(seat: int, tr: Translator = ENGLISH) -> str:
    """A seat as people number it, from 1 as on the page and the board picture ("Player 1");
    the engine's seat integers, in its API, its JSON and its errors, count from 0."""
    return tr.t("Player {n}", n=seat + 1)


def plural(n: int, word: str) -> str:
    """``1 ticket``, ``2 tickets``: a count with its noun agreeing."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def describe(event: Event, tr: Translator = ENGLISH) -> str:
    """A short phrase for one event ("" when the move's notation says it all)."""
    if isinstance(event, FaceUpTaken):
        return tr.t("took {card}", card=card_name(event.card, tr))
    if isinstance(event, BlindDrawn):
        if event.card is None:
            return tr.t("drew a card")
        return tr.t("drew {card}", card=card_name(event.card, tr))
    if isinstance(event, SlotRefilled):
        return tr.t("slot {slot} now {card}", slot=event.slot + 1, card=card_name(event.card, tr))
    if isinstance(event, RowReset):
        row = " ".join(card_name(k, tr) for k in event.discarded)
        return tr.t("three locomotives: row {cards} discarded", cards=row)
    if isinstance(event, Reshuffled):
        return tr.tn(
            "{n} discarded card shuffled into a new pile",
            "{n} discarded cards shuffled into a new pile",
            event.cards,
        )
    if isinstance(event, TunnelRevealed):
        shown = " ".join(card_name(k, tr) for k in event.revealed) or tr.t(
            "nothing (no cards left)"
        )
        due = tr.t("{n} more due", n=event.extra) if event.extra else tr.t("nothing more due")
        return tr.t("tunnel shows {cards}: {due}", cards=shown, due=due)
    if isinstance(event, RouteClaimed):
        return tr.t(
            "claimed, +{points}, {trains} left",
            points=tr.tn("{n} point", "{n} points", event.points),
            trains=tr.tn("{n} train", "{n} trains", event.trains_left),
        )
    if isinstance(event, TunnelWithdrawn):
        return tr.t("took back {cards}", cards=event.returned)
    if isinstance(event, TicketsDrawn):
        if event.tickets is None:
            return tr.t("drew {count}", count=tr.tn("{n} ticket", "{n} tickets", event.count))
        return tr.t("drew {tickets}", tickets=", ".join(event.tickets))
    if isinstance(event, TicketsKept):
        where = (
            N_("kept {kept}, returned {returned} to the box")
            if event.returned_to == "box"
            else N_("kept {kept}, returned {returned} to the deck")
        )
        return tr.marked(where, kept=event.kept_count, returned=event.returned_count)
    if isinstance(event, LastRound):
        return tr.t(
            "LAST ROUND: Player {n} has {trains} left; {turns} to go",
            n=event.seat + 1,
            trains=tr.tn("{n} train", "{n} trains", event.trains),
            turns=tr.tn("{n} turn", "{n} turns", event.turns),
        )
    if isinstance(event, GameOver):
        return tr.t("game over")
    assert isinstance(event, TurnStarted | Passed | TunnelPaid | StationBuilt)
    return ""


def move_text(action: Action, events: Iterable[Event], tr: Translator = ENGLISH) -> str:
    """A move in notation with what it did; a keep hides its tickets when its events do."""
    phrases = [p for p in (describe(e, tr) for e in events) if p]
    text = str(action)
    hidden_keep = any(isinstance(e, TicketsKept) and e.kept is None for e in events)
    if isinstance(action, KeepTickets) and hidden_keep:
        text = "keep"
    return f"{text} ({'; '.join(phrases)})" if phrases else text


class PlayLog:
    """Turn lines from moves as they are played; events shown as ``viewer`` may see them
    (``everything=True``: unfiltered, for a game between bots or a replay)."""

    def __init__(
        self, viewer: int | None = None, *, everything: bool = False, tr: Translator = ENGLISH
    ) -> None:
        self.viewer = viewer
        self.everything = everything
        self.tr = tr
        self.turn = 0
        self.position = 0
        self.lines: list[str] = []
        self._moves: list[str] = []

    def add(
        self,
        before: GameState,
        action: Action,
        after: GameState,
        events: Iterable[Event] | None = None,
    ) -> str | None:
        """Note one move (with its ``events`` when the caller has them from the reducer's pass;
        else they are found again); returns the turn's line when this move ended the turn."""
        if events is None:
            events = events_between(before, action, after)
        if not self.everything:
            shown = (visible_to(e, self.viewer) for e in events)
            events = [e for e in shown if e is not None]
        self.position += 1
        self._moves.append(move_text(action, list(events), self.tr))
        if after.current == before.current and after.phase is not Phase.GAME_OVER:
            return None
        if before.phase is Phase.INITIAL_TICKETS:
            label = self.tr.t("start")
        else:
            self.turn += 1
            label = str(self.turn)
        seat = player(before.current, self.tr)
        line = f"{self.position:>4} {label:>5} {seat}: {'; '.join(self._moves)}"
        self._moves = []
        self.lines.append(line)
        return line


def play_log(
    states: Sequence[GameState],
    actions: Sequence[Action],
    *,
    everything: bool = True,
    events: Sequence[tuple[Event, ...]] | None = None,
    tr: Translator = ENGLISH,
) -> list[str]:
    """The turn lines of a whole game (``states[i + 1]`` follows ``actions[i]``; ``events[i]``
    its events, when the caller has them), in ``tr``'s language."""
    log = PlayLog(everything=everything, tr=tr)
    lines = []
    for i, action in enumerate(actions):
        line = log.add(states[i], action, states[i + 1], None if events is None else events[i])
        if line is not None:
            lines.append(line)
    return lines


# --------------------------------------------------------------------------- the view


def _cards_line(cards: Cards, tr: Translator = ENGLISH) -> str:
    parts = [f"{n} {card_name(k, tr)}" for k, n in enumerate(cards) if n]
    return ", ".join(parts) if parts else tr.t("no cards")


def _table_line(
    row: Sequence[int], pile: int, discard: int, ticket_deck: int, tr: Translator = ENGLISH
) -> str:
    """The face-up row with slot numbers and the sizes of the piles."""
    slots = "  ".join(f"{i + 1}:{card_name(k, tr)}" for i, k in enumerate(row))
    return tr.t(
        "Face-up  {slots}    pile {pile}, discard {discard}, ticket deck {deck}",
        slots=slots,
        pile=pile,
        discard=discard,
        deck=ticket_deck,
    )


def show_view(match: Match, seat: int, tr: Translator = ENGLISH) -> list[str]:
    """The lines a person sees before deciding."""
    view: View = match.view(seat)
    state = match.state
    board = state.map
    me = view.players[seat]
    lines = [_table_line(view.row, view.pile_size, view.discard.total, view.ticket_deck_size, tr)]
    hand = me.hand if me.hand is not None else Cards()
    lines.append(tr.t("Hand ({total})  {cards}", total=hand.total, cards=_cards_line(hand, tr)))
    done = _connected(match, seat)

    def points(t: str) -> int:
        return board.tickets[board.ticket_index[t]].points

    tickets = [
        tr.t("done {ticket} ({points})", ticket=t, points=points(t))
        if t in done
        else tr.t("open {ticket} ({points})", ticket=t, points=points(t))
        for t in me.tickets or ()
    ]
    listed = " | ".join(tickets) if tickets else tr.t("none yet")
    lines.append(tr.t("Tickets  {tickets}", tickets=listed))
    if me.offer:
        offered = " | ".join(f"{i + 1}: {t} ({points(t)})" for i, t in enumerate(me.offer))
        lines.append(tr.t("Offer    {tickets}", tickets=offered))
    stations = board.variants[view.variant].stations
    for p in view.players:
        who = tr.t("you") if p.seat == seat else tr.seat_kind(match.seats[p.seat].name)
        left = tr.t(", stations left {n}", n=stations - len(p.stations)) if stations else ""
        lines.append(
            tr.t(
                "  Player {n} ({who}): trains {trains}, route points {points}, "
                "cards {cards}, tickets {tickets}{stations}",
                n=p.seat + 1,
                who=who,
                trains=p.trains,
                points=p.score,
                cards=p.hand_size,
                tickets=p.ticket_count,
                stations=left,
            )
        )
    if view.tunnel is not None:
        t = view.tunnel
        lines.append(
            tr.t(
                "Tunnel {route}: laid {laid}, revealed {revealed}: pay {extra} more {colour} "
                "or loco, or withdraw",
                route=t.route,
                laid=t.laid,
                revealed=" ".join(card_name(k, tr) for k in t.revealed),
                extra=t.extra,
                colour=card_name(t.colour, tr),
            )
        )
    if view.final_turns >= 0:
        lines.append(last_round_text(view.final_turns, tr))
    return lines


def last_round_text(owed: int, tr: Translator = ENGLISH) -> str:
    """The last round's count as the page says it: the turns still owed count the one being
    played (R46), so on the very last turn none come after it."""
    after = owed - 1
    if after > 0:
        return tr.tn(
            "Last round: {n} turn left after this one",
            "Last round: {n} turns left after this one",
            after,
        )
    return tr.t("Last round: this is the last turn")


_MID_TURN = (Phase.SECOND_DRAW, Phase.CHOOSE_TICKETS, Phase.TUNNEL)


def this_turn(match: Match, seat: int, tr: Translator = ENGLISH) -> list[str]:
    """The moves ``seat`` has made in the turn still under way, with what they did."""
    states, actions = match.states, match.actions
    moves: list[str] = []
    i = len(actions) - 1
    while i >= 0 and states[i + 1].phase in _MID_TURN and states[i].current == seat:
        shown = [visible_to(e, seat) for e in events_between(states[i], actions[i], states[i + 1])]
        moves.insert(0, move_text(actions[i], [e for e in shown if e is not None], tr))
        if states[i].phase not in _MID_TURN:
            break
        i -= 1
    return moves


def _connected(match: Match, seat: int) -> set[str]:
    """The seat's tickets already joined by its routes (and stations), as scoring sees them."""
    if not match.state.players[seat].tickets:
        return set()
    from ..scoring import score

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


def menu_text(state: GameState, action: Action, tr: Translator = ENGLISH) -> str:
    if isinstance(action, DrawFaceUp):
        return f"{action} ({card_name(state.row[action.slot], tr)})"
    if isinstance(action, ClaimRoute):
        route = state.map.route(action.route)
        kind = tr.t(", tunnel") if route.tunnel else ""
        if route.ferry:
            kind += tr.t(", ferry ({locos})", locos=tr.tn("{n} loco", "{n} locos", route.ferry))
        points = tr.tn("{n} point", "{n} points", route.points)
        return tr.t(
            "{action}  [length {length}, {points}{kind}]",
            action=action,
            length=route.length,
            points=points,
            kind=kind,
        )
    return str(action)


def help_text(state: GameState, tr: Translator = ENGLISH) -> str:
    """The moves and commands, with examples that exist on this map and variant."""
    board = state.map
    route = min(board.routes, key=lambda r: (len(r.id), r.id))  # short names fit the column
    city = min(board.cities, key=lambda c: (len(c.name), c.name))
    ticket = min(board.tickets, key=lambda t: (len(t.id), t.id))
    claim, station = f"claim {route.id}", f"station {city.name}"
    lines = [
        tr.t("Moves (words in any case; cities by name, id or English name):"),
        "  draw 3 / draw red      " + tr.t("take a face-up card (slot 1-5, or a colour)"),
        "  blind                  " + tr.t("take the top card of the pile"),
        "  tickets                "
        + tr.t(
            "draw destination tickets; then keep 1 3 / keep all / keep {ticket}", ticket=ticket.id
        ),
        f"  {claim:<22} " + tr.t('claim a route (add "with 2red+1loco" to choose the cards)'),
    ]
    if state.rules.variant.stations:
        lines.append(
            f"  {station:<22} " + tr.t('build a station (add "with 2blue" to choose the cards)')
        )
    if any(r.tunnel for r in board.routes):
        lines.append(
            "  pay / pay 1loco        "
            + tr.t("pay a tunnel's extra; withdraw to take your cards back")
        )
    lines += [
        "  pass                   " + tr.t("only when nothing else is possible"),
        tr.t("Or type the number of a choice in the menu."),
        tr.t(
            "Commands: help, view (show the position again), routes (your routes), board "
            "(every player's"
        ),
        tr.t(
            "routes and stations), undo (take back your last move), quit (save the game "
            "record and stop)."
        ),
    ]
    return "\n".join(lines)


def routes_text(state: GameState, seat: int, viewer: int, tr: Translator = ENGLISH) -> str:
    """One seat's routes with their lengths and points, and its stations."""
    board = state.map
    mine = [r for r in board.routes if state.owners[r.index] == seat]
    stations = [board.cities[c].name for c in state.players[seat].stations]
    if not mine:
        text = (
            tr.t("You have no routes yet")
            if seat == viewer
            else tr.t("Player {n} has no routes yet", n=seat + 1)
        )
    else:
        listed = ", ".join(f"{r.id} ({r.length})" for r in mine)
        params = {
            "routes": tr.tn("{n} route", "{n} routes", len(mine)),
            "list": listed,
            "points": tr.tn("{n} point", "{n} points", sum(r.points for r in mine)),
        }
        text = (
            tr.t("You have {routes} ({points}): {list}", **params)
            if seat == viewer
            else tr.t("Player {n} has {routes} ({points}): {list}", n=seat + 1, **params)
        )
    return text + (tr.t("; stations in {cities}", cities=", ".join(stations)) if stations else "")


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
        tr: Translator = ENGLISH,
        width: int | None = None,
        rows: int | None = None,
        clear: Callable[[], None] | None = None,
    ) -> None:
        """``save`` writes the record and returns where; ``draw`` (for ``board``) draws the
        board as a seat sees it and returns where; ``tr`` speaks the person's language;
        ``width``: the terminal's columns, lines broken between words to fit (``fit``);
        ``rows``: its lines, the menu's claims cut so that a decision fits on the screen;
        ``clear``: empties the screen and its scrollback (a terminal; None for a pipe), used
        between persons sharing the keyboard."""
        self.tr = tr
        self.width = width
        self.rows = rows
        self.match = match
        self.read = read
        self.write: Callable[[str], None] = (
            write if width is None else lambda text: write(fit(text, width))
        )
        self.save = save
        self.draw = draw
        persons = [i for i, s in enumerate(match.seats) if s.is_person]
        self.viewer = persons[0] if len(persons) == 1 else None
        self.shared = len(persons) > 1  # persons take turns at the keyboard: hand-overs
        self.clear = clear
        self._facing: int | None = None  # the person the screen was handed to
        self._seen: dict[int, int] = {}  # each person's place in the log when last handed over
        self._drawn: set[str] = set()  # pictures of a person's view, removed after their turn
        self._menu: dict[int, Action] = {}
        self._rebuild_log()

    def _rebuild_log(self) -> None:
        """The log as if every move so far had been printed (after a resume or an undo)."""
        self.log = PlayLog(self.viewer, tr=self.tr)
        states, actions, moved = self.match.states, self.match.actions, self.match.move_events
        for i, action in enumerate(actions):
            self.log.add(states[i], action, states[i + 1], moved[i])
        self._printed = len(actions)

    def run(self) -> bool:
        """Play until the game ends (True) or a person quits (False; the record is saved).

        A bot that fails (``BotError``) gives its seat to a random stand-in
        (``Match.stand_in``) and the game goes on; the reason is written. Ctrl-C while a bot
        thinks is a quit: the moves made so far are saved, not lost with a bare exit."""
        recent = self.log.lines[-len(self.match.seats) :]
        if recent:
            self.write(self.tr.t("Recent turns:"))
            for line in recent:
                self.write(line)
        try:
            return self._loop()
        except KeyboardInterrupt:  # a record holds only whole moves: what stands is saved
            self.write("")
            self._saved()
            return False

    def _loop(self) -> bool:
        """The moves until the end (True) or a quit (False, saved)."""
        self._catch_up()
        while not self.match.finished:
            seat = self.match.state.current
            try:
                if not self.match.seats[seat].is_person:
                    self.match.step()
                    self._catch_up()
                    continue
                if not self._hand_over(seat):
                    self._saved()
                    return False
                self._show(seat)
                if not self._decide(seat):
                    self._saved()
                    return False
                self._leave(seat)
            except BotError as exc:  # the moves made stand, the person's included
                self._catch_up()
                failed = self.match.state.current
                self.match.stand_in(failed)
                self.write(  # people play here: not what the program wrote (its hand?)
                    self.tr.t(
                        "{error}; a random bot plays for Player {n} from now on.",
                        error=exc.for_players(),
                        n=failed + 1,
                    )
                )
        return True

    def _hand_over(self, seat: int) -> bool:
        """With persons sharing the keyboard, before a person's hand is shown: who is to
        look, and Enter when they are alone at the screen; then the turns since their last
        one (a cleared screen lost them). False when they type quit or input ends."""
        if not self.shared or self._facing == seat:
            return True
        name = self.tr.t("Player {n}", n=seat + 1)
        self.write(
            self.tr.t("It is {name}'s turn. Only {name} should look at the screen now.", name=name)
        )
        line = self.read(self.tr.t("Press Enter to see your turn (or type quit).") + " ")
        if line is None or line.strip().lower() in QUIT_WORDS:
            return False
        self._facing = seat
        if self.clear is not None:
            self.clear()
            since = self.log.lines[self._seen.get(seat, 0) :]
            if since:
                self.write(self.tr.t("Recent turns:"))
                for text in since:
                    self.write(text)
        self._seen[seat] = len(self.log.lines)
        return True

    def _leave(self, seat: int) -> None:
        """After a person's turn, when another is to decide or the game is over: nothing of
        theirs stays on the screen, in its scrollback or in a picture of the board they drew
        for the next person to read."""
        if self.shared and (self.match.finished or self.match.state.current != seat):
            self._facing = None
            if self.clear is not None:
                self.clear()
            for path in self._drawn:
                with contextlib.suppress(OSError):  # already gone, or moved by the person
                    os.remove(path)
            self._drawn.clear()

    def _saved(self) -> None:
        path = self.save(self.match)
        self.write(
            self.tr.t(
                "Game saved to {path}; continue with: {command}",
                path=path,
                command=resume_command(self.match, path),
            )
        )

    def _catch_up(self) -> None:
        states, actions, moved = self.match.states, self.match.actions, self.match.move_events
        for i in range(self._printed, len(actions)):
            line = self.log.add(states[i], actions[i], states[i + 1], moved[i])
            if line is not None:
                self.write(line)
        self._printed = len(actions)

    def _show(self, seat: int) -> None:
        state = self.match.state
        tr = self.tr
        lines = [  # the heading: words a screen reader reads as said, set off by a blank line
            "",
            tr.t(
                "Player {n} ({name}), {step}:",
                n=seat + 1,
                name=tr.seat_kind(self.match.seats[seat].name),
                step=tr.marked(STEPS[state.phase]),
            ),
            *show_view(self.match, seat, tr),
        ]
        so_far = this_turn(self.match, seat, tr)
        if so_far:
            lines.append(tr.t("This turn: {moves}", moves="; ".join(so_far)))
        self._menu = numbered(state)
        shown = {n: f"  {n:>2}  {menu_text(state, a, tr)}" for n, a in self._menu.items()}
        left_out = self._fit_rows(lines, shown)
        for line in [*lines, *shown.values()]:
            self.write(line)
        if left_out:
            self.write(self._not_listed(left_out))
        self.write(self._ask())

    def _not_listed(self, n: int) -> str:
        return self.tr.tn(
            "{n} more route you can claim is not listed: type claim and the route.",
            "{n} more routes you can claim are not listed: type claim and the route.",
            n,
        )

    def _fit_rows(self, lines: list[str], shown: dict[int, str]) -> int:
        """Leave out the menu's last claims (the shortest routes; they can still be typed) until
        the whole decision, hand and tickets included, fits the terminal's rows; returns how
        many were left out. At least three claims stay."""
        if self.rows is None:
            return 0

        def height(text: str) -> int:
            return fit(text, self.width).count("\n") + 1

        claims = [n for n, a in self._menu.items() if isinstance(a, ClaimRoute)]
        used = sum(map(height, [*lines, *shown.values(), self._ask()])) + 1  # the input line
        left_out = 0
        while used + (height(self._not_listed(left_out)) if left_out else 0) > self.rows:
            if len(claims) <= 3:
                break
            number = claims.pop()
            used -= height(shown.pop(number))
            del self._menu[number]
            left_out += 1
        return left_out

    def _ask(self) -> str:
        return self.tr.t("Type a number or a move (help, view, routes, board, undo, quit).")

    def _instead(self) -> str:
        """What to type after a line that named no move."""
        return self.tr.t("Type help for the moves, or a number from the menu (view shows it).")

    def _decide(self, seat: int) -> bool:
        """Read lines until one moves the game (True) or asks to quit (False)."""
        while True:
            line = self.read("> ")
            if line is None:  # end of input: like quit
                return False
            text = " ".join(line.split())
            if len(line.rstrip("\r\n")) > MAX_LINE:
                self.write(self.tr.t("That line is too long (over {n} characters).", n=MAX_LINE))
                continue
            if not text:  # said again, so a screen reader has more than the prompt to read
                self.write(self._ask())
                continue
            done = self._command(text.lower(), seat)
            if done == "again":
                continue
            if done is not None:
                return done == "moved"
            action = self._picked(text)
            if action is not None and self._played(seat, action):
                self._catch_up()
                return True

    def _command(self, word: str, seat: int) -> str | None:
        """A word of the terminal's own (quit, help, routes, board, view, undo): ``"quit"``,
        ``"moved"`` (undo), ``"again"`` (read on); None when it is no command."""
        if word in QUIT_WORDS:
            return "quit"
        shown = {
            "help": lambda: self.write(help_text(self.match.state, self.tr)),
            "routes": lambda: self.write(routes_text(self.match.state, seat, seat, self.tr)),
            "board": lambda: self._board(seat),
            "view": lambda: self._show(seat),
        }
        alias = {"?": "help", "h": "help", "menu": "view", "list": "view", "v": "view"}
        show = shown.get(alias.get(word, word))
        if show is not None:
            show()
            return "again"
        if word != "undo":
            return None
        try:
            self.match.undo()
        except MatchError:  # the only refusal of undo
            self.write(self.tr.t("Nothing to undo: no person has moved yet."))
            return "again"
        self._rebuild_log()
        self.write(
            self.tr.t("Undone: back to Player {n}'s choice.", n=self.match.state.current + 1)
        )
        return "moved"

    def _picked(self, text: str) -> Action | str | None:
        """The move a line names: a number of the menu, else the text; None (said why) for a
        number the menu does not have."""
        if not (text.isdecimal() and len(text) < 5):
            return text
        number = int(text)
        if number in self._menu:
            return self._menu[number]
        numbers = ", ".join(map(str, self._menu))
        self.write(self.tr.t("No choice {number}: the menu has {numbers}.", number=number,
                             numbers=numbers))  # fmt: skip
        return None

    def _played(self, seat: int, action: Action | str) -> bool:
        """Play ``action`` for ``seat``; False (said why, in the page's words) when refused."""
        try:
            self.match.play(seat, action)
        except BotError:
            raise  # the move was made; a bot after it failed
        except ActionParseError as exc:
            self._unread(exc)
            return False
        except IllegalActionError as exc:  # the page's words; the rule's number after them
            self.write(self._refused(exc))
            return False
        except TTRError as exc:
            self.write(self.tr.t("Not possible: {reason}", reason=exc))
            return False
        return True

    def _unread(self, exc: ActionParseError) -> None:
        """A line that names no move: the rules' refusal as the page says it, or what could not
        be read with the moves it could mean, numbered to pick rather than retype."""
        if exc.refusal is not None:  # a move the rules forbid now: as the page says it
            self.write(self._refused(exc.refusal))
            return
        detail = str(exc).split("; candidates:")[0]
        said = self.tr.t(
            "Not a move I can read ({detail}).",
            detail=detail if self.tr.lang == "en" else self.tr.unreadable(detail),
        )
        self.write(said if exc.candidates else f"{said} {self._instead()}")
        picks = _moves(exc.candidates)
        if picks:  # whole moves: numbered, to pick rather than retype
            self._menu = dict(enumerate(picks, start=1))
            for number, candidate in self._menu.items():
                self.write(f"  {number:>2}  {candidate}")
            self.write(self.tr.t("Type a number to choose one (view shows the whole menu again)."))
        else:  # names to finish a move with
            for name in exc.candidates:
                self.write(f"    {name}")

    def _refused(self, exc: IllegalActionError) -> str:
        """A refused move as the page says it, then the rule's number; a move no rule covers
        (``draw 9``: no such slot) says what to type instead of a rule."""
        if isinstance(exc, MalformedActionError) and isinstance(exc.action, DrawFaceUp):
            return self.tr.t(
                "There is no face-up card {slot}: type draw 1 to draw {last}, or draw and a "
                "colour (draw red).",
                slot=exc.action.slot + 1,
                last=len(self.match.state.row),
            )
        if isinstance(exc, MalformedActionError):
            return f"{self.tr.t('That move is not possible.')} {self._instead()}"
        return self.tr.t("{reason} (rule {rule})", reason=self.tr.refusal(exc), rule=exc.rule)

    def _board(self, seat: int) -> None:
        """Every seat's routes and stations, and the drawing when the caller can make one."""
        state = self.match.state
        for other in range(len(state.players)):
            self.write("  " + routes_text(state, other, seat, self.tr))
        if self.draw is not None:
            path = self.draw(self.match, seat)
            if self.shared:  # it shows this person's hand: gone when their turn ends
                self._drawn.add(path)
            self.write(self.tr.t("Board drawn to {path} (open it in a browser)", path=path))


# What ranked two seats with equal totals, in the page's words (R49, R50).
TIE_BREAKS = {
    "completed_tickets": N_("completed tickets"),
    "fewest_stations": N_("fewer stations built"),
    "longest_path": N_("the longer longest path"),
}


def scoreboard_text(
    board: Scoreboard, tr: Translator = ENGLISH, state: GameState | None = None
) -> str:
    """The final scores for players, in ``tr``'s words and numbered as on the page: the table,
    each player's tickets, stations and longest path, then what ranked equal totals.
    ``state`` (the position scored) names the map and variant in the language, as the game's
    first line does; without it the title has their ids.
    (``scoring.format_scoreboard`` stays the library's English text, by seat.)"""
    heads = [
        tr.marked(h)
        for h in (
            N_("rank"),
            N_("player"),
            N_("routes"),
            N_("tickets"),
            N_("stations"),
            N_("path"),
            N_("bonus"),
            N_("total"),
        )
    ]
    widths = [max(len(h), 6) for h in heads]
    title = tr.t("Final scores") if board.final else tr.t("Provisional scores")
    played = (
        f"{board.map}, {board.variant}"
        if state is None
        else tr.t(
            "{map}, variant {variant}",
            map=tr.marked(state.map.name),
            variant=tr.marked(state.rules.variant.name),
        )
    )
    lines = [
        f"{title} ({played}); " + tr.t("bonus: {name}", name=tr.marked(board.bonus_name)),
        " ".join(h.rjust(w) for h, w in zip(heads, widths, strict=True)),
    ]
    by_seat = {p.seat: p for p in board.players}
    for seat in board.ranking:
        p = by_seat[seat]
        cells = (
            p.rank,
            seat + 1,
            p.route_points,
            f"{p.ticket_points:+}",
            p.station_points,
            p.longest_path.length,
            p.bonus,
            p.total,
        )
        lines.append(" ".join(str(c).rjust(w) for c, w in zip(cells, widths, strict=True)))
    for seat in board.ranking:
        p = by_seat[seat]
        lines += [
            "",
            tr.t(
                "{player}: {points}, rank {rank}",
                player=player(seat, tr),
                rank=p.rank,
                points=tr.tn("{n} point", "{n} points", p.total),
            ),
            # the table's row in words, for a reader that hears cells without their column
            "  " + ", ".join(f"{heads[i]} {value}" for i, value in (
                (2, p.route_points), (3, f"{p.ticket_points:+}"), (4, p.station_points),
                (6, p.bonus))),
        ]  # fmt: skip
        for t in p.tickets:
            mark = tr.t("done") if t.completed else tr.t("failed")
            via = f" ({', '.join(t.routes)})" if t.routes else ""
            lines.append(f"  {mark} {t.ticket:<24} {t.points:>+4}{via}")
        for st in p.stations:
            borrows = (
                tr.t("station {city}: borrows {route}", city=st.city, route=st.route)
                if st.route
                else tr.t("station {city}: borrows no route", city=st.city)
            )
            lines.append("  " + borrows)
        trains = tr.tn("{n} train", "{n} trains", p.longest_path.length)
        lines.append("  " + tr.t("longest path: {trains}", trains=trains))
    notes = []
    for i, why in enumerate(board.decided_by):
        a, b = board.ranking[i], board.ranking[i + 1]
        names = {"a": player(a, tr), "b": player(b, tr)}
        if why is None:
            notes.append(tr.t("{a} and {b} share rank {rank}", rank=by_seat[a].rank, **names))
        elif why != "total":
            k = board.criteria.index(why)
            what = tr.marked(TIE_BREAKS.get(why, board.bonus_name))
            first, second = by_seat[a].criteria_values[k], by_seat[b].criteria_values[k]
            notes.append(
                tr.t(
                    "the tie-break puts {a} ahead of {b} on {what} ({first} to {second})",
                    what=what,
                    first=first,
                    second=second,
                    **names,
                )
            )
    if notes:
        lines += ["", *notes]
    return "\n".join(lines)


def _moves(candidates: Sequence[str]) -> list[Action]:
    """The candidates as moves, when each is one ("claim X with 2red"); else nothing (they are
    names to finish a move with, such as the tickets on offer)."""
    try:
        return [parse(text) for text in candidates]
    except TTRError:
        return []


def resume_command(match: Match, path: str) -> str:
    """The command that goes on with a saved match, each person keeping their seat."""
    persons = [str(i + 1) for i, s in enumerate(match.seats) if s.is_person]
    bots = [s.name for s in match.seats if not s.is_person]
    if len(set(bots)) > 1:  # --bots names every seat in turn, persons' seats included
        bots = [bots[0] if s.is_person else s.name for s in match.seats]
    command = f"ttr-europe play --resume {path}"
    if persons:
        command += f" --human {','.join(persons)}"
    if bots:
        command += f" --bots {bots[0] if len(set(bots)) == 1 else ','.join(bots)}"
    return command


PHASES = {
    Phase.INITIAL_TICKETS: N_("initial tickets"),
    Phase.TURN: N_("turn"),
    Phase.SECOND_DRAW: N_("second draw"),
    Phase.CHOOSE_TICKETS: N_("choose tickets"),
    Phase.TUNNEL: N_("tunnel"),
}


def describe_state(state: GameState, tr: Translator = ENGLISH) -> list[str]:
    """A whole position in a few lines, every secret shown (for replays)."""
    board = state.map
    lines = [
        tr.t("game over") if state.phase is Phase.GAME_OVER
        else tr.t("{player} to act ({phase})", player=player(state.current, tr),
                  phase=tr.marked(PHASES[state.phase])),
        _table_line(state.row, state.pile_size, state.discard.total, len(state.ticket_deck), tr),
    ]  # fmt: skip
    for seat, p in enumerate(state.players):
        names = {
            "player": player(seat, tr),
            "trains": p.trains,
            "points": p.score,
            "hand": _cards_line(p.hand, tr),
            "tickets": ", ".join(board.tickets[t].id for t in p.tickets) or tr.t("none"),
            "offer": ", ".join(board.tickets[t].id for t in p.offer),
        }
        line = (
            tr.t("{player}: trains {trains}, route points {points}, hand {hand}; tickets "
                 "{tickets}; offered {offer}", **names) if p.offer
            else tr.t("{player}: trains {trains}, route points {points}, hand {hand}; tickets "
                      "{tickets}", **names)
        )  # fmt: skip
        lines.append("  " + line)
    if state.tunnel is not None:
        t = state.tunnel
        lines.append(
            tr.t(
                "Tunnel {route}: laid {laid}, revealed {revealed}, {extra} more due",
                route=board.routes[t.route].id,
                laid=t.laid,
                revealed=" ".join(card_name(k, tr) for k in t.revealed),
                extra=t.extra,
            )
        )
    return lines
