"""load_sensors: every Gazebo sensor's noise from an SDF model or world file.

Rules checked against gz-sensors 9ba02f24108e57666d326e22317443034eb860f8 (src/Lidar.cc,
CameraSensor.cc, DepthCameraSensor.cc, RgbdCameraSensor.cc, GaussianNoiseModel.cc) and
sdformat 2ace536244acf0b3f60367b54488381d1224ce30 (src/Noise.cc, src/Sensor.cc, sdf/1.12).
"""

import dataclasses
import hashlib
import json
import warnings
from pathlib import Path

import numpy as np
import pytest
from toy_model import ToyNoise

import fastnoise
from fastnoise import cli
from fastnoise.core import registry
from fastnoise.io.sdf import load_sensors, sensor_seed_sequence
from fastnoise.io.sdf.noise import parse_noise
from fastnoise.io.sdf.xml import SdfError, parse_text
from fastnoise.io.suite.sdf_sensors import sdf_sensors, sdf_type_models
from fastnoise.models.camera import DepthNoise


def _world(body, models=""):
    return (
        '<sdf version="1.9"><world name="w"><model name="robot"><link name="base">'
        f"{body}</link>{models}</model></world></sdf>"
    )


def _lidar(noise, kind="gpu_lidar", elem="lidar", rng="<min>0.1</min><max>30</max>"):
    return _world(
        f'<sensor name="s" type="{kind}"><{elem}><range>{rng}</range>{noise}</{elem}></sensor>'
    )


# ---- <noise> as sdformat Noise::Load reads it -----------------------------------------


def test_noise_load_ported_from_sdformat():
    # sdformat src/Noise_TEST.cc (2ace536), TEST(DOMNoise, Load): the type is case
    # insensitive ("GaUsSiaN_QUANTIZED") and every child is read back as written
    node = parse_text(
        '<noise type="GaUsSiaN_QUANTIZED"><mean>1.2</mean><stddev>2.3</stddev>'
        "<bias_mean>3.4</bias_mean><bias_stddev>5.6</bias_stddev><precision>7.8</precision>"
        "<dynamic_bias_stddev>8.9</dynamic_bias_stddev>"
        "<dynamic_bias_correlation_time>10.2</dynamic_bias_correlation_time></noise>"
    )
    v = parse_noise(node, "noise")
    assert v == {
        "type": "gaussian_quantized",
        "mean": 1.2,
        "stddev": 2.3,
        "bias_mean": 3.4,
        "bias_stddev": 5.6,
        "precision": 7.8,
        "dynamic_bias_stddev": 8.9,
        "dynamic_bias_correlation_time": 10.2,
    }
    # TEST(DOMNoise, ConstructionAndSet): defaults are type none and every value 0
    assert parse_noise(parse_text('<noise type="none"/>'), "noise") == {
        "type": "none",
        **dict.fromkeys(
            (
                "mean",
                "stddev",
                "bias_mean",
                "bias_stddev",
                "precision",
                "dynamic_bias_stddev",
                "dynamic_bias_correlation_time",
            ),
            0.0,
        ),
    }
    # "Noise 'type' attribute is invalid" ("bad"): refused, naming the line
    with pytest.raises(SdfError, match=r"line 2: element <noise> has noise type 'bad'"):
        parse_noise(parse_text('<x>\n<noise type="bad"/></x>').children[0], "noise")
    # lidar and camera <noise>: a <type> child, default "gaussian" (lidar.sdf, camera.sdf)
    assert parse_noise(parse_text("<noise/>"), "noise", type_child=True)["type"] == "gaussian"
    node = parse_text("<noise><type>NONE</type></noise>")
    assert parse_noise(node, "noise", type_child=True)["type"] == "none"


def test_malformed_value_names_its_line_and_element():
    sdf = _world(
        '\n<sensor name="imu" type="imu">\n<imu><angular_velocity>\n<x><noise type="gaussian">'
        "\n<mean>0</mean>\n<stddev>0.0x2</stddev></noise></x></angular_velocity></imu></sensor>"
    )
    with pytest.raises(
        SdfError,
        match=r"^line 6: malformed element <imu/angular_velocity/x/noise/stddev>: '0.0x2'",
    ):
        load_sensors(sdf)


