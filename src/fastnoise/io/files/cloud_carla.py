"""Point-cloud files and arrays with the ``points_drop`` handler of
:mod:`fastnoise.io.files.files` (CARLA's lidar, suite model ``carla_lidar``):
``model.apply(cloud, frame=k, drop=False, threads=n) -> (points, mask)`` on (N, 4)
x, y, z, intensity; dropped points removed, or kept as NaN with ``keep_layout``. KITTI
``.bin``, ``.pcd``, ``.ply`` and (N, >=4) arrays."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from fastnoise.io.files.cloud_formats import (
    PCD_TYPES,
    PLY_TYPES,
    ascii_data_lines,
    pcd_ascii_rows,
    pcd_binary_body,
    ply_ascii_rows,
    ply_binary_body,
    put_values,
    read_pcd,
    read_ply,
)

__all__ = ["carla_kitti", "carla_noise_rows", "carla_pcd", "carla_ply"]


def carla_noise_rows(
    model: Any, cloud: np.ndarray, frame: int = 0, keep_layout: bool = False, threads: int = 1
) -> np.ndarray:
    """A ``points_drop`` model on an (N, >=4) float32/float64 cloud (x, y, z in m, intensity,
    extra columns): by default the kept rows (``model.apply(cloud, frame)``'s points);
    with ``keep_layout`` all N rows, the kept ones as the model gives them, the dropped
    ones as they were with x, y, z = NaN. A stack (F, N, >=4) (``keep_layout`` only) is
    frames ``frame``, ``frame + 1``, ..."""
    arr = np.asarray(cloud)
    if arr.ndim not in (2, 3) or arr.shape[-1] < 4:
        raise ValueError(
            f"cloud has shape {arr.shape}: carla_lidar takes N x >=4 (x, y, z, intensity, ...)"
        )
    if arr.dtype not in (np.float32, np.float64):
        raise TypeError(f"cloud has dtype {arr.dtype}: it must be float32 or float64")
    if arr.ndim == 3 and not keep_layout:
        raise ValueError("a stack of clouds needs keep_layout = true (kept counts differ)")
    if arr.shape[-2] == 0:
        return arr.copy()
    if not keep_layout:
        return np.array(model.apply(arr, frame=frame, threads=threads).points)
    pts, mask = model.apply(arr, frame=frame, drop=False, threads=threads)
    res = arr.copy()
    res[mask] = pts[mask]
    res[..., :3][~mask] = np.nan
    return res


def carla_kitti(src: Path, dst: Path, model: Any, options: dict, threads: int) -> None:
    from fastnoise.io.files.cloud import read_kitti

    cloud = read_kitti(src)
    res = carla_noise_rows(model, cloud, 0, bool(options.get("keep_layout")), threads)
    res.astype("<f4").tofile(dst)


def _carla_fields(
    model: Any,
    cols: list[np.ndarray],
    ftype: Any,
    threads: int,
) -> tuple[np.ndarray, np.ndarray]:
    """(points (N, 4), mask (N,)) of CarlaLidarNoise on x, y, z columns of a file
    (frame 0); dropped rows of ``points`` hold NaN x, y, z."""
    n = cols[0].shape[0]
    cloud = np.zeros((n, 4), dtype=ftype)
    for k in range(3):
        cloud[:, k] = cols[k]
    if n == 0:
        return cloud, np.zeros(0, dtype=bool)
    pts, mask = model.apply(cloud, frame=0, drop=False, threads=threads)
    pts = np.array(pts)
    pts[~mask, :3] = np.nan
    return pts, mask


def _set_header_counts(header: str, values: dict[str, str]) -> str:
    """``header`` with the first word of each line in ``values`` given a new value."""
    lines = header.splitlines(keepends=True)
    for i, line in enumerate(lines):
        words = line.split()
        if words and words[0].upper() in values:
            end = line[len(line.rstrip("\r\n")) :]
            lines[i] = f"{words[0]} {values[words[0].upper()]}{end}"
    return "".join(lines)


def _float_field(what: str, name: str, code: str) -> None:
    if code not in ("f4", "f8"):
        raise ValueError(
            f"{what} {name!r} is not a float32/float64: carla_lidar writes the intensity "
            "e^(-a d) in (0, 1] there"
        )


def carla_pcd(src: Path, dst: Path, model: Any, options: dict, threads: int) -> None:
    raw = src.read_bytes()
    pcd = read_pcd(raw)
    names, xi, ftype = pcd.names, pcd.xi, pcd.ftype
    ii = names.index("intensity") if "intensity" in names else None
    if ii is not None:
        code = PCD_TYPES.get((pcd.types[ii].upper(), pcd.sizes[ii]), "?")
        _float_field("PCD field", "intensity", code if pcd.counts[ii] == 1 else "?")
    keep_layout = bool(options.get("keep_layout"))
    head = raw[: pcd.start].decode("ascii")
    if pcd.kind == "binary":
        body, uniq, dt = pcd_binary_body(raw, pcd)
        pts, mask = _carla_fields(model, [body[uniq[i]] for i in xi], ftype, threads)
        for k, i in enumerate(xi):
            body[uniq[i]] = pts[:, k]
        if ii is not None:  # a dropped point keeps its intensity
            body[uniq[ii]] = np.where(mask, pts[:, 3], body[uniq[ii]])
        tail = raw[pcd.start + pcd.n_pts * dt.itemsize :]
        if not keep_layout and not mask.all():
            body = body[mask]
            m = str(body.shape[0])
            head = _set_header_counts(head, {"WIDTH": m, "HEIGHT": "1", "POINTS": m})
        dst.write_bytes(head.encode("ascii") + body.tobytes() + tail)
    else:
        tok, first = pcd_ascii_rows(raw, pcd)
        cols: list[np.ndarray] = [
            np.array([float(t[first[i]]) for t in tok], dtype=ftype) for i in xi
        ]
        pts, mask = _carla_fields(model, cols, ftype, threads)
        itype = np.float32 if ii is None or pcd.sizes[ii] == 4 else np.float64
        lines, rows = ascii_data_lines(raw, pcd.start)
        kept = 0
        for p, (t, j) in enumerate(zip(tok, rows, strict=True)):
            if not keep_layout and not mask[p]:
                lines[j] = ""
                continue
            kept += 1
            cells = [(int(first[i]), pts[p, k], ftype) for k, i in enumerate(xi)]
            if ii is not None and mask[p]:
                cells.append((int(first[ii]), pts[p, 3], itype))
            lines[j] = put_values(lines[j], t, cells)
        if not keep_layout and kept != len(tok):
            m = str(kept)
            head = _set_header_counts(head, {"WIDTH": m, "HEIGHT": "1", "POINTS": m})
        dst.write_bytes(head.encode("ascii") + "".join(lines).encode("ascii"))


def carla_ply(src: Path, dst: Path, model: Any, options: dict, threads: int) -> None:
    raw = src.read_bytes()
    ply = read_ply(raw)
    elements, vi, props, xi, ftype, start = (
        ply.elements,
        ply.vi,
        ply.props,
        ply.xi,
        ply.ftype,
        ply.start,
    )
    keep_layout = bool(options.get("keep_layout"))
    if not keep_layout:
        for e in elements[vi + 1 :]:
            if e[1] and (e[0] in ("face", "edge") or any(t.startswith("list") for t, _ in e[2])):
                raise ValueError(
                    f"PLY element {e[0]!r} may index the vertices: removing dropped points "
                    "would break it; use keep_layout = true"
                )
    pnames = [p for _, p in props]
    ii = pnames.index("intensity") if "intensity" in pnames else None
    if ii is not None:
        _float_field("PLY vertex property", "intensity", PLY_TYPES.get(props[ii][0], "?"))
    n = elements[vi][1]
    if ply.fmt in ("binary_little_endian", "binary_big_endian"):
        body, dt, offset = ply_binary_body(raw, ply)
        names: tuple[str, ...] = dt.names or ()  # a structured dtype: never empty
        keys = [names[i] for i in xi]
        pts, mask = _carla_fields(model, [body[k] for k in keys], ftype, threads)
        for k, key in enumerate(keys):
            body[key] = pts[:, k]
        if ii is not None:  # a dropped point keeps its intensity
            body[names[ii]] = np.where(mask, pts[:, 3], body[names[ii]])
        tail = raw[offset + n * dt.itemsize :]
        head = raw[:offset]
        if not keep_layout and not mask.all():
            body = body[mask]
            head = _ply_vertex_count(raw[:start], body.shape[0]) + raw[start:offset]
        dst.write_bytes(head + body.tobytes() + tail)
    elif ply.fmt == "ascii":
        lines, skip, tok = ply_ascii_rows(raw, ply)
        cols: list[np.ndarray] = [np.array([float(t[i]) for t in tok], dtype=ftype) for i in xi]
        pts, mask = _carla_fields(model, cols, ftype, threads)
        itype = np.float32 if ii is None or PLY_TYPES[props[ii][0]] == "f4" else np.float64
        vert = []
        for p, t in enumerate(tok):
            if not keep_layout and not mask[p]:
                continue
            cells = [(i, pts[p, k], ftype) for k, i in enumerate(xi)]
            if ii is not None and mask[p]:
                cells.append((ii, pts[p, 3], itype))
            vert.append(put_values(lines[skip + p], t, cells))
        drop = not keep_layout and len(vert) != n
        head = _ply_vertex_count(raw[:start], len(vert)) if drop else raw[:start]
        text = "".join(lines[:skip] + vert + lines[skip + n :])
        dst.write_bytes(head + text.encode("ascii"))
    else:
        raise ValueError(f"PLY format {ply.fmt!r} is not handled")


def _ply_vertex_count(header: bytes, m: int) -> bytes:
    lines = header.decode("ascii").splitlines(keepends=True)
    for i, line in enumerate(lines):
        words = line.split()
        if words[:2] == ["element", "vertex"]:
            lines[i] = f"element vertex {m}" + line[len(line.rstrip("\r\n")) :]
            break
    return "".join(lines).encode("ascii")
