"""Array files (split out of
:mod:`fastnoise.io.files.files`, which re-exports it)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from fastnoise.io.files.cloud import lidar_noise_columns
from fastnoise.io.files.cloud_carla import carla_noise_rows, is_carla
from fastnoise.io.files.image import DepthNoise, image_noise_batch

ARRAY_SUFFIXES = (".npy", ".npz")


def _noise_array(model: Any, arr: np.ndarray, options: dict, threads: int) -> np.ndarray:
    from fastnoise.models.camera.image_noise import ImageNoise
    from fastnoise.models.lidar.lidar_noise import LidarNoise

    frames = bool(options.get("frames", False))
    if isinstance(model, LidarNoise):
        if frames and arr.ndim != 3 or not frames and arr.ndim != 2:
            want = "N x M x >=3 (frames = true)" if frames else "M x >=3"
            raise ValueError(f"array of shape {arr.shape}: a cloud is {want}")
        return lidar_noise_columns(model, arr, 0, options.get("pose"), threads)
    if is_carla(model):
        if frames and arr.ndim != 3 or not frames and arr.ndim != 2:
            want = "N x M x >=4 (frames = true)" if frames else "M x >=4"
            raise ValueError(f"array of shape {arr.shape}: a cloud is {want}")
        return carla_noise_rows(model, arr, 0, bool(options.get("keep_layout")), threads)
    if isinstance(model, ImageNoise | DepthNoise):
        if frames:
            return image_noise_batch(model, np.ascontiguousarray(arr), 0, threads=threads)
        return model.apply(np.ascontiguousarray(arr), frame=0, threads=threads)
    raise TypeError(
        f"arrays take model 'camera', 'depth', 'lidar' or 'carla_lidar', not {type(model).__name__}"
    )


def _noise_npy(src: Path, dst: Path, model: Any, options: dict, threads: int) -> None:
    arr = np.load(src, allow_pickle=False)
    res = _noise_array(model, arr, options, threads)
    with open(dst, "wb") as fh:
        np.save(fh, res)


def _noise_npz(src: Path, dst: Path, entry: Any, name: str, options: dict, threads: int) -> None:
    from fastnoise.models.imu.imu_noise import ImuNoise

    with zipfile.ZipFile(src) as zf:
        compressed = any(i.compress_type != zipfile.ZIP_STORED for i in zf.infolist())
    with np.load(src, allow_pickle=False) as data:
        members = {k: data[k] for k in data.files}
    out: dict[str, np.ndarray] = {}
    if entry.model == "imu":
        model = entry.build(name)
        assert isinstance(model, ImuNoise)
        if "omega" not in members or "accel" not in members:
            raise ValueError("an IMU .npz holds omega (N, 3), accel (N, 3) and timestamps or dt")
        if "timestamps" in members:
            w, a = model.apply(members["omega"], members["accel"], timestamps=members["timestamps"])
        elif "dt" in members:
            w, a = model.apply(members["omega"], members["accel"], members["dt"])
        else:
            raise ValueError("an IMU .npz needs timestamps (N, s) or dt (s)")
        out = dict(members)
        out["omega"], out["accel"] = w, a
    else:
        for key, arr in members.items():
            if arr.dtype.kind not in "fu":
                out[key] = arr
                continue
            model = entry.build(f"{name}:{key}")
            out[key] = _noise_array(model, arr, options, threads)
    buf = io.BytesIO()
    (np.savez_compressed if compressed else np.savez)(buf, **out)
    dst.write_bytes(buf.getvalue())
