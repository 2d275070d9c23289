"""LidarNoise.apply on points kept in records (a PointCloud2's data viewed as (N, 3) rows
``point_step`` bytes apart): read and written where they are, every other byte of a
record untouched, and the same bits as the points gathered into a contiguous array."""

from __future__ import annotations

import numpy as np
import pytest

from fastnoise import LidarNoise

N = 2000  # several 512-point chunks and a partial one


def model() -> LidarNoise:
    return LidarNoise(
        hitpoint_angular_noise_stddev=0.002,
        distance_noise_stddev_base=0.02,
        distance_noise_stddev_rise_per_meter=0.001,
        seed=5,
    )


def records(dtype: str, point_step: int, offset: int, n: int = N) -> tuple[np.ndarray, np.ndarray]:
    """(data, xyz): a uint8 buffer of n records of point_step bytes, filled with random
    bytes, whose x, y, z at ``offset`` hold points (some non-hits); xyz views them."""
    rng = np.random.default_rng(7)
    item = np.dtype(dtype).itemsize
    data = rng.integers(0, 256, n * point_step + 1, dtype=np.uint8)[1:]  # misaligned base
    pts = rng.uniform(-60.0, 60.0, (n, 3)).astype(dtype)
    pts[::97] = np.nan  # non-hits: copied unchanged
    pts[5] = 0.0  # at the origin: left in place
    xyz = np.ndarray((n, 3), dtype=dtype, buffer=data, offset=offset, strides=(point_step, item))
    xyz[...] = pts
    return data, xyz


@pytest.mark.parametrize(
    ("dtype", "point_step", "offset"),
    [
        ("float32", 16, 0),
        ("float32", 32, 4),
        ("float32", 13, 1),
        ("float64", 32, 0),
        ("float64", 48, 8),
        ("float64", 27, 3),
    ],
)
@pytest.mark.parametrize("threads", [1, 3])
def test_records_in_place_give_the_bits_of_a_contiguous_copy(
    simd_path, dtype, point_step, offset, threads
):
    data, xyz = records(dtype, point_step, offset)
    before = data.copy()
    gathered = np.ascontiguousarray(xyz)
    want = model().apply(gathered, frame=4, first_index=11, threads=threads)
    got = model().apply(xyz, frame=4, first_index=11, out=xyz, threads=threads)
    assert got.points is xyz
    np.testing.assert_array_equal(
        got.points.view(f"u{xyz.itemsize}"), want.points.view(f"u{xyz.itemsize}")
    )
    np.testing.assert_array_equal(got.distances, want.distances)
    np.testing.assert_array_equal(got.hit_mask, want.hit_mask)
    assert not want.hit_mask[0] and want.hit_mask[1]  # NaN rows are non-hits
    # every byte outside x, y, z is as it was; x, y, z changed where there was noise
    touched = np.zeros(data.size, dtype=bool)
    for k in range(3 * xyz.itemsize):
        touched[offset + k :: point_step] = True
    np.testing.assert_array_equal(data[~touched], before[~touched])
    assert (data[touched] != before[touched]).any()


def test_records_in_contiguous_out_and_contiguous_in_records_out():
    data, xyz = records("float32", 20, 4)
    want = model().apply(np.ascontiguousarray(xyz), frame=2).points
    # records in, a new contiguous array out; the input is not written
    before = data.copy()
    got = model().apply(xyz, frame=2).points
    assert got.flags.c_contiguous
    np.testing.assert_array_equal(got.view("u4"), want.view("u4"))
    np.testing.assert_array_equal(data, before)
    # contiguous in, records out
    dest, view = records("float32", 24, 8)
    model().apply(np.ascontiguousarray(xyz), frame=2, out=view)
    np.testing.assert_array_equal(view.view("u4"), want.view("u4"))


def test_overlapping_records_and_strided_columns_are_refused_or_copied():
    data, xyz = records("float32", 16, 0, n=50)
    shifted = np.ndarray((50, 3), dtype="float32", buffer=data, offset=4, strides=(16, 4))
    with pytest.raises(ValueError, match="out overlaps points"):
        model().apply(xyz, frame=0, out=shifted)
    # columns not adjacent: refused as out, copied as points
    wide = np.zeros((50, 6), dtype="float32")[:, ::2]
    with pytest.raises(ValueError, match="C-contiguous and aligned, or hold each point"):
        model().apply(xyz, frame=0, out=wide)
    wide[...] = xyz
    want = model().apply(np.ascontiguousarray(xyz), frame=0).points
    np.testing.assert_array_equal(model().apply(wide, frame=0).points, want)
    # rows closer than a row's size overlap each other: copied, never read in place
    tight = np.lib.stride_tricks.as_strided(np.zeros(60, "float32"), (50, 3), (4, 4))
    np.testing.assert_array_equal(
        model().apply(tight, frame=0).points,
        model().apply(np.ascontiguousarray(tight), frame=0).points,
    )
    with pytest.raises(ValueError, match="read-only"):
        ro = xyz.copy()
        ro.flags.writeable = False
        model().apply(xyz, frame=0, out=ro)
