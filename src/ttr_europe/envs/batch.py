"""A batch stepper for reinforcement learning: N games stepped together in the compiled core.

``BatchGames(n, map, variant, players, seed, **options)`` deals games ``seed .. seed + n - 1``.
After ``reset`` and every ``step`` the preallocated numpy arrays hold, per game, the
observation of the seat to act (``rl.encoding``'s vector, with the memory of public hands of
``rl.memory.PublicHands``), its legal-action mask over ``codec.ActionCodec``'s codes, and, for
games that just ended, the returns of ``scoring.returns`` and ``done``; an ended game is dealt
again at once with the next seed (``autoreset=False`` leaves it over, for the caller to
``deal``). Needs numpy (the ``rl`` extra) and the built core.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .._payments import payments
from ..actions import ClaimRoute
from ..board import Map
from ..cards import KINDS, Cards
from ..codec import ActionCodec, codec_for
from ..errors import MalformedActionError
from ..fast import FastGame, new_game
from ..fast._binding import CoreGames, Int32Table
from ..rl.encoding import Layout, layout_for
from ..scoring import returns

OBS_PARTS = (
    "hand", "discard", "pile_size", "ticket_deck_size", "box_size", "trains", "stations_left",
    "scores", "hand_sizes", "ticket_counts", "offer_counts", "public_hands", "tunnel_laid",
    "tunnel_revealed", "tunnel_extra", "last_round", "final_turns", "passes", "player_count",
    "phase", "current", "first_player", "row", "route_owners", "route_closed",
    "station_owners", "tickets", "offer", "tunnel_route", "tunnel_colour",
)  # fmt: skip
"""The parts of the observation, in the order observe.c reads their offsets (O_*)."""
_ANY = Cards((99,) * KINDS)


def core_tables(board: Map, variant: str) -> tuple[Layout, ActionCodec, Int32Table, Int32Table]:
    """The observation layout and action codec of a map and variant, with the tables of their
    offsets that the core's observation, mask and code functions read (O_* and C_* in observe.c)."""
    lay = layout_for(board, variant)
    codec = codec_for(board, variant)
    offsets = [lay.slices[name].start for name in OBS_PARTS]
    offsets += [lay.size, lay.dense, lay.max_players, len(board.tickets), lay.max_offer,
                lay.shapes["row"][0]]  # fmt: skip
    cities = len(board.cities)
    station_patterns = len(codec.blocks["station"]) // cities if cities else 0
    starts = [
        codec.encode(ClaimRoute(r.id, payments(r.colour, r.length, r.ferry, _ANY)[0]))
        for r in board.routes
    ]
    table = [codec.blocks["face_up"].start, codec.blocks["keep"].start,
             codec.blocks["station"].start, codec.blocks["pay"].start, codec.size,
             station_patterns, *starts]  # fmt: skip
    return lay, codec, Int32Table(offsets), Int32Table(table)


class BatchGames:
    """``n`` games of one map, variant, player count and options, stepped together."""

    def __init__(
        self,
        n: int,
        map: str = "europe",
        variant: str = "base",
        players: int = 2,
        seed: int = 0,
        *,
        autoreset: bool = True,
        **options: Any,
    ) -> None:
        if type(n) is not int or n < 1:
            raise MalformedActionError("input", f"a batch holds at least one game, not {n!r}")
        self.games = [new_game(map, variant, players, seed + i, **options) for i in range(n)]
        self.layout, self.codec, self._layout, self._codec = core_tables(
            self.games[0].rules.map, variant
        )
        self.next_seed = seed + n
        self.autoreset = autoreset
        lay, codec = self.layout, self.codec
        self._cores = CoreGames([g._core for g in self.games])
        self.observations: npt.NDArray[np.float32] = np.zeros((n, lay.size), np.float32)
        self.masks: npt.NDArray[np.bool_] = np.zeros((n, codec.size), np.bool_)
        self.returns: npt.NDArray[np.float32] = np.zeros((n, lay.max_players), np.float32)
        self.done: npt.NDArray[np.uint8] = np.zeros(n, np.uint8)
        for i in range(n):
            self._observe(i)

    def __len__(self) -> int:
        return len(self.games)

    def _observe(self, i: int) -> None:
        self.games[i]._core.observe(self._layout, self._codec, self.observations[i],
                                    self.masks[i])  # fmt: skip

    @property
    def seats(self) -> list[int]:
        """The seat each observation is for: the seat to act in each game."""
        return [g.current for g in self.games]

    def reset(self, seed: int) -> None:
        """Deal every game again, game ``i`` with ``seed + i``, and observe."""
        for i in range(len(self.games)):
            self.deal(i, seed + i)
        self.next_seed = seed + len(self.games)

    def deal(self, i: int, seed: int) -> None:
        """Deal game ``i`` again with ``seed`` (an ended game, say, under ``autoreset=False``)
        and observe it."""
        self.games[i].deal(seed)
        self._observe(i)

    def step(self, codes: npt.ArrayLike) -> None:
        """Apply one code per game (each must be legal: ``masks[i, code]``), then observe."""
        given = np.asarray(codes)
        n = len(self.games)
        if given.shape != (n,):
            raise MalformedActionError("codec", f"one code per game: shape ({n},) expected")
        if given.dtype.kind not in "iu":
            raise MalformedActionError(
                "codec", f"codes are integers, not an array of {given.dtype} values"
            )
        wanted = np.ascontiguousarray(given, dtype=np.int64)
        legal = (wanted >= 0) & (wanted < self.codec.size)
        legal[legal] = self.masks[np.flatnonzero(legal), wanted[legal]]
        if not legal.all():
            bad = int(np.flatnonzero(~legal)[0])
            raise MalformedActionError("codec", f"code {wanted[bad]} is not legal in game {bad}")
        failed, seed = self._cores.step(
            wanted, self._layout, self._codec, self.observations, self.masks, self.returns,
            self.done, self.next_seed, self.autoreset,
        )  # fmt: skip
        assert failed == 0, "a code checked against the mask was refused"
        self.next_seed = seed
        for i in np.flatnonzero(self.done == 2):  # scored by the reference (dense networks)
            game: FastGame = self.games[i]
            self.returns[i, : game.rules.players] = returns(game.to_state())
            self.done[i] = 1
            if self.autoreset:
                game.deal(self.next_seed)
                self.next_seed += 1
            self._observe(int(i))
