"""The error family: every failure the library reports on bad input is a ``TTRError``."""

from __future__ import annotations

import re
from typing import Any


class TTRError(Exception):
    """Base of every error raised by ttr_europe on bad input.

    Every one crosses a process boundary whole (a pool worker's error reaches the driver):
    it pickles as its message and attributes, not as a call to its ``__init__``, whose
    arguments differ from class to class.
    """

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuilt, (type(self), self.args, self.__dict__)


def _rebuilt(cls: type[TTRError], args: tuple[Any, ...], attributes: dict[str, Any]) -> TTRError:
    """An error as it was pickled: ``Exception``'s arguments and the instance's attributes."""
    error = cls.__new__(cls)
    Exception.__init__(error, *args)
    error.__dict__.update(attributes)
    return error


class DataError(TTRError, ValueError):
    """A data file or document is malformed; ``source`` and ``path`` say where.

    ``path`` is a JSON path such as ``$.routes[3].length``.
    """

    def __init__(self, message: str, *, source: str = "<data>", path: str = "$") -> None:
        self.source = source
        self.path = path
        self.reason = message
        super().__init__(f"{source}: {path}: {message}")


class IllegalActionError(TTRError, ValueError):
    """An action the rules forbid in this state; ``rule`` names the rule (e.g. ``R15b``)."""

    def __init__(self, rule: str, message: str, action: Any = None) -> None:
        self.rule = rule
        self.reason = message
        self.action = action
        super().__init__(f"{rule}: {message}" + (f" ({action})" if action is not None else ""))


def in_words(reason: str) -> str:
    """A rule's reason as a sentence for players, as the page and the terminal say it: "keep at
    least 2 ticket(s)" becomes "Keep at least 2 tickets." (the rule's number travels apart)."""

    def agree(m: re.Match[str]) -> str:
        return m.group(1) + m.group(2) + ("" if m.group(1) == "1 " else "s")

    text = re.sub(r"(\d+ )((?:\w+ )*?\w+)\(s\)", agree, reason.strip())
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


class NotYourTurnError(IllegalActionError):
    """The action was made for a player who is not the one to act."""


class GameOverError(IllegalActionError):
    """The game has ended; no action is legal."""


class ActionParseError(TTRError, ValueError):
    """Text that does not name an action; ``candidates`` lists near matches when ambiguous,
    and ``refusal`` is the rule's error when the text names a move the rules forbid now."""

    def __init__(
        self,
        message: str,
        candidates: tuple[str, ...] = (),
        refusal: IllegalActionError | None = None,
    ) -> None:
        self.candidates = candidates
        self.refusal = refusal
        extra = ("; candidates: " + ", ".join(candidates)) if candidates else ""
        super().__init__(message + extra)


class SetupError(TTRError, ValueError):
    """Impossible game parameters (player count, unknown variant or option)."""


class SecretError(SetupError):
    """A key that cannot serve a secret deal (``_seeds.Deal``): a file missing, unreadable or
    too short."""


class MalformedActionError(IllegalActionError):
    """An action that names nothing real: unknown route or city, bad slot, wrong types."""


class CardsError(TTRError, ValueError):
    """A malformed card multiset (negative count, unknown kind, bad text)."""


class ScoringError(TTRError, ValueError):
    """A station choice that the rules do not allow, or a state that cannot be scored."""


class ScoreMismatchError(ScoringError):
    """The running score of a seat differs from the points of the routes it owns (D35).

    The engine adds route points as routes are claimed, so this only happens with a state that
    was built or edited by hand; the scorer refuses to guess which of the two numbers is right.
    """

    def __init__(self, seat: int, recorded: int, recomputed: int) -> None:
        self.seat = seat
        self.recorded = recorded
        self.recomputed = recomputed
        super().__init__(
            f"D35: seat {seat} has a running score of {recorded} but owns routes worth {recomputed}"
        )


def kind_of(value: object) -> str:
    """How an error message names the type of a wrong value: ``a str``, ``an int``, ``None``."""
    if value is None:
        return "None"
    name = type(value).__name__
    return f"{'an' if name[0] in 'aeiouAEIOU' else 'a'} {name}"


class BadArgumentError(TTRError, TypeError):
    """A public function got an argument of the wrong type; ``argument`` names it."""

    def __init__(self, message: str, *, argument: str = "") -> None:
        self.argument = argument
        super().__init__(message)


class BotError(TTRError, ValueError):
    """A bot failed: it raised, answered an illegal action, or its spec names no bot.

    ``bot`` is the bot's name (or the spec), ``seat`` the seat it moved for (None when no game
    was under way) and ``action`` what it answered (None when it answered nothing). ``said``
    is the last line a program wrote on its standard error, for whoever runs it: the message
    ends with it, ``for_players`` leaves it out (it may quote the bot's hand or tickets, which
    its stand-in keeps).
    """

    def __init__(
        self, bot: str, seat: int | None, action: Any, reason: str, *, said: str | None = None
    ) -> None:
        self.bot = bot
        self.seat = seat
        self.action = action
        self.reason = reason
        self.said = said
        tail = "" if said is None else f"; its standard error ended: {said[:200]!r}"
        self.explained = reason + tail
        """The reason ended with what the program said, for a row or log its runner reads."""
        super().__init__(self.for_players() + tail)

    def for_players(self) -> str:
        """The message without what the program said on its standard error."""
        where = f" (seat {self.seat})" if self.seat is not None else ""
        return f"bot {self.bot!r}{where}: {self.reason}"


class SandboxError(BotError):
    """A ``cmd:`` program's command or paths would open the host to its sandbox (a path that
    resolves to the root, to ``/proc``, ``/sys``, ``/dev`` or ``/run``, or to the referee's
    own files or a folder holding one): the program is refused before it starts."""


class EventError(TTRError, ValueError):
    """``after`` is not the state that ``action`` leads to from ``before`` (events)."""


class MatchError(TTRError, ValueError):
    """A request the match cannot serve (nothing to undo, an unknown seat)."""


class RenderError(TTRError, ValueError):
    """A picture asked of something it cannot draw (an unknown route or city in a highlight)."""


class WebError(TTRError, ValueError):
    """A message the protocol refuses; ``code`` is a short stable name for the browser."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)


class SimulationError(TTRError, ValueError):
    """Bad simulation input: an unknown bot, an output file that is not ours, a lost backend."""


class UsageError(TTRError, ValueError):
    """A command-line argument that cannot be used; ``main`` prints it and exits with 2."""


class OutOfTime(BaseException):
    """Raised inside an in-process bot's code when its clock runs out (``sim.games.SeatClock``,
    by ``SIGALRM``): not an ``Exception``, so that a bot's ``except Exception`` does not take
    it for its own; the referee turns it into the seat's forfeit."""
