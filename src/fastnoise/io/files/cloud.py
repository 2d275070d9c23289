"""Point-cloud files and arrays with the ``points`` handler of
:mod:`fastnoise.io.files.files`: ``model.apply(xyz, lidar_pose=pose, frame=k, out=xyz,
threads=n)`` on the x, y, z columns (m), every other column, field and element kept."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from fastnoise.io.files.cloud_formats import (
    ascii_data_lines,
    pcd_ascii_rows,
    pcd_binary_body,
    ply_ascii_rows,
    ply_binary_body,
    put_values,
    read_pcd,
    read_ply,
)

__all__ = [
    "CLOUD_SUFFIXES",
    "lidar_noise_columns",
    "noise_kitti",
    "noise_pcd",
    "noise_ply",
    "read_kitti",
]

CLOUD_SUFFIXES = (".bin", ".pcd", ".ply")


def lidar_noise_columns(
    model: Any,
    cloud: np.ndarray,
    frame: int = 0,
    lidar_pose: Any = None,
    threads: int = 1,
    columns: tuple[int, int, int] = (0, 1, 2),
) -> np.ndarray:
    """A ``points`` model (LidarNoise's call) on an (N, >=3) cloud whose ``columns`` are
    x, y, z (m): a copy with
    those columns noised (``model.apply`` on them as a contiguous (N, 3) array, frame
    ``frame``) and every other column (intensity, ring, time) kept. A stack (F, N, >=3)
    is frames ``frame``, ``frame + 1``, ..."""
    arr = np.asarray(cloud)
    if arr.ndim == 3:
        res = np.empty_like(arr)
        for k in range(arr.shape[0]):
            res[k] = lidar_noise_columns(model, arr[k], frame + k, lidar_pose, threads, columns)
        return res
    if arr.ndim != 2 or arr.shape[1] < 3:
        raise ValueError(f"cloud has shape {arr.shape}: it must be N x >=3 (x, y, z, ...)")
    if arr.dtype.kind != "f":
        raise TypeError(f"cloud has dtype {arr.dtype}: it must be float32 or float64")
    dt = np.float32 if arr.dtype == np.float32 else np.float64
    xyz = np.ascontiguousarray(arr[:, list(columns)], dtype=dt)
    model.apply(xyz, lidar_pose=lidar_pose, frame=frame, out=xyz, threads=threads)
    res = arr.copy()
    res[:, list(columns)] = xyz
    return res


def read_kitti(src: Path) -> np.ndarray:
    """A KITTI ``.bin`` as float32 (N, 4) (x, y, z in m, intensity): ValueError when its
    size is not a whole number of 16-byte points."""
    data = src.read_bytes()
    if len(data) % 16:
        have = f"{len(data) // 4} float32 values" if len(data) % 4 == 0 else f"{len(data)} bytes"
        raise ValueError(
            f"{have}: a KITTI .bin holds N x 4 float32 (x, y, z, i), a multiple of 16 bytes"
        )
    return np.frombuffer(data, dtype="<f4").reshape(-1, 4).copy()


def noise_kitti(src: Path, dst: Path, model: Any, options: dict, threads: int) -> None:
    """A KITTI ``.bin`` (float32 N x 4: x, y, z, intensity); the intensity is kept."""
    cloud = read_kitti(src)
    res = lidar_noise_columns(model, cloud, 0, options.get("pose"), threads)
    res.astype("<f4").tofile(dst)


def noise_pcd(src: Path, dst: Path, model: Any, options: dict, threads: int) -> None:
    """A ``.pcd`` (DATA ascii or binary)."""
    raw = src.read_bytes()
    pcd = read_pcd(raw)
    lidar = model
    if pcd.kind == "binary":
        body, uniq, dt = pcd_binary_body(raw, pcd)
        xyz: np.ndarray = np.stack([body[uniq[i]] for i in pcd.xi], axis=1).astype(pcd.ftype)
        lidar.apply(xyz, lidar_pose=options.get("pose"), frame=0, out=xyz, threads=threads)
        for k, i in enumerate(pcd.xi):
            body[uniq[i]] = xyz[:, k]
        tail = raw[pcd.start + pcd.n_pts * dt.itemsize :]
        dst.write_bytes(raw[: pcd.start] + body.tobytes() + tail)
    else:
        tok, first = pcd_ascii_rows(raw, pcd)
        xyz = np.array([[float(t[first[i]]) for i in pcd.xi] for t in tok], dtype=np.float64)
        xyz = xyz.astype(pcd.ftype)
        lidar.apply(xyz, lidar_pose=options.get("pose"), frame=0, out=xyz, threads=threads)
        lines, rows = ascii_data_lines(raw, pcd.start)
        for p, (t, j) in enumerate(zip(tok, rows, strict=True)):
            cells = [(int(first[i]), xyz[p, k], pcd.ftype) for k, i in enumerate(pcd.xi)]
            lines[j] = put_values(lines[j], t, cells)
        dst.write_bytes(raw[: pcd.start] + "".join(lines).encode("ascii"))


def noise_ply(src: Path, dst: Path, model: Any, options: dict, threads: int) -> None:
    """A ``.ply`` (ascii, binary little or big endian): the vertex element's x, y, z."""
    raw = src.read_bytes()
    ply = read_ply(raw)
    lidar = model
    xi, ftype = ply.xi, ply.ftype
    if ply.fmt in ("binary_little_endian", "binary_big_endian"):
        body, dt, offset = ply_binary_body(raw, ply)
        names: tuple[str, ...] = dt.names or ()  # a structured dtype: never empty
        keys = [names[i] for i in xi]
        xyz: np.ndarray = np.stack([body[k] for k in keys], axis=1).astype(ftype)
        lidar.apply(xyz, lidar_pose=options.get("pose"), frame=0, out=xyz, threads=threads)
        for k, key in enumerate(keys):
            body[key] = xyz[:, k]
        tail = raw[offset + body.shape[0] * dt.itemsize :]
        dst.write_bytes(raw[:offset] + body.tobytes() + tail)
    elif ply.fmt == "ascii":
        lines, skip, tok = ply_ascii_rows(raw, ply)
        xyz = np.array([[float(t[i]) for i in xi] for t in tok], dtype=np.float64).astype(ftype)
        lidar.apply(xyz, lidar_pose=options.get("pose"), frame=0, out=xyz, threads=threads)
        for p, t in enumerate(tok):
            cells = [(i, xyz[p, k], ftype) for k, i in enumerate(xi)]
            lines[skip + p] = put_values(lines[skip + p], t, cells)
        dst.write_bytes(raw[: ply.start] + "".join(lines).encode("ascii"))
    else:
        raise ValueError(f"PLY format {ply.fmt!r} is not handled")
