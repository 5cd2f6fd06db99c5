"""The one module that touches ctypes: it loads the compiled core and calls it.

Every other module talks to the core through ``CoreRules``, ``CoreGame`` and the batch functions
here, in Python ints and sequences and in numpy arrays (passed by address), so each C signature
is written once (``_SIGNATURES``, beside the C function it names, which a header of the core
declares) and a change of the core's interface is a change of this file alone.
"""

from __future__ import annotations

import ctypes
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn, Protocol

from ..errors import BadArgumentError
from ._library import (
    BUILD_COMMAND,
    LIBRARY_ENV,
    PACKAGED,
    PURE_ENV,
    cache_dir,
    candidates,
    pure_forced,
    source_hash,
)

KINDS = 9  # card kinds in an action's payment (core.h KINDS)
REC_WORDS = 18  # words of a recorded action (policies.h REC_WORDS): kind, arg, payment or tickets
LOG_FIELDS = 5  # ints of a logged action (policies.h LOG_FIELDS): the log's room is sized by it

Move = tuple[int, int, tuple[int, ...]]
"""An action as the core takes it (core.h ``Act``): kind (``A_*``), argument, payment."""


class Addressed(Protocol):
    """A numpy array, as the core reads and writes it: by the address of its data."""

    @property
    def ctypes(self) -> Any: ...


class _Act(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_int32), ("arg", ctypes.c_int32), ("pay", ctypes.c_int32 * KINDS)]


_vp, _i64, _i32, _u64, _int = (ctypes.c_void_p, ctypes.c_int64, ctypes.c_int32, ctypes.c_uint64,
                               ctypes.c_int)  # fmt: skip
_p64, _p32, _pact = ctypes.POINTER(_i64), ctypes.POINTER(_i32), ctypes.POINTER(_Act)
_SIGNATURES: dict[str, tuple[Any, list[Any]]] = {
    "fg_rules_new": (_vp, [_p64, _i64]),
    "fg_rules_free": (None, [_vp]),
    "fg_new": (_vp, [_vp]),
    "fg_free": (None, [_vp]),
    "fg_copy": (None, [_vp, _vp]),
    "fg_setup": (_int, [_vp, _u64, _i32]),
    "fg_dump": (_i64, [_vp, _p64, _i64]),
    "fg_load": (_int, [_vp, _p64, _i64]),
    "fg_legal_count": (_i64, [_vp]),
    "fg_legal": (_i64, [_vp, _i64, _pact, _i64]),
    "fg_apply": (_int, [_vp, _pact]),
    "fg_phase": (_i32, [_vp]),
    "fg_current": (_i32, [_vp]),
    "fg_offer": (_i32, [_vp, _p32]),
    "fg_playout": (_i64, [_vp, _u64, _i64]),
    "fg_greedy_playout": (_i64, [_vp, _i64]),
    "fg_play_bots": (_i64, [_vp, _vp, _vp, _vp, _i64, _vp, _i64]),
    "fg_policy_playout": (_i64, [_vp, _vp, _vp, _vp, _vp, _i64, _vp]),
    "fg_search_step": (_i64, [_vp, _vp, _i32, _i32, _p64, _i64, _i64]),
    "fg_targets_new": (_vp, []),
    "fg_targets_free": (None, [_vp]),
    "fg_apply_key": (_int, [_vp, _i64]),
    "fg_observe": (None, [_vp, _vp, _vp, _vp, _vp]),
    "fg_encode": (_int, [_vp, _i32, _vp, _vp]),
    "fg_mask": (None, [_vp, _vp, _vp]),
    "fg_apply_code": (_int, [_vp, _vp, _i64]),
    "fg_batch_step": (_i64, [_vp, _i64, _vp, _vp, _vp, _vp, _vp, _vp, _vp, _vp]),
    "fg_batch_seat": (_int, [_vp, _i64, _i32, _vp, _vp, _vp, _vp]),
    "fg_known": (None, [_vp, _p32]),
    "fg_score": (_int, [_vp, _p32, _p32]),
}

_LOADED: dict[str, Any] = {}  # "lib" or "error" (why it is not there), and "status" (status())
_THREAD = threading.local()  # each thread's buffers and search memory (_local): never shared


class _Targets:
    """search_step's memory of the policy's paths (policies.h ``Targets``, 64 KiB), one a
    thread, freed with the thread."""

    __slots__ = ("_lib", "ptr")

    def __init__(self, lib: Any) -> None:
        self._lib = lib
        self.ptr = lib.fg_targets_new()
        if not self.ptr:
            raise MemoryError("cannot allocate the search's paths")

    def __del__(self) -> None:
        if getattr(self, "ptr", None):
            self._lib.fg_targets_free(self.ptr)
            self.ptr = None


