"""Noise for data on disk and in memory: image folders, point-cloud files, numpy files.

File formats (the ``fastnoise[files]`` extra brings OpenCV for the images):

- images ``.png``, ``.jpg``/``.jpeg``, ``.tif``/``.tiff``: 8 and 16-bit, grey, RGB and
  RGBA (16-bit RGB PNG included), read and written with OpenCV; JPEG is re-encoded at the
  suite's ``quality`` (default 95), PNG at ``png_compression`` (default 3); metadata
  (EXIF, ICC) is not carried over. A float32 TIFF is a depth image for ``depth``.
- KITTI ``.bin``: float32 (N, 4) x, y, z, intensity; intensity kept.
- ``.pcd`` (DATA ascii or binary; binary_compressed refused) and ``.ply`` (ascii,
  binary little or big endian; the vertex element's x, y, z): every other field and
  element is kept.
- ``.npy``: one image (H, W[, C]) or cloud (M, >=3); with ``frames = true`` in the suite
  a stack (N, H, W[, C]) or (N, M, >=3), frame k being entry k. ``.npz``: each member
  the same way, keyed as ``<path>:<member>``; with ``model = "imu"`` the members
  ``omega`` (N, 3) rad/s, ``accel`` (N, 3) m/s^2 and ``timestamps`` (N, s) or ``dt``.

A file's key is its POSIX path relative to the input folder (see
:mod:`fastnoise.io.suite`); a single file's noise is frame 0 of that key.

In memory: :func:`image_noise_batch` (ImageNoise over (N, H, W[, C]) with a first frame)
and :func:`lidar_noise_columns` (LidarNoise on (N, >=3) clouds, extra columns kept) are
loops over the models' per-frame ``apply``: the same bits as calling ``apply`` frame by
frame. :class:`DepthNoise` is Gaussian noise in metres on depth images.
"""

from __future__ import annotations

import io
import os
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from fastnoise.core import validate as _validate
from fastnoise.core.seeding import as_seed_sequence, model_key

__all__ = [
    "IMAGE_SUFFIXES",
    "CLOUD_SUFFIXES",
    "DepthNoise",
    "image_noise_batch",
    "lidar_noise_columns",
    "noise_file",
]

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".tif", ".tiff")
CLOUD_SUFFIXES = (".bin", ".pcd", ".ply")
ARRAY_SUFFIXES = (".npy", ".npz")


# ---------------------------------------------------------------------------------------
# in memory


class DepthNoise:
    """DepthNoise(mean=0.0, stddev=0.0, seed=None): Gaussian noise on depth images, in
    metres.

    Every finite depth ``d`` of pixel ``j = y * W + x`` in frame ``f`` becomes
    ``d + mean + stddev * Z`` where ``Z`` is the very normal that
    :class:`~fastnoise.models.camera.ImageNoise` with the same seed draws for that pixel
    (float32 normal ``j`` of stream ``f`` under ``model_key(seed, "camera")``): depth is
    keyed like the camera. NaN and +-inf (no return) are kept; there is no clamp (depth
    is not an intensity in [0, 1]). Arithmetic in the image's dtype (float32 or float64).
    """

    model_name = "depth"

    def __init__(self, mean: float = 0.0, stddev: float = 0.0, seed: object = None) -> None:
        self.mean = _validate.finite("mean", mean)
        self.stddev = _validate.nonnegative("stddev", stddev)
        self.seed = as_seed_sequence(seed)
        self.key = model_key(self.seed, "camera")

    def __repr__(self) -> str:
        return f"DepthNoise(mean={self.mean!r}, stddev={self.stddev!r})"

    def apply(
        self, depth: np.ndarray, frame: int = 0, out: np.ndarray | None = None, threads: int = 1
    ) -> np.ndarray:
        """``depth`` (H, W) or (H, W, 1), float32 or float64 (m), with noise; ``out``
        (same shape and dtype, may be ``depth``) receives it."""
        from fastnoise.core.generator import fill_normals

        if not isinstance(depth, np.ndarray) or depth.dtype not in (np.float32, np.float64):
            raise TypeError("depth must be a float32 or float64 numpy array (m)")
        if depth.ndim not in (2, 3) or (depth.ndim == 3 and depth.shape[2] != 1):
            raise ValueError(f"depth has shape {depth.shape}: it must be H x W or H x W x 1")
        f = _validate.integer("frame", frame, 0, 2**64)
        z = np.empty(depth.shape[0] * depth.shape[1], dtype=np.float32)
        if z.size:
            fill_normals(self.key, f, 0, z, 0.0, 1.0, threads)
        noise = z.astype(depth.dtype, copy=False).reshape(depth.shape)
        noise *= depth.dtype.type(self.stddev)
        noise += depth.dtype.type(self.mean)
        res = np.where(np.isfinite(depth), depth + noise, depth)
        if out is None:
            return res
        out[...] = res
        return out


