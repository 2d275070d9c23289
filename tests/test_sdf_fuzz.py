"""Fuzzing the SDF reader: any sensor body is either read (every parsed noise has its
model, or a reason why Gazebo adds none) or refused with SdfError, never another error."""

import pytest

from fastnoise.io.sdf import load_sensors
from fastnoise.io.sdf.xml import SdfError

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


_KEYS = ["mean", "stddev", "bias_mean", "bias_stddev", "precision", "dynamic_bias_stddev"]
_KEYS += ["dynamic_bias_correlation_time", "type", "bogus"]
_VALUES = ["0", "0.1", "-0.5", "2e-6", "1e-7", "abc", "nan", "gaussian", "NONE", "1e300"]
_SKELETONS = [
    ("imu", "<imu><angular_velocity><x>{n}</x><z>{n}</z></angular_velocity></imu>"),
    ("gpu_lidar", "<lidar><range><min>0.1</min><max>30</max></range>{n}</lidar>"),
    ("ray", "<ray><range><min>{v}</min><max>{v}</max></range>{n}</ray>"),
    ("depth", "<camera><clip><near>{v}</near><far>50</far></clip>{n}</camera>"),
    ("rgbd_camera", "<camera>{n}</camera>"),
    ("gps", "<gps><position_sensing><horizontal>{n}</horizontal></position_sensing></gps>"),
    ("magnetometer", "<magnetometer><x>{n}</x><y>{n}</y></magnetometer>"),
]
_KINDS = ["imu", "gpu_lidar", "ray", "camera", "depth", "rgbd", "gps", "magnetometer", "sonar"]


@st.composite
def _structured(draw):
    kids = draw(st.lists(st.tuples(st.sampled_from(_KEYS), st.sampled_from(_VALUES)), max_size=5))
    attr = draw(st.sampled_from(["", ' type="gaussian"', ' type="Gaussian_Quantized"', ' type=""']))
    noise = f"<noise{attr}>" + "".join(f"<{k}>{v}</{k}>" for k, v in kids) + "</noise>"
    kind, skeleton = draw(st.sampled_from(_SKELETONS))
    return kind, skeleton.format(n=noise, v=draw(st.sampled_from(_VALUES)))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(case=st.one_of(st.tuples(st.sampled_from(_KINDS), _xml()), _structured()))
def test_fuzz_sensor_bodies_are_read_or_refused(case):
    kind, body = case
    try:
        found = load_sensors(_world(f'<sensor name="s" type="{kind}">{body}</sensor>'), seed=1)
    except SdfError:
        return
    for rec in found.values():
        assert set(rec.models) == set(rec.params) and (rec.noisy or rec.reason)
