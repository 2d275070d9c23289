"""load_sensors against sdformat itself, on the real SDF files of gz-sim's and
sdformat's test and world folders (``tests/data/sdf``, sources in its README).

The oracle is ``tools/sdf_oracle/sdf_oracle.cc`` built against Debian's
``libsdformat-dev`` (sdformat 12): it prints every sensor with a ``<noise>`` written in
the file and each such noise as sdformat parsed it (defaults filled in). CI builds it
(``.ci/steps/45-sdf-oracle.sh``) and points ``FASTNOISE_SDF_ORACLE`` at it; without it
these tests are skipped, naming how to build it.
"""

import functools
import os
import re
import subprocess
from pathlib import Path

import pytest

from fastnoise.io.sdf import load_sensors
from fastnoise.io.sdf.noise import NOISE_KEYS, component
from fastnoise.io.sdf.sensors import ALIASES
from fastnoise.io.sdf.xml import MAX_NESTING, SdfError

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).parent / "data" / "sdf"
FILES = sorted(DATA.glob("*/*.sdf"))
ORACLE = Path(os.environ.get("FASTNOISE_SDF_ORACLE", ROOT / "build" / "sdf_oracle"))

pytestmark = pytest.mark.skipif(
    not ORACLE.is_file(),
    reason=f"no sdformat oracle at {ORACLE}: build tools/sdf_oracle/sdf_oracle.cc "
    "(.ci/steps/45-sdf-oracle.sh) or set FASTNOISE_SDF_ORACLE",
)

# payload/path of each component of the gz-sensors component models
_COMPONENTS = {
    "magnetometer": ("magnetometer", {f"magnetometer/{a}/noise": a for a in "xyz"}),
    "altimeter": (
        "altimeter",
        {f"altimeter/{k}/noise": k for k in ("vertical_position", "vertical_velocity")},
    ),
    "air_pressure": ("air_pressure", {"air_pressure/pressure/noise": "pressure"}),
    "air_speed": ("air_speed", {"air_speed/pressure/noise": "pressure"}),
    "force_torque": (
        "force_torque",
        {f"force_torque/{g}/{a}/noise": f"{g}_{a}" for g in ("force", "torque") for a in "xyz"},
    ),
}


@functools.cache
def _oracle(path):
    done = subprocess.run(
        [str(ORACLE), str(path)], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    every, sensors, noises = {}, {}, {}
    for line in done.stdout.splitlines():
        kind, rest = line.split(" ", 1)
        if kind == "ALL":
            name, stype = rest.split(" ")
            every[name] = stype
        elif kind == "SENSOR":
            name, stype = rest.split(" ")
            sensors[name] = stype
        else:
            name, where, ntype, *values = rest.split(" ")
            # key=value: sdformat's parsed value; key~text: the text of a <noise> it
            # copied unread (air_speed), parsed here as sdformat >= 13 would (a double)
            vals = {k: float(v) for k, v in (re.split("[=~]", kv, maxsplit=1) for kv in values)}
            noises.setdefault(name, {})[where] = {"type": ntype.lower(), **vals}
    return every, sensors, noises


def test_the_vendored_files():
    # every file of the upstream test and world folders with a <noise> (20), plus 27
    # sensor files without one, from both projects; the README names each one's source
    assert len(FILES) >= 47
    assert {p.parent.name for p in FILES} == {"gz-sim", "sdformat"}
    readme = (DATA / "README.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `([^`]+\.sdf)` \| gazebosim/", readme, flags=re.M))
    assert listed == {f"{p.parent.name}/{p.name}" for p in FILES}


def test_sdformat_sees_sensors_in_the_files():
    # the noise-free files are there for their sensors: sdformat finds them, of many types
    every = {}
    for path in FILES:
        every.update({(path, k): v for k, v in _oracle(path)[0].items()})
    assert len(every) >= 90
    assert len(set(every.values())) >= 20


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_load_sensors_finds_what_sdformat_parses(path):
    every, sensors, noises = _oracle(path)
    found = load_sensors(path, seed=0)
    # the same sensors (those with a <noise>), by scoped name, with the same type; a
    # sensor sdformat reads without a <noise> is not among them
    assert set(found) == set(sensors) <= set(every)
    for name, stype in sensors.items():
        rec = found[name]
        assert rec.sdf_type == stype and rec.type == ALIASES.get(stype, stype)
        for where, v in noises[name].items():
            _same_noise(rec, where, v)


# sdformat 12 (SDF 1.9) has no air_speed sensor (it came with sdformat 13, SDF 1.10): it
# copies <air_speed> unread, so the oracle prints the written text of each <noise> key
# (key~text) and no defaults. sdformat >= 13 reads that element as the others of
# noise.sdf: AirSpeed::Load (src/AirSpeed.cc) loads <pressure><noise> with Noise::Load,
# whose absent keys take noise.sdf's defaults, all 0.0 (sdf/1.10/noise.sdf). _full()
# fills those same zeros, so the comparison below is the one sdformat 13 would make.
AIR_SPEED_FILES = ["gz-sim/air_speed.sdf", "gz-sim/sensors.sdf", "sdformat/sensors.sdf"]


