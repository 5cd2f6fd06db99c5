"""The sandbox of a bot in another process: what a ``cmd:`` program can reach (docs/bots.md).

On Linux a program runs inside bubblewrap (``bwrap``, Debian's ``bubblewrap``) with its own
namespaces: no network (a loopback of its own), its own process tree (it sees and can signal
only its own processes), its own mounts (the system's programs and libraries, the program and
the files its command names, all read-only, each resolved, opened and checked as opened, and
bound by that descriptor, and a private writable ``/tmp``, size-capped, where it starts), a
minimal environment (``ENVIRONMENT``) and an unprivileged user (the referee's own uid where the
referee is not root), with no namespace or mount of its own. No path opens the host (``view``):
one that resolves to the root, to ``/proc``, ``/sys``, ``/dev`` or ``/run``, or to the
referee's own files (``forbid``) or a folder holding one, refuses the program
(``SandboxError``). Its limits (``Limits``) cap memory, threads, processor time, file size and
open files, and hold in total: a seccomp filter (``seccomp_program``) keeps it one process and
refuses memory that no address space counts (memfd, SysV and POSIX shared memory). The whole
tree dies with the referee (``--die-with-parent``): when the referee ends the sandbox, or is
itself killed, nothing of the program is left, not even a grandchild that left its session.

Where no sandbox can be made (no ``bwrap``, no namespaces, not Linux) ``unavailable()`` says
why and a sandboxed bot is refused; ``cmd[sandbox=off]:`` runs a trusted program unconfined.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import functools
import math
import os
import re
import secrets
import shlex
import shutil
import stat
import struct
import subprocess
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import NoReturn

import attrs

from ..errors import SandboxError

try:
    import resource
except ImportError:  # pragma: no cover (not a POSIX system: no limits)
    resource = None  # type: ignore[assignment]

__all__ = [
    "ENVIRONMENT",
    "REFEREE_FILES",
    "SPECIAL",
    "SYSTEM",
    "Launch",
    "Limits",
    "View",
    "child_setup",
    "forbid",
    "referee_files",
    "resolve_program",
    "sandboxed",
    "seccomp_file",
    "seccomp_program",
    "unavailable",
    "view",
    "visible",
]

BWRAP = os.environ.get("TTR_EUROPE_BWRAP", "/usr/bin/bwrap")
"""The bubblewrap program (``TTR_EUROPE_BWRAP`` names another one)."""
PRLIMIT = "/usr/bin/prlimit"
SETPRIV = "/usr/bin/setpriv"

ENVIRONMENT = {
    "PATH": "/usr/local/bin:/usr/bin:/bin",
    "HOME": "/tmp",
    "TMPDIR": "/tmp",
    "LANG": "C.UTF-8",
    "PYTHONDONTWRITEBYTECODE": "1",
}
"""The whole environment of a sandboxed program: nothing of the referee's is passed on."""

SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
"""The system's programs and libraries, visible read-only in every sandbox."""
SYSTEM_FILES = ("/etc/ld.so.cache", "/etc/alternatives", "/etc/localtime")
"""The only parts of ``/etc`` a sandbox sees: how the system finds its libraries and programs."""

_HOME = os.path.realpath(os.path.expanduser("~"))
SANDBOX_UID = 65534
"""The program's user inside its namespace (``nobody``)."""


@attrs.frozen
class Limits:
    """What a sandboxed program may use: address space, threads, processor seconds, the size
    of one file it writes, open files, and the size of its private ``/tmp``. A sandboxed
    program is one process (the seccomp filter refuses any other), so its address space and
    processor time are those of all its threads together, and with its ``/tmp`` they bound
    all it holds (``memory_mb`` + ``tmp_mb``), but for the kernel's buffers of its
    ``open_files`` (pipes and sockets: under 128 MB for 256)."""

    memory_mb: int | None = 2048
    processes: int = 64
    cpu_seconds: int = 660
    file_mb: int = 64
    open_files: int = 256
    tmp_mb: int = 64

    @classmethod
    def for_clock(cls, game_seconds: float, startup_seconds: float, **kw: int | None) -> Limits:
        """Limits whose processor time is what the clocks allow one process to think (the
        game and the handshake) and a minute more; ``kw`` overrides the other fields."""
        cpu = math.ceil(game_seconds + startup_seconds) + 60
        return cls(cpu_seconds=cpu, **kw)  # type: ignore[arg-type]


