"""Writing files atomically: what every saving function of the package uses.

The content goes to a temporary file in the target's folder, is flushed to
disk, and then replaces the target (``os.replace``), so a failed or
interrupted write leaves any old file as it was and no partial file behind.
Only a regular file is ever replaced: a symbolic link, a device node, a
pipe or a socket at the target is refused (:func:`target`), before any work.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterator
from typing import IO, Any


def _file_mode(path: str) -> int:
    """The mode of the file being replaced, else 0666 less the umask."""
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        mask = os.umask(0o022)
        os.umask(mask)
        return 0o666 & ~mask


_KINDS = ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISDIR, "a directory"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"))


def target(path: Any, name: str = "path") -> str:
    """The checked path of a file about to be written: a str or os.PathLike
    (see :func:`relfterrain._validate.path`) that is no existing thing but a
    regular file; a symbolic link, device node, pipe, socket or directory is
    never replaced (ValueError naming ``name``).

    >>> target("/dev/null")
    Traceback (most recent call last):
    ...
    ValueError: path: '/dev/null' is a character device, not a regular file; refusing to replace it
    """
    from ._validate import path as _path

    p = _path(path, name)
    try:
        mode = os.lstat(p).st_mode
    except FileNotFoundError:
        return p
    except OSError:
        return p  # not reachable: the write will say why
    if not stat.S_ISREG(mode):
        what = next((w for test, w in _KINDS if test(mode)), "not a regular file")
        raise ValueError(f"{name}: {p!r} is {what}, not a regular file; refusing to replace it")
    return p


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike, mode: str = "wb", **open_args: Any) -> Iterator[IO]:
    """Open a temporary file beside ``path``; on success it replaces ``path``.

    >>> import os, tempfile
    >>> target = os.path.join(tempfile.mkdtemp(), "x.txt")
    >>> with atomic_write(target, "w") as fh:
    ...     _ = fh.write("hello")
    >>> with open(target) as fh:
    ...     fh.read()
    'hello'
    """
    path = target(path)
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp",
                               dir=folder)
    try:
        # mkstemp makes the file private (0600): give it an ordinary file's mode
        os.chmod(tmp, _file_mode(path))
        with os.fdopen(fd, mode, **open_args) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    # make the rename itself durable (best effort: not every system allows it)
    with contextlib.suppress(OSError):
        dfd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