def _local() -> Any:
    """This thread's own: policy_playout's log buffers by size, search_step's buffer of move
    keys (grown when too small) and its paths memory, so that threads calling the core at once
    (bots deciding in a web server's threads) never write into each other's."""
    mine = _THREAD.__dict__
    if "keys" not in mine:
        mine.update(logs={}, keys=(ctypes.c_int64 * 256)(), targets=None)
    return _THREAD


def _open(path: Path) -> tuple[ctypes.CDLL | None, str]:
    """The library at ``path`` if it is a build of these C sources, else why not."""
    if not path.exists():
        return None, f"{path} does not exist"
    try:
        lib = ctypes.CDLL(str(path))
    except OSError as exc:
        return None, f"{path} does not load ({exc})"
    stamp = getattr(lib, "fg_source_hash", None)
    if stamp is None:
        return None, f"{path} is not the compiled core"
    stamp.restype = ctypes.c_uint64
    stamp.argtypes = []
    if stamp() != source_hash():
        return None, f"{path} was built from another version of the C sources"
    return lib, f"the compiled core at {path}"


def _find() -> tuple[ctypes.CDLL | None, str]:
    """The compiled core and a line saying which it is, or ``None`` and a line saying why
    the pure-Python engine plays instead (``_library`` says where it is looked for)."""
    if pure_forced():
        return None, f"{PURE_ENV}={os.environ[PURE_ENV]} forces the pure-Python engine"
    reasons = []
    for path in candidates():
        lib, line = _open(path)
        if lib is not None:
            return lib, line
        reasons.append(line)
    if LIBRARY_ENV not in os.environ and not PACKAGED.exists():
        reasons = [f"the compiled core is not built (no {PACKAGED.name} in the package, "
                   f"none for these C sources in {cache_dir()})"]  # fmt: skip
    return None, "; ".join(reasons) + ": " + BUILD_COMMAND


def _load() -> Any:
    if _LOADED:
        return _LOADED.get("lib")
    lib, line = _find()
    if lib is None:
        _LOADED.update(error=line, status=line)
        return None
    for name, (restype, argtypes) in _SIGNATURES.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes
    _LOADED.update(lib=lib, status=line)
    return lib


def available() -> bool:
    """Whether the compiled core is built and loads (``status()`` says which, or why not)."""
    return _load() is not None


def status() -> str:
    """One line: the compiled core in use and where it is, or why the pure-Python engine
    plays instead (``TTR_EUROPE_PURE`` set, no build for these C sources, ...)."""
    _load()
    return str(_LOADED["status"])


def _lib() -> Any:
    lib = _load()
    if lib is None:
        raise BadArgumentError(_LOADED["error"])
    return lib


def loaded_library() -> str:
    """The file of the compiled core in use, for a program that loads it itself (the peers'
    benchmark's C driver); ``BadArgumentError`` when there is none."""
    return str(_lib()._name)


def _array(kind: Any, values: Sequence[int], what: str) -> Any:
    try:
        return (kind * len(values))(*values)
    except (TypeError, OverflowError):
        raise BadArgumentError(f"{what} holds a value the compiled core cannot take") from None


def _address(array: Addressed) -> int:
    address: int = array.ctypes.data
    return address


class Int32Table:
    """A table of 32-bit ints the core reads (the offsets of an observation layout, say)."""

    __slots__ = ("_array",)

    def __init__(self, values: Sequence[int]) -> None:
        self._array = _array(ctypes.c_int32, values, "the table")


class CoreRules:
    """The core's rules of one map, variant and player count (``fg_rules_new``), freed with
    the object; not ``valid`` when the flat layout holds a value beyond the core's limits."""

    __slots__ = ("_ptr",)

    def __init__(self, values: Sequence[int]) -> None:
        self._ptr = _lib().fg_rules_new(_array(ctypes.c_int64, values, "the rules"), len(values))

    @property
    def valid(self) -> bool:
        """Whether the core took the rules (False: a value beyond its limits)."""
        return bool(self._ptr)

    def __del__(self) -> None:
        _release(self, "fg_rules_free")  # every CoreGame holds its rules: none reads them now


def _release(handle: CoreRules | CoreGame, free: str) -> None:
    """Free ``handle``'s memory in the core with ``free``, once (and not after the library
    went away at the interpreter's exit)."""
    ptr = getattr(handle, "_ptr", None)
    lib = _LOADED.get("lib")
    if ptr and lib is not None:
        getattr(lib, free)(ptr)
        handle._ptr = None


def _no_copy() -> TypeError:
    """A copied handle would free its game twice, or step the first copy's games."""
    return TypeError(
        "a compiled game is a handle to memory of this process: it is neither pickled nor "
        "copied by copy (FastGame.copy() copies it; to_state() gives a GameState to save)"
    )