_libc = ctypes.CDLL(None, use_errno=True) if sys.platform.startswith("linux") else None
_PR_SET_PDEATHSIG = 1


def child_setup(memory_mb: int | None, limits: Limits | None) -> None:  # pragma: no cover
    """In the child, between fork and exec: die with the referee (``PR_SET_PDEATHSIG``, the
    thread that started it), no core files, the memory cap, and with ``limits`` (a sandboxed
    program) its processor, file-size and open-file caps. Only ``prctl`` and ``setrlimit``
    calls on objects made before the fork: no import, no lock."""
    if _libc is not None:
        _libc.prctl(_PR_SET_PDEATHSIG, 9, 0, 0, 0)  # 9: SIGKILL
    if resource is None:
        return
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if memory_mb is not None:
        size = memory_mb << 20
        resource.setrlimit(resource.RLIMIT_AS, (size, size))
    if limits is not None:
        resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds + 1))
        file_size = limits.file_mb << 20
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))
        resource.setrlimit(resource.RLIMIT_NOFILE, (limits.open_files, limits.open_files))


def resolve_program(command: Sequence[str]) -> str:
    """The absolute path of the program ``command[0]``, found on the referee's ``PATH`` as a
    shell would; ``FileNotFoundError`` when there is none (the sandbox has its own ``PATH``)."""
    name = command[0]
    found = shutil.which(name) if os.sep not in name else name
    if found is None or not os.access(found, os.X_OK) or os.path.isdir(found):
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), name)
    return os.path.abspath(found)


REFEREE_FILES = "TTR_EUROPE_REFEREE_FILES"
"""The environment variable listing the referee's own files (``os.pathsep`` between them),
never shown to a sandbox: set by ``forbid``, so the workers a referee starts inherit it."""


def forbid(paths: Iterable[str]) -> None:
    """Never show ``paths`` (the referee's own files: a match database, its WAL and SHM, a
    results file), nor a folder holding one, to a sandbox started by this process or by any
    process it starts later (its workers): a command naming one is refused (``SandboxError``).
    """
    known = [*referee_files(), *(os.path.realpath(p) for p in paths)]
    os.environ[REFEREE_FILES] = os.pathsep.join(dict.fromkeys(known))


def referee_files() -> tuple[str, ...]:
    """The referee's own files, resolved, as ``forbid`` listed them."""
    listed = os.environ.get(REFEREE_FILES, "").split(os.pathsep)
    return tuple(os.path.realpath(p) for p in listed if p)


SPECIAL = ("/proc", "/sys", "/dev", "/run")
"""The kernel's and the running system's own trees: never shown from the host, nor the root
itself, whatever a command names (they would show the host's processes and devices)."""


@attrs.frozen
class View:
    """What a sandbox shows of the host, every path resolved: the ``program`` it runs (its
    folders resolved, its name kept: a link stays a link), the ``words`` it passes (one that
    names an existing path, as that path resolved), the host paths ``shown`` read-only at the
    same place, and the ``links`` (target, link) made inside on the program's way."""

    program: str
    words: tuple[str, ...]
    shown: tuple[str, ...]
    links: tuple[tuple[str, str], ...]


