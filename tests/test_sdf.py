"""from_sdf: Gazebo <imu>/<noise> elements with Gazebo's meaning for each."""

import math

import numpy as np
import pytest

from fastnoise.io.sdf.imu import from_sdf, imu_noise_params_from_sdf
from fastnoise.io.sdf.xml import SdfError
from fastnoise.models.imu.imu_noise import ImuNoise


def _axis(tag, body, ntype="gaussian"):
    return f'<{tag}><noise type="{ntype}">{body}</noise></{tag}>'


def _imu(gyro_body, accel_body="<mean>0</mean><stddev>0.017</stddev>", ntype="gaussian"):
    g = "".join(_axis(a, gyro_body, ntype) for a in "xyz")
    a = "".join(_axis(a, accel_body) for a in "xyz")
    return (
        '<sdf version="1.9"><model name="m"><link name="l"><sensor name="imu" type="imu">'
        f"<imu><angular_velocity>{g}</angular_velocity>"
        f"<linear_acceleration>{a}</linear_acceleration></imu>"
        "</sensor></link></model></sdf>"
    )


GAZEBO_GYRO = (
    "<mean>0.001</mean><stddev>0.0002</stddev><bias_mean>0.0000075</bias_mean>"
    "<bias_stddev>0.0000008</bias_stddev><dynamic_bias_stddev>0.004</dynamic_bias_stddev>"
    "<dynamic_bias_correlation_time>8</dynamic_bias_correlation_time>"
)


def test_gazebo_meaning_of_each_element():
    gyro, accel = imu_noise_params_from_sdf(_imu(GAZEBO_GYRO))
    assert gyro.bias == (0.001,) * 3  # <mean>
    assert gyro.noise_stddev == (0.0002,) * 3  # per sample, not a density
    assert gyro.noise_density == (0.0,) * 3
    assert gyro.turn_on_bias_mean == (0.0000075,) * 3
    assert gyro.turn_on_bias_stddev == (0.0000008,) * 3
    assert gyro.gauss_markov_correlation_time == (8.0,) * 3
    assert gyro.gauss_markov_stddev == pytest.approx(
        (0.004 * 2.0,) * 3, rel=1e-15
    )  # sigma sqrt(tau/2)
    assert gyro.turn_on_bias_decays
    assert accel.noise_stddev == (0.017,) * 3 and accel.gauss_markov_correlation_time is None
    m = from_sdf(_imu(GAZEBO_GYRO), seed=1)
    assert isinstance(m, ImuNoise)
    assert np.array_equal(m.gauss_markov_bias[0], m.turn_on_bias[0])


def test_dynamic_bias_stationary_std_is_sigma_sqrt_tau_over_2():
    body = (
        "<dynamic_bias_stddev>0.05</dynamic_bias_stddev>"
        "<dynamic_bias_correlation_time>0.5</dynamic_bias_correlation_time>"
    )
    m = from_sdf(_imu(body), seed=3)
    zeros = np.zeros((300_000, 3))
    w, _ = m.apply(zeros, zeros, 0.01)
    # 3000 s = 6000 correlation times per axis: std within ~1.5 %; allow 5 %
    assert np.allclose(w.std(axis=0), 0.05 * math.sqrt(0.25), rtol=0.05)


def test_precision_applies_to_gaussian_and_gaussian_quantized():
    # gz-sensors GaussianNoiseModel::Load (gazebosim/gz-sensors 9ba02f2, src/
    # GaussianNoiseModel.cc) quantizes whenever precision is not within 1e-6 of 0,
    # whatever the type; sdformat Noise::Load reads precision for every type.
    body = "<stddev>0.01</stddev><precision>0.125</precision>"
    for ntype in ("gaussian_quantized", "gaussian", "Gaussian"):
        q = from_sdf(_imu(body, ntype=ntype), seed=2)
        assert q.gyro.resolution == (0.125,) * 3
        w, _ = q.step([0.3, 0.0, -1.0], [0, 0, 0], 0.01)
        assert np.all(w / 0.125 == np.rint(w / 0.125))
    # |precision| <= 1e-6 is math::equal(precision, 0, 1e-6): no quantization
    tiny = from_sdf(_imu("<stddev>0.01</stddev><precision>0.000001</precision>"), seed=2)
    assert tiny.gyro.resolution is None
    small = from_sdf(_imu("<stddev>0.01</stddev><precision>0.000002</precision>"), seed=2)
    assert small.gyro.resolution == (0.000002,) * 3


