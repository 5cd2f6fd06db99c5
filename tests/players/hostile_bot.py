"""A line-protocol bot that attacks its referee, its host or its opponent: ``hostile_bot.py
MODE ARG``. It says what it found in its hello's ``version`` (``ProcessBot.version``), then
answers the last legal move (a claim when it can), after its attack when that is made at a
move (``kill``, ``stop``, ``killparent``), unless it is asked to hang (``escape``, ``hang``).

MODE and ARG:

- ``peek PREFIX``: scans its parent's memory (``/proc/PPID/mem``) for PREFIX and 32 hex digits;
- ``tcp PORT``: connects to 127.0.0.1:PORT;
- ``read @PATH``, ``list @PATH``: reads a file, lists a folder (the ``@`` keeps the referee
  from taking PATH for a file the command needs);
- ``env -``: names its environment; ``fork N``: starts N sleeping processes;
- ``limits -``: its resource limits, its user and a 100 MB write to its ``/tmp``;
- ``kill PATTERN``: at each move after its first (its tickets), SIGKILL to every other process
  whose command line holds PATTERN;
- ``stop -``, ``killparent -``: at its second move, SIGSTOP or SIGKILL to its parent (the
  referee);
- ``escape TOKEN``: at hello, a grandchild in a session of its own that sleeps with TOKEN on
  its command line, then at its second move it hangs; ``hang TOKEN``: hangs at its second move.

Every mode takes its ARG onto its command line, so a test finds its processes by ARG.
"""

import contextlib
import json
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import time

mode, arg = sys.argv[1], sys.argv[2]


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def peek(prefix):
    pattern = re.compile(re.escape(prefix.encode()) + rb"([0-9a-f]{32})")
    parent = os.getppid()
    try:
        with open(f"/proc/{parent}/maps") as maps, open(f"/proc/{parent}/mem", "rb") as mem:
            for line in maps:
                span, perms = line.split()[:2]
                if not perms.startswith("rw"):
                    continue
                start, end = (int(x, 16) for x in span.split("-"))
                try:
                    mem.seek(start)
                    found = pattern.search(mem.read(end - start))
                except (OSError, OverflowError, ValueError):
                    continue
                if found:
                    return "found:" + found.group(1).decode()
    except OSError as exc:
        return f"none:{type(exc).__name__}"
    return "none:not found"


def tcp(port):
    try:
        socket.create_connection(("127.0.0.1", int(port)), timeout=2).close()
    except OSError as exc:
        return f"refused:{type(exc).__name__}"
    return "connected"


def read(path):
    path = path.removeprefix("@")
    try:
        with open(path) as f:
            return "read:" + f.read(40)
    except OSError as exc:
        return f"error:{type(exc).__name__}"


def listing(path):
    path = path.removeprefix("@")
    try:
        return "listed:" + ",".join(sorted(os.listdir(path)))
    except OSError as exc:
        return f"error:{type(exc).__name__}"


def fork(n):
    started = 0
    for _ in range(int(n)):
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            time.sleep(30)
            os._exit(0)
        started += 1
    return f"forked:{started}"


def limits():
    names = ("NPROC", "CPU", "FSIZE", "NOFILE", "AS")
    found = {n: resource.getrlimit(getattr(resource, "RLIMIT_" + n))[0] for n in names}
    found["uid"] = os.getuid()
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the cap fails instead
    try:
        with open("/tmp/big", "wb") as f:
            for _ in range(100):
                f.write(b"x" * (1 << 20))
        found["write"] = "100 MB"
    except OSError as exc:
        found["write"] = type(exc).__name__
    return json.dumps(found)


def escape(token):
    code = "import os, time; os.setsid(); time.sleep(3600)"
    subprocess.Popen([sys.executable, "-c", code, token])
    return "escaped"


def kill(pattern):
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as f:
                if pattern.encode() in f.read():
                    os.kill(int(name), signal.SIGKILL)
        except OSError:
            pass


AT_HELLO = {"peek": peek, "tcp": tcp, "read": read, "list": listing, "fork": fork,
            "limits": lambda _: limits(), "escape": escape,
            "env": lambda _: "env:" + ",".join(sorted(os.environ))}  # fmt: skip
AT_MOVE = {"kill": kill, "stop": lambda _: os.kill(os.getppid(), signal.SIGSTOP),
           "killparent": lambda _: os.kill(os.getppid(), signal.SIGKILL)}  # fmt: skip

moves = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        report = AT_HELLO[mode](arg) if mode in AT_HELLO else "-"
        send({"type": "hello", "protocol": 1, "name": "hostile-" + mode, "version": report})
    elif message["type"] == "move":
        moves += 1
        if mode in AT_MOVE and moves >= 2:
            with contextlib.suppress(OSError):
                AT_MOVE[mode](arg)
        if mode in ("escape", "hang") and moves >= 2:
            time.sleep(3600)
        send({"type": "move", "code": message["legal"][-1]["code"]})
    elif message["type"] == "quit":
        break
