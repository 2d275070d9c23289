"""Recycled memory of large results (fastnoise.core.buffers): it is reused only after a
result and its views are gone, stays within its limits, and can be handed back."""

from __future__ import annotations

import gc

import numpy as np
import pytest

from fastnoise import ImuNoise
from fastnoise.core import buffers

N = 200_000  # (N, 3) float64 = 4.8 MB: above the 4 MiB recycling threshold


def _imu():
    return ImuNoise(gyro=dict(noise_density=1e-3), accel=dict(noise_density=1e-2), seed=3)


def _motion():
    rng = np.random.default_rng(0)
    return rng.normal(size=(N, 3)), rng.normal(size=(N, 3))


@pytest.mark.needs_recycling
def test_release_hands_back_everything_and_reports_it():
    buffers.release_spare_memory()
    assert buffers.spare_memory() == 0
    w, a = _imu().apply(*_motion(), 0.01)
    del w, a
    gc.collect()
    kept = buffers.spare_memory()
    assert kept >= 2 * N * 3 * 8
    assert buffers.release_spare_memory() == kept
    assert buffers.spare_memory() == 0


@pytest.mark.needs_recycling
def test_reused_memory_gives_the_same_values_and_spares_live_results():
    omega, accel = _motion()
    ref_w, ref_a = _imu().apply(omega, accel, 0.01)
    keep_w = ref_w.copy()
    view = ref_w[5:9]
    del ref_a
    gc.collect()
    for _ in range(3):  # later results may take the dropped blocks
        w, a = _imu().apply(omega, accel, 0.01)
        assert not np.shares_memory(w, view)
        assert np.array_equal(w, keep_w)
        assert w.flags.c_contiguous and w.flags.writeable and w.flags.aligned
        assert w.dtype == np.float64 and w.shape == (N, 3)
        del w, a
    assert np.array_equal(view, keep_w[5:9])


@pytest.mark.needs_recycling
def test_at_most_four_spare_blocks_are_kept():
    buffers.release_spare_memory()
    omega, accel = _motion()
    results = [_imu().apply(omega, accel, 0.01) for _ in range(3)]  # six arrays alive
    del results
    gc.collect()
    assert buffers.spare_memory() == 4 * N * 3 * 8
    buffers.release_spare_memory()


def test_small_results_use_ordinary_memory():
    buffers.release_spare_memory()
    w, a = _imu().apply(np.zeros((100, 3)), np.zeros((100, 3)), 0.01)
    assert w.flags.owndata
    del w, a
    assert buffers.spare_memory() == 0


def _address(a):
    return a.__array_interface__["data"][0]


@pytest.mark.needs_recycling
def test_a_dropped_block_serves_the_next_large_result():
    buffers.release_spare_memory()
    omega, accel = _motion()
    w, a = _imu().apply(omega, accel, 0.01)
    addresses = {_address(w), _address(a)}
    del w, a
    assert buffers.spare_memory() == 2 * N * 3 * 8
    w2, a2 = _imu().apply(omega, accel, 0.01)
    assert {_address(w2), _address(a2)} == addresses
    assert buffers.spare_memory() == 0
    del w2, a2
    buffers.release_spare_memory()


def test_bytes_with_view_fills_a_new_bytes_object_in_place():
    """The view writes the bytes object's own memory (no copy at the end); each call
    gives a new object, also for 1 byte; the view keeps the object alive; n < 0 is
    refused naming nbytes."""
    from fastnoise.core.buffers import bytes_with_view

    record, view = bytes_with_view(5)
    assert type(record) is bytes and len(record) == 5
    assert view.dtype == np.uint8 and view.shape == (5,) and view.flags.writeable
    view[:] = [104, 101, 108, 108, 111]
    assert record == b"hello"
    assert view.base is record
    one_a, va = bytes_with_view(1)
    one_b, vb = bytes_with_view(1)
    va[0], vb[0] = 7, 9
    assert (one_a, one_b) == (b"\x07", b"\x09")  # not the shared 1-byte singletons
    assert bytes([7]) == b"\x07" and bytes([9]) == b"\x09"
    empty, v0 = bytes_with_view(0)
    assert empty == b"" and v0.shape == (0,)
    big, vbig = bytes_with_view(1 << 20)
    ident = id(big)
    del big
    gc.collect()
    vbig[-1] = 3  # still the object's memory, held by the view
    assert id(vbig.base) == ident and vbig.base[-1] == 3 and len(vbig.base) == 1 << 20
    with pytest.raises(ValueError, match=r"nbytes=-1 is not allowed"):
        bytes_with_view(-1)