def view(
    command: Sequence[str], cwd: str, readable: Sequence[str] = (), forbidden: Sequence[str] = ()
) -> View:
    """The ``View`` of ``command`` run from ``cwd``, seeing also ``readable``: the program
    through each of its links (or the installation it belongs to when it lies in the ``bin/``
    of one: a directory with a ``lib/`` or a virtual environment's ``pyvenv.cfg``; of the
    user's ``~/.local`` only its ``bin/`` and ``lib/``), and each
    word of the command that names an existing file or directory. Every path is resolved
    (links, ``//``, ``..``) before it is checked, and the resolved path is what is shown:
    ``SandboxError`` where one is the root, lies in ``SPECIAL`` or in a kernel file system
    mounted elsewhere (or holds one), or is one of ``forbidden`` and ``referee_files()`` (the
    referee's files), by path or by identity, or a folder holding one; ``FileNotFoundError`` where
    there is no program."""
    keep_out = _keep_out(forbidden)
    for path in keep_out:
        for top in (*SYSTEM, *SYSTEM_FILES):
            if os.path.lexists(top) and _within(path, os.path.realpath(top)):
                _refuse(command, path, path, f"the referee's file lies in {top}, shown to all")
    shown: list[tuple[str, str]] = []  # (as written, resolved)
    links: list[tuple[str, str]] = []
    program = hop = _resolved_folders(os.path.join(cwd, resolve_program(command)))
    for _ in range(40):  # the chain of links, as the kernel follows it
        home = _installation(hop)
        if home != hop or not os.path.islink(hop):
            shown += [(command[0], part) for part in _installed_parts(home)]
        if not os.path.islink(hop):
            break
        target = _resolved_folders(os.path.join(os.path.dirname(hop), os.readlink(hop)))
        if home == hop:
            links.append((target, hop))
        hop = target
    words: list[str] = []
    for word in command[1:]:
        named = bool(word) and os.path.exists(os.path.join(cwd, word))
        words.append(os.path.realpath(os.path.join(cwd, word)) if named else word)
        shown += [(word, words[-1])] if named else []
    shown += [(p, os.path.realpath(p)) for p in readable]
    for written, path in [*shown, *((command[0], link) for _, link in links)]:
        if (why := _refusal(path, keep_out)) is not None:
            _refuse(command, written, path, why)
    seen = [p for p in dict.fromkeys(p for _, p in shown) if not _is_system(p)]
    outer = [p for p in seen if not any(q != p and _within(p, q) for q in seen)]
    inside = [(t, ln) for t, ln in links if not any(_within(ln, q) for q in (*outer, *SYSTEM))]
    return View(program, tuple(words), tuple(outer), tuple(dict.fromkeys(inside)))


def visible(command: Sequence[str], cwd: str, forbidden: Sequence[str] = ()) -> list[str]:
    """The host paths a sandbox of ``command`` shows read-only besides the system (``view``)."""
    return list(view(command, cwd, forbidden=forbidden).shown)


def _keep_out(forbidden: Sequence[str]) -> list[str]:
    """The referee's files and ``forbidden``, resolved: never shown."""
    return [*referee_files(), *(os.path.realpath(p) for p in forbidden)]


def _within(path: str, top: str) -> bool:
    return path == top or path.startswith(top.rstrip("/") + "/")


def _refusal(path: str, keep_out: Sequence[str], info: os.stat_result | None = None) -> str | None:
    """Why a resolved ``path`` may not be shown, or None when it may; ``info`` is what it is
    (``os.fstat`` of it opened), by default what the path names now."""
    if path == "/":
        return "the host's root"
    for top in SPECIAL:
        if _within(path, top):
            return f"the host's {top}"
    if path == "/tmp":
        return "it would hide the sandbox's own /tmp"
    for point, kind in _kernel_mounts():  # the same trees mounted elsewhere, shown with it
        if _within(path, point) or _within(point, path):
            return f"the host's {kind} file system at {point}"
    info = info or _stat(path)
    if info is not None and not stat.S_ISREG(info.st_mode) and not stat.S_ISDIR(info.st_mode):
        return "neither a file nor a folder (a socket, a pipe or a device opens a line out)"
    same = _identity(info)
    if same is not None and same == _identity(_stat("/")):
        return "the host's root"  # mounted again elsewhere
    for kept in keep_out:
        if _within(path, kept) or (same is not None and same == _identity(_stat(kept))):
            return f"the referee's own file {kept}"
        if _within(kept, path) or (same is not None and same in _folders_of(kept)):
            return f"a folder holding the referee's file {kept}"
    return None


KERNEL_FILE_SYSTEMS = frozenset({
    "proc", "sysfs", "devtmpfs", "devpts", "cgroup", "cgroup2", "debugfs", "tracefs",
    "securityfs", "bpf", "configfs", "fusectl", "pstore", "efivarfs", "binfmt_misc", "nsfs",
})  # fmt: skip
"""The kernel's own file systems: a path in one, or a folder holding one (a sandbox shows a
folder with what is mounted under it), is never shown, wherever the host mounted it."""


