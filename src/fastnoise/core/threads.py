"""The one thread pool behind every ``threads=`` option.

The kernels release the GIL, so a batch split into parts runs in parallel; each part
is keyed by its indices, so the result never depends on the split.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from fastnoise.core import validate as _validate

_executor: ThreadPoolExecutor | None = None
_executor_lock = threading.Lock()


def _forget_pool_in_child() -> None:
    # A forked child inherits the pool object but not its threads (and maybe a lock
    # held by one of them): it starts a pool of its own when it first needs one.
    global _executor, _executor_lock
    _executor = None
    _executor_lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool_in_child)


def _pool() -> ThreadPoolExecutor:
    global _executor
    with _executor_lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(thread_name_prefix="fastnoise")
        return _executor


def count(threads: object) -> int:
    """``threads`` checked: an int in [1, 65536)."""
    return _validate.integer("threads", threads, 1, 1 << 16)


def parts(n: int, threads: int, min_per_part: int) -> int:
    """How many parts to split n items into: at most ``threads``, each part at least
    ``min_per_part`` items (a smaller batch is not worth a thread)."""
    return max(1, min(threads, n // min_per_part))


def run_split(func: Callable[[int, int], object], n: int, nparts: int, align: int = 1) -> None:
    """Call ``func(start, count)`` over [0, n) in ``nparts`` parts whose starts are
    multiples of ``align``: the first on the calling thread, the rest on the pool."""
    if nparts <= 1:
        func(0, n)
        return
    per = -(-n // nparts)
    per = -(-per // align) * align
    pool = _pool()
    futures = [pool.submit(func, s, min(per, n - s)) for s in range(per, n, per)]
    try:
        func(0, min(per, n))
    finally:  # the parts share the caller's buffers: wait for all of them
        errors = []
        for f in futures:
            try:
                f.result()
            except BaseException as exc:  # re-raised below, once all are done
                errors.append(exc)
    if errors:
        raise errors[0]