def test_malformed_xml_and_file_names(tmp_path):
    p = tmp_path / "bad.sdf"
    p.write_text('<sdf version="1.9">\n<model name="m">\n<link name="l">\n</model></sdf>')
    with pytest.raises(SdfError, match=r"bad.sdf, line 4: the SDF is not well-formed XML"):
        load_sensors(p)
    p.write_text(_lidar("<noise><type>gaussian</type><stddev>-1</stddev></noise>"))
    with pytest.raises(SdfError, match=r"bad.sdf, line 1: .*<lidar/noise/stddev>: '-1' must"):
        load_sensors(str(p))


# ---- lidar (gz-sensors Lidar.cc) ------------------------------------------------------


def test_lidar_builds_range_noise_with_gazebo_rules():
    noise = (
        "<noise><type>Gaussian</type><stddev>0</stddev><bias_mean>0.05</bias_mean>"
        "<precision>0.001</precision></noise>"
    )
    found = load_sensors(_lidar(noise), seed=4)
    rec = found["robot::base::s"]
    assert rec.type == "gpu_lidar" and rec.noisy
    m = rec.model
    assert isinstance(m, fastnoise.RangeNoise)
    assert (m.min_range, m.max_range, m.bias_mean, m.precision) == (0.1, 30.0, 0.05, 0.001)
    assert m.flip_bias_sign and abs(m.bias) == 0.05
    assert m.inf_outside_limits
    out = m.apply(np.array([1.0, 50.0, 0.0, np.nan, np.inf, 29.96]))
    # r + bias, rounded to 1 mm, clamped to [0.1, 30]; true ranges outside [0.1, 30]
    # are -inf/+inf before the noise; NaN -> max; inf kept
    expect = np.array([1.0 + m.bias, np.inf, -np.inf, 30.0, np.inf, min(29.96 + m.bias, 30.0)])
    assert np.allclose(out, expect, rtol=0, atol=1e-12)


@pytest.mark.parametrize("kind, elem", [("gpu_lidar", "lidar"), ("gpu_ray", "ray")])
def test_gpu_lidar_detect_box_port(kind, elem):
    # gz-sensors test/integration/gpu_lidar_sensor.cc, DetectBox: range [0.08, 10] m,
    # a unit box at x = 1 m seen by the middle beam (1 - 0.5 = 0.5 m), nothing seen by
    # the first and last beams: Range(0) and Range(last) are INF_D. GpuLidarSensor.cc
    # calls SetClamp(false), so gz-rendering (BaseGpuRays.hh) gives -INF_D/INF_D for
    # data outside the clip planes (near 0.08, far 10) before Lidar::ApplyNoise; with
    # noise (here mean 0.01 m, to have a model) those beams stay infinite
    rng = "<min>0.08</min><max>10.0</max>"
    noise = "<noise><type>gaussian</type><mean>0.01</mean></noise>"
    m = load_sensors(_lidar(noise, kind=kind, elem=elem, rng=rng), seed=2)["s"].model
    # a miss renders beyond the far plane; a surface nearer than 0.08 m lies before
    # the near plane
    truth = np.array([15.0, 0.5, 1e9, 0.05, 10.0, 0.08])
    out = m.apply(truth)
    assert out[0] == np.inf and out[2] == np.inf and out[3] == -np.inf
    assert abs(out[1] - (0.5 + 0.01)) <= 1e-12
    # exactly at the limits is inside (the shader's tests are strict): noised, clamped
    assert out[4] == 10.0 and abs(out[5] - 0.09) <= 1e-12


def test_cpu_lidar_set_raycast_results_port():
    # gz-sensors test/integration/cpu_lidar_sensor.cc, SetRaycastResults and
    # CpuLidarSensor::SetRaycastResults: range [0.08, 10]; fraction 0.5 -> 0.08 + 0.5 *
    # 9.92 = 5.04 m; no hit (fraction +inf) -> +inf; a range outside [min, max] is
    # -inf/+inf before the noise, which only finite ranges get (then clamped)
    rng = "<min>0.08</min><max>10</max>"
    noise = "<noise><type>gaussian</type><mean>5.0</mean></noise>"
    m = load_sensors(_lidar(noise, kind="lidar", rng=rng), seed=3)["s"].model
    out = m.apply(np.array([0.08 + 0.5 * 9.92, np.inf, 0.08, 12.0, 0.01]))
    # NoiseClamping's mean 5 pushes 5.04 to 10.04 -> clamped to 10
    np.testing.assert_array_equal(out, [10.0, np.inf, 5.08, np.inf, -np.inf])