def _imu_axes(gyro_axes):
    g = "".join(f'<{a}><noise type="gaussian">{b}</noise></{a}>' for a, b in gyro_axes.items())
    return f"<imu><angular_velocity>{g}</angular_velocity></imu>"


def test_precision_on_some_axes_rounds_as_gazebo():
    # gz-sensors GaussianNoiseModel::ApplyImpl (9ba02f2): std::round(out / precision) *
    # precision, a division with halves away from zero, per axis
    m = from_sdf(
        _imu_axes({"x": "<precision>0.5</precision>", "z": "<precision>0.25</precision>"}),
        seed=1,
    )
    assert m.gyro.resolution == (0.5, 0.0, 0.25) and m.gyro.rounding == "gazebo"
    for truth, expect in (
        ([0.25, 0.3, 0.125], [0.5, 0.3, 0.25]),  # ties go away from zero (even: 0, 0)
        ([-0.25, -0.3, -0.375], [-0.5, -0.3, -0.5]),
        ([0.74, 1e-9, 0.1], [0.5, 1e-9, 0.0]),
    ):
        w, _ = m.step(truth, [0.0, 0.0, 0.0], 0.01)
        assert w.tolist() == expect


def test_dynamic_bias_on_some_axes():
    body = (
        "<dynamic_bias_stddev>0.05</dynamic_bias_stddev>"
        "<dynamic_bias_correlation_time>0.5</dynamic_bias_correlation_time>"
    )
    sdf = _imu_axes({"x": body, "y": "<bias_mean>0.1</bias_mean>"})
    gyro, _ = imu_noise_params_from_sdf(sdf)
    assert gyro.gauss_markov_correlation_time == (0.5, 0.0, 0.0)
    assert gyro.gauss_markov_stddev == (0.05 * math.sqrt(0.25), 0.0, 0.0)
    assert gyro.turn_on_bias_decays
    m = from_sdf(sdf, seed=4)
    zeros = np.zeros((200_000, 3))
    w, _ = m.apply(zeros, zeros, 0.01)
    # x: Gauss-Markov with stationary std 0.05*sqrt(tau/2) (2000 s = 4000 tau: within
    # ~2 %; allow 5 %); y: the turn-on bias +-0.1, constant (no dynamic bias there, so
    # it does not decay); z: no noise at all
    assert abs(w[:, 0].std() - 0.025) < 0.05 * 0.025
    assert np.all(w[:, 1] == w[0, 1]) and abs(w[0, 1]) == 0.1
    assert np.all(w[:, 2] == 0.0)


def test_negative_or_zero_correlation_time_turns_the_dynamic_bias_off():
    for tau in ("-5", "0"):
        body = (
            "<stddev>0.01</stddev><dynamic_bias_stddev>0.05</dynamic_bias_stddev>"
            f"<dynamic_bias_correlation_time>{tau}</dynamic_bias_correlation_time>"
        )
        gyro, _ = imu_noise_params_from_sdf(_imu(body))
        assert gyro.gauss_markov_correlation_time is None and gyro.gauss_markov_stddev == (0.0,) * 3
        assert gyro.noise_stddev == (0.01,) * 3 and not gyro.turn_on_bias_decays


def test_missing_type_attribute_is_refused_and_type_is_lower_cased():
    # sdformat sdf/1.12/noise.sdf: <attribute name="type" ... required="1">; parser.cc
    # readXml fails with "Required attribute[type] in element[noise] is not specified
    # in SDF." -- fastnoise refuses it too, naming the element's path and line
    sdf = "<imu><angular_velocity><x><noise><stddev>1</stddev></noise></x></angular_velocity></imu>"
    with pytest.raises(
        SdfError, match=r"^line 1: element <imu/angular_velocity/x/noise> has no type attribute"
    ):
        imu_noise_params_from_sdf(sdf)
    gyro, _ = imu_noise_params_from_sdf(_imu("<stddev>0.5</stddev>", ntype="GAUSSIAN"))
    assert gyro.noise_stddev == (0.5,) * 3


