"""Reading a stationary sensor log for ``fastnoise.analysis.fit``: an array, a ``.npy``
file or a CSV file.

CSV layout: one sample per row, comma-separated (``delimiter=``), lines starting with
``#`` are comments, and one header row of column names (any row that does not parse as
numbers) is skipped. The columns are the axes, in order: 3 columns for one triad (x, y,
z), 6 for an IMU (gyro x, y, z in rad/s, then accel x, y, z in m/s^2). With
``time_column=True`` the first column is the sample time in s: it is dropped, and the
rate (Hz) is taken from it (1 / median step) when none is given.

ROS bags (``.bag``, ``.mcap``, ``.db3``) are out of scope for now: they raise a clear
error (the ``[ros]`` extra will bring an Imu-topic reader).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TypeAlias

import numpy as np
import numpy.typing as npt

__all__ = ["BAG_SUFFIXES", "load_log"]

FloatArray: TypeAlias = npt.NDArray[np.float64]

#: File suffixes of ROS bags, refused for now.
BAG_SUFFIXES = (".bag", ".mcap", ".db3")


def load_log(
    source: npt.ArrayLike | str | os.PathLike[str],
    *,
    columns: list[int] | tuple[int, ...] | None = None,
    time_column: bool = False,
    delimiter: str = ",",
    mmap: bool = True,
) -> tuple[npt.NDArray[np.floating], float | None]:
    """A log as an (N, k) array of rate samples, and the rate its time column implies.

    Parameters
    ----------
    source : array_like, or path to a ``.npy`` or ``.csv``/``.txt`` file
        Samples (N,) or (N, k); a 1-D log is one column. Units are those of the sensor
        (rad/s, m/s^2, ...). An array is not copied or modified.
    columns : sequence of int or None
        Columns to keep (after dropping the time column), in that order; default all.
    time_column : bool
        The first column holds the sample times, s (dropped from the data).
    delimiter : str
        CSV field separator (default ",").
    mmap : bool
        Map a ``.npy`` file instead of reading it (default; no copy of a float64 log).

    Returns
    -------
    (data, rate) : the (N, k) samples (float array, read-only when mapped), and the rate
        in Hz from the time column (1 / median step), or None without one.

    Raises
    ------
    NotImplementedError
        For a ROS bag (``.bag``, ``.mcap``, ``.db3``): bag input is not supported yet.
    ValueError, TypeError
        For a missing file, an unknown suffix, or bad contents (named in the message).
    """
    if not isinstance(time_column, bool):
        raise TypeError(f"time_column={time_column!r} is not allowed: use True or False")
    if isinstance(source, str | os.PathLike):
        path = Path(source)
        suffix = path.suffix.lower()
        if suffix in BAG_SUFFIXES or (path.is_dir() and any(path.glob("*.db3"))):
            raise NotImplementedError(
                f"source={str(path)!r} is a ROS bag: reading an Imu topic from a bag is not "
                "supported yet (it will come with the [ros] extra); export the topic to "
                "a .npy (N, 6) array or a CSV with columns gyro x, y, z (rad/s), accel x, "
                "y, z (m/s^2)"
            )
        if not path.is_file():
            raise ValueError(f"source={str(path)!r} is not allowed: no such file")
        if suffix == ".npy":
            arr: npt.NDArray[np.generic] = np.load(path, mmap_mode="r" if mmap else None)
        elif suffix in (".csv", ".txt"):
            arr = _read_csv(path, delimiter)
        else:
            raise ValueError(
                f"source={str(path)!r} is not allowed: use a .npy, .csv or .txt file "
                "(or pass an array)"
            )
        name = f"{path.name}"
    else:
        arr = np.asarray(source)
        name = "data"
    if arr.ndim == 1:
        arr = arr[:, None]
    if arr.ndim != 2:
        raise ValueError(f"{name} has shape {arr.shape}: a log must be (N,) or (N, k)")
    if arr.dtype == np.bool_ or not (
        np.issubdtype(arr.dtype, np.floating) or np.issubdtype(arr.dtype, np.integer)
    ):
        raise TypeError(f"{name} has dtype {arr.dtype}: a log must hold real numbers")
    rate: float | None = None
    if time_column:
        if arr.shape[1] < 2:
            raise ValueError(
                f"{name} has {arr.shape[1]} column(s): time_column=True needs the time "
                "column and at least one data column"
            )
        t = np.asarray(arr[:, 0], dtype=np.float64)
        steps = np.diff(t)
        if t.size < 2 or not np.all(np.isfinite(steps)) or np.any(steps <= 0):
            raise ValueError(
                f"{name} column 0 (time, s) is not allowed: times must be finite and "
                "strictly increasing"
            )
        rate = float(1.0 / np.median(steps))
        arr = arr[:, 1:]
    if columns is not None:
        cols = list(columns)
        for c in cols:
            if isinstance(c, bool) or not isinstance(c, int | np.integer):
                raise TypeError(f"columns={columns!r} is not allowed: use column numbers")
            if not 0 <= int(c) < arr.shape[1]:
                raise ValueError(
                    f"columns={columns!r} is not allowed: each must lie in [0, {arr.shape[1]})"
                )
        arr = arr[:, cols]
    return arr, rate  # type: ignore[return-value]


def _read_csv(path: Path, delimiter: str) -> FloatArray:
    with open(path, encoding="utf-8") as f:
        lines = [ln for ln in f if ln.strip() and not ln.lstrip().startswith("#")]
    if lines:
        try:
            [float(v) for v in lines[0].split(delimiter)]
        except ValueError:
            lines = lines[1:]  # a header row
    if not lines:
        raise ValueError(f"{path.name} is not allowed: it holds no samples")
    try:
        data = np.loadtxt(lines, delimiter=delimiter, ndmin=2, dtype=np.float64)
    except ValueError as exc:
        raise ValueError(f"{path.name} is not allowed: {exc}") from exc
    return data