@pytest.mark.parametrize(
    "noise, why",
    [
        ("<noise><type>gaussian</type><bias_stddev>0.3</bias_stddev></noise>", "all zero"),
        ("<noise><type>gaussian</type><stddev>0.000001</stddev></noise>", "all zero"),
        ("<noise><type>gaussian_quantized</type><stddev>0.1</stddev></noise>", "only type"),
        ("<noise><type>none</type><stddev>0.1</stddev></noise>", "type none"),
    ],
)
def test_lidar_without_a_noise_model(noise, why):
    rec = load_sensors(_lidar(noise))["s"]
    assert not rec.noisy and rec.models == {} and why in rec.reason


@pytest.mark.parametrize("field", ["mean", "dynamic_bias_stddev", "dynamic_bias_correlation_time"])
def test_lidar_any_of_the_listed_fields_creates_the_model(field):
    rec = load_sensors(_lidar(f"<noise><{field}>0.000002</{field}></noise>"))["s"]
    assert isinstance(rec.model, fastnoise.RangeNoise)  # <type> defaults to gaussian


def test_ray_alias_and_type_attribute_ignored_on_lidar():
    noise = '<noise type="none"><stddev>0.02</stddev></noise>'
    found = load_sensors(_lidar(noise, kind="ray", elem="ray"))
    rec = found["s"]
    assert rec.type == "lidar" and rec.sdf_type == "ray" and rec.model.stddev == 0.02
    assert any("type='none'> ignored" in n for n in found.notes)
    assert found.by_type("ray") == found.by_type("lidar") == [rec]
    with pytest.raises(SdfError, match=r"<lidar/range> has min=5.0, max=1.0"):
        load_sensors(_lidar("<noise><stddev>1</stddev></noise>", rng="<min>5</min><max>1</max>"))


# ---- cameras --------------------------------------------------------------------------


def _cam(kind, noise):
    return _world(f'<sensor name="c" type="{kind}"><camera>{noise}</camera></sensor>')


def test_camera_variants_and_zero_skip():
    noise = "<noise><type>gaussian</type><mean>0.01</mean><stddev>0.007</stddev></noise>"
    m = load_sensors(_cam("camera", noise), seed=1)["c"].model
    assert isinstance(m, fastnoise.ImageNoise)
    assert (m.mean, m.stddev, m.variant) == (0.01, 0.007, "ogre2")
    m = load_sensors(_cam("camera", noise), seed=1, camera_variant="gazebo")["c"].model
    assert m.variant == "gazebo"
    zero = "<noise><type>gaussian</type><mean>0</mean><stddev>0</stddev></noise>"
    assert load_sensors(_cam("camera", zero))["c"].models == {}
    assert load_sensors(_cam("depth", zero))["c"].models == {}
    with pytest.raises(ValueError, match="camera_variant='ogre'"):
        load_sensors(_cam("camera", noise), camera_variant="ogre")


def test_depth_and_rgbd_share_one_normal_per_pixel():
    noise = "<noise><type>gaussian</type><stddev>0.05</stddev></noise>"
    d = load_sensors(_cam("depth_camera", noise), seed=2)["c"]
    assert d.type == "depth_camera" and isinstance(d.model, DepthNoise)
    depth = np.array([[1.0, np.nan], [np.inf, 20.0]], dtype=np.float32)
    out = d.model.apply(depth)
    assert np.isnan(out[0, 1]) and out[1, 0] == np.inf  # kept
    # metres, no [0, 1] clamp: 20 m stays near 20 m (0.05 m noise; 10 sigma bound)
    assert out[0, 0] != 1.0 and abs(out[0, 0] - 1.0) < 0.5
    assert out[1, 1] != 20.0 and abs(out[1, 1] - 20.0) < 0.5
    assert (d.model.near, d.model.far) == (0.1, 100.0)  # camera.sdf's <clip> defaults
    # Gazebo clips again after the noise (gz-rendering depth_camera_final_fs.glsl)
    clip = "<clip><near>0.5</near><far>2</far></clip>"
    d = load_sensors(_cam("depth_camera", clip + noise), seed=2)["c"]
    out = d.model.apply(np.array([[0.5, 1.0, 2.0, np.nan]]))
    assert out[0, 0] == -np.inf or out[0, 0] >= 0.5 + 1e-6
    assert out[0, 2] == np.inf or out[0, 2] <= 2.0 - 1e-6
    assert 0.5 < out[0, 1] < 2.0 and np.isnan(out[0, 3])
    big = DepthNoise(0.0, 10.0, seed=1, near=0.5, far=2.0).apply(np.full((64, 64), 1.0))
    assert set(np.unique(big[~np.isfinite(big)])) == {-np.inf, np.inf}
    assert np.all((big[np.isfinite(big)] >= 0.5) & (big[np.isfinite(big)] <= 2.0))
    rgbd = load_sensors(_cam("rgbd", noise), seed=2)["c"]
    assert rgbd.type == "rgbd_camera" and set(rgbd.models) == {"camera", "depth"}
    # one Gaussian per pixel for depth and colour (gz-rendering's depth noise shader)
    assert rgbd.models["camera"].key == rgbd.models["depth"].key
    with pytest.raises(ValueError, match="has models"):
        _ = rgbd.model
    # RgbdCameraSensor.cc has no zero-skip: a gaussian <noise> always makes a model
    zero = load_sensors(_cam("rgbd_camera", "<noise><type>gaussian</type></noise>"))["c"]
    assert set(zero.models) == {"camera", "depth"}


