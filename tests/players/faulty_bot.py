"""A line-protocol bot that goes wrong on purpose at its Nth move: ``faulty_bot.py MODE N
PIDFILE``. Before that it answers the first legal move. It appends its pid (and a child's, for
``hangs``) to PIDFILE so that a test can check that every process was ended (in a sandbox,
where PIDFILE cannot be written, the test finds them by PIDFILE in their command lines).

MODE: ``dies`` (exits), ``hangs`` (starts a child that sleeps where it may, then sleeps),
``garbage`` (a line that is not JSON), ``illegal`` (a code that is not listed), ``endless``
(writes without end), ``unasked`` (an extra line after its answer), ``protocol2`` (says hello in
protocol 2), ``mute`` (never says hello), ``hog`` (asks for far more memory than allowed),
``crashes`` (raises, so its traceback is on standard error, after lines of its own there),
``stringcode`` (its code as a JSON string), ``crlf`` (never goes wrong; writes a byte-order
mark before its hello and ends its lines with CRLF, as some runtimes do), ``chatty`` (never
goes wrong; writes 256 KB on standard error before each answer, more than a pipe holds),
``record`` (never goes wrong; writes every line it reads and writes to PIDFILE.log),
``notation`` (never goes wrong; answers the last legal move by its notation, declares the
options ``level`` and ``style`` and writes the options message it gets to PIDFILE.log).
"""

import contextlib
import json
import os
import subprocess
import sys
import time

mode, n, pidfile = sys.argv[1], int(sys.argv[2]), sys.argv[3]


def note(pid):
    try:
        with open(pidfile, "a") as f:
            f.write(f"{pid}\n")
    except OSError:  # a sandbox: nothing outside its /tmp can be written
        pass


note(os.getpid())


def send(text):
    if mode == "crlf" and text.startswith('{"type": "hello"'):
        sys.stdout.buffer.write(b"\xef\xbb\xbf")
    sys.stdout.write(text + ("\r\n" if mode == "crlf" else "\n"))
    sys.stdout.flush()
    log(">", text)


def log(way, text):
    if mode == "record":
        with open(pidfile + ".log", "a") as f:
            f.write(way + " " + text.strip() + "\n")


moves = 0
for line in sys.stdin:
    log("<", line)
    message = json.loads(line)
    if message["type"] == "hello":
        if mode == "mute":
            time.sleep(3600)
        version = 2 if mode == "protocol2" else 1
        hello = {"type": "hello", "protocol": version, "name": mode, "version": "0"}
        if mode == "notation":
            hello["options"] = {"level": 1, "style": "calm"}
        send(json.dumps(hello))
    elif message["type"] == "options" and mode == "notation":
        with open(pidfile + ".log", "a") as f:
            f.write(line)
    elif message["type"] == "move":
        moves += 1
        print(f"thinking about move {moves}", file=sys.stderr, flush=True)
        if mode == "chatty":
            print("x" * (256 << 10), file=sys.stderr, flush=True)
        if mode == "notation":
            send(json.dumps({"type": "move", "move": message["legal"][-1]["move"]}))
            continue
        if moves < n or mode in ("record", "crlf", "chatty"):
            send(json.dumps({"type": "move", "code": message["legal"][0]["code"]}))
            continue
        if mode == "dies":
            sys.exit(3)
        if mode == "hangs":
            sleep = [sys.executable, "-c", "import time; time.sleep(3600)", pidfile]
            with contextlib.suppress(OSError):  # a sandbox starts no process: it only hangs
                note(subprocess.Popen(sleep).pid)
            time.sleep(3600)
        if mode == "crashes":
            raise ValueError("no move for you")
        if mode == "stringcode":
            send(json.dumps({"type": "move", "code": str(message["legal"][0]["code"])}))
        if mode == "garbage":
            send("a move, please?")
        if mode == "illegal":
            send(json.dumps({"type": "move", "code": -5}))
        if mode == "endless":
            while True:
                sys.stdout.write("x" * 65536)
        if mode == "unasked":
            send(json.dumps({"type": "move", "code": message["legal"][0]["code"]}))
            send(json.dumps({"type": "move", "code": message["legal"][0]["code"]}))
        if mode == "hog":
            hoard = bytearray(4 << 30)
            send(json.dumps({"type": "move", "code": len(hoard)}))
    elif message["type"] == "quit":
        break