@pytest.mark.parametrize("rel", AIR_SPEED_FILES)
def test_air_speed_noise_is_the_text_sdformat_copied(rel):
    every, sensors, noises = _oracle(DATA / rel)
    speed = [n for n, t in sensors.items() if t == "air_speed"]
    assert len(speed) == 1
    (where, v), *more = noises[speed[0]].items()
    assert not more and where == "air_speed/pressure/noise" and v["type"] == "gaussian"
    rec = load_sensors(DATA / rel, seed=0)[speed[0]]
    assert rec.params["air_speed"]["pressure"] == component(_full(v))
    # gz-sensors src/AirSpeedSensor.cc (9ba02f24) applies that noise to the float32
    # differential pressure in hPa, then multiplies by 100: the model's default units
    # (tests/test_gazebo_sensors.py checks the float32 arithmetic itself)
    assert rec.models["air_speed"].pressure_units == "hectopascals"


def _full(v):
    return {"type": v["type"], **{k: v.get(k, 0.0) for k in NOISE_KEYS}}


def _same_noise(rec, where, v):
    """The noise sdformat parsed at ``where`` is the one load_sensors built."""
    comp = component(_full(v))  # gz-sensors' GaussianNoiseModel of sdformat's values
    if rec.type in _COMPONENTS:
        model, paths = _COMPONENTS[rec.type]
        got = rec.params.get(model, {}).get(paths[where]) if rec.params else None
        assert got == comp, (where, got, comp)
    elif rec.type == "navsat":
        key = where.split("/", 1)[1].replace("_sensing", "").replace("/noise", "")
        key = {
            "position/horizontal": "horizontal_position",
            "position/vertical": "vertical_position",
            "velocity/horizontal": "horizontal_velocity",
            "velocity/vertical": "vertical_velocity",
        }[key]
        got = rec.params["navsat"][key] if rec.params else None
        assert got == comp, (where, got, comp)
    elif rec.type == "imu":
        triad, axis = where.split("/")[1:3]
        t = rec.params["imu"]["gyro" if triad == "angular_velocity" else "accel"]
        i = "xyz".index(axis)
        c = comp or dict.fromkeys(NOISE_KEYS, 0.0)
        assert t.noise_stddev[i] == c["stddev"] and t.bias[i] == c["mean"]
        assert t.turn_on_bias_mean[i] == c["bias_mean"]
        assert t.turn_on_bias_stddev[i] == c["bias_stddev"]
    elif rec.type in ("lidar", "gpu_lidar"):
        if "range" in rec.params:
            p = rec.params["range"]
            assert v["type"] == "gaussian"
            assert (p["mean"], p["stddev"]) == (v["mean"], v["stddev"])
        else:
            assert v["type"] != "gaussian" or not (v["mean"] or v["stddev"]), rec.reason
    elif rec.type in ("camera", "depth_camera", "rgbd_camera"):
        for model in ("camera", "depth"):
            if model in rec.params:
                p = rec.params[model]
                assert v["type"] == "gaussian"
                assert (p["mean"], p["stddev"]) == (v["mean"], v["stddev"])
        if not rec.params:
            assert v["type"] != "gaussian" or not (v["mean"] or v["stddev"]), rec.reason
    else:  # a type fastnoise has no model for: nothing built, and it says so
        assert not rec.params and "no model" in rec.reason


@pytest.mark.parametrize("depth", [MAX_NESTING - 1, MAX_NESTING, MAX_NESTING + 1])
def test_the_nesting_limit_is_sdformats(depth, tmp_path):
    # sdformat parses with tinyxml2, whose element depth limit refuses an element at
    # depth MAX_NESTING + 1 (XML_ELEMENT_DEPTH_EXCEEDED); load_sensors refuses the same
    head = '<sdf version="1.9"><world name="w"><model name="m"><link name="l">'
    head += '<sensor name="s" type="imu"><imu>'
    k = depth - 6  # sdf, world, model, link, sensor, imu
    path = tmp_path / "deep.sdf"
    path.write_text(head + "<a>" * k + "</a>" * k + "</imu></sensor></link></model></world></sdf>")
    done = subprocess.run(
        [str(ORACLE), str(path)], capture_output=True, text=True, timeout=60, check=False
    )
    refused = "XML_ELEMENT_DEPTH_EXCEEDED" in done.stderr
    assert refused == (depth > MAX_NESTING)
    if refused:
        with pytest.raises(SdfError, match=f"nested {depth} elements deep"):
            load_sensors(path)
    else:
        assert list(load_sensors(path)) == []