class CoreGame:
    """One game in the core (a ``Game *`` of core.h), freed with the object.

    The core releases the GIL while it works, so each call holds the game's lock: two threads
    calling one game take turns instead of changing it under each other (which could crash)."""

    __slots__ = ("_lock", "_ptr", "_rules")

    def __init__(self, rules: CoreRules) -> None:
        self._rules = rules  # the game points into them: they live as long as it does
        self._lock = threading.Lock()
        self._ptr = _lib().fg_new(rules._ptr)
        if not self._ptr:
            raise MemoryError("cannot allocate a compiled game")

    def __del__(self) -> None:
        _release(self, "fg_free")

    def __reduce__(self) -> NoReturn:
        raise _no_copy()

    def copy_from(self, other: CoreGame) -> None:
        if other is self:
            return
        first, second = sorted((self, other), key=id)  # one order: no two threads deadlock
        with first._lock, second._lock:
            _lib().fg_copy(self._ptr, other._ptr)

    def setup(self, seed: int, first: int) -> int:
        with self._lock:
            return int(_lib().fg_setup(self._ptr, seed, first))

    def dump(self, cap: int) -> list[int]:
        lib = _lib()
        with self._lock:
            while True:
                buf = (ctypes.c_int64 * cap)()
                n = lib.fg_dump(self._ptr, buf, cap)
                if n <= cap:
                    return list(buf[:n])
                cap = n

    def load(self, values: Sequence[int]) -> int:
        array = _array(ctypes.c_int64, values, "the state")
        with self._lock:
            return int(_lib().fg_load(self._ptr, array, len(values)))

    def legal_count(self) -> int:
        with self._lock:
            return int(_lib().fg_legal_count(self._ptr))

    def legal(self) -> list[Move]:
        lib = _lib()
        with self._lock:
            n = int(lib.fg_legal_count(self._ptr))
            buf = (_Act * max(n, 1))()
            got = lib.fg_legal(self._ptr, 0, buf, n)
        assert got == n, "the core listed a different number of actions than it counted"
        return [(a.kind, a.arg, tuple(a.pay)) for a in buf[:n]]

    def apply(self, kind: int, arg: int, pay: Sequence[int]) -> int:
        act = _Act(kind, arg, (ctypes.c_int32 * KINDS)(*pay))
        with self._lock:
            return int(_lib().fg_apply(self._ptr, ctypes.byref(act)))

    def phase(self) -> int:
        with self._lock:
            return int(_lib().fg_phase(self._ptr))

    def current(self) -> int:
        with self._lock:
            return int(_lib().fg_current(self._ptr))

    def offer(self) -> tuple[int, ...]:
        out = (ctypes.c_int32 * 16)()
        with self._lock:
            n = _lib().fg_offer(self._ptr, out)
        return tuple(out[:n])

    def playout(self, seed: int, max_steps: int) -> int:
        with self._lock:
            return int(_lib().fg_playout(self._ptr, seed, max_steps))

    def greedy_playout(self, max_steps: int) -> int:
        with self._lock:
            return int(_lib().fg_greedy_playout(self._ptr, max_steps))

    def play_bots(
        self, bots: Sequence[int], keys: Sequence[Sequence[int]], max_actions: int, record: int
    ) -> tuple[int, list[list[int]]]:
        """``fg_play_bots``; with ``record`` > 0, room for that many actions, each given back
        as its ``REC_WORDS`` words."""
        n = len(bots)
        codes = (ctypes.c_int32 * n)(*bots)
        words = [w for key in keys for w in key]
        flat = (ctypes.c_uint32 * len(words))(*words)
        lengths = (ctypes.c_int32 * n)(*(len(key) for key in keys))
        buf = (ctypes.c_int32 * (record * REC_WORDS))() if record > 0 else None
        with self._lock:
            steps = int(_lib().fg_play_bots(self._ptr, codes, flat, lengths, max_actions, buf,
                                            max(record, 0)))  # fmt: skip
        if buf is None or steps < 0:
            return steps, []
        return steps, [list(buf[i * REC_WORDS : (i + 1) * REC_WORDS]) for i in range(steps)]

    def policy_playout(
        self,
        policies: Sequence[int],
        streams: Sequence[int],
        keys: Sequence[Sequence[int]],
        max_actions: int,
        words: int,
    ) -> tuple[int, list[int]]:
        """``fg_policy_playout``: the number of actions (negative on a fault) and their log,
        ``words`` ints an action; the log buffer is kept per size and thread, and reused.
        ``keys[q]`` are the key words of a bot seat's generator (empty for the other
        policies)."""
        n = len(policies)
        buffers = _local().logs
        buffer = buffers.get(max_actions * words)
        if buffer is None:
            buffer = buffers[max_actions * words] = (ctypes.c_int32 * (max_actions * words))()
        flat = [w for key in keys for w in key]
        with self._lock:
            steps = int(_lib().fg_policy_playout(self._ptr, (ctypes.c_int32 * n)(*policies),
                                                 (ctypes.c_uint64 * n)(*streams),
                                                 (ctypes.c_uint32 * max(1, len(flat)))(*flat),
                                                 (ctypes.c_int32 * n)(*(len(k) for k in keys)),
                                                 max_actions, buffer))  # fmt: skip
        return steps, list(buffer[: words * steps]) if steps > 0 else []

    def search_step(self, seat: int, fresh: bool, max_steps: int) -> list[int]:
        """``fg_search_step``: the keys of the moves searched at ``seat``'s next decision
        (empty once the game is over; ``BadArgumentError`` on a fault, which never happens),
        the policy's paths remembered from this thread's last call unless ``fresh``."""
        lib = _lib()
        mine = _local()
        if mine.targets is None:
            mine.targets = _Targets(lib)
            fresh = True
        memo = mine.targets.ptr
        with self._lock:
            n = int(lib.fg_search_step(self._ptr, memo, fresh, seat, mine.keys, len(mine.keys),
                                       max_steps))  # fmt: skip
            if n > len(mine.keys):  # more keeps than room: the walk stopped there, so ask again
                mine.keys = (ctypes.c_int64 * n)()
                n = int(lib.fg_search_step(self._ptr, memo, False, seat, mine.keys, n, max_steps))
        if n < 0:
            raise BadArgumentError("the compiled search step found no move (a fault)")
        keys: list[int] = mine.keys[:n]
        return keys

    def apply_key(self, key: int) -> int:
        with self._lock:
            return int(_lib().fg_apply_key(self._ptr, key))

    def score(self, fields: int, paths: Sequence[int] | None) -> tuple[int, list[int]]:
        """``fg_score``: its answer and ``fields`` figures (``paths``: lengths it may use)."""
        out = (ctypes.c_int32 * fields)()
        given = None if paths is None else (ctypes.c_int32 * len(paths))(*paths)
        with self._lock:
            bad = int(_lib().fg_score(self._ptr, given, out))
        return bad, list(out)

    def observe(self, layout: Int32Table, codec: Int32Table, obs: Addressed,
                mask: Addressed) -> None:  # fmt: skip
        with self._lock:
            _lib().fg_observe(self._ptr, layout._array, codec._array, _address(obs),
                              _address(mask))  # fmt: skip

    def encode(self, seat: int, layout: Int32Table, obs: Addressed) -> int:
        with self._lock:
            return int(_lib().fg_encode(self._ptr, seat, layout._array, _address(obs)))

    def mask(self, codec: Int32Table, mask: Addressed) -> None:
        with self._lock:
            _lib().fg_mask(self._ptr, codec._array, _address(mask))

    def apply_code(self, codec: Int32Table, code: int) -> int:
        with self._lock:
            return int(_lib().fg_apply_code(self._ptr, codec._array, code))


