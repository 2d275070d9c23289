"""Fuzzing the SDF reader: any sensor body is either read (every parsed noise has its
model, or a reason why Gazebo adds none) or refused with SdfError, never another error."""

import pytest

from fastnoise.io._sdf_xml import SdfError
from fastnoise.io.sdf import load_sensors

pytest.importorskip("hypothesis")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


def _world(body):
    return (
        '<sdf version="1.9"><world name="w"><model name="robot"><link name="base">'
        f"{body}</link></model></world></sdf>"
    )


_TAGS = ["noise", "imu", "lidar", "ray", "camera", "range", "min", "max", "x", "type"]
_TAGS += ["angular_velocity", "stddev", "mean", "precision", "magnetometer", "clip"]


@st.composite
def _xml(draw, depth=0):
    if depth > 3 or draw(st.booleans()):
        return draw(st.sampled_from(["", "0.1", "-1", "abc", "1e400", "GAUSSIAN", "30"]))
    tag = draw(st.sampled_from(_TAGS))
    attr = draw(st.sampled_from(["", ' type="gaussian"', ' type="x"']))
    kids = draw(st.lists(_xml(depth=depth + 1), max_size=3))
    return f"<{tag}{attr}>{''.join(kids)}</{tag}>"


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    kind=st.sampled_from(["imu", "gpu_lidar", "ray", "camera", "depth", "rgbd", "gps", "sonar"]),
    body=_xml(),
)
def test_fuzz_sensor_bodies_are_read_or_refused(kind, body):
    try:
        found = load_sensors(_world(f'<sensor name="s" type="{kind}">{body}</sensor>'), seed=1)
    except SdfError:
        return
    for rec in found.values():
        assert set(rec.models) == set(rec.params) and (rec.noisy or rec.reason)