def test_a_type_child_does_not_stand_in_for_the_type_attribute():
    # noise.sdf declares type as an attribute: a <type> child is an unknown element
    # to sdformat, so the attribute is still missing and the file is refused
    sdf = (
        "<imu><angular_velocity><x><noise><type>gaussian</type><stddev>1</stddev>"
        "</noise></x></angular_velocity></imu>"
    )
    with pytest.raises(SdfError, match=r"no type attribute \(a <type> child, 'gaussian', is not"):
        imu_noise_params_from_sdf(sdf)
    # with both, the attribute is read and the differing child is reported
    with pytest.warns(UserWarning, match=r"line 1: <imu/angular_velocity/x/noise/type> ignored"):
        gyro, _ = imu_noise_params_from_sdf(sdf.replace("<noise>", '<noise type="none">'))
    assert gyro.noise_stddev == (0.0,) * 3


def test_type_none_and_sdf_1_4_layout():
    gyro, _ = imu_noise_params_from_sdf(_imu("<stddev>1</stddev>", ntype="none"))
    assert gyro.noise_stddev == (0.0,) * 3
    old = (
        "<sensor name='imu' type='imu'><imu><noise><type>gaussian</type>"
        "<rate><mean>0</mean><stddev>0.0002</stddev><bias_mean>0.0000075</bias_mean>"
        "<bias_stddev>0.0000008</bias_stddev></rate>"
        "<accel><mean>0</mean><stddev>0.017</stddev><bias_mean>0.1</bias_mean>"
        "<bias_stddev>0.001</bias_stddev></accel></noise></imu></sensor>"
    )
    gyro, accel = imu_noise_params_from_sdf(old)
    assert gyro.noise_stddev == (0.0002,) * 3 and accel.turn_on_bias_mean == (0.1,) * 3
    assert not accel.turn_on_bias_decays
    # sdformat sdf/1.4/imu.sdf: <type> is a required child with default "gaussian"
    gyro, _ = imu_noise_params_from_sdf(old.replace("<type>gaussian</type>", ""))
    assert gyro.noise_stddev == (0.0002,) * 3
    gyro, _ = imu_noise_params_from_sdf(old.replace("<type>gaussian</type>", "<type>NONE</type>"))
    assert gyro.noise_stddev == (0.0,) * 3


def test_file_path_and_sensor_name(tmp_path):
    p = tmp_path / "imu.sdf"
    p.write_text(_imu("<stddev>0.5</stddev>"))
    assert from_sdf(p, seed=0).gyro.noise_stddev == (0.5,) * 3
    assert from_sdf(str(p), seed=0, name="imu").gyro.noise_stddev == (0.5,) * 3
    with pytest.raises(ValueError, match="no <sensor name='other'>"):
        from_sdf(p, name="other")


@pytest.mark.parametrize(
    "body, match",
    [
        ("<stdev>0.1</stdev>", "imu/angular_velocity/x/noise/stdev"),
        ("<stddev>abc</stddev>", "malformed element <imu/angular_velocity/x/noise/stddev>"),
        ("<stddev>-1</stddev>", "stddev"),
        ("<stddev>nan</stddev>", "stddev"),
        ("<precision>-0.1</precision>", "precision>: '-0.1' must be >= 0"),
        ("<stddev>1</stddev><stddev>2</stddev>", "noise/stddev> appears twice"),
    ],
)
def test_unknown_and_malformed_elements_are_named(body, match):
    with pytest.raises(ValueError, match=match):
        from_sdf(_imu(body))


def test_unknown_type_and_structure():
    with pytest.raises(ValueError, match="gaussian_wrong"):
        from_sdf(_imu("<stddev>1</stddev>", ntype="gaussian_wrong"))
    with pytest.raises(ValueError, match="imu/angular_velocity/w"):
        from_sdf("<imu><angular_velocity><w/></angular_velocity></imu>")
    with pytest.raises(ValueError, match="imu/magnetic"):
        from_sdf("<imu><magnetic/></imu>")
    with pytest.raises(ValueError, match="line 1: the SDF is not well-formed"):
        from_sdf("<imu><angular_velocity></imu>")
    with pytest.raises(ValueError, match="no <imu>"):
        from_sdf("<sdf version='1.9'><model name='m'/></sdf>")
