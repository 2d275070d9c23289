"""Fuzzing the SDF reader: any sensor body, any damaged real SDF file (tests/data/sdf)
and any depth of nesting is either read (every parsed noise has its model, or a reason
why Gazebo adds none) or refused with SdfError, never another error (no RecursionError,
no hang: parsing stops at sdformat's nesting limit). Small by default;
``FASTNOISE_SLOW=1`` runs 20 times as many examples."""

import os
from pathlib import Path

import pytest

from fastnoise.io.sdf import load_sensors
from fastnoise.io.sdf.xml import MAX_NESTING, SdfError

pytest.importorskip("hypothesis")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

EXAMPLES = 2000 if os.environ.get("FASTNOISE_SLOW") else 100


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


# ---- damaged real files and deep nesting (issue #27, item 5) ------------------------------
_REAL = sorted((Path(__file__).parent / "data" / "sdf").glob("*/*.sdf"))
_TEXTS = [p.read_text(encoding="utf-8") for p in _REAL]
_JUNK = [
    "<",
    ">",
    "</",
    "/>",
    "&",
    "&amp;",
    "<!--",
    "-->",
    '"',
    "<noise>",
    "</noise>",
    '<noise type="gaussian">',
    "<sensor>",
    "</sensor>",
    "<model>",
    "]]>",
    "\x00",
    "é",
]


@st.composite
def _damaged_file(draw):
    """A real SDF file (tests/data/sdf) with a few cuts, junk insertions, copies of
    its own parts or a truncation."""
    text = _TEXTS[draw(st.integers(0, len(_TEXTS) - 1))]
    for _ in range(draw(st.integers(1, 4))):
        n = len(text)
        at = draw(st.integers(0, n))
        how = draw(st.sampled_from(["cut", "junk", "copy", "truncate"]))
        if how == "cut":
            text = text[:at] + text[at + draw(st.integers(1, 200)) :]
        elif how == "junk":
            text = text[:at] + draw(st.sampled_from(_JUNK)) + text[at:]
        elif how == "copy":
            start = draw(st.integers(0, n))
            text = text[:at] + text[start : start + draw(st.integers(1, 400))] + text[at:]
        else:
            text = text[:at]
    return "<" + text if "<" not in text else text


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True)
@given(text=_damaged_file())
def test_fuzz_damaged_real_files_are_read_or_refused(text):
    try:
        found = load_sensors(text, seed=1)
    except SdfError as exc:
        assert str(exc)  # a message naming the line
        return
    for rec in found.values():
        assert set(rec.models) == set(rec.params) and (rec.noisy or rec.reason)


_NESTS = {
    # where the deep part goes: (before, repeated open, repeated close, after)
    "models": (
        '<sdf version="1.9"><world name="w">',
        '<model name="m">',
        "</model>",
        "</world></sdf>",
    ),
    "elements": (
        '<sdf version="1.9"><world name="w"><model name="m"><link name="l">'
        '<sensor name="s" type="imu"><imu>',
        "<x>",
        "</x>",
        "</imu></sensor></link></model></world></sdf>",
    ),
    "noise": (
        '<sdf version="1.9"><world name="w"><model name="m"><link name="l">'
        '<sensor name="s" type="imu"><imu><angular_velocity><x>',
        '<noise type="gaussian">',
        "</noise>",
        "</x></angular_velocity></imu></sensor></link></model></world></sdf>",
    ),
    "includes": (
        '<sdf version="1.9"><world name="w">',
        "<include><uri>model://a</uri>",
        "</include>",
        "</world></sdf>",
    ),
    "unclosed": ('<sdf version="1.9"><world name="w">', "<model>", "", ""),
}


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True)
@given(
    where=st.sampled_from(sorted(_NESTS)),
    depth=st.one_of(st.integers(80, 120), st.integers(0, 200_000)),
)
def test_fuzz_deep_nesting_is_refused_by_name(where, depth):
    """Nesting beyond MAX_NESTING (sdformat's tinyxml2 limit) is an SdfError naming
    the element and the limit, read no further: never a RecursionError or a hang."""
    before, opening, closing, after = _NESTS[where]
    text = before + opening * depth + closing * depth + after
    total = before.count("<") - before.count("</") + depth  # the deep element's depth
    try:
        load_sensors(text, seed=1)
    except SdfError as exc:
        if total > MAX_NESTING:
            assert f"reads at most {MAX_NESTING}" in str(exc)
        return
    assert total <= MAX_NESTING
