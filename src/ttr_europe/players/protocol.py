"""Bots in another process, over a line protocol: the referee keeps the only copy of the game.

A ``ProcessBot`` runs a program (any language) and talks to it in JSON lines on its standard
input and output (docs/protocol.md; the schemas are ``data/schema/protocol-*.schema.json``):

1. the referee says ``hello`` (protocol version, engine, time controls); the bot answers
   ``hello`` (its name, version, protocol version and the options it accepts);
2. the referee sends ``options`` (the values chosen for the options the bot declared);
3. for each decision the referee sends ``move`` (the seat's view, its legal moves as notation
   and codes, the time left) and the bot answers ``move`` with one of them;
4. at the end the referee sends ``quit``.

A bot that exits, hangs, answers garbage or an illegal move, writes without end or runs out of
time raises ``BotError`` with the reason; its process group is then killed and reaped. The
program runs in a sandbox (``sandbox``: no network, its own processes, a read-only view of
what its command needs, limits); a trusted one may run without (``sandbox=off``). Spec:
``cmd:python mybot.py``, with time controls, the memory cap and the sandbox in brackets:
``cmd[move=0.5,game=60,memory=512,sandbox=off]:...``.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import selectors
import shlex
import signal
import subprocess
import time
import weakref
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from .._jsontext import parse_json
from ..actions import Action, KeepTickets, parse
from ..codec import ActionCodec, codec_for
from ..errors import ActionParseError, BotError, DataError, SandboxError
from ..views import View, view_to_json
from ._routing import board_of
from .sandbox import Limits, child_setup, sandboxed, unavailable, view

__all__ = ["PROTOCOL", "ProcessBot", "TimeControl", "parse_command_spec"]

PROTOCOL = 1
"""The protocol version this referee speaks; a bot answering another one is refused."""
MAX_LINE = 1 << 20
"""Bytes in one message from a bot; a longer line is output without end."""
MAX_OUTPUT = 64 << 20
"""Bytes a bot may write in all; more is output without end."""
ERROR_TAIL = 4096
"""Bytes of a bot's standard error kept (its last ones), to say what it said when it fails."""
BOM = b"\xef\xbb\xbf"
"""UTF-8's byte-order mark, which some runtimes write first: ignored before a line."""
Json = Any


@attrs.frozen
class TimeControl:
    """Seconds for one move and for all of a game's moves; the handshake has its own limit."""

    move: float = 10.0
    game: float = 600.0
    startup: float = 10.0


def _positive(name: str, text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0 or value == float("inf"):
        raise BotError(f"cmd[{name}=...]", None, None, f"{name} must be a positive number")
    return value


_SPEC = re.compile(r"cmd(?:\[(?P<settings>[^\]]*)\])?:(?P<command>.*)", re.DOTALL)


def parse_command_spec(spec: str) -> ProcessBot:
    """A ``ProcessBot`` from ``cmd:COMMAND`` or ``cmd[move=S,game=S,memory=MB,sandbox=off]:
    COMMAND`` (any of the settings, in any order).

    The command is split as a shell would split it (``shlex``), but no shell runs it. A
    sandboxed bot (the default) is refused here, in one line, where no sandbox can be made.
    """
    found = _SPEC.fullmatch(spec.strip())
    if found is None:
        raise BotError(spec, None, None, "not a command spec (cmd:COMMAND)")
    settings: dict[str, float] = {}
    sandbox = True
    for item in filter(None, (s.strip() for s in (found["settings"] or "").split(","))):
        name, _, value = item.partition("=")
        name = name.strip()
        if name == "sandbox":
            if value.strip() not in ("on", "off"):
                raise BotError(spec, None, None, "sandbox must be on or off")
            sandbox = value.strip() == "on"
            continue
        if name not in ("move", "game", "memory"):
            raise BotError(
                spec, None, None, f"unknown setting {name!r} (move, game, memory, sandbox)"
            )
        settings[name] = _positive(name, value)
    try:
        command = shlex.split(found["command"])
    except ValueError as exc:
        raise BotError(spec, None, None, f"cannot split the command: {exc}") from None
    if not command:
        raise BotError(spec, None, None, "no command after cmd:")
    if sandbox and (reason := unavailable()) is not None:
        raise BotError(spec, None, None, _unsandboxed(reason))
    if sandbox:  # a path that would open the host is refused now, in one line
        try:
            view(command, os.getcwd())
        except FileNotFoundError:
            pass  # no such program: said when it starts
        except SandboxError as exc:
            raise SandboxError(spec.strip(), None, None, exc.reason) from None
    times = TimeControl(settings.get("move", 10.0), settings.get("game", 600.0))
    memory = int(settings["memory"]) if "memory" in settings else DEFAULT_MEMORY_MB
    return ProcessBot(command, time=times, memory_mb=memory, sandbox=sandbox, spec=spec.strip())


DEFAULT_MEMORY_MB = 2048


def _unsandboxed(reason: str) -> str:
    return f"cannot run in a sandbox: {reason}; cmd[sandbox=off]: runs a trusted program without"


def _end(proc: subprocess.Popen[bytes]) -> None:
    """Kill the process group of ``proc`` (the bot and any children it started) and reap it."""
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)  # the group is the bot's own session (pgid = pid)
    proc.wait()


