"""Noise for data on disk and in memory: image folders, point-cloud files, numpy files.

File formats (the ``fastnoise[files]`` extra brings OpenCV for the images):

- ``image``: ``.png``, ``.jpg``/``.jpeg``, ``.tif``/``.tiff``: 8 and 16-bit, grey, RGB
  and RGBA (16-bit RGB PNG included), read and written with OpenCV; JPEG is re-encoded at
  the suite's ``quality`` (default 95), PNG at ``png_compression`` (default 3); metadata
  (EXIF, ICC) is not carried over. A float32 TIFF is a depth image.
- ``cloud``: KITTI ``.bin`` (float32 (N, 4) x, y, z, intensity), ``.pcd`` (DATA ascii or
  binary; binary_compressed refused) and ``.ply`` (ascii, binary little or big endian;
  the vertex element's x, y, z): every other field and element is kept.
- ``npy``: one image (H, W[, C]), cloud (M, >=3) or array; with ``frames = true`` in the
  suite a stack (N, H, W[, C]) or (N, M, >=3), frame k being entry k.
- ``npz``: each numeric member as a ``.npy``, keyed as ``<path>:<member>``; with the
  ``imu`` handler the members ``omega`` (N, 3) rad/s, ``accel`` (N, 3) m/s^2 and
  ``timestamps`` (N, s) or ``dt``.

A model's declaration maps each format it takes to a handler (its ``files``), and the
handler, not the model's name, decides what is called:

- ``image``: ``model.apply(pixels, frame=0, out=pixels, threads=n)`` on an image's
  colours in R, G, B order (8 or 16-bit); on arrays ``model.apply(arr, frame=k,
  threads=n)``. Options ``quality``, ``png_compression``, ``frames``.
- ``depth_image``: ``model.apply(depth, frame=k, threads=n)`` on float depth (m).
  Option ``frames``.
- ``points``: ``model.apply(xyz, lidar_pose=pose, frame=k, out=xyz, threads=n)`` on
  the x, y, z columns (m); every other column kept. Options ``pose``, ``frames``.
- ``points_drop``: ``model.apply(cloud, frame=k, drop=False, threads=n) -> (points,
  mask)`` on (N, 4) x, y, z, intensity; dropped rows removed, or x, y, z = NaN with
  ``keep_layout`` (see :mod:`fastnoise.io.suite.suite`). Options ``keep_layout``,
  ``frames``.
- ``imu`` (``npz`` only): ``model.apply(omega, accel, dt)`` or ``model.apply(omega,
  accel, timestamps=t) -> (omega, accel)``.
- ``array`` (``npy``, ``npz``): ``model.apply(arr, frame=k, threads=n)`` returning the
  noised array; with ``frames = true`` (a model that declares that option) entry k of
  the stack is frame k.

A file's key is its POSIX path relative to the input folder (see
:mod:`fastnoise.io.suite.suite`); a single file's noise is frame 0 of that key.

In memory: :func:`~fastnoise.io.files.image.image_noise_batch` (an image model over
(N, H, W[, C]) with a first frame) and
:func:`~fastnoise.io.files.cloud.lidar_noise_columns` (a ``points`` model on (N, >=3)
clouds, extra columns kept) are loops over the models' per-frame ``apply``: the same
bits as calling ``apply`` frame by frame.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fastnoise.core import registry
from fastnoise.io.files.array import ARRAY_SUFFIXES, noise_npy, noise_npz
from fastnoise.io.files.cloud import CLOUD_SUFFIXES, noise_kitti, noise_pcd, noise_ply
from fastnoise.io.files.cloud_carla import carla_kitti, carla_pcd, carla_ply
from fastnoise.io.files.image import IMAGE_SUFFIXES, noise_image_file
from fastnoise.io.suite.names import normalize_relpath

__all__ = ["FILE_HANDLERS", "file_handler", "file_kind", "noise_file", "walk"]

#: handler name -> the file formats it reads (see the module docstring)
FILE_HANDLERS = {
    "image": ("image", "npy", "npz"),
    "depth_image": ("image", "npy", "npz"),
    "points": ("cloud", "npy", "npz"),
    "points_drop": ("cloud", "npy", "npz"),
    "imu": ("npz",),
    "array": ("npy", "npz"),
}

_WHAT = {"image": "images", "cloud": "point clouds", "npy": ".npy files", "npz": ".npz files"}

# (handler, suffix) -> the writer of a point-cloud file
_CLOUD_WRITERS = {
    ("points", ".bin"): noise_kitti,
    ("points", ".pcd"): noise_pcd,
    ("points", ".ply"): noise_ply,
    ("points_drop", ".bin"): carla_kitti,
    ("points_drop", ".pcd"): carla_pcd,
    ("points_drop", ".ply"): carla_ply,
}


def file_kind(path: str | os.PathLike[str]) -> str | None:
    """The file format of ``path`` by its suffix, as a declaration's ``files`` names it:
    "image", "cloud", "npy", "npz", or None."""
    s = Path(path).suffix.lower()
    if s in IMAGE_SUFFIXES:
        return "image"
    if s in CLOUD_SUFFIXES:
        return "cloud"
    if s in ARRAY_SUFFIXES:
        return s[1:]
    return None


def _one_of(names: list[str]) -> str:
    return " or ".join(names) if len(names) < 3 else f"{', '.join(names[:-1])} or {names[-1]}"


def file_handler(entry: Any, kind: str) -> str:
    """The handler that noises files of format ``kind`` with suite ``entry``'s model;
    ValueError naming the models that take such files when the model does not."""
    decl = entry.decl
    handler = decl.files.get(kind)
    if handler is None:
        takers = [repr(n) for n in sorted(d.name for d in registry.for_file_kind(kind))]
        raise ValueError(f"{_WHAT[kind]} take model {_one_of(takers)}, not {entry.model!r}")
    if kind not in FILE_HANDLERS.get(handler, ()):
        raise ValueError(
            f"model {decl.name!r} declares handler {handler!r} for {_WHAT[kind]}: not "
            f"allowed: {_WHAT[kind]} have the handlers "
            f"{sorted(h for h, kinds in FILE_HANDLERS.items() if kind in kinds)}"
        )
    return handler


def noise_file(entry: Any, name: str, src: Path, dst: Path, threads: int = 1) -> None:
    """Write ``src`` with the noise of suite ``entry`` to ``dst``; ``name`` is its key
    (the normalized relative path). Errors name nothing: the caller adds the file."""
    if entry.decl is None:  # copy
        shutil.copyfile(src, dst)
        return
    kind = file_kind(src)
    if kind is None:
        raise ValueError(
            f"no reader for {src.suffix.lower()!r} files: images {IMAGE_SUFFIXES}, clouds "
            f"{CLOUD_SUFFIXES}, arrays {ARRAY_SUFFIXES}"
        )
    handler = file_handler(entry, kind)
    if kind == "npz":
        noise_npz(handler, src, dst, entry, name, threads)
        return
    options = entry.option_values()
    model = entry.build(name)
    if kind == "image":
        noise_image_file(handler, src, dst, model, options, threads)
    elif kind == "cloud":
        _CLOUD_WRITERS[handler, src.suffix.lower()](src, dst, model, options, threads)
    else:
        noise_npy(handler, src, dst, model, options, threads)


def walk(root: Path) -> Iterator[tuple[str, Path]]:
    """(normalized relative path, path) of every regular file below ``root``, sorted."""
    items = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for fn in filenames:
            p = Path(dirpath) / fn
            if p.is_file():
                items.append((normalize_relpath(p.relative_to(root)), p))
    items.sort()
    yield from items