def _kernel_mounts() -> list[tuple[str, str]]:
    """Where the host mounts the kernel's file systems (``/proc/self/mountinfo``): (mount
    point, file system type) for each."""
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return []
    found = []
    for line in lines:
        fields, _, rest = line.partition(" - ")
        words = fields.split()
        kind = rest.split()[0] if rest.split() else ""
        if len(words) >= 5 and kind in KERNEL_FILE_SYSTEMS:
            point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m[1], 8)), words[4])
            found.append((point, kind))
    return found


def _stat(path: str) -> os.stat_result | None:
    try:
        return os.stat(path)
    except OSError:
        return None


def _identity(info: os.stat_result | None) -> tuple[int, int] | None:
    return None if info is None else (info.st_dev, info.st_ino)


def _folders_of(path: str) -> set[tuple[int, int]]:
    """The identities of every folder above ``path`` (a bind mount or a hard link of one
    elsewhere is the same folder)."""
    found = set()
    while path != (path := os.path.dirname(path)):
        if (same := _identity(_stat(path))) is not None:
            found.add(same)
    return found


def _refuse(command: Sequence[str], written: str, path: str, why: str) -> NoReturn:
    """Raise the one-line refusal of ``written`` (which resolves to ``path``)."""
    said = f"{written!r}" if written == path else f"{written!r} (resolved: {path})"
    reason = f"will not show {said} to its sandbox: {why}"
    raise SandboxError(shlex.join(command), None, None, reason)


def _resolved_folders(path: str) -> str:
    """``path`` with the folders on its way resolved and its own name kept (a link stays one)."""
    folder, name = os.path.split(path)
    if name in ("", ".", ".."):
        return os.path.realpath(path)
    return os.path.join(os.path.realpath(folder), name)


def _installation(program: str) -> str:
    folder = os.path.dirname(program)
    prefix = os.path.dirname(folder)
    installed = os.path.isfile(os.path.join(prefix, "pyvenv.cfg")) or os.path.isdir(
        os.path.join(prefix, "lib")
    )
    if os.path.basename(folder) == "bin" and installed and prefix not in ("/", _HOME):
        return prefix
    return program


def _installed_parts(home: str) -> list[str]:
    """What a sandbox shows of the installation ``home`` (or the program itself): all of it,
    but of the user's ``~/.local`` (``pip install --user``) only ``bin/`` and ``lib/``, as its
    ``share/`` and ``state/`` hold the user's data."""
    if home != os.path.join(_HOME, ".local"):
        return [home]
    parts = (os.path.realpath(os.path.join(home, part)) for part in ("bin", "lib"))
    return [part for part in parts if os.path.isdir(part)]


def _is_system(path: str) -> bool:
    return any(_within(path, top) for top in SYSTEM)