# ---- the other gz-sensors noise users: parsed components ------------------------------


def _noise(stddev, extra=""):
    return f'<noise type="gaussian"><stddev>{stddev}</stddev>{extra}</noise>'


def _comp(stddev, **kw):
    d = dict.fromkeys(
        (
            "mean",
            "stddev",
            "bias_mean",
            "bias_stddev",
            "dynamic_bias_stddev",
            "dynamic_bias_correlation_time",
            "precision",
        ),
        0.0,
    )
    d.update(stddev=stddev, **kw)
    return d


def test_component_sensors_parse_into_gazebo_noise_dicts():
    body = (
        '<sensor name="mag" type="magnetometer"><magnetometer>'
        f"<x>{_noise(1e-5, '<precision>0.0000005</precision>')}</x>"
        f"<z>{_noise(2e-5, '<dynamic_bias_stddev>1</dynamic_bias_stddev>')}</z>"
        "</magnetometer></sensor>"
        '<sensor name="alt" type="altimeter"><altimeter>'
        f"<vertical_position>{_noise(0.1)}</vertical_position>"
        f'<vertical_velocity><noise type="none"><stddev>3</stddev></noise></vertical_velocity>'
        "</altimeter></sensor>"
        '<sensor name="baro" type="air_pressure"><air_pressure>'
        f"<reference_altitude>10</reference_altitude><pressure>{_noise(3)}</pressure>"
        "</air_pressure></sensor>"
        '<sensor name="pitot" type="air_speed"><air_speed>'
        f"<pressure>{_noise(4, '<precision>0.5</precision>')}</pressure></air_speed></sensor>"
        '<sensor name="gps" type="gps"><gps><position_sensing>'
        f"<horizontal>{_noise(2)}</horizontal><vertical>{_noise(4)}</vertical>"
        f"</position_sensing><velocity_sensing><vertical>{_noise(0.2)}</vertical>"
        "</velocity_sensing></gps></sensor>"
    )
    ft = (
        '<joint name="wrist" type="revolute"><sensor name="ft" type="force_torque">'
        f"<force_torque><force><y>{_noise(0.5)}</y></force>"
        f"<torque><z>{_noise(0.01, '<mean>0.2</mean>')}</z></torque></force_torque>"
        "</sensor></joint>"
    )
    found = load_sensors(
        f'<sdf version="1.9"><model name="arm"><link name="base">{body}</link>{ft}</model></sdf>'
    )
    p = {name: rec.params for name, rec in found.items()}
    assert p["arm::base::mag"] == {
        # precision <= 1e-6: no quantization; tau 0: no dynamic bias
        "magnetometer": {"x": _comp(1e-5), "y": None, "z": _comp(2e-5)}
    }
    assert p["arm::base::alt"] == {
        "altimeter": {"vertical_position": _comp(0.1), "vertical_velocity": None}
    }
    assert p["arm::base::baro"] == {"air_pressure": {"pressure": _comp(3.0)}}
    assert p["arm::base::pitot"] == {"air_speed": {"pressure": _comp(4.0, precision=0.5)}}
    assert p["arm::base::gps"] == {
        "navsat": {
            "horizontal_position": _comp(2.0),
            "vertical_position": _comp(4.0),
            "horizontal_velocity": None,
            "vertical_velocity": _comp(0.2),
            "horizontal_units": "degrees",
        }
    }
    force_torque = dict.fromkeys(
        ("force_x", "force_y", "force_z", "torque_x", "torque_y", "torque_z")
    )
    force_torque.update(force_y=_comp(0.5), torque_z=_comp(0.01, mean=0.2))
    assert p["arm::wrist::ft"] == {"force_torque": force_torque}
    assert [r.type for r in found.values()] == [
        "magnetometer",
        "altimeter",
        "air_pressure",
        "air_speed",
        "navsat",
        "force_torque",
    ]
    assert found.by_type("gps") == [found["gps"]] and found["gps"].sdf_type == "gps"


