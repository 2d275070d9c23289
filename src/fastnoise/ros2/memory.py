"""The allocator settings of a noise node's process: keep freed message buffers for
reuse instead of handing them back to the kernel.

Why. A node that receives, noises and republishes frame-sized messages (a 131k-point
PointCloud2 is 2 MiB, a 1280x720 rgb8 Image 2.6 MiB) allocates and frees several
buffers of megabytes per message: rclpy's deserialized ``data``, the serialized copy it
publishes, the noise's working arrays. glibc's malloc adapts its thresholds to such
sizes, but with two topics of different sizes interleaved and a few long-lived arrays
between them, the free space at the top of the heap keeps passing the trim threshold:
the heap is trimmed (``brk`` down) and the next message faults its pages in again. With
the heavy bench's cloud and image interleaved that was ~1200 page faults and ~5 ms of
kernel time per message, more than the noise itself. Fixing the two thresholds (large
buffers from the heap, not ``mmap``; trim only past ``trim_threshold`` bytes of free top)
takes that to zero; the price is that up to ``trim_threshold`` bytes of freed memory stay
with the process.

``fastnoise node`` (:func:`fastnoise.ros2.run_node`) calls :func:`keep_freed_memory` at
start; a program that runs :class:`~fastnoise.ros2.NoiseNode` in its own executor may
call it too, or set the same through the environment before Python starts
(``GLIBC_TUNABLES=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=134217728``).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import platform

__all__ = ["MMAP_THRESHOLD", "TRIM_THRESHOLD", "keep_freed_memory"]

#: bytes: blocks up to this size come from the heap (glibc's largest allowed value on
#: 64-bit systems, 32 MiB: a 3840x2160 rgb8 image is 24 MiB)
MMAP_THRESHOLD = 32 << 20
#: bytes of free memory at the top of the heap that are kept before it is trimmed
TRIM_THRESHOLD = 128 << 20

_M_TRIM_THRESHOLD = -1  # glibc <malloc.h>
_M_MMAP_THRESHOLD = -3


def keep_freed_memory(
    *, mmap_threshold: int = MMAP_THRESHOLD, trim_threshold: int = TRIM_THRESHOLD
) -> bool:
    """Set glibc malloc's ``M_MMAP_THRESHOLD`` to ``mmap_threshold`` bytes and its
    ``M_TRIM_THRESHOLD`` to ``trim_threshold`` bytes for this whole process, so that
    the megabyte-sized buffers of frame-sized messages (point clouds, images) are reused
    from the heap instead of being handed back to the kernel and faulted in again every
    message (the reason is in :mod:`fastnoise.ros2.memory`). Up to ``trim_threshold``
    bytes of freed memory then stay with the process.

    Returns True when both were set; False, changing nothing, where the C library is
    not glibc, or where ``GLIBC_TUNABLES`` already sets a ``glibc.malloc`` tunable (the
    user's choice stands). ValueError naming the parameter when a threshold is not an
    int of bytes in [0, 2**31 - 1] (``mmap_threshold`` at most 32 MiB, glibc's limit
    on 64-bit systems)."""
    for name, value, top in (
        ("mmap_threshold", mmap_threshold, 32 << 20),
        ("trim_threshold", trim_threshold, 2**31 - 1),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= top:
            raise ValueError(f"{name}={value!r} is not allowed: use an int of bytes in [0, {top}]")
    if "glibc.malloc." in os.environ.get("GLIBC_TUNABLES", ""):
        return False
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # pragma: no cover - glibc always has it
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    # mmap first: setting either fixes both (glibc stops adapting them)
    ok = mallopt(_M_MMAP_THRESHOLD, mmap_threshold) == 1
    return mallopt(_M_TRIM_THRESHOLD, trim_threshold) == 1 and ok