class CoreGames:
    """Several ``CoreGame`` for the batch functions of the core (an array of ``Game *``)."""

    __slots__ = ("_games", "_pointers")

    def __init__(self, games: Sequence[CoreGame]) -> None:
        self._games = tuple(games)  # kept alive while the array points at them
        self._pointers = (ctypes.c_void_p * len(games))(*(g._ptr for g in games))

    def __len__(self) -> int:
        return len(self._games)

    def __reduce__(self) -> NoReturn:
        raise _no_copy()

    def step(self, codes: Addressed, layout: Int32Table, codec: Int32Table, obs: Addressed,
             masks: Addressed, returns: Addressed, done: Addressed,
             seed: int, autoreset: bool) -> tuple[int, int]:  # fmt: skip
        """``fg_batch_step``: its answer and the seed the next game dealt will have (an ended
        game is dealt again with ``seed``, ``seed + 1``, ... when ``autoreset``)."""
        cell = ctypes.c_uint64(seed) if autoreset else None
        failed = int(_lib().fg_batch_step(
            self._pointers, len(self._games), _address(codes), layout._array, codec._array,
            _address(obs), _address(masks), _address(returns), _address(done),
            None if cell is None else ctypes.byref(cell),
        ))  # fmt: skip
        return failed, seed if cell is None else int(cell.value)

    def seat(self, seat: int, layout: Int32Table, codec: Int32Table, obs: Addressed,
             masks: Addressed) -> int:  # fmt: skip
        return int(_lib().fg_batch_seat(self._pointers, len(self._games), seat, layout._array,
                                        codec._array, _address(obs), _address(masks)))  # fmt: skip