class ProcessBot:
    """A bot that is a program in another process (see the module docstring).

    It starts on its first decision and plays one game; ``close()`` (or garbage collection, or
    the end of the interpreter) ends it. A copy or a pickle is a fresh, unstarted bot.
    """

    def __init__(
        self,
        command: Sequence[str],
        *,
        time: TimeControl = TimeControl(),
        options: Mapping[str, Json] | None = None,
        memory_mb: int | None = DEFAULT_MEMORY_MB,
        sandbox: bool = True,
        readable: Sequence[str] = (),
        forbidden: Sequence[str] = (),
        spec: str | None = None,
    ) -> None:
        self.command = tuple(command)
        self.time = time
        self.options = dict(options or {})
        self.memory_mb = memory_mb
        self.sandbox = sandbox
        self.readable = tuple(readable)  # more host paths the sandbox shows, read-only
        self.forbidden = tuple(forbidden)  # more of the referee's files it never shows
        self.spec = spec or "cmd:" + shlex.join(self.command)
        self.name = self.spec
        self.version: str | None = None
        self.declared: dict[str, Json] = {}
        self.used = 0.0  # seconds of the game's time spent
        self._proc: subprocess.Popen[bytes] | None = None
        self._buffer = b""
        self._output = 0
        self._errors = b""  # the last ERROR_TAIL bytes of its standard error
        self._selector: selectors.BaseSelector | None = None
        self._finalizer: weakref.finalize[Any, Any] | None = None
        self._failed: str | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        """A copy or a pickle is a new bot with the same settings, not started."""
        settings = (self.time, self.options, self.memory_mb, self.sandbox, self.readable,
                    self.forbidden)  # fmt: skip
        return (_fresh, (self.command, *settings, self.spec))

    def __repr__(self) -> str:
        return f"<ProcessBot {self.spec!r}>"

    # ------------------------------------------------------------------ the bot protocol

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """Ask the program for one of ``legal``; ``BotError`` (and the process ended) if it
        fails. ``rng`` is not used: the program has its own randomness."""
        if self._failed is not None:
            raise self._error(f"failed before: {self._failed}")
        if self._proc is None:
            self.start()
        board = board_of(view)
        codec = codec_for(board, view.variant)
        offer = view.me.offer if view.me is not None and view.me.offer is not None else ()
        moves: list[Json] = []
        by_code: dict[int, Action] = {}
        for action in legal:
            code = _code(codec, action, offer)
            by_code[code] = action
            moves.append({"move": str(action), "code": code})
        left = self.time.game - self.used
        limit = min(self.time.move, left)
        message = {"type": "move", "view": view_to_json(view), "legal": moves,
                   "time": {"move": round(limit, 3), "game": round(left, 3)}}  # fmt: skip
        start = time.monotonic()
        clock = "move time" if self.time.move <= left else "game time"
        answer = self._ask(message, limit, "move", clock)
        self.used += time.monotonic() - start
        return self._chosen(answer, legal, by_code)

    def _chosen(self, answer: Json, legal: Sequence[Action], by_code: dict[int, Action]) -> Action:
        """The legal action ``answer`` names by ``code`` or by ``move`` (its notation)."""
        code, text = answer.get("code"), answer.get("move")
        if type(code) is int:
            if code in by_code:
                return by_code[code]
            raise self._fail(f"answered code {code}, which is not a legal move")
        if code is not None:
            raise self._fail(f"answered code {json.dumps(code)[:40]}: a code is a JSON integer")
        if isinstance(text, str):
            try:
                action = parse(text)
            except ActionParseError as exc:
                raise self._fail(f"answered {text[:80]!r}, not a move: {exc}") from None
            if action in legal:
                return action
            raise self._fail(f"answered {text[:80]!r}, which is not a legal move")
        raise self._fail("answered a move message with neither a code nor a move")

    # ------------------------------------------------------------------ the process

    def start(self) -> None:
        """Start the program (in its sandbox unless ``sandbox`` is off) and shake hands;
        ``BotError`` if it cannot."""
        memory, limits = self.memory_mb, self.limits() if self.sandbox else None
        try:
            with contextlib.ExitStack() as stack:
                line, fds, env = list(self.command), tuple[int, ...](), None
                if limits is not None:
                    if (reason := unavailable()) is not None:
                        raise self._fail(_unsandboxed(reason))
                    launch = stack.enter_context(  # its descriptors, read by bwrap as it starts
                        sandboxed(self.command, os.getcwd(), limits, self.readable,
                                  self.forbidden)
                    )  # fmt: skip
                    line, fds, env = launch.args, launch.fds, launch.env
                proc = subprocess.Popen(
                    line, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE, start_new_session=True, close_fds=True,
                    pass_fds=fds, env=env,
                    preexec_fn=lambda: child_setup(memory, limits),  # noqa: PLW1509 (prctl, setrlimit)
                )  # fmt: skip
        except SandboxError as exc:
            self._fail(exc.reason)
            raise SandboxError(self.name, None, None, exc.reason) from None
        except OSError as exc:
            raise self._fail(f"cannot start {shlex.join(self.command)}: {exc}") from None
        self._proc = proc
        self._finalizer = weakref.finalize(self, _end, proc)
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            os.set_blocking(stream.fileno(), False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(proc.stdout, selectors.EVENT_READ, "out")
        self._selector.register(proc.stderr, selectors.EVENT_READ, "err")
        from .. import __version__

        hello = {"type": "hello", "protocol": PROTOCOL, "engine": "ttr_europe",
                 "engine_version": __version__,
                 "time": {"move": self.time.move, "game": self.time.game}}  # fmt: skip
        answer = self._ask(hello, self.time.startup, "hello", "start time")
        version, name = answer.get("protocol"), answer.get("name")
        if version != PROTOCOL:
            raise self._fail(f"speaks protocol {version!r}, the referee {PROTOCOL}")
        if not isinstance(name, str) or not name.strip():
            raise self._fail("said hello without a name (a string of 1-100 characters)")
        if len(name) > 100:
            raise self._fail(f"said hello with a name of {len(name)} characters (at most 100)")
        declared = answer.get("options", {})
        if not isinstance(declared, dict):
            raise self._fail("declared options that are not an object")
        unknown = sorted(set(self.options) - set(declared))
        if unknown:
            raise self._fail(f"does not accept the options {', '.join(unknown)}")
        self.name = name.strip()
        version_text = answer.get("version")
        self.version = version_text if isinstance(version_text, str) else None
        self.declared = declared
        self._send({"type": "options", "options": {**declared, **self.options}}, 1.0)

    def decision_limit(self) -> float:
        """The most seconds the next decision may take by the clocks: the move limit (at most
        what is left of the game), and the handshake before the first."""
        limit = min(self.time.move, max(0.0, self.time.game - self.used))
        return limit + (self.time.startup + 1.0 if self._proc is None else 0.0)

    def limits(self) -> Limits:
        """The sandbox's limits: the memory cap, processor time from the clocks, the rest
        ``Limits``' defaults."""
        return Limits.for_clock(self.time.game, self.time.startup, memory_mb=self.memory_mb)

    def close(self) -> None:
        """Say ``quit``, give the program a moment to leave, then end its process group. The
        bot is then as new: its next decision starts the program again, for another game."""
        proc, finalizer = self._proc, self._finalizer
        if proc is not None and finalizer is not None and finalizer.alive:
            if proc.poll() is None and self._failed is None:
                try:
                    self._send({"type": "quit"}, 0.2)
                    proc.wait(0.5)
                except (BotError, subprocess.TimeoutExpired):
                    pass
            finalizer()
        if self._selector is not None:
            self._selector.close()
        self._proc = self._finalizer = self._selector = self._failed = None
        self._buffer, self._output, self._errors, self.used = b"", 0, b"", 0.0

    def _ask(self, message: Json, seconds: float, kind: str, clock: str) -> Json:
        """Send ``message`` and read the one answer of type ``kind`` within ``seconds`` (the
        limit of ``clock``, named when it runs out)."""
        deadline = time.monotonic() + max(seconds, 0.0)
        if self._buffer or self._readable(0.0):
            self._read_some()  # anything written unasked is a fault found here
            if self._buffer:
                raise self._fail("wrote without being asked")
        self._send(message, seconds)
        line = self._line(deadline, f"no {kind} answer within {seconds:g} s ({clock})")
        try:
            answer = parse_json(line, "<bot answer>", MAX_LINE)
        except DataError:
            raise self._fail(f"answered garbage: {line[:80]!r}") from None
        if not isinstance(answer, dict) or answer.get("type") != kind:
            raise self._fail(f"answered {line[:80]!r} to a {kind} message")
        return answer

    def _send(self, message: Json, seconds: float) -> None:
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        data = memoryview((json.dumps(message, separators=(",", ":")) + "\n").encode())
        deadline = time.monotonic() + seconds
        fd = proc.stdin.fileno()
        while data:
            try:
                data = data[os.write(fd, data) :]
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise self._fail(f"did not read its input within {seconds:g} s") from None
                self._wait_writable(fd, deadline)
            except (BrokenPipeError, ConnectionResetError):
                raise self._fail(self._exit_reason("before reading its input")) from None

    def _wait_writable(self, fd: int, deadline: float) -> None:
        """Wait until its input takes more, reading its standard error meanwhile: a program
        blocked writing there reads no input, so a long message would wait on it forever."""
        proc = self._proc
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_WRITE)
            if self._selector is not None and proc is not None and proc.stderr is not None:
                with contextlib.suppress(KeyError, ValueError):  # its end already read
                    self._selector.get_key(proc.stderr)
                    sel.register(proc.stderr, selectors.EVENT_READ, "err")
            if any(
                key.data == "err" for key, _ in sel.select(max(0.0, deadline - time.monotonic()))
            ):
                self._read_errors()

    def _readable(self, seconds: float) -> bool:
        """Whether its standard output has something to read within ``seconds``; what it
        writes on standard error meanwhile is read (so that it never blocks) and its tail kept."""
        assert self._selector is not None
        deadline = time.monotonic() + seconds
        while True:
            events = self._selector.select(max(0.0, deadline - time.monotonic()))
            if any(key.data == "out" for key, _ in events):
                return True
            if events:
                self._read_errors()
            if not events or time.monotonic() >= deadline:
                return False

    def _read_errors(self, reads: int = 1) -> None:
        """Read up to ``reads`` chunks of its standard error, keeping the last ``ERROR_TAIL``
        bytes; at its end, stop watching it."""
        proc = self._proc
        if proc is None or proc.stderr is None or proc.stderr.closed:
            return
        for _ in range(reads):
            try:
                chunk = os.read(proc.stderr.fileno(), 1 << 16)
            except BlockingIOError:  # nothing to read now
                return
            except OSError:  # gone: as at its end, or the watch would wake at once for ever
                chunk = b""
            if not chunk:
                if self._selector is not None:
                    with contextlib.suppress(KeyError, ValueError):
                        self._selector.unregister(proc.stderr)
                return
            self._errors = (self._errors + chunk)[-ERROR_TAIL:]

    def said(self) -> str | None:
        """The last line of its standard error that is not indented (a traceback's or a stack
        trace's message; Node.js's closing version line skipped), or ``None``."""
        text = self._errors.decode("utf-8", errors="replace")
        lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln[0].isspace()]
        while lines and re.fullmatch(r"Node\.js v[\d.]+", lines[-1]):
            lines.pop()
        return lines[-1] if lines else None

    def _read_some(self) -> None:
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        try:
            chunk = os.read(proc.stdout.fileno(), 1 << 16)
        except BlockingIOError:
            return
        if not chunk:
            raise self._fail(self._exit_reason("without answering"))
        self._output += len(chunk)
        self._buffer += chunk
        if self._output > MAX_OUTPUT:
            raise self._fail(f"wrote more than {MAX_OUTPUT >> 20} MB (output without end)")

    def _line(self, deadline: float, late: str) -> str:
        """The next line the program writes before ``deadline`` (else the fault ``late``)."""
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                line, self._buffer = self._buffer[:end], self._buffer[end + 1 :]
                line = line.removeprefix(BOM)
                if len(line) > MAX_LINE:
                    break
                return line.decode("utf-8", errors="replace")
            if len(self._buffer) > MAX_LINE:
                break
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._fail(f"timed out: {late}")
            if self._readable(left):
                self._read_some()
        raise self._fail(f"wrote a line longer than {MAX_LINE >> 20} MB (output without end)")

    def _exit_reason(self, when: str) -> str:
        proc = self._proc
        assert proc is not None
        try:
            code = proc.wait(0.5)
        except subprocess.TimeoutExpired:
            return f"closed its output {when}"
        how = f"killed by signal {-code}" if code < 0 else f"exit status {code}"
        return f"exited {when} ({how})"

    def _fail(self, reason: str) -> BotError:
        """End the process and build the error that reports ``reason``, with the last line
        it wrote on standard error."""
        said = None
        if self._finalizer is not None and self._finalizer.alive:
            self._read_errors(reads=64)  # what it left in the pipe, up to 4 MB
            said = self.said()
        self._failed = reason
        if self._finalizer is not None:
            self._finalizer()
        if self._selector is not None:
            self._selector.close()
        return self._error(reason, said)

    def _error(self, reason: str, said: str | None = None) -> BotError:
        return BotError(self.name, None, None, reason, said=said)


def _fresh(
    command: Sequence[str], time: TimeControl, options: Mapping[str, Json],
    memory_mb: int | None, sandbox: bool, readable: Sequence[str], forbidden: Sequence[str],
    spec: str,
) -> ProcessBot:  # fmt: skip
    return ProcessBot(command, time=time, options=options, memory_mb=memory_mb,
                      sandbox=sandbox, readable=readable, forbidden=forbidden,
                      spec=spec)  # fmt: skip


def _code(codec: ActionCodec, action: Action, offer: Sequence[str]) -> int:
    """The ``ActionCodec`` code of ``action``; a ticket choice by the places it keeps in the
    seat's offer, as the codec numbers it."""
    if type(action) is KeepTickets:
        keep: int = codec.keep_code(sum(1 << offer.index(t) for t in action.tickets))
        return keep
    code: int = codec.encode(action)
    return code
