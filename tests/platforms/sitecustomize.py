"""Make this interpreter look like another platform's, for the tests (`tests/test_platforms.py`)
and CI (`.ci/run`): put this folder on PYTHONPATH and set `REFEREE_SIMULATE` to

- `windows`: no `fcntl`, `resource`, `readline`, `os.getuid`/`geteuid`, `os.O_NOFOLLOW`,
  `os.O_NONBLOCK`, `os.link`, SIGKILL; a stand-in `msvcrt` whose `locking` really locks (over
  the `fcntl` taken before it goes); process pools start by spawning, as on Windows.
- `termux`: `sys.platform == "android"`, no `sem_open` (so `multiprocessing.synchronize`, and
  with it every process pool, fails to import as on Android), and no hard links (`os.link`
  raises PermissionError, as on Android's shared storage or a FAT card).

What it cannot make: Windows' paths, its file sharing rules, a real code page; those need the
real platform (`.github/workflows/ci.yml`). ASCII output needs no code here: `LC_ALL=C
PYTHONIOENCODING=ascii` is the third simulation.
"""

from __future__ import annotations

import errno
import os
import sys
import types

SIMULATE = os.environ.get("REFEREE_SIMULATE", "")


def _spawn_pools() -> None:
    """Once `multiprocessing` is imported, make spawn its start method (Windows has no fork)."""
    import importlib.abc
    import importlib.machinery

    class Finder(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):  # type: ignore[no-untyped-def]
            if name != "multiprocessing":
                return None
            sys.meta_path.remove(self)
            spec = importlib.machinery.PathFinder.find_spec(name, path)
            if spec is None or spec.loader is None:
                return spec
            loader = spec.loader
            run = loader.exec_module

            def exec_module(module: types.ModuleType) -> None:
                run(module)
                module.set_start_method("spawn", force=True)

            loader.exec_module = exec_module  # type: ignore[method-assign]
            return spec

    sys.meta_path.insert(0, Finder())


def windows() -> None:
    import fcntl
    import signal
    import subprocess  # noqa: F401 -- before `msvcrt` exists: it takes that for Windows itself

    sys.modules["fcntl"] = None  # type: ignore[assignment]
    for name in ("resource", "readline", "termios", "pwd", "grp"):
        sys.modules[name] = None  # type: ignore[assignment]
    for name in ("getuid", "geteuid", "getgid", "getegid", "link", "O_NOFOLLOW", "O_NONBLOCK"):
        if hasattr(os, name):
            delattr(os, name)
    for name in ("SIGKILL", "SIGHUP", "SIGALRM", "SIGPIPE", "SIGUSR1", "SIGUSR2"):
        if hasattr(signal, name):
            delattr(signal, name)

    msvcrt = types.ModuleType("msvcrt")
    msvcrt.LK_UNLCK, msvcrt.LK_LOCK, msvcrt.LK_NBLCK = 0, 1, 2  # type: ignore[attr-defined]
    msvcrt.LK_RLCK, msvcrt.LK_NBRLCK = 3, 4  # type: ignore[attr-defined]

    def locking(fd: int, mode: int, nbytes: int) -> None:
        """As Windows' `locking`: a lock held elsewhere is PermissionError (EACCES) at once."""
        if mode == 0:
            fcntl.flock(fd, fcntl.LOCK_UN)
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if mode in (1, 3) else fcntl.LOCK_NB))
        except BlockingIOError:
            raise PermissionError(errno.EACCES, "Permission denied") from None

    msvcrt.locking = locking  # type: ignore[attr-defined]
    sys.modules["msvcrt"] = msvcrt
    _spawn_pools()


def termux() -> None:
    import _multiprocessing  # type: ignore[import-not-found,unused-ignore]

    if hasattr(_multiprocessing, "SemLock"):
        del _multiprocessing.SemLock  # Android: no sem_open

    def link(src: object, dst: object, **_: object) -> None:
        raise PermissionError(errno.EPERM, "Operation not permitted", str(src), None, str(dst))

    os.link = link
    sys.platform = "android"


if SIMULATE == "windows":
    windows()
elif SIMULATE == "termux":
    termux()
