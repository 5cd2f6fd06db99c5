"""A line-protocol bot that attacks its referee, its host or its opponent: ``hostile_bot.py
MODE ARG``. It says what it found in its hello's ``version`` (``ProcessBot.version``), then
answers the last legal move (a claim when it can), after its attack when that is made at a
move (``kill``, ``stop``, ``killparent``), unless it is asked to hang (``escape``, ``hang``).

MODE and ARG:

- ``peek PREFIX``: scans its parent's memory (``/proc/PPID/mem``) for PREFIX and 32 hex digits;
- ``tcp PORT``: connects to 127.0.0.1:PORT;
- ``unix FOLDER``: connects to the socket ``svc.sock`` of FOLDER (shown to it as a word of its
  command), sends to it as a datagram from a pair of sockets, makes an ``AF_VSOCK`` socket (to
  the machine's host, whatever its network namespace; it connects to nothing) and a pair of
  connected stream sockets (as ``asyncio`` does), and says what each came to;
- ``read @PATH``, ``list @PATH``: reads a file, lists a folder (the ``@`` keeps the referee
  from taking PATH for a file the command needs);
- ``env -``: names its environment; ``procenv -``: names the environment of every other
  process it may read (``/proc/PID/environ``: the sandbox's first process, or the host's);
  ``parent -``: whether it may write its parent's memory (``/proc/PPID/mem``, the sandbox's
  first process or the referee) or trace it (``ptrace``); ``fork N``: starts N sleeping
  processes; ``keys -``: the keys of its session keyring (the referee's, if it inherits it);
  ``cwd -``: its working folder and what it holds;
- ``shared MB``: tries to hold MB megabytes outside its address space, in a memfd, in a POSIX
  shared memory file (``/dev/shm``), in a SysV segment and in SysV message queues (removed
  after), makes a SysV semaphore set, and says what each came to and which folders it can
  write in;
- ``buffers -``: holds what it can in the kernel's buffers of its open files (pipes of 1 MB,
  then connected pairs of sockets) until it may open no more, and says the megabytes held;
- ``hog MBxN``: N processes (itself and N-1 children, those it can start) each hold as much
  as they can of MB megabytes; says how many there were and the megabytes held in all;
- ``ownfs MB``: makes a user and a mount namespace of its own (``unshare``), mounts a tmpfs
  there without a size cap and holds MB megabytes in it (files, not its address space); also
  tries ``setns``, ``mount`` and ``fsopen`` on their own, and says what each came to;
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
import errno
import json
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import tempfile
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


def unix(folder):
    found = {}

    def tried(name, attempt):
        try:
            found[name] = attempt()
        except OSError as exc:
            found[name] = f"refused:{type(exc).__name__}"

    def stream():
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(2)
            s.connect(os.path.join(folder, "svc.sock"))
            return "connected:" + s.recv(16).decode()

    def datagram():
        one, two = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
        with one, two:
            one.sendto(b"hi", os.path.join(folder, "svc.dgram"))
        return "sent"

    def vsock():
        socket.socket(getattr(socket, "AF_VSOCK", 40), socket.SOCK_STREAM).close()
        return "made"

    def pair():
        one, two = socket.socketpair()
        with one, two:
            one.sendall(b"ok")
            return "made:" + two.recv(2).decode()

    for name, attempt in (("stream", stream), ("datagram", datagram), ("vsock", vsock),
                          ("pair", pair)):  # fmt: skip
        tried(name, attempt)
    return json.dumps(found)


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


def procenv():
    names = set()
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        with contextlib.suppress(OSError), open(f"/proc/{name}/environ", "rb") as f:
            names |= {e.split(b"=")[0].decode(errors="replace") for e in f.read().split(b"\0") if e}
    return "procenv:" + ",".join(sorted(names))


def parent():
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
    found, pid = [], os.getppid()
    with contextlib.suppress(OSError), open(f"/proc/{pid}/mem", "r+b"):
        found.append("mem")
    if libc.ptrace(16, pid, None, None) == 0:  # PTRACE_ATTACH, then PTRACE_DETACH
        os.waitpid(pid, 0x40000000)  # __WALL
        libc.ptrace(17, pid, None, None)
        found.append("ptrace")
    return "parent:" + ",".join(found)


def keys():
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    ring = libc.syscall(250, 0, ctypes.c_long(-3), 0)  # KEYCTL_GET_KEYRING_ID of the session's
    if ring < 0:
        return f"keys:refused:{errno.errorcode[ctypes.get_errno()]}"
    ids = ctypes.create_string_buffer(4096)
    size = max(libc.syscall(250, 11, ctypes.c_long(ring), ids, 4096), 0)  # KEYCTL_READ
    found = []
    for i in range(0, min(size, 4096), 4):
        key, text = (
            int.from_bytes(ids.raw[i : i + 4], sys.byteorder),
            ctypes.create_string_buffer(256),
        )
        length = libc.syscall(250, 11, ctypes.c_long(key), text, 256)
        found.append(text.raw[: max(length, 0)].decode(errors="replace"))
    return "keys:" + ",".join(found)


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
    try:
        subprocess.Popen([sys.executable, "-c", code, token])
    except OSError as exc:  # a sandbox starts no process
        return f"refused:{type(exc).__name__}"
    return "escaped"


def fill(write, megabytes):
    for _ in range(megabytes):
        write(b"x" * (1 << 20))


def shared(megabytes):
    import ctypes

    found = {}
    try:
        fd = os.memfd_create("hoard")
        fill(lambda b: os.write(fd, b), int(megabytes))  # no mapping: no address space
        found["memfd"] = f"held:{os.fstat(fd).st_size >> 20}"
        os.close(fd)
    except OSError as exc:
        found["memfd"] = f"refused:{type(exc).__name__}"
    try:
        with open("/dev/shm/hoard", "wb") as f:
            fill(f.write, int(megabytes))
        found["posix"] = f"held:{os.path.getsize('/dev/shm/hoard') >> 20}"
        os.unlink("/dev/shm/hoard")
    except OSError as exc:
        found["posix"] = f"refused:{type(exc).__name__}"
    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmget.restype = ctypes.c_int
    size = int(megabytes) << 20
    shmid = libc.shmget(0, ctypes.c_size_t(size), 0o1600)  # IPC_PRIVATE, IPC_CREAT | 0600
    if shmid < 0:
        found["sysv"] = f"refused:{os.strerror(ctypes.get_errno())}"
    else:
        libc.shmctl(shmid, 0, None)  # IPC_RMID
        found["sysv"] = "made"
    queues, held, message = [], 0, ctypes.create_string_buffer(8 + 8192)
    message[0] = 1  # its type, then 8 kB of text
    while held < size:
        queue = libc.msgget(0, 0o1600)
        if queue < 0:
            break
        queues.append(queue)
        while held < size and libc.msgsnd(queue, message, 8192, 0o4000) == 0:  # IPC_NOWAIT
            held += 8192
    said = f"held:{held >> 20}" if queues else f"refused:{os.strerror(ctypes.get_errno())}"
    for queue in queues:
        libc.msgctl(queue, 0, None)  # IPC_RMID
    found["messages"] = said
    semid = libc.semget(0, 1000, 0o1600)
    found["semaphores"] = "made" if semid >= 0 else f"refused:{os.strerror(ctypes.get_errno())}"
    if semid >= 0:
        libc.semctl(semid, 0, 0)  # IPC_RMID
    found["writable"] = []
    for folder in ("/", "/dev", "/dev/shm", "/etc", "/tmp", os.path.dirname(__file__)):
        with contextlib.suppress(OSError):
            with open(os.path.join(folder, "hoard"), "wb") as f:
                f.write(b"x")
            os.unlink(os.path.join(folder, "hoard"))
            found["writable"].append(folder)
    return json.dumps(found)


def ownfs(megabytes):
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    found = {"held": 0}

    def said(result):
        return "done" if result == 0 else f"refused:{errno.errorcode[ctypes.get_errno()]}"

    with open("/proc/self/ns/mnt") as ns:  # its own: harmless where it is allowed
        found["setns"] = said(libc.setns(ns.fileno(), 0))
    fd = libc.syscall(430, b"tmpfs", 0)  # fsopen, the same number on x86_64 and aarch64
    found["fsopen"] = said(min(fd, 0))
    if fd >= 0:
        os.close(fd)
    uid, gid = os.getuid(), os.getgid()
    found["unshare"] = said(libc.unshare(0x10000000 | 0x00020000))  # NEWUSER | NEWNS
    if found["unshare"] != "done":
        return json.dumps(found)
    with open("/proc/self/setgroups", "w") as f:
        f.write("deny")
    with open("/proc/self/uid_map", "w") as f:
        f.write(f"0 {uid} 1")
    with open("/proc/self/gid_map", "w") as f:
        f.write(f"0 {gid} 1")
    folder = tempfile.mkdtemp()
    found["mount"] = said(libc.mount(b"none", folder.encode(), b"tmpfs", 0, b"size=100%"))
    if found["mount"] == "done":
        for i in range(0, int(megabytes), 32):
            with open(os.path.join(folder, str(i)), "wb") as f:
                fill(f.write, min(32, int(megabytes) - i))
            found["held"] += min(32, int(megabytes) - i)
        libc.umount2(folder.encode(), 2)  # MNT_DETACH: its files go with it
    os.rmdir(folder)  # a trusted run made it in the host's /tmp
    return json.dumps(found)


def buffers():
    import fcntl

    held, kept = 0, []

    def stuff(write):
        nonlocal held
        with contextlib.suppress(BlockingIOError, InterruptedError):
            while True:
                held += write(b"x" * 65536)

    try:
        while True:
            read, write = os.pipe()
            kept += [read, write]
            with contextlib.suppress(OSError):
                fcntl.fcntl(write, 1031, 1 << 20)  # F_SETPIPE_SZ
            os.set_blocking(write, False)
            stuff(lambda b, fd=write: os.write(fd, b))
    except OSError:
        pass
    for fd in kept[-64:]:  # half the pipes' room goes to sockets, which hold more a file
        os.close(fd)
    kept = kept[:-64]
    try:
        while True:
            pair = socket.socketpair()
            kept += pair
            for end in pair:
                end.setblocking(False)
                stuff(end.send)
    except OSError:
        pass
    return f"buffers:{held >> 20}"


def hoard(megabytes):
    held, chunks = 0, []
    try:
        while held < megabytes:
            chunks.append(bytearray(16 << 20))  # zero pages: touched below
            for i in range(0, 16 << 20, 4096):
                chunks[-1][i] = 1
            held += 16
    except MemoryError:
        pass
    return held, chunks


def hog(spec):
    megabytes, count = (int(x) for x in spec.split("x"))
    children, pipes = [], []
    for _ in range(count - 1):
        try:
            read, write = os.pipe()
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            held, _chunks = hoard(megabytes)
            os.write(write, f"{held}\n".encode())
            time.sleep(60)
            os._exit(0)
        children.append(pid)
        pipes.append(read)
    held, _chunks = hoard(megabytes)
    for read in pipes:
        held += int(os.read(read, 64) or b"0")
    for pid in children:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    return f"processes:{1 + len(children)},held:{held}"


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


AT_HELLO = {"peek": peek, "tcp": tcp, "unix": unix, "read": read, "list": listing, "fork": fork,
            "limits": lambda _: limits(), "escape": escape, "shared": shared, "hog": hog,
            "ownfs": ownfs,
            "cwd": lambda _: os.getcwd() + ":" + ",".join(sorted(os.listdir("."))),
            "env": lambda _: "env:" + ",".join(sorted(os.environ)),
            "procenv": lambda _: procenv(), "parent": lambda _: parent(),
            "keys": lambda _: keys(), "buffers": lambda _: buffers()}  # fmt: skip
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