def image_noise_batch(
    model: Any,
    frames: np.ndarray,
    first_frame: int = 0,
    out: np.ndarray | None = None,
    threads: int = 1,
) -> np.ndarray:
    """ImageNoise (or DepthNoise) on a stack of images (N, H, W[, C]): image ``k`` is
    frame ``first_frame + k``, the same bits as ``model.apply(frames[k], frame=first_frame
    + k)``. ``out`` (same shape and dtype, may be ``frames``) receives the result."""
    arr = np.asarray(frames)
    if arr.ndim not in (3, 4):
        raise ValueError(f"frames has shape {arr.shape}: it must be N x H x W[ x C]")
    first = _validate.integer("first_frame", first_frame, 0, 2**64 - max(arr.shape[0], 1) + 1)
    res = np.empty_like(arr) if out is None else out
    if res.shape != arr.shape or res.dtype != arr.dtype:
        raise ValueError(f"out must have shape {arr.shape} and dtype {arr.dtype}")
    for k in range(arr.shape[0]):
        model.apply(arr[k], frame=first + k, out=res[k], threads=threads)
    return res


def lidar_noise_columns(
    model: Any,
    cloud: np.ndarray,
    frame: int = 0,
    lidar_pose: Any = None,
    threads: int = 1,
    columns: tuple[int, int, int] = (0, 1, 2),
) -> np.ndarray:
    """LidarNoise on an (N, >=3) cloud whose ``columns`` are x, y, z (m): a copy with
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


# ---------------------------------------------------------------------------------------
# files


def _cv2() -> Any:
    try:
        import cv2
    except ImportError:
        raise ImportError("image files need OpenCV: pip install 'fastnoise[files]'") from None
    return cv2


def _image_noise(model: Any, img: np.ndarray, frame: int, threads: int) -> np.ndarray:
    """Noise an image as OpenCV holds it (B, G, R[, A]): colours in R, G, B order."""
    from fastnoise.models.camera import ImageNoise

    if isinstance(model, DepthNoise):
        if img.dtype not in (np.float32, np.float64):
            raise ValueError(f"depth images must be float32 or float64 (m), not {img.dtype}")
        return model.apply(img, frame=frame, threads=threads)
    if not isinstance(model, ImageNoise):
        raise TypeError(f"images take model 'camera' or 'depth', not {type(model).__name__}")
    if img.dtype not in (np.uint8, np.uint16):
        raise ValueError(f"camera noise takes 8 or 16-bit images, not {img.dtype}")
    out = img.copy()
    view = out if out.ndim == 2 else out[..., 2::-1]
    model.apply(view, frame=frame, out=view, threads=threads)
    return out


def _noise_image_file(src: Path, dst: Path, model: Any, options: dict, threads: int) -> None:
    cv2 = _cv2()
    img = cv2.imread(str(src), cv2.IMREAD_UNCHANGED)
    if img is None:
        raise ValueError("OpenCV cannot read it as an image")
    res = _image_noise(model, img, 0, threads)
    suffix = src.suffix.lower()
    params: list[int] = []
    if suffix in (".jpg", ".jpeg"):
        params = [cv2.IMWRITE_JPEG_QUALITY, int(options.get("quality", 95))]
    elif suffix == ".png":
        params = [cv2.IMWRITE_PNG_COMPRESSION, int(options.get("png_compression", 3))]
    ok, buf = cv2.imencode(suffix, res, params)
    if not ok:
        raise ValueError("OpenCV cannot write the noised image")
    dst.write_bytes(buf.tobytes())


def _lidar_model(model: Any) -> Any:
    from fastnoise.models.lidar import LidarNoise

    if not isinstance(model, LidarNoise):
        raise TypeError(f"point clouds take model 'lidar', not {type(model).__name__}")
    return model


def _noise_kitti(src: Path, dst: Path, model: Any, options: dict, threads: int) -> None:
    raw = np.fromfile(src, dtype="<f4")
    if raw.size % 4:
        raise ValueError(f"{raw.size} float32 values: a KITTI .bin holds N x 4 (x, y, z, i)")
    cloud = raw.reshape(-1, 4)
    res = lidar_noise_columns(_lidar_model(model), cloud, 0, options.get("pose"), threads)
    res.astype("<f4").tofile(dst)


_PCD_TYPES = {
    ("F", 4): "f4",
    ("F", 8): "f8",
    ("I", 1): "i1",
    ("I", 2): "i2",
    ("I", 4): "i4",
    ("I", 8): "i8",
    ("U", 1): "u1",
    ("U", 2): "u2",
    ("U", 4): "u4",
    ("U", 8): "u8",
}


def _pcd_header(raw: bytes) -> tuple[dict[str, list[str]], int]:
    fields: dict[str, list[str]] = {}
    pos = 0
    while True:
        end = raw.find(b"\n", pos)
        if end < 0:
            raise ValueError("PCD header has no DATA line")
        line = raw[pos:end].decode("ascii", "replace").strip()
        pos = end + 1
        if not line or line.startswith("#"):
            continue
        key, *vals = line.split()
        fields[key.upper()] = vals
        if key.upper() == "DATA":
            return fields, pos


def _noise_pcd(src: Path, dst: Path, model: Any, options: dict, threads: int) -> None:
    raw = src.read_bytes()
    hdr, start = _pcd_header(raw)
    names = hdr.get("FIELDS", [])
    sizes = [int(s) for s in hdr.get("SIZE", [])]
    types = hdr.get("TYPE", [])
    counts = [int(c) for c in hdr.get("COUNT", ["1"] * len(names))]
    if not (len(names) == len(sizes) == len(types) == len(counts)):
        raise ValueError("PCD header FIELDS, SIZE, TYPE and COUNT differ in length")
    for n in ("x", "y", "z"):
        if n not in names:
            raise ValueError(f"PCD has no field {n!r} (fields: {names})")
    n_pts = int(hdr.get("POINTS", ["0"])[0])
    kind = hdr["DATA"][0].lower()
    lidar = _lidar_model(model)
    xi = [names.index(n) for n in ("x", "y", "z")]
    if kind == "binary":
        formats = []
        for t, s, c in zip(types, sizes, counts, strict=True):
            code = _PCD_TYPES.get((t.upper(), s))
            if code is None:
                raise ValueError(f"PCD TYPE {t} SIZE {s} is not a known type")
            formats.append(("<" + code, (c,)) if c > 1 else "<" + code)
        uniq = [f"{n}__{i}" for i, n in enumerate(names)]  # PCD allows repeated "_" names
        dt = np.dtype({"names": uniq, "formats": formats})
        body = np.frombuffer(raw, dtype=dt, count=n_pts, offset=start).copy()
        for i in xi:
            if body.dtype[uniq[i]].kind != "f":
                raise ValueError(f"PCD field {names[i]!r} must be a float (TYPE F)")
        ftype = np.float32 if all(sizes[i] == 4 for i in xi) else np.float64
        xyz = np.stack([body[uniq[i]] for i in xi], axis=1).astype(ftype)
        lidar.apply(xyz, lidar_pose=options.get("pose"), frame=0, out=xyz, threads=threads)
        for k, i in enumerate(xi):
            body[uniq[i]] = xyz[:, k]
        tail = raw[start + n_pts * dt.itemsize :]
        dst.write_bytes(raw[:start] + body.tobytes() + tail)
    elif kind == "ascii":
        lines = raw[start:].decode("ascii").splitlines(keepends=True)
        rows = [ln for ln in lines if ln.strip()]
        if len(rows) < n_pts:
            raise ValueError(f"PCD says {n_pts} points but has {len(rows)} data lines")
        # token index of each field's first value
        first = np.cumsum([0, *counts[:-1]])
        tok = [ln.split() for ln in rows[:n_pts]]
        xyz = np.array([[float(t[first[i]]) for i in xi] for t in tok], dtype=np.float64)
        ftype = np.float32 if all(sizes[i] == 4 for i in xi) else np.float64
        xyz = xyz.astype(ftype)
        lidar.apply(xyz, lidar_pose=options.get("pose"), frame=0, out=xyz, threads=threads)
        fmt = "{:.9g}" if ftype == np.float32 else "{:.17g}"
        out_lines = []
        for p, t in enumerate(tok):
            for k, i in enumerate(xi):
                t[first[i]] = fmt.format(float(xyz[p, k]))
            out_lines.append(" ".join(t) + "\n")
        dst.write_bytes(raw[:start] + "".join(out_lines).encode("ascii"))
    else:
        raise ValueError(
            f"PCD DATA {kind}: only ascii and binary are handled (convert binary_compressed "
            "with pcl_convert_pcd_ascii_binary)"
        )


_PLY_TYPES = {
    "char": "i1",
    "uchar": "u1",
    "short": "i2",
    "ushort": "u2",
    "int": "i4",
    "uint": "u4",
    "float": "f4",
    "double": "f8",
    "int8": "i1",
    "uint8": "u1",
    "int16": "i2",
    "uint16": "u2",
    "int32": "i4",
    "uint32": "u4",
    "float32": "f4",
    "float64": "f8",
}


def _noise_ply(src: Path, dst: Path, model: Any, options: dict, threads: int) -> None:
    raw = src.read_bytes()
    end = raw.find(b"end_header")
    if not raw.startswith(b"ply") or end < 0:
        raise ValueError("not a PLY file (no 'ply' magic or no end_header)")
    start = raw.index(b"\n", end) + 1
    header = raw[:start].decode("ascii")
    fmt = None
    elements: list[tuple[str, int, list[tuple[str, str]]]] = []
    for line in header.splitlines():
        words = line.split()
        if not words:
            continue
        if words[0] == "format":
            fmt = words[1]
        elif words[0] == "element":
            elements.append((words[1], int(words[2]), []))
        elif words[0] == "property":
            if not elements:
                raise ValueError("PLY property before any element")
            if words[1] == "list":
                elements[-1][2].append(("list", words[-1]))
            else:
                elements[-1][2].append((words[1], words[2]))
    names = [e[0] for e in elements]
    if "vertex" not in names:
        raise ValueError("PLY has no vertex element")
    vi = names.index("vertex")
    for e in elements[: vi + 1]:
        if any(t == "list" for t, _ in e[2]):
            raise ValueError(
                f"PLY element {e[0]!r} (at or before vertex) has list properties: not handled"
            )
    props = elements[vi][2]
    pnames = [p for _, p in props]
    for n in ("x", "y", "z"):
        if n not in pnames:
            raise ValueError(f"PLY vertex has no property {n!r} (it has {pnames})")
    lidar = _lidar_model(model)
    xi = [pnames.index(n) for n in ("x", "y", "z")]
    ftype = np.float32 if all(_PLY_TYPES[props[i][0]] == "f4" for i in xi) else np.float64
    if fmt in ("binary_little_endian", "binary_big_endian"):
        order = "<" if fmt == "binary_little_endian" else ">"
        offset = start
        for e in elements[:vi]:
            offset += e[1] * np.dtype([(p, order + _PLY_TYPES[t]) for t, p in e[2]]).itemsize
        dt = np.dtype([(f"{p}__{i}", order + _PLY_TYPES[t]) for i, (t, p) in enumerate(props)])
        n = elements[vi][1]
        body = np.frombuffer(raw, dtype=dt, count=n, offset=offset).copy()
        keys = [dt.names[i] for i in xi]
        xyz = np.stack([body[k] for k in keys], axis=1).astype(ftype)
        lidar.apply(xyz, lidar_pose=options.get("pose"), frame=0, out=xyz, threads=threads)
        for k, key in enumerate(keys):
            body[key] = xyz[:, k]
        dst.write_bytes(raw[:offset] + body.tobytes() + raw[offset + n * dt.itemsize :])
    elif fmt == "ascii":
        text = raw[start:].decode("ascii")
        lines = text.splitlines(keepends=True)
        skip = sum(e[1] for e in elements[:vi])
        n = elements[vi][1]
        rows = lines[skip : skip + n]
        tok = [ln.split() for ln in rows]
        xyz = np.array([[float(t[i]) for i in xi] for t in tok], dtype=np.float64).astype(ftype)
        lidar.apply(xyz, lidar_pose=options.get("pose"), frame=0, out=xyz, threads=threads)
        f = "{:.9g}" if ftype == np.float32 else "{:.17g}"
        for p, t in enumerate(tok):
            for k, i in enumerate(xi):
                t[i] = f.format(float(xyz[p, k]))
            lines[skip + p] = " ".join(t) + "\n"
        dst.write_bytes(raw[:start] + "".join(lines).encode("ascii"))
    else:
        raise ValueError(f"PLY format {fmt!r} is not handled")


def _noise_array(model: Any, arr: np.ndarray, options: dict, threads: int) -> np.ndarray:
    from fastnoise.models.camera import ImageNoise
    from fastnoise.models.lidar import LidarNoise

    frames = bool(options.get("frames", False))
    if isinstance(model, LidarNoise):
        if frames and arr.ndim != 3 or not frames and arr.ndim != 2:
            want = "N x M x >=3 (frames = true)" if frames else "M x >=3"
            raise ValueError(f"array of shape {arr.shape}: a cloud is {want}")
        return lidar_noise_columns(model, arr, 0, options.get("pose"), threads)
    if isinstance(model, ImageNoise | DepthNoise):
        if frames:
            return image_noise_batch(model, np.ascontiguousarray(arr), 0, threads=threads)
        return model.apply(np.ascontiguousarray(arr), frame=0, threads=threads)
    raise TypeError(f"arrays take model 'camera', 'depth' or 'lidar', not {type(model).__name__}")


def _noise_npy(src: Path, dst: Path, model: Any, options: dict, threads: int) -> None:
    arr = np.load(src, allow_pickle=False)
    res = _noise_array(model, arr, options, threads)
    with open(dst, "wb") as fh:
        np.save(fh, res)


def _noise_npz(src: Path, dst: Path, entry: Any, name: str, options: dict, threads: int) -> None:
    from fastnoise.models.imu import ImuNoise

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
    from fastnoise.io.suite import normalize_relpath

    items = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for fn in filenames:
            p = Path(dirpath) / fn
            if p.is_file():
                items.append((normalize_relpath(p.relative_to(root)), p))
    items.sort()
    yield from items
