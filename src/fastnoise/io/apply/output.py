# mypy: disable-error-code="import-not-found, import-untyped"
"""The output side of ``fastnoise apply``: the IN/OUT path checks, the progress bar and
the staged output folder that is renamed to ``OUT`` only when complete."""

from __future__ import annotations

import errno
import os
import shutil
import socket
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from fastnoise.io.apply.report import ApplyError


def check_paths(src: Path, dst: Path, overwrite: bool) -> None:
    if not src.exists():
        raise ApplyError(f"IN {src} does not exist")
    rs, rd = src.resolve(), dst.resolve()
    if rs == rd or (dst.exists() and os.path.samefile(src, dst)):
        raise ApplyError(f"IN and OUT are the same path ({src}): the input is never modified")
    if src.is_dir() and rd.is_relative_to(rs):
        raise ApplyError(f"OUT {dst} lies inside IN {src}: the input is never modified")
    if rs.is_relative_to(rd):
        raise ApplyError(f"IN {src} lies inside OUT {dst}")
    if dst.exists() and not overwrite:
        raise ApplyError(f"OUT {dst} exists: remove it or give --overwrite")


class Progress:
    """tqdm with counts and throughput (messages/s and MB/s), or nothing."""

    def __init__(self, total: int, unit: str, enabled: bool, stream: TextIO | None) -> None:
        self.bar = None
        self.t0 = time.perf_counter()
        self.last = self.t0
        self.bytes = 0
        if enabled:
            try:
                from tqdm import tqdm
            except ImportError:
                tqdm = None
            if tqdm is not None:
                self.bar = tqdm(
                    total=total,
                    unit=unit,
                    file=stream or sys.stderr,
                    dynamic_ncols=True,
                )

    def update(self, nbytes: int) -> None:
        self.bytes += nbytes
        if self.bar is None:
            return
        self.bar.update(1)
        now = time.perf_counter()
        if now - self.last > 0.5:
            self.last = now
            self.bar.set_postfix_str(
                f"{self.bytes / 1e6 / (now - self.t0):.1f} MB/s", refresh=False
            )

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def os_error_text(exc: OSError) -> str:
    """``exc`` as one line: its reason (``disk full`` for ENOSPC) and its path."""
    if exc.errno == errno.ENOSPC:
        reason = "no space left on the device (disk full)"
    elif exc.errno is None and "written" in str(exc):  # numpy's short write
        reason = f"{exc}: the device is full or the file may not grow"
    else:
        reason = exc.strerror or str(exc)
    return f"{reason}: {exc.filename}" if exc.filename is not None else reason


#: the temporary folder of a run writing OUT, beside OUT: ``.<OUT name>.<random>`` + this
STAGING_SUFFIX = ".fastnoise-tmp"
#: the file in a temporary folder naming the host and process that write it
OWNER_FILE = ".fastnoise-owner"


def _owner_alive(tmp: Path) -> bool:
    """Whether the run that made ``tmp`` may still be writing it: its owner file names
    this host and a live process (a folder without an owner file counts as alive for
    an hour: its run may be just starting)."""
    try:
        host, pid = (tmp / OWNER_FILE).read_text(encoding="utf-8").split()
    except (OSError, ValueError):
        try:
            return time.time() - tmp.stat().st_mtime < 3600.0
        except OSError:
            return False
    if host != socket.gethostname():
        return True  # another machine's run: not ours to judge
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except (PermissionError, ValueError, OverflowError):
        return True
    return True


def clean_stale(dst: Path) -> list[Path]:
    """Remove the temporary folders ``.<dst name>.*.fastnoise-tmp`` beside ``dst`` left
    by runs that were killed (SIGKILL, power loss): those whose owner process on this
    host is gone. Returns what was removed."""
    removed: list[Path] = []
    parent = dst.absolute().parent
    if not parent.is_dir():
        return removed
    for tmp in parent.glob(f".{glob_escape(dst.name)}.*{STAGING_SUFFIX}"):
        if tmp.is_dir() and not tmp.is_symlink() and not _owner_alive(tmp):
            shutil.rmtree(tmp, ignore_errors=True)
            removed.append(tmp)
    return removed


def glob_escape(name: str) -> str:
    return "".join(f"[{c}]" if c in "*?[]" else c for c in name)


@contextmanager
def staged(dst: Path, overwrite: bool) -> Iterator[Path]:
    """A fresh temporary folder beside ``dst``, ``.<dst name>.<random>.fastnoise-tmp``
    (with an owner file naming this host and process); the body leaves its result
    there and :func:`publish` renames it to ``dst``. A run killed before that leaves
    only such a folder, never a partial ``dst``; the next run writing ``dst`` removes
    it (:func:`clean_stale`). :class:`ApplyError` naming OUT when its folder cannot be
    created or written."""
    base = dst.absolute().parent
    while not base.exists() and base != base.parent:
        base = base.parent
    if not base.is_dir():
        raise ApplyError(f"OUT {dst}: cannot be created: {base} is not a folder")
    try:
        dst.parent.mkdir(parents=True, exist_ok=True)
        clean_stale(dst)
        tmp = Path(tempfile.mkdtemp(prefix=f".{dst.name}.", suffix=STAGING_SUFFIX, dir=dst.parent))
        (tmp / OWNER_FILE).write_text(f"{socket.gethostname()} {os.getpid()}\n", encoding="utf-8")
    except OSError as exc:
        raise ApplyError(f"OUT {dst}: cannot be created: {os_error_text(exc)}") from None
    try:
        yield tmp
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def publish(result: Path, dst: Path, tmp: Path) -> None:
    """Move the finished ``result`` to ``dst``, replacing an old ``dst`` only now."""
    try:
        if dst.exists() or dst.is_symlink():
            old = tmp / ".replaced"
            os.replace(dst, old)
        os.replace(result, dst)
    except OSError as exc:
        raise ApplyError(f"OUT {dst}: cannot be put in place: {os_error_text(exc)}") from None
