"""Noise for data on disk and in memory: image folders, point-cloud files, numpy files.

File formats (the ``fastnoise[files]`` extra brings OpenCV for the images):

- images ``.png``, ``.jpg``/``.jpeg``, ``.tif``/``.tiff``: 8 and 16-bit, grey, RGB and
  RGBA (16-bit RGB PNG included), read and written with OpenCV; JPEG is re-encoded at the
  suite's ``quality`` (default 95), PNG at ``png_compression`` (default 3); metadata
  (EXIF, ICC) is not carried over. A float32 TIFF is a depth image for ``depth``.
- KITTI ``.bin``: float32 (N, 4) x, y, z, intensity; intensity kept (``lidar``), or
  written with dropped rows removed (``carla_lidar``, see :mod:`fastnoise.io.suite.suite`).
- ``.pcd`` (DATA ascii or binary; binary_compressed refused) and ``.ply`` (ascii,
  binary little or big endian; the vertex element's x, y, z): every other field and
  element is kept.
- ``.npy``: one image (H, W[, C]) or cloud (M, >=3); with ``frames = true`` in the suite
  a stack (N, H, W[, C]) or (N, M, >=3), frame k being entry k. ``.npz``: each member
  the same way, keyed as ``<path>:<member>``; with ``model = "imu"`` the members
  ``omega`` (N, 3) rad/s, ``accel`` (N, 3) m/s^2 and ``timestamps`` (N, s) or ``dt``.

A file's key is its POSIX path relative to the input folder (see
:mod:`fastnoise.io.suite.suite`); a single file's noise is frame 0 of that key.

In memory: :func:`image_noise_batch` (ImageNoise over (N, H, W[, C]) with a first frame)
and :func:`lidar_noise_columns` (LidarNoise on (N, >=3) clouds, extra columns kept) are
loops over the models' per-frame ``apply``: the same bits as calling ``apply`` frame by
frame. :class:`DepthNoise` (Gaussian noise in metres on depth images) is the model
:class:`fastnoise.DepthNoise` (:mod:`fastnoise.models.camera.depth`), re-exported here.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fastnoise.io.files.array import (
    ARRAY_SUFFIXES,  # noqa: F401
    _noise_array,  # noqa: F401
    _noise_npy,  # noqa: F401
    _noise_npz,  # noqa: F401
)
from fastnoise.io.files.cloud import (
    CLOUD_SUFFIXES,  # noqa: F401
    _lidar_model,  # noqa: F401
    _noise_kitti,  # noqa: F401
    _noise_pcd,  # noqa: F401
    _noise_ply,  # noqa: F401
    lidar_noise_columns,  # noqa: F401
)
from fastnoise.io.files.cloud_formats import (  # noqa: F401
    _PCD_TYPES,
    _PLY_TYPES,
    _pcd_header,
)
from fastnoise.io.files.image import (
    IMAGE_SUFFIXES,  # noqa: F401
    DepthNoise,  # noqa: F401
    _cv2,  # noqa: F401
    _image_noise,  # noqa: F401
    _noise_image_file,  # noqa: F401
    image_noise_batch,  # noqa: F401
)

__all__ = [
    "IMAGE_SUFFIXES",
    "CLOUD_SUFFIXES",
    "DepthNoise",
    "image_noise_batch",
    "lidar_noise_columns",
    "noise_file",
]


def file_kind(path: str | os.PathLike[str]) -> str | None:
    """ "image", "cloud", "array" or None by a file's suffix."""
    s = Path(path).suffix.lower()
    if s in IMAGE_SUFFIXES:
        return "image"
    if s in CLOUD_SUFFIXES:
        return "cloud"
    if s in ARRAY_SUFFIXES:
        return "array"
    return None


def noise_file(entry: Any, name: str, src: Path, dst: Path, threads: int = 1) -> None:
    """Write ``src`` with the noise of suite ``entry`` to ``dst``; ``name`` is its key
    (the normalized relative path). Errors name nothing: the caller adds the file."""
    suffix = src.suffix.lower()
    options = dict(entry.options)
    if entry.model == "copy":
        dst.write_bytes(src.read_bytes())
        return
    if suffix == ".npz":
        _noise_npz(src, dst, entry, name, options, threads)
        return
    if entry.model == "imu":
        raise ValueError("model 'imu' takes .npz files (omega, accel, timestamps or dt)")
    if entry.model == "odometry":
        raise ValueError("model 'odometry' is for nav_msgs/Odometry topics, not files")
    model = entry.build(name)
    if suffix in IMAGE_SUFFIXES:
        _noise_image_file(src, dst, model, options, threads)
    elif suffix == ".bin":
        _noise_kitti(src, dst, model, options, threads)
    elif suffix == ".pcd":
        _noise_pcd(src, dst, model, options, threads)
    elif suffix == ".ply":
        _noise_ply(src, dst, model, options, threads)
    elif suffix == ".npy":
        _noise_npy(src, dst, model, options, threads)
    else:
        raise ValueError(
            f"no reader for {suffix!r} files: images {IMAGE_SUFFIXES}, clouds "
            f"{CLOUD_SUFFIXES}, arrays {ARRAY_SUFFIXES}"
        )


def walk(root: Path) -> Iterator[tuple[str, Path]]:
    """(normalized relative path, path) of every regular file below ``root``, sorted."""
    from fastnoise.io.suite.suite import normalize_relpath

    items = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for fn in filenames:
            p = Path(dirpath) / fn
            if p.is_file():
                items.append((normalize_relpath(p.relative_to(root)), p))
    items.sort()
    yield from items
