"""Child processes a test stops with a signal: whatever the test run inherited (a background
job of a non-interactive shell ignores SIGINT and SIGQUIT, and an ignored signal stays ignored
across ``exec``), the child starts with both at their defaults, so Ctrl-C reaches it as it
reaches a program started from a terminal."""

from __future__ import annotations

import signal
import subprocess
from typing import Any

STOP_SIGNALS = (signal.SIGINT, signal.SIGQUIT)


def default_signals() -> None:
    """In the child, between fork and exec: SIGINT and SIGQUIT at their defaults."""
    for number in STOP_SIGNALS:
        signal.signal(number, signal.SIG_DFL)


def spawn(argv: list[str], **kw: Any) -> subprocess.Popen[Any]:
    """``subprocess.Popen(argv, **kw)`` with the stop signals at their defaults in the child."""
    return subprocess.Popen(argv, preexec_fn=default_signals, **kw)  # noqa: PLW1509
