"""The overlap rule of the array intake (fastnoise.core.arrays.no_partial_overlap): its
compiled fast path (disjoint byte ranges pass at once) gives the full rule's verdict."""

import numpy as np
import pytest

from fastnoise.core import arrays


def _full_rule(outputs, inputs):
    """The rule pair by pair in numpy alone: the reference the fast path must match."""
    outs = [(k, v) for k, v in outputs.items() if v is not None]
    ins = [(k, v) for k, v in inputs.items() if v is not None]
    for i, (_, o) in enumerate(outs):
        for kx, x in ins + outs[i + 1 :]:
            same = (
                o.__array_interface__["data"][0] == x.__array_interface__["data"][0]
                and o.strides == x.strides
                and o.shape == x.shape
                and o.dtype == x.dtype
            )
            is_input = any(k == kx and v is x for k, v in ins)
            if np.may_share_memory(o, x) and not (same and is_input):
                return False
    return True


def _allowed(outputs, inputs):
    try:
        arrays.no_partial_overlap(outputs, inputs)
    except ValueError:
        return False
    return True


def test_disjoint_arrays_pass():
    buf = np.zeros((8, 3))
    arrays.no_partial_overlap({"out": buf[:4]}, {"x": buf[4:]})
    arrays.no_partial_overlap(
        {"out_omega": np.empty((5, 3)), "out_accel": np.empty((5, 3))},
        {"omega": np.zeros((5, 3)), "accel": np.zeros((5, 3))},
    )
    # touching ranges (one ends where the other starts) share no byte
    arrays.no_partial_overlap({"out": buf[:1]}, {"x": buf[1:2]})


def test_identical_array_is_the_in_place_case():
    a = np.zeros((4, 3))
    arrays.no_partial_overlap({"out_omega": a, "out_accel": np.empty((4, 3))}, {"omega": a})
    # the same array as two outputs is not in place: refused, both named
    with pytest.raises(ValueError, match="out_omega overlaps out_accel"):
        arrays.no_partial_overlap({"out_omega": a, "out_accel": a}, {})


def test_partial_overlap_is_refused_by_name():
    a = np.zeros(12)
    with pytest.raises(ValueError, match="out overlaps x"):
        arrays.no_partial_overlap({"out": a[2:8]}, {"x": a[:6]})
    # the same start but another view (shape, strides) is a partial overlap
    with pytest.raises(ValueError, match="out overlaps x"):
        arrays.no_partial_overlap({"out": a[:6]}, {"x": a[:6:2]})
    with pytest.raises(ValueError, match="out overlaps x"):
        arrays.no_partial_overlap({"out": a.reshape(4, 3)}, {"x": a.reshape(3, 4)})


def test_interleaved_strides_fall_back_to_the_full_rule():
    # even and odd elements: byte ranges overlap, memory does not (numpy's bounds
    # test calls them overlapping too, so the rule refuses, as it always did)
    a = np.zeros(10)
    assert _allowed({"out": a[::2]}, {"x": a[1::2]}) == _full_rule({"out": a[::2]}, {"x": a[1::2]})
    # a reversed view covers the same bytes: refused unless it is the very same view
    assert not _allowed({"out": a[::-1]}, {"x": a})
    r = a[::-1]
    assert _allowed({"out": r}, {"x": r})


def test_none_and_empty_arrays():
    a = np.zeros(4)
    arrays.no_partial_overlap({"out": None}, {"x": a, "y": None})
    arrays.no_partial_overlap({"out": a[:0]}, {"x": a})
    arrays.no_partial_overlap({"out": np.empty((0, 3))}, {"x": np.empty((0, 3))})


def test_fast_path_matches_the_full_rule_on_random_views():
    rng = np.random.default_rng(24)
    buf = np.zeros(64)
    views = [buf, buf.reshape(8, 8), buf.reshape(8, 8).T, buf[::-1]]
    for _ in range(400):
        picked = []
        for _ in range(3):
            start, stop = sorted(rng.integers(0, 65, 2))
            step = int(rng.choice([1, 1, 2, 3, -1]))
            v = buf[start:stop:step] if step > 0 else buf[stop:start:step]
            if rng.random() < 0.2:
                v = views[int(rng.integers(len(views)))]
            if rng.random() < 0.3:
                v = np.zeros(int(rng.integers(1, 8)))  # an array of its own
            picked.append(v)
        outputs = {"out_a": picked[0], "out_b": picked[1]}
        inputs = {"x": picked[2] if rng.random() < 0.7 else picked[0]}
        assert _allowed(outputs, inputs) == _full_rule(outputs, inputs)


def test_inputs_are_not_modified_and_many_arrays_are_checked():
    arrs = [np.full(3, float(i)) for i in range(12)]  # more than the fast path holds
    arrays.no_partial_overlap(
        {f"o{i}": a for i, a in enumerate(arrs[:6])}, {f"i{i}": a for i, a in enumerate(arrs[6:])}
    )
    assert all(np.all(a == i) for i, a in enumerate(arrs))
    with pytest.raises(ValueError, match="o0 overlaps i0"):
        arrays.no_partial_overlap({"o0": arrs[0][1:]}, {"i0": arrs[0][:2]})