def test_component_sensors_build_the_gazebo_models():
    sdf = _world(
        '<sensor name="mag" type="magnetometer"><magnetometer>'
        f"<x>{_noise(0, '<mean>0.5</mean><precision>0.25</precision>')}</x>"
        f"<y>{_noise(0)}</y></magnetometer></sensor>"
        '<sensor name="gps" type="navsat"><navsat><position_sensing>'
        f"<vertical>{_noise(3)}</vertical></position_sensing></navsat></sensor>"
        '<sensor name="quiet" type="altimeter"><altimeter><vertical_position>'
        '<noise type="none"/></vertical_position></altimeter></sensor>'
    )
    found = load_sensors(sdf, seed=11)
    mag = found["mag"]
    assert isinstance(mag.model, fastnoise.MagnetometerNoise) and mag.reason == ""
    same = fastnoise.MagnetometerNoise(**mag.params["magnetometer"], seed=mag.seed)
    assert mag.model.key == same.key and mag.model.state["params"] == same.state["params"]
    # x: 0.3 + mean 0.5 = 0.8, rounded to a multiple of 0.25 (std::round: 0.75); y: kept;
    # z: no <noise>, no model
    out = mag.model.apply(np.array([[0.3, 0.3, 0.3]]))
    assert out.tolist() == [[0.75, 0.3, 0.3]]
    gps = found["gps"].model
    assert isinstance(gps, fastnoise.NavSatNoise)
    assert found["gps"].params["navsat"]["horizontal_units"] == "degrees"
    assert not found["quiet"].noisy and "type none" in found["quiet"].reason


def test_misplaced_noise_and_unknown_types():
    sdf = _world(
        '<sensor name="mag" type="magnetometer"><magnetometer>\n'
        f"<w>{_noise(1)}</w></magnetometer></sensor>"
    )
    with pytest.raises(SdfError, match=r"line 2: a <noise> here is not read by Gazebo's"):
        load_sensors(sdf)
    found = load_sensors(
        _world(
            '<sensor name="sonar" type="sonar"><sonar/>'
            f"<plugin name='p' filename='x'>{_noise(1)}</plugin></sensor>"
            f'<sensor name="th" type="thermal"><camera>{_noise(1)}</camera></sensor>'
        )
    )
    # a plugin's <noise> is no sensor noise; an unsupported type is listed with why
    assert list(found) == ["robot::base::th"]
    assert "no model for Gazebo sensor type 'thermal'" in found["th"].reason


# ---- scoped names, includes, seeds ----------------------------------------------------


def _model_dir(root, name, body, config_versions=None):
    d = root / name
    d.mkdir(parents=True)
    if config_versions:
        sdfs = "".join(f'<sdf version="{v}">{f}</sdf>' for v, f in config_versions)
        (d / "model.config").write_text(f"<model><name>{name}</name>{sdfs}</model>")
    for fname in [f for _, f in config_versions or []] or ["model.sdf"]:
        (d / fname).write_text(f'<sdf version="1.9"><model name="{name}">{body}</model></sdf>')
    return d


IMU = (
    '<sensor name="imu" type="imu"><imu><angular_velocity><x>'
    '<noise type="gaussian"><stddev>0.01</stddev></noise>'
    "</x></angular_velocity></imu></sensor>"
)