_MOUNTS = {
    "open_tree": 428,
    "move_mount": 429,
    "fsopen": 430,
    "fsconfig": 431,
    "fsmount": 432,
    "fspick": 433,
    "mount_setattr": 442,
}  # fmt: skip (the same on both machines)
_IO_URING = {"io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427}
_ARCHES = {  # the audit arch, the numbers of clone and of the calls refused, per machine
    "x86_64": (0xC000003E, 56, {"fork": 57, "vfork": 58, "shmget": 29, "msgget": 68,
                                "semget": 64, "mq_open": 240,
                                "memfd_create": 319, "memfd_secret": 447, "unshare": 272,
                                "setns": 308, "mount": 165, "umount2": 166, "pivot_root": 155,
                                "ptrace": 101, "process_vm_readv": 310,
                                "process_vm_writev": 311, "add_key": 248,
                                "request_key": 249, "keyctl": 250, **_MOUNTS, **_IO_URING}),
    "aarch64": (0xC00000B7, 220, {"shmget": 194, "msgget": 186, "semget": 190,
                                  "mq_open": 180, "memfd_create": 279,
                                  "memfd_secret": 447, "unshare": 97, "setns": 268, "mount": 40,
                                  "umount2": 39, "pivot_root": 41, "ptrace": 117,
                                  "process_vm_readv": 270, "process_vm_writev": 271,
                                  "add_key": 217, "request_key": 218, "keyctl": 219,
                                  **_MOUNTS, **_IO_URING}),
}  # fmt: skip
_SOCKETS = {"x86_64": (41, 53), "aarch64": (198, 199)}  # socket, socketpair
_AF_INET, _AF_INET6, _SOCK_DGRAM = 2, 10, 2  # SOCK_RAW (3) is a datagram socket too for AF_UNIX
_CLONE3 = 435
_CLONE_THREAD = 0x10000
_CLONE_NAMESPACES = 0x7E020000  # CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET
_ALLOW, _KILL = 0x7FFF0000, 0x80000000


def _errno(number: int) -> int:
    return 0x00050000 | number  # SECCOMP_RET_ERRNO


def seccomp_program(machine: str | None = None) -> bytes:
    """The seccomp filter of every sandbox (a classic BPF program, as ``bwrap --seccomp``
    reads it): what would hold memory or processor time outside the per-process limits, or
    reach out of the sandbox, is refused (EPERM unless said):

    - a new process: ``fork``, ``vfork``, a ``clone`` that is not a thread or makes a
      namespace; ``clone3`` (ENOSYS, so the C library falls back on ``clone``);
    - memory no address space counts: ``memfd_create``, ``memfd_secret``, POSIX ``mq_open``,
      SysV ``shmget``, ``msgget`` and ``semget`` (its IPC namespace would let it hold 500 MB
      in message queues);
    - a namespace or a mount of its own (a file system it mounted would hold memory no limit
      counts): ``unshare``, ``setns``, ``mount``, ``umount2``, ``pivot_root``, ``open_tree``,
      ``move_mount``, ``fsopen``, ``fsconfig``, ``fsmount``, ``fspick``, ``mount_setattr``;
    - another process's memory (its parent, bubblewrap's first process, has the referee's
      limits): ``ptrace``, ``process_vm_readv``, ``process_vm_writev``;
    - a keyring (it inherits the referee's session keyring): ``keyctl``, ``add_key``,
      ``request_key``;
    - a socket but an internet one (its own loopback) or a connected pair of stream sockets:
      a Unix socket reaches a service whose socket lies in a folder it is shown, read-only
      or not, ``AF_VSOCK`` the machine's host; and ``io_uring_*``, which makes sockets past
      the filter.

    Another machine's calls kill the process. ``ValueError`` on a machine without one."""
    machine = machine or os.uname().machine
    if machine not in _ARCHES:
        raise ValueError(f"no seccomp filter for {machine} (x86_64, aarch64)")
    arch, clone, refused = _ARCHES[machine]
    ld, jeq, jge, jset, ret = 0x20, 0x15, 0x35, 0x45, 0x06  # BPF_LD|W|ABS, BPF_JMP|..|K, BPF_RET
    code = [(ld, 0, 0, 4), (jeq, 1, 0, arch), (ret, 0, 0, _KILL), (ld, 0, 0, 0),
            (jge, 0, 1, 0x40000000), (ret, 0, 0, _errno(errno.ENOSYS)),  # x32's numbers
            (jeq, 0, 1, _CLONE3), (ret, 0, 0, _errno(errno.ENOSYS))]  # fmt: skip
    for number in refused.values():
        code += [(jeq, 0, 1, number), (ret, 0, 0, _errno(errno.EPERM))]
    sock, pair = _SOCKETS[machine]
    code += [(jeq, 0, 5, sock), (ld, 0, 0, 16),  # socket: its family, internet or none
             (jeq, 2, 0, _AF_INET), (jeq, 1, 0, _AF_INET6),
             (ret, 0, 0, _errno(errno.EPERM)), (ret, 0, 0, _ALLOW),
             (jeq, 0, 4, pair), (ld, 0, 0, 24),  # socketpair: its type, a stream, connected
             (jset, 0, 1, _SOCK_DGRAM), (ret, 0, 0, _errno(errno.EPERM)),
             (ret, 0, 0, _ALLOW)]  # fmt: skip
    code += [(jeq, 0, 5, clone), (ld, 0, 0, 16),  # its flags: a thread, in no new namespace
             (jset, 2, 0, _CLONE_NAMESPACES), (jset, 0, 1, _CLONE_THREAD),
             (ret, 0, 0, _ALLOW), (ret, 0, 0, _errno(errno.EPERM)),
             (ret, 0, 0, _ALLOW)]  # fmt: skip
    return b"".join(struct.pack("=HBBI", *op) for op in code)


@contextlib.contextmanager
def seccomp_file() -> Iterator[int]:
    """A file descriptor to read the seccomp filter from (a pipe, read once by ``bwrap``),
    to pass to the sandbox's ``bwrap`` (``pass_fds``) and closed after."""
    program = seccomp_program()
    read, write = os.pipe()
    try:
        os.write(write, program)  # a few hundred bytes: the pipe holds them
        os.close(write)
        yield read
    finally:
        with contextlib.suppress(OSError):
            os.close(write)
        os.close(read)


@attrs.frozen
class Launch:
    """How to start a sandbox: its command line (``args``), the descriptors it reads
    (``fds``, to pass to it: ``subprocess.Popen(..., pass_fds=fds)``) and the environment of
    bubblewrap itself (``env``: ``ENVIRONMENT``, nothing of the referee's). Its first process
    keeps the environment it started with, and where the referee is an ordinary user the
    program runs as that process's user and reads it (``/proc/1/environ``)."""

    args: list[str]
    fds: tuple[int, ...]
    env: dict[str, str] = attrs.field(factory=lambda: dict(ENVIRONMENT))


@contextlib.contextmanager
def sandboxed(
    command: Sequence[str],
    cwd: str,
    limits: Limits,
    readable: Sequence[str] = (),
    forbidden: Sequence[str] = (),
) -> Iterator[Launch]:
    """The ``Launch`` that runs ``command`` (its words read from ``cwd``) in a sandbox, in its
    private ``/tmp``, seeing also ``readable`` (read-only), under the seccomp filter; its
    descriptors stay open while the block runs (start the sandbox in it). Each path shown is
    opened once and checked as opened, and bubblewrap binds that very descriptor: what a
    sandbox shows is what was checked, even where its folder is swapped for a link between
    the check and the start. ``SandboxError`` for a path it may not show."""
    seen = view(command, cwd, readable, forbidden)
    keep_out = _keep_out(forbidden)
    with contextlib.ExitStack() as stack:
        seccomp_fd = stack.enter_context(seccomp_file())
        shown = [(path, _open_shown(command, path, keep_out, stack)) for path in seen.shown]
        args = _bwrap_args(seen, limits, seccomp_fd, shown)
        yield Launch(args, (seccomp_fd, *(fd for _, fd in shown)))


def _bwrap_args(
    seen: View, limits: Limits, seccomp_fd: int, shown: Sequence[tuple[str, int]]
) -> list[str]:
    """The command line of ``bwrap`` showing each (place, opened descriptor) of ``shown``."""
    args = [BWRAP, "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
            "--unshare-cgroup-try", "--die-with-parent", "--new-session",
            "--hostname", "bot"]  # fmt: skip
    root = os.geteuid() == 0
    if not root:  # an ordinary user: an unprivileged user namespace, in which it is nobody
        args += ["--unshare-user", "--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_UID),
                 "--disable-userns"]  # fmt: skip
    for top in SYSTEM:
        if os.path.islink(top):
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    # /etc made by bwrap would be 0700 and its files unreadable to a program that is not root:
    # made first, open to all, so what is not shown there is missing (ENOENT), not forbidden.
    args += ["--perms", "0755", "--dir", "/etc"]
    for path in SYSTEM_FILES:
        if os.path.exists(path):
            args += ["--ro-bind", path, path]
    args += ["--proc", "/proc", "--dev", "/dev"]
    # The sandbox's first process (bubblewrap's, its parent) runs as the program's own user
    # where the referee is not root: hidden, so that the program cannot write its memory
    # (`/proc/1/mem`) and make it hold memory or threads beyond the program's limits.
    args += ["--size", "4096", "--perms", "0555", "--tmpfs", "/proc/1", "--remount-ro", "/proc/1"]
    args += ["--perms", "1777", "--size", str(limits.tmp_mb << 20), "--tmpfs", "/tmp"]
    places = [*seen.shown, *(link for _, link in seen.links)]
    for folder in sorted({os.path.dirname(p) for p in places}):  # open to all (bwrap's are not)
        args += ["--dir", folder]
    for path, fd in shown:
        args += ["--ro-bind-fd", str(fd), path]
    for target, link in seen.links:
        args += ["--symlink", target, link]
    # Nothing is writable but /tmp: the sandbox's own root and /dev are memory without a
    # cap, and its user owns them where the referee is not root.
    args += ["--remount-ro", "/dev", "--remount-ro", "/"]
    args += ["--seccomp", str(seccomp_fd), "--chdir", "/tmp", "--clearenv"]
    for name, value in ENVIRONMENT.items():
        args += ["--setenv", name, value]
    # The process cap is set inside, once the sandbox's user exists: the kernel counts it
    # per user, and set outside it would count every process of the referee's user.
    args += ["--", PRLIMIT, f"--nproc={limits.processes}"]
    if root:  # the referee is root: the program runs as a user of its own, with no rights
        uid = str(1_000_000_000 + secrets.randbelow(1_000_000_000))
        args += ["--", SETPRIV, f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
                 "--no-new-privs", "--inh-caps=-all", "--bounding-set=-all"]  # fmt: skip
    return [*args, "--", seen.program, *seen.words]


def _open_shown(
    command: Sequence[str], path: str, keep_out: Sequence[str], stack: contextlib.ExitStack
) -> int:
    """``path`` (resolved and checked by ``view``) opened without following a link, checked
    again as opened: where the kernel says it lies, what it is (``os.fstat``: a folder or a
    file, not one of ``keep_out`` nor a folder holding one) and the file system it is in.
    The descriptor is closed with ``stack``; ``SandboxError`` where it may not be shown."""
    try:
        fd = os.open(path, os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as exc:
        _refuse(command, path, path, f"it cannot be opened ({exc.strerror})")
    stack.callback(os.close, fd)
    try:
        where = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        where = "?"
    if where != path:  # a folder on its way was swapped for a link
        _refuse(command, path, path, f"it moved while it was checked (now {where})")
    info = os.fstat(fd)
    if stat.S_ISLNK(info.st_mode):
        _refuse(command, path, path, "a link took its place while it was checked")
    if (kind := _mount_kind(fd)) in KERNEL_FILE_SYSTEMS or kind is None:
        _refuse(command, path, path, f"it lies in the host's {kind or 'unknown'} file system")
    if (why := _refusal(path, keep_out, info)) is not None:
        _refuse(command, path, path, why)
    return fd


def _mount_kind(fd: int) -> str | None:
    """The type of the file system holding the open ``fd`` (its ``mnt_id`` in
    ``/proc/self/fdinfo``, looked up in ``/proc/self/mountinfo``), or None where unknown."""
    try:
        with open(f"/proc/self/fdinfo/{fd}", encoding="ascii") as f:
            found = re.search(r"^mnt_id:\s*(\d+)$", f.read(), re.MULTILINE)
        with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    for line in lines:
        fields, _, rest = line.partition(" - ")
        if found is not None and fields.split()[:1] == [found[1]] and rest.split():
            return rest.split()[0]
    return None


@functools.cache
def unavailable() -> str | None:
    """Why no sandbox can be made on this system, or None when one can (tried once, with
    ``/bin/true`` in a sandbox, and remembered)."""
    if not sys.platform.startswith("linux"):
        return f"sandboxes need Linux namespaces; this is {sys.platform}"
    for tool, package in ((BWRAP, "bubblewrap"), (PRLIMIT, "util-linux"), (SETPRIV, "util-linux")):
        if not os.access(tool, os.X_OK):
            return f"{tool} is missing (install {package})"
    try:
        seccomp_program()
    except ValueError as exc:
        return str(exc)
    try:
        with sandboxed(["/bin/true"], "/", Limits()) as launch:
            done = subprocess.run(launch.args, capture_output=True, timeout=20, check=False,
                                  pass_fds=launch.fds, env=launch.env)  # fmt: skip
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"{BWRAP} cannot run: {exc}"
    if done.returncode != 0:
        said = done.stderr.decode(errors="replace").strip().splitlines()
        return f"{BWRAP} cannot make a sandbox here: {said[-1] if said else done.returncode}"
    return None
