"""The sandbox of a bot in another process: what a ``cmd:`` program can reach (docs/bots.md).

On Linux a program runs inside bubblewrap (``bwrap``, Debian's ``bubblewrap``) with its own
namespaces: no network (a loopback of its own), its own process tree (it sees and can signal
only its own processes), its own mounts (the system's programs and libraries, the program
and the files its command names, all read-only, and a private writable ``/tmp``), a minimal
environment (``ENVIRONMENT``) and an unprivileged user. Its limits (``Limits``) cap memory,
processes, processor time, file size and open files. The whole tree dies with the referee
(``--die-with-parent``): when the referee ends the sandbox, or is itself killed, nothing of
the program is left, not even a grandchild that left its session.

Where no sandbox can be made (no ``bwrap``, no namespaces, not Linux) ``unavailable()`` says
why and a sandboxed bot is refused; ``cmd[sandbox=off]:`` runs a trusted program unconfined.
"""

from __future__ import annotations

import ctypes
import errno
import functools
import math
import os
import secrets
import shutil
import subprocess
import sys
from collections.abc import Sequence

import attrs

try:
    import resource
except ImportError:  # pragma: no cover (not a POSIX system: no limits)
    resource = None  # type: ignore[assignment]

__all__ = [
    "ENVIRONMENT",
    "SYSTEM",
    "Limits",
    "child_setup",
    "resolve_program",
    "sandboxed",
    "unavailable",
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

SANDBOX_UID = 65534
_HOME = os.path.expanduser("~")
"""The program's user inside its namespace (``nobody``)."""


@attrs.frozen
class Limits:
    """What a sandboxed program may use, each for each of its processes (``processes`` for
    all of them together): address space, processes and threads, processor seconds, the size
    of one file it writes, open files, and the size of its private ``/tmp``."""

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


def visible(command: Sequence[str], cwd: str) -> list[str]:
    """The host paths a sandbox shows (read-only, at the same place) besides the system: the
    program, through each of its links, or the installation it belongs to when it lies in
    the ``bin/`` of one (a directory with a ``lib/`` or a virtual environment's
    ``pyvenv.cfg``), and each word of the command that names an existing file or directory
    (but not ``/`` nor a path in ``SPECIAL``)."""
    paths: list[str] = []
    hop = resolve_program(command)
    for _ in range(40):  # the chain of links, as the kernel follows it
        paths.append(_installation(hop))
        if not os.path.islink(hop):
            break
        hop = os.path.normpath(os.path.join(os.path.dirname(hop), os.readlink(hop)))
    for word in command[1:]:
        path = os.path.normpath(os.path.join(cwd, word))
        if word and os.path.exists(path) and not _is_special(path):
            paths.append(path)
    return [p for p in dict.fromkeys(paths) if not _is_system(p)]


SPECIAL = ("/proc", "/sys", "/dev", "/run")
"""The kernel's and the running system's own trees: never shown from the host, nor the root
itself, whatever a command names (they would show the host's processes and devices)."""


def _is_special(path: str) -> bool:
    return path == "/" or any(path == top or path.startswith(top + "/") for top in SPECIAL)


def _installation(program: str) -> str:
    folder = os.path.dirname(program)
    prefix = os.path.dirname(folder)
    installed = os.path.isfile(os.path.join(prefix, "pyvenv.cfg")) or os.path.isdir(
        os.path.join(prefix, "lib")
    )
    if os.path.basename(folder) == "bin" and installed and prefix not in ("/", _HOME):
        return prefix
    return program


def _is_system(path: str) -> bool:
    return any(path == top or path.startswith(top + "/") for top in SYSTEM)


def sandboxed(
    command: Sequence[str], cwd: str, limits: Limits, readable: Sequence[str] = ()
) -> list[str]:
    """The command line that runs ``command`` in a sandbox, in ``cwd`` (an empty directory
    there unless a visible path lies in it), seeing also ``readable`` (read-only)."""
    program = resolve_program(command)
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
    for path in SYSTEM_FILES:
        if os.path.exists(path):
            args += ["--ro-bind", path, path]
    args += ["--proc", "/proc", "--dev", "/dev"]
    args += ["--perms", "1777", "--size", str(limits.tmp_mb << 20), "--tmpfs", "/tmp"]
    shown = [*visible(command, cwd), *map(os.path.abspath, readable)]
    folders = {cwd, *(os.path.dirname(path) for path in shown)}
    for folder in sorted(folders):  # every folder on the way, open to all (bwrap's are not)
        args += ["--dir", folder]
    for path in shown:
        args += ["--ro-bind", path, path]
    args += ["--chdir", cwd, "--clearenv"]
    for name, value in ENVIRONMENT.items():
        args += ["--setenv", name, value]
    # The process cap is set inside, once the sandbox's user exists: the kernel counts it
    # per user, and set outside it would count every process of the referee's user.
    args += ["--", PRLIMIT, f"--nproc={limits.processes}"]
    if root:  # the referee is root: the program runs as a user of its own, with no rights
        uid = str(1_000_000_000 + secrets.randbelow(1_000_000_000))
        args += ["--", SETPRIV, f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
                 "--no-new-privs", "--inh-caps=-all", "--bounding-set=-all"]  # fmt: skip
    return [*args, "--", program, *command[1:]]


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
        line = sandboxed(["/bin/true"], "/", Limits())
        done = subprocess.run(line, capture_output=True, timeout=20, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"{BWRAP} cannot run: {exc}"
    if done.returncode != 0:
        said = done.stderr.decode(errors="replace").strip().splitlines()
        return f"{BWRAP} cannot make a sandbox here: {said[-1] if said else done.returncode}"
    return None