def test_includes_nested_models_and_unresolved(tmp_path):
    models = tmp_path / "models"
    _model_dir(models, "sensor_box", f'<link name="l">{IMU}</link>')
    d = _model_dir(
        models,
        "cfg_box",
        f'<link name="l">{IMU}</link>',
        config_versions=[("1.6", "old.sdf"), ("1.9", "new.sdf")],
    )
    (d / "old.sdf").write_text('<sdf version="1.6"><model name="old"/></sdf>')
    world = tmp_path / "world.sdf"
    world.write_text(
        '<sdf version="1.9"><world name="w">\n'
        "<include><uri>model://sensor_box</uri><name>box_a</name></include>\n"
        '<model name="outer"><model name="inner"><link name="l">'
        f"{IMU}</link></model>\n"
        "<include><uri>model://cfg_box</uri></include>\n"
        "<include><uri>model://missing</uri></include>\n"
        "<include><uri>https://fuel.gazebosim.org/1.0/x/models/y</uri></include>\n"
        "</model></world></sdf>"
    )
    found = load_sensors(world, search_path=[models])
    assert list(found) == [
        "box_a::l::imu",
        "outer::inner::l::imu",
        "outer::cfg_box::l::imu",
    ]
    assert [u.split(": <include> ")[1].split(":")[0] for u in found.unresolved] == [
        "model",
        "https",
    ]
    assert "world.sdf, line 5: <include> model://missing: not found" in found.unresolved[0]
    assert found["box_a::l::imu"].source.endswith("model.sdf")
    with pytest.raises(KeyError, match="3 sensor named 'imu'"):
        found["imu"]
    # without a search path every model:// include is reported, nothing raises
    assert len(load_sensors(world).unresolved) == 4
    # GZ_SIM_RESOURCE_PATH only when asked
    import os

    old = os.environ.get("GZ_SIM_RESOURCE_PATH")
    os.environ["GZ_SIM_RESOURCE_PATH"] = str(models)
    try:
        assert len(load_sensors(world).unresolved) == 4
        assert len(load_sensors(world, use_environment=True).unresolved) == 2
    finally:
        if old is None:
            del os.environ["GZ_SIM_RESOURCE_PATH"]
        else:
            os.environ["GZ_SIM_RESOURCE_PATH"] = old


def test_include_cycle_and_duplicate_names(tmp_path):
    (tmp_path / "a.sdf").write_text(
        '<sdf version="1.9"><model name="a"><include><uri>a.sdf</uri></include></model></sdf>'
    )
    with pytest.raises(SdfError, match="includes itself"):
        load_sensors(tmp_path / "a.sdf")
    with pytest.raises(SdfError, match=r"line 1: a second sensor named 'robot::base::imu'"):
        load_sensors(_world(IMU + IMU))


def test_each_sensor_seed_is_a_function_of_the_seed_and_its_scoped_name():
    def tag(text, top=0):
        return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "little") | top

    ss = np.random.SeedSequence(7, spawn_key=(tag("sdf", 0x80000000), tag("robot::base::imu")))
    assert sensor_seed_sequence(7, "robot::base::imu").spawn_key == ss.spawn_key
    alone = load_sensors(_world(IMU), seed=7)["imu"]
    assert alone.model.key == fastnoise.ImuNoise(gyro=alone.model.gyro, seed=ss).key
    lidar = '<sensor name="z" type="lidar"><lidar><range><min>0</min><max>9</max></range>'
    lidar += "<noise><stddev>1</stddev></noise></lidar></sensor>"
    both = load_sensors(_world(lidar + IMU), seed=7)
    assert both["imu"].model.key == alone.model.key  # other sensors change nothing
    assert both["z"].model.key != alone.model.key
    assert both["imu"].build(3)["imu"].key == fastnoise.ImuNoise(seed=3).key


# ---- the CLI --------------------------------------------------------------------------


