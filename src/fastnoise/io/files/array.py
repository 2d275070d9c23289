"""Numpy files (``.npy``, ``.npz``) with each handler of :mod:`fastnoise.io.files.files`:
an image, a cloud or any array per ``.npy`` (a stack of frames with the option
``frames``), each numeric ``.npz`` member the same way, or an IMU recording (``imu``)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from fastnoise.io.files.cloud import lidar_noise_columns
from fastnoise.io.files.cloud_carla import carla_noise_rows
from fastnoise.io.files.image import image_noise_batch

__all__ = ["ARRAY_SUFFIXES", "noise_array", "noise_npy", "noise_npz"]

ARRAY_SUFFIXES = (".npy", ".npz")


def _cloud_shape(arr: np.ndarray, frames: bool, columns: int) -> None:
    if frames and arr.ndim != 3 or not frames and arr.ndim != 2:
        want = f"N x M x >={columns} (frames = true)" if frames else f"M x >={columns}"
        raise ValueError(f"array of shape {arr.shape}: a cloud is {want}")


def noise_array(handler: str, model: Any, arr: np.ndarray, options: dict, threads: int) -> Any:
    """``arr`` noised by ``handler`` (frame 0, or frames 0, 1, ... of a stack when the
    option ``frames`` is true)."""
    frames = bool(options.get("frames", False))
    if handler == "points":
        _cloud_shape(arr, frames, 3)
        return lidar_noise_columns(model, arr, 0, options.get("pose"), threads)
    if handler == "points_drop":
        _cloud_shape(arr, frames, 4)
        return carla_noise_rows(model, arr, 0, bool(options.get("keep_layout")), threads)
    if handler in ("image", "depth_image"):
        if frames:
            return image_noise_batch(model, np.ascontiguousarray(arr), 0, threads=threads)
        return model.apply(np.ascontiguousarray(arr), frame=0, threads=threads)
    if handler == "array":
        if frames:
            if arr.ndim == 0:
                raise ValueError("a 0-d array is no stack of frames (frames = true)")
            return np.stack(
                [model.apply(arr[k], frame=k, threads=threads) for k in range(arr.shape[0])]
            )
        return model.apply(arr, frame=0, threads=threads)
    raise ValueError(f"handler {handler!r} does not take arrays")  # pragma: no cover


def noise_npy(handler: str, src: Path, dst: Path, model: Any, options: dict, threads: int) -> None:
    """A ``.npy`` file: its array noised by ``handler``."""
    arr = np.load(src, allow_pickle=False)
    res = noise_array(handler, model, arr, options, threads)
    with open(dst, "wb") as fh:
        np.save(fh, res)


def _imu(model: Any, members: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The ``imu`` handler: ``model.apply(omega, accel, dt)`` or ``model.apply(omega,
    accel, timestamps=t)`` on the members of the same names."""
    if "omega" not in members or "accel" not in members:
        raise ValueError("an IMU .npz holds omega (N, 3), accel (N, 3) and timestamps or dt")
    if "timestamps" in members:
        w, a = model.apply(members["omega"], members["accel"], timestamps=members["timestamps"])
    elif "dt" in members:
        w, a = model.apply(members["omega"], members["accel"], members["dt"])
    else:
        raise ValueError("an IMU .npz needs timestamps (N, s) or dt (s)")
    return {**members, "omega": w, "accel": a}


def noise_npz(handler: str, src: Path, dst: Path, entry: Any, name: str, threads: int) -> None:
    """A ``.npz`` file: with ``imu`` one recording (model keyed by ``name``), with any
    other handler each float or unsigned member (model keyed by ``<name>:<member>``);
    other members kept; compressed if ``src`` was."""
    options = entry.option_values()
    with zipfile.ZipFile(src) as zf:
        compressed = any(i.compress_type != zipfile.ZIP_STORED for i in zf.infolist())
    with np.load(src, allow_pickle=False) as data:
        members = {k: data[k] for k in data.files}
    out: dict[str, Any]
    if handler == "imu":
        out = _imu(entry.build(name), members)
    else:
        out = {}
        for key, arr in members.items():
            if arr.dtype.kind not in "fu":
                out[key] = arr
                continue
            model = entry.build(f"{name}:{key}")
            out[key] = noise_array(handler, model, arr, options, threads)
    buf = io.BytesIO()
    (np.savez_compressed if compressed else np.savez)(buf, **out)
    dst.write_bytes(buf.getvalue())
