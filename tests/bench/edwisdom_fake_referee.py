"""A stand-in for edwisdom's engine behind ``benchmarks/edwisdom_bridge.rs``'s line protocol.

Our own engine referees underneath; what the bridge reads is written as their engine writes it,
independently of the bridge's code: card types in their order (alphabetical, ``purple``),
cities and tickets in reverse, each route's two cities swapped, their phase numbers, face-up
``-1``, owners ``255`` (free) and ``254`` (the closed twin of a double route), tickets by
number, the keep masks and claims by their numbering. Their heuristics are stood in for by a
uniform random player (``h0``) and our ``greedy`` (any other tier). ``--lie`` adds a point to
every claim's score as it reports it, so the bridge's rules check has something to find.

Run as ``python edwisdom_fake_referee.py [--lie]``; the tests start it as the bridge would.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

from ttr_europe import GameState, Phase, apply, legal_actions, new_game, observe
from ttr_europe.actions import (
    Action,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
)
from ttr_europe.cards import LOCOMOTIVE, Cards, kind_from_name
from ttr_europe.maps import load_map
from ttr_europe.players.bots import GreedyBot
from ttr_europe.scoring import score
from ttr_europe.state import NO_CARD, NO_OWNER

MAP = load_map("usa")
COLOURS = ["black", "blue", "green", "orange", "purple", "red", "white", "yellow"]
TYPE = {kind_from_name(c): t for t, c in enumerate(COLOURS)} | {LOCOMOTIVE: 8}  # ours -> theirs
KIND = {t: k for k, t in TYPE.items()}
CITIES = [c.name for c in reversed(MAP.cities)]
CITY = {MAP.city_index[name]: i for i, name in enumerate(CITIES)}  # ours -> theirs
TICKETS = list(reversed(MAP.tickets))
TICKET = {t.index: i for i, t in enumerate(TICKETS)}  # ours -> theirs
CLAIM_END = len(MAP.routes) * 9
LIES = [0] * 5  # points added to each seat's score by --lie
PHASE = {Phase.INITIAL_TICKETS: 0, Phase.TURN: 1, Phase.SECOND_DRAW: 2,
         Phase.CHOOSE_TICKETS: 3, Phase.GAME_OVER: 4}  # fmt: skip


def board_json() -> dict[str, Any]:
    return {
        "cities": CITIES,
        "colors": COLOURS,
        "locomotive": 8,
        "segments": [
            [CITY[r.b], CITY[r.a], r.length, 255 if r.colour is None else TYPE[r.colour]]
            for r in MAP.routes
        ],
        "tickets": [[CITY[t.a], CITY[t.b], t.points] for t in TICKETS],
        "actions": CLAIM_END + 15,
    }


def _counts(cards: Cards) -> list[int]:
    out = [0] * 9
    for kind, n in enumerate(cards):
        out[TYPE[kind]] += n
    return out


def number(state: GameState, action: Action) -> int:
    """Their number of our ``action`` (a claim by its route and the colour it pays)."""
    if isinstance(action, ClaimRoute):
        paid = next((k for k in range(8) if action.payment[k]), LOCOMOTIVE)
        return MAP.route_index[action.route] * 9 + TYPE[paid]
    if isinstance(action, DrawFaceUp):
        return CLAIM_END + action.slot
    if isinstance(action, DrawBlind):
        return CLAIM_END + 5
    if isinstance(action, DrawTickets):
        return CLAIM_END + 6
    if isinstance(action, KeepTickets):
        offer = state.players[state.current].offer
        kept = {MAP.ticket_index[t] for t in action.tickets}
        return CLAIM_END + 6 + sum(1 << i for i, t in enumerate(offer) if t in kept)
    assert isinstance(action, Pass)
    return CLAIM_END + 14


def pays_most_colour(state: GameState, action: Action) -> bool:
    """Whether ``action`` is a move their engine has: a claim pays the most of its colour."""
    if not isinstance(action, ClaimRoute):
        return True
    colours = [k for k in range(8) if action.payment[k]]
    if not colours:
        return True
    have = state.players[state.current].hand[colours[0]]
    return action.payment[colours[0]] == min(have, action.payment.total)


def moves(state: GameState) -> dict[int, Action]:
    return {number(state, a): a for a in legal_actions(state) if pays_most_colour(state, a)}


def as_peer(state: GameState) -> dict[str, Any]:
    """``state`` as their engine describes a position."""
    seat = state.current
    choosing = state.phase in (Phase.INITIAL_TICKETS, Phase.CHOOSE_TICKETS)
    owners = [255] * len(MAP.routes)
    for r, owner in enumerate(state.owners):
        if owner != NO_OWNER:
            owners[r] = owner
            twin = MAP.routes[r].twin
            if twin is not None and not state.rules.doubles_open_to_all:
                owners[twin] = 254
    undealt = [t for p in state.players[seat + 1:] for t in p.offer] \
        if state.phase is Phase.INITIAL_TICKETS else []  # fmt: skip
    out: dict[str, Any] = {
        "phase": PHASE[state.phase],
        "cur": seat,
        "turn": 0,
        "final_left": 255 if state.final_turns < 0 else state.final_turns,
        "pass_streak": state.passes,
        "hands": [_counts(p.hand) for p in state.players],
        "trains": [p.trains for p in state.players],
        "score": [p.score + LIES[i] for i, p in enumerate(state.players)],
        "tickets": [sorted(TICKET[t] for t in p.tickets) for p in state.players],
        "offer": [TICKET[t] for t in state.players[seat].offer] if choosing else [],
        "faceup": [-1 if c == NO_CARD else TYPE[c] for c in state.row],
        "deck": [TYPE[c] for c in state.draw_pile],
        "discard": _counts(state.discard),
        "tdeck": [TICKET[t] for t in (*undealt, *state.ticket_deck)],
        "owner": owners,
        "legal": sorted(moves(state)) if state.phase is not Phase.GAME_OVER else [],
    }
    if state.phase is Phase.GAME_OVER:
        result = score(state)
        out["breakdown"] = [[p.route_points, p.completed, p.failed, p.ticket_points, p.bonus,
                             p.longest_path.length, p.total + LIES[i]]
                            for i, p in enumerate(result.players)]  # fmt: skip
        out["winners"] = list(result.winners)
    return out


def main() -> None:
    lie = "--lie" in sys.argv
    state: GameState | None = None
    seats: list[str] = []
    rng = random.Random(0)
    for line in sys.stdin:
        words = line.split()
        try:
            if words == ["board"]:
                answer: dict[str, Any] = board_json()
            elif words[:1] == ["new"]:
                seed, players, seats = int(words[1]), int(words[2]), words[3].split(",")
                LIES[:] = [0] * 5
                state, rng = new_game(MAP, players=players, seed=seed, first_player=0), \
                    random.Random(seed)  # fmt: skip
                answer = {"state": as_peer(state)}
            elif words[:1] in (["peer"], ["step"]) and state is not None:
                legal = moves(state)
                tier = seats[state.current]
                if words[0] == "step":
                    assert tier == "-", "a heuristic's seat"
                    choice = int(words[1])
                elif tier == "h0":
                    choice = rng.choice(sorted(legal))
                else:
                    options = list(legal.values())
                    picked = GreedyBot().choose(observe(state, state.current), options, rng)
                    choice = number(state, picked)
                assert choice in legal, f"illegal {choice}"
                after = apply(state, legal[choice])
                if lie and isinstance(legal[choice], ClaimRoute):  # one point too many
                    LIES[state.current] += 1
                state = after
                answer = {"action": choice, "state": as_peer(state)}
            else:
                answer = {"error": f"unknown command {line.strip()!r}"}
        except AssertionError as exc:
            answer = {"error": str(exc)}
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