def test_cli_lists_every_sensor(tmp_path, capsys):
    path = tmp_path / "w.sdf"
    path.write_text(
        _world(
            IMU + '<sensor name="mag" type="magnetometer"><magnetometer>'
            f"<x>{_noise(1e-5)}</x></magnetometer></sensor>",
            "<include><uri>model://gone</uri></include>",
        )
    )
    assert cli.main(["sdf", str(path)]) == 0
    out = capsys.readouterr().out
    assert "robot::base::imu  [imu]  topic (no <topic>)" in out
    assert 'imu: ImuNoise {"gyro": {"noise_stddev": [0.01, 0.0, 0.0], "rounding": "gazebo"}' in out
    assert "robot::base::mag  [magnetometer]" in out
    assert "unresolved include:" in out and "model://gone" in out
    assert cli.main(["sdf", str(path), "--json", "-I", str(tmp_path)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in doc["sensors"]] == ["robot::base::imu", "robot::base::mag"]
    assert doc["sensors"][0]["models"]["imu"]["params"]["gyro"]["noise_stddev"] == [
        0.01,
        0.0,
        0.0,
    ]
    (tmp_path / "bad.sdf").write_text("<sdf>\n<model>")
    assert cli.main(["sdf", str(tmp_path / "bad.sdf")]) == 1
    assert "line 2: the SDF is not well-formed" in capsys.readouterr().err


def test_cli_on_the_suite_world(tmp_path, capsys):
    from test_suite import SDF

    path = tmp_path / "w.sdf"
    path.write_text(SDF)
    assert cli.main(["sdf", str(path)]) == 0
    out = capsys.readouterr().out
    assert "robot::base::imu_sensor  [imu]  topic imu" in out and "ImuNoise" in out
    assert "robot::base::cam  [camera]  topic camera" in out
    assert 'camera: ImageNoise {"stddev": 0.007, "variant": "ogre2"' in out
    assert "quiet" not in out  # no <noise>


# ---- the registry names the models ----------------------------------------------------

_GAUSS = "<noise><type>gaussian</type><stddev>0.1</stddev></noise>"
# one noisy sensor of each type gz-sensors adds noise to: type -> the <sensor> body
_NOISY = {
    "imu": f"<imu><angular_velocity><x>{_noise(0.01)}</x></angular_velocity></imu>",
    "lidar": f"<lidar><range><min>0.1</min><max>9</max></range>{_GAUSS}</lidar>",
    "gpu_lidar": f"<lidar><range><min>0.1</min><max>9</max></range>{_GAUSS}</lidar>",
    "camera": f"<camera>{_GAUSS}</camera>",
    "depth_camera": f"<camera>{_GAUSS}</camera>",
    "rgbd_camera": f"<camera>{_GAUSS}</camera>",
    "magnetometer": f"<magnetometer><x>{_noise(1e-5)}</x></magnetometer>",
    "altimeter": f"<altimeter><vertical_position>{_noise(0.1)}</vertical_position></altimeter>",
    "air_pressure": f"<air_pressure><pressure>{_noise(3)}</pressure></air_pressure>",
    "air_speed": f"<air_speed><pressure>{_noise(3)}</pressure></air_speed>",
    "navsat": f"<navsat><position_sensing><vertical>{_noise(3)}</vertical></position_sensing>"
    "</navsat>",
    "force_torque": f"<force_torque><force><x>{_noise(0.5)}</x></force></force_torque>",
}


def _noisy(kind):
    return load_sensors(_world(f'<sensor name="s" type="{kind}">{_NOISY[kind]}</sensor>'))["s"]


def test_every_declared_sdf_type_builds_its_registered_model():
    declared = {(t, d.name) for d in registry.models() for t in d.sdf_types}
    assert {t for t, _ in declared} <= set(_NOISY), "add a noisy sensor of the new type"
    for t, name in sorted(declared):
        rec = _noisy(t)
        assert list(rec.models) == list(rec.params) == [name], t
        assert type(rec.models[name]) is registry.get(name).cls
    # a type no declaration names on its own: the RGB-D camera's two registered models
    assert list(_noisy("rgbd_camera").models) == ["camera", "depth"]
    for t in _NOISY:
        assert set(_noisy(t).models) <= set(registry.names())


def test_the_image_key_is_camera_and_the_old_key_warns():
    rgbd = load_sensors(_cam("rgbd", _GAUSS), seed=4)["c"]
    for mapping in (rgbd.models, rgbd.params, rgbd.build(5)):
        with pytest.warns(DeprecationWarning, match="'image' is deprecated: use 'camera'") as w:
            assert mapping["image"] is mapping["camera"]
        assert w[0].filename == __file__  # the warning names the caller's line
        with pytest.warns(DeprecationWarning, match="use 'camera'") as w:
            assert "image" in mapping
        assert w[0].filename == __file__
        with pytest.warns(DeprecationWarning, match="use 'camera'") as w:
            assert mapping.get("image") is mapping["camera"]
        assert w[0].filename == __file__
        assert "image" not in list(mapping)
    depth = load_sensors(_cam("depth_camera", _GAUSS))["c"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no camera here: the old key is simply absent
        assert "image" not in depth.models and depth.models.get("image") is None
        with pytest.raises(KeyError):
            depth.models["image"]
        with pytest.raises(KeyError):
            rgbd.models["nothing"]


def test_the_sensor_tag_is_the_suite_name_tag():
    from fastnoise.io.suite import name_tag

    # a sensor's seed is the SDF seed's child keyed by the tag a suite gives a topic name
    for name in ("robot::base::imu", "a::b::link::s", "/imu", "ünï::cödé"):
        assert sensor_seed_sequence(1, name).spawn_key[-1] == name_tag(name)


class SonarToy(ToyNoise):
    """A test-only model that claims Gazebo's sonar sensor."""

    model_name = "sonar_toy"
    declaration = dataclasses.replace(ToyNoise.declaration, name="sonar_toy", sdf_types=("sonar",))


@pytest.fixture
def sonar_toy():
    registry.register(SonarToy)
    try:
        yield SonarToy.declaration
    finally:
        registry.unregister("sonar_toy")


_SONAR = f'<sensor name="sonar" type="sonar"><sonar>{_noise(1)}</sonar></sensor>'


def _suite_types():
    return {t: d.name for d in registry.models() for t in d.sdf_types if d.messages}


def test_the_suite_sdf_types_are_the_declarations(tmp_path):
    assert sdf_type_models() == _suite_types()
    builtin = {
        "imu": "imu",
        "camera": "camera",
        "depth_camera": "depth",
        "lidar": "range",
        "gpu_lidar": "range",
        "navsat": "navsat",
        "magnetometer": "magnetometer",
        "air_pressure": "air_pressure",
    }
    assert builtin.items() <= sdf_type_models().items()
    # a type whose model noises no message is not for suites (altimeter), nor is one
    # that no model declares (sonar)
    assert registry.for_sdf_type("altimeter") and "altimeter" not in sdf_type_models()
    path = tmp_path / "w.sdf"
    alt = f'<sensor name="alt" type="altimeter">{_NOISY["altimeter"]}</sensor>'
    path.write_text(_world(alt + _SONAR))
    rows = sdf_sensors(path)
    assert [(r.type, r.importable) for r in rows] == [("altimeter", False), ("sonar", False)]
    assert rows[0].reason == "no suite model applies altimeter noise to a topic"
    assert rows[1].reason == "no suite model applies sonar noise to a topic"


def test_a_test_only_declaration_joins_the_suite_sdf_types(tmp_path, sonar_toy):
    assert sdf_type_models() == _suite_types()
    assert sdf_type_models()["sonar"] == "sonar_toy"
    path = tmp_path / "w.sdf"
    path.write_text(_world(_SONAR))
    # a suite now applies sonar noise, but gz-sensors has no sonar noise to read
    (row,) = sdf_sensors(path)
    assert not row.importable and "no model for Gazebo sensor type 'sonar'" in row.reason


def test_the_test_only_declaration_is_gone_after_its_fixture():
    assert "sonar" not in sdf_type_models()
    assert "sonar_toy" not in registry.names()


# ---- comments as sdformat (tinyxml2) reads them ---------------------------------------

_GZ_SIM = Path(__file__).parent / "data" / "sdf" / "gz-sim"


def test_real_gz_sim_world_with_double_hyphen_in_a_comment():
    # gz-sim examples/worlds/advanced_lift_drag_system.sdf (commit in
    # tests/data/sdf/README.md): its header comment holds `gz topic ... --msgtype`,
    # which XML 1.0 forbids and expat refuses, and which tinyxml2 (sdformat) accepts.
    # The one noisy sensor there: air_pressure, <noise type="gaussian"> mean 0,
    # stddev 0.01 (line 147 of the file; the sensor tag is on line 142)
    path = _GZ_SIM / "advanced_lift_drag_system.sdf"
    assert "--msgtype" in path.read_text()
    sensors = load_sensors(path, seed=1)
    assert list(sensors) == ["advanced_lift_drag_demo_model::base_link::air_pressure_sensor"]
    s = sensors["air_pressure_sensor"]
    assert (s.type, s.line, s.update_rate) == ("air_pressure", 142, 50.0)
    comp = s.params["air_pressure"]["pressure"]
    assert comp["mean"] == 0.0 and comp["stddev"] == 0.01


def test_comment_rules_keep_lines_and_leave_cdata_alone():
    text = (
        "<sdf>\n<!-- a -- b\n -- c --->\n<model name='m'><link name='l'>\n"
        "<sensor name='s' type='magnetometer'><topic><![CDATA[<!-- x -- y -->]]></topic>\n"
        "<magnetometer><x><noise><stddev>1</stddev></noise></x></magnetometer>"
        "</sensor></link></model></sdf>"
    )
    # the comment (ending in "--->") is read; the error after it names line 6
    with pytest.raises(SdfError, match=r"^line 6: element <magnetometer/x/noise> has no type"):
        load_sensors(text)
    s = load_sensors(text.replace("<noise>", '<noise type="gaussian">'))["s"]
    assert s.line == 5 and s.topic == "<!-- x -- y -->"
    # bytes take the same path; an unterminated comment is still malformed XML
    assert parse_text(b"<a><!-- -- --></a>").tag == "a"
    with pytest.raises(SdfError, match="not well-formed"):
        parse_text("<a><!-- -- </a>")
