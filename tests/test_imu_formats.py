"""Kalibr, allan_variance_ros and OpenVINS / VINS-Fusion files (fastnoise.models.imu.formats,
ImuNoise.from_kalibr / to_kalibr and the other pairs).

Kalibr is not on the package index: ``kalibr_imu_parameters`` below ports what its reader
expects, from ethz-asl/kalibr, aslam_offline_calibration/kalibr/python/kalibr_common/
ConfigReader.py (commit 1f60227), classes ParametersBase and ImuParameters: the file is
read with ``yaml.safe_load``; ``rostopic`` must be a str; ``update_rate`` > 0;
``accelerometer_noise_density``, ``accelerometer_random_walk``, ``gyroscope_noise_density``
and ``gyroscope_random_walk`` > 0 (a str would fail the comparison); the discrete sigma
Kalibr uses is ``noise_density / sqrt(1 / update_rate)``.

allan_variance_ros' layout is that of ori-drs/allan_variance_ros, scripts/analysis.py
(commit 1d54b60): Kalibr's keys, the largest axis of each term, ``repr`` values and a
quoted rostopic.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from fastnoise import ImuNoise, TriadNoise
from fastnoise.models.imu import FormatLossWarning, formats

# File formats and unit conversions in Python: the scalar-path and sanitizer runs, which
# are there for the C code, leave them out (-m "not python_only").
pytestmark = pytest.mark.python_only

yaml = pytest.importorskip("yaml")


def kalibr_imu_parameters(path) -> dict[str, float | str]:
    """What Kalibr's ImuParameters reads from ``path`` (raises where it would)."""
    with open(path) as f:
        data = yaml.safe_load(f)
    if not isinstance(data["rostopic"], str):
        raise ValueError("rostopic has to be a string")
    rate = data["update_rate"]
    if rate <= 0.0:
        raise ValueError("invalid update_rate")
    out: dict[str, float | str] = {"rostopic": data["rostopic"], "update_rate": rate}
    for sensor in ("accelerometer", "gyroscope"):
        nd = data[f"{sensor}_noise_density"]
        rw = data[f"{sensor}_random_walk"]
        if nd <= 0.0:
            raise ValueError(f"invalid {sensor}_noise_density")
        if rw <= 0.0:
            raise ValueError(f"invalid {sensor}_random_walk")
        out[f"{sensor}_noise_density"] = nd
        out[f"{sensor}_random_walk"] = rw
        out[f"{sensor}_discrete"] = nd / math.sqrt(1.0 / rate)
    return out


#: A Kalibr imu.yaml as its wiki and the EuRoC/ADIS16448 example write it.
KALIBR_EXAMPLE = """\
#Accelerometers
accelerometer_noise_density: 1.86e-03   #Noise density (continuous-time)
accelerometer_random_walk:   4.33e-04   #Bias random walk

#Gyroscopes
gyroscope_noise_density:     1.87e-04   #Noise density (continuous-time)
gyroscope_random_walk:       2.66e-05   #Bias random walk

rostopic:                    /imu0      #the IMU ROS topic
update_rate:                 200.0      #Hz (for discretization of the values above)
"""

#: allan_variance_ros' analysis.py output, written without a --config.
AVR_EXAMPLE = (  # each value line ends in " \n", as analysis.py writes it
    "#Accelerometer\n"
    "accelerometer_noise_density: 0.0012431279443584745 \n"
    "accelerometer_random_walk: 5.0410163834399714e-05 \n"
    "\n"
    "#Gyroscope\n"
    "gyroscope_noise_density: 0.00012166004924811963 \n"
    "gyroscope_random_walk: 1.0e-06 \n"
    "\n"
    "rostopic: '/sensors/imu' #Make sure this is correct\n"
    "update_rate: 400.0 #Make sure this is correct\n"
    "\n"
)

#: A VINS-Fusion configuration (OpenCV YAML, nested matrices), trimmed.
VINS_EXAMPLE = """\
%YAML:1.0

imu: 1
num_of_cam: 2
imu_topic: "/imu0"
output_path: "~/output/"
body_T_cam0: !!opencv-matrix
   rows: 4
   cols: 4
   dt: d
   data: [0.0148655429818, -0.999880929698, 0.00414029679422, -0.0216401454975,
           0.0, 0.0, 0.0, 1.0]
acc_n: 0.1          # accelerometer measurement noise standard deviation.
gyr_n: 0.01         # gyroscope measurement noise standard deviation.
acc_w: 0.001        # accelerometer bias random work noise standard deviation.
gyr_w: 0.0001       # gyroscope bias random work noise standard deviation.
g_norm: 9.81007     # gravity magnitude
"""


def _imu(**kw) -> ImuNoise:
    gyro = TriadNoise(noise_density=1.87e-4, random_walk_density=2.66e-5)
    accel = TriadNoise(noise_density=1.86e-3, random_walk_density=4.33e-4)
    return ImuNoise(gyro=kw.get("gyro", gyro), accel=kw.get("accel", accel), seed=1)


# ---- Kalibr --------------------------------------------------------------------------------
def test_kalibr_example_reads_into_the_densities(tmp_path):
    path = tmp_path / "imu.yaml"
    path.write_text(KALIBR_EXAMPLE)
    imu = ImuNoise.from_kalibr(path, seed=3)
    assert imu.gyro.noise_density == (1.87e-4,) * 3
    assert imu.gyro.random_walk_density == (2.66e-5,) * 3
    assert imu.accel.noise_density == (1.86e-3,) * 3
    assert imu.accel.random_walk_density == (4.33e-4,) * 3
    gyro, accel, extras = formats.read(path, "kalibr")
    assert extras == {"update_rate": 200.0, "rostopic": "/imu0"}
    assert ImuNoise.from_kalibr(yaml.safe_load(KALIBR_EXAMPLE)).gyro == gyro


def test_to_kalibr_writes_a_file_kalibr_accepts_and_round_trips_bit_for_bit(tmp_path):
    gyro = TriadNoise(noise_density=1.0e-5, random_walk_density=2.0 / 3.0 * 1e-7)
    accel = TriadNoise(noise_density=0.1 + 0.2, random_walk_density=1e20)
    imu = ImuNoise(gyro=gyro, accel=accel, seed=0)
    path = tmp_path / "imu.yaml"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing is lost
        d = imu.to_kalibr(path, update_rate=200.0, rostopic="/imu0")
    text = path.read_text()
    assert "1.0e-05" in text and "1.0e+20" in text  # PyYAML reads 1e-05 as a string
    k = kalibr_imu_parameters(path)
    for key in formats.KALIBR_KEYS.values():
        assert type(k[key]) is float
        assert k[key] == d[key]
    assert k["gyroscope_noise_density"] == 1.0e-5
    assert k["accelerometer_noise_density"] == 0.1 + 0.2
    assert k["gyroscope_discrete"] == 1.0e-5 / math.sqrt(1.0 / 200.0)
    back = ImuNoise.from_kalibr(path)
    assert back.gyro == gyro and back.accel == accel
    assert imu.to_kalibr(update_rate=200.0) == d  # no path: the dict only


def test_kalibr_discretization_is_fastnoises_per_sample_sigma(tmp_path):
    # Kalibr's discrete sigma at update_rate is ImuNoise's white sigma at dt = 1/update_rate
    path = tmp_path / "imu.yaml"
    _imu().to_kalibr(path, update_rate=400.0)
    k = kalibr_imu_parameters(path)
    imu = ImuNoise.from_kalibr(path)
    assert k["gyroscope_discrete"] == pytest.approx(imu.gyro.white_stddev(1 / 400.0)[0], rel=1e-15)
    assert k["accelerometer_discrete"] == pytest.approx(
        imu.accel.white_stddev(1 / 400.0)[0], rel=1e-15
    )


def test_what_kalibr_cannot_hold_warns():
    gyro = TriadNoise(
        noise_density=(1e-4, 2e-4, 3e-4),
        gauss_markov_stddev=1e-3,
        gauss_markov_correlation_time=100.0,
        random_walk_density=1e-6,
        bits=16,
        full_scale=34.9,
    )
    imu = _imu(gyro=gyro)
    with pytest.warns(FormatLossWarning) as rec:
        d = imu.to_kalibr(update_rate=100.0)
    text = " ".join(str(w.message) for w in rec)
    assert "gauss_markov_stddev" in text and "gauss_markov_correlation_time" in text
    assert "bits" in text and "full_scale" in text
    assert "largest" in text
    assert d["gyroscope_noise_density"] == 3e-4  # the worst axis, as allan_variance_ros


def test_noise_stddev_is_folded_in_at_the_update_rate():
    gyro = TriadNoise(noise_stddev=0.01, noise_density=1e-3, random_walk_density=1e-6)
    with pytest.warns(FormatLossWarning, match="folded"):
        d = _imu(gyro=gyro).to_kalibr(update_rate=100.0)
    n = d["gyroscope_noise_density"]
    assert n == math.sqrt(1e-3**2 + 0.01**2 / 100.0)
    # the same per-sample sigma at that rate
    assert n / math.sqrt(0.01) == pytest.approx(gyro.white_stddev(0.01)[0], rel=1e-15)


def test_zero_terms_warn_that_kalibr_refuses_them(tmp_path):
    imu = ImuNoise(gyro=TriadNoise(noise_density=1e-4), accel=TriadNoise(noise_density=1e-3))
    path = tmp_path / "imu.yaml"
    with pytest.warns(FormatLossWarning, match="Kalibr refuses"):
        imu.to_kalibr(path, update_rate=100.0)
    with pytest.raises(ValueError, match="invalid accelerometer_random_walk"):
        kalibr_imu_parameters(path)


def test_kalibr_inputs_are_checked(tmp_path):
    imu = _imu()
    with pytest.raises(TypeError, match="update_rate"):
        imu.to_kalibr()  # type: ignore[call-arg]
    with pytest.raises(ValueError, match=r"update_rate=-1\.0 is not allowed"):
        imu.to_kalibr(update_rate=-1.0)
    with pytest.raises(TypeError, match="rostopic"):
        imu.to_kalibr(update_rate=1.0, rostopic=3)  # type: ignore[arg-type]
    with pytest.raises(KeyError, match="gyroscope_random_walk"):
        ImuNoise.from_kalibr(
            {
                k: v
                for k, v in yaml.safe_load(KALIBR_EXAMPLE).items()
                if k != "gyroscope_random_walk"
            }
        )
    bad = dict(yaml.safe_load(KALIBR_EXAMPLE), gyroscope_noise_density="1e-3")
    with pytest.raises(ValueError, match=r"gyroscope_noise_density='1e-3' is not allowed"):
        ImuNoise.from_kalibr(bad)
    bad = dict(yaml.safe_load(KALIBR_EXAMPLE), accelerometer_random_walk=-1.0)
    with pytest.raises(ValueError, match="accelerometer_random_walk=-1.0"):
        ImuNoise.from_kalibr(bad)
    bad = dict(yaml.safe_load(KALIBR_EXAMPLE), update_rate=0)
    with pytest.raises(ValueError, match="update_rate=0"):
        ImuNoise.from_kalibr(bad)
    with pytest.raises(OSError, match="cannot be read"):
        ImuNoise.from_kalibr(tmp_path / "missing.yaml")
    with pytest.raises(TypeError, match="source"):
        ImuNoise.from_kalibr(3)
    batch = ImuNoise(gyro=TriadNoise(noise_density=1e-4), num_envs=2, seed=1)
    with pytest.raises(ValueError, match="batch"):
        batch.to_kalibr(update_rate=100.0)


# ---- allan_variance_ros -----------------------------------------------------------------------
def test_allan_variance_ros_output_reads(tmp_path):
    path = tmp_path / "imu.yaml"
    path.write_text(AVR_EXAMPLE)
    imu = ImuNoise.from_allan_variance_ros(path)
    assert imu.accel.noise_density[0] == 0.0012431279443584745
    assert imu.gyro.random_walk_density[2] == 1.0e-06
    _, _, extras = formats.read(path, "allan_variance_ros")
    assert extras == {"rostopic": "/sensors/imu", "update_rate": 400.0}


def test_to_allan_variance_ros_round_trips_and_kalibr_reads_it(tmp_path):
    imu = _imu()
    path = tmp_path / "imu.yaml"
    d = imu.to_allan_variance_ros(path, update_rate=400.0, rostopic="/sensors/imu")
    assert "# Make sure this is correct" in path.read_text()
    k = kalibr_imu_parameters(path)
    assert k["rostopic"] == "/sensors/imu"
    back = ImuNoise.from_allan_variance_ros(path)
    assert back.gyro == imu.gyro and back.accel == imu.accel
    assert d == formats.loads_flat_yaml(path.read_text())


# ---- OpenVINS / VINS-Fusion --------------------------------------------------------------------
def test_vins_configuration_reads_past_its_nested_blocks(tmp_path):
    path = tmp_path / "euroc_config.yaml"
    path.write_text(VINS_EXAMPLE)
    imu = ImuNoise.from_openvins(path)
    assert imu.accel.noise_density == (0.1,) * 3
    assert imu.gyro.noise_density == (0.01,) * 3
    assert imu.accel.random_walk_density == (0.001,) * 3
    assert imu.gyro.random_walk_density == (0.0001,) * 3
    assert formats.read(path, "openvins")[2] == {"g_norm": 9.81007}
    flat = formats.loads_flat_yaml(VINS_EXAMPLE)
    assert flat["imu_topic"] == "/imu0" and flat["body_T_cam0"] is None


def test_to_openvins_round_trips(tmp_path):
    imu = _imu()
    path = tmp_path / "vins.yaml"
    d = imu.to_openvins(path, g_norm=9.81)
    assert path.read_text().startswith("%YAML:1.0\n")
    assert d == {
        "acc_n": 1.86e-3,
        "acc_w": 4.33e-4,
        "gyr_n": 1.87e-4,
        "gyr_w": 2.66e-5,
        "g_norm": 9.81,
    }
    back = ImuNoise.from_openvins(path)
    assert back.gyro == imu.gyro and back.accel == imu.accel
    with pytest.raises(TypeError, match="update_rate"):
        _imu(gyro=TriadNoise(noise_stddev=0.01)).to_openvins()


# ---- the flat YAML subset -----------------------------------------------------------------------
def test_flat_yaml_reader_agrees_with_pyyaml_on_flat_files():
    text = (
        "# c\nkey_a: 1\nkey_b: 2.5e-03  # comment\nkey_c: 'a # not a comment'\n"
        'key_d: "x"\nkey_e: true\nkey_f: ~\nkey_g: 1.0e+20\nkey_h: /imu0\n'
    )
    assert formats.loads_flat_yaml(text) == yaml.safe_load(text)


@pytest.mark.parametrize("v", [1e-5, 1e20, 0.1 + 0.2, 5e-324, 1.7976931348623157e308, 200.0, 0.0])
def test_floats_are_written_as_pyyaml_floats(v):
    text = formats.dumps_flat_yaml({"x": v})
    assert yaml.safe_load(text) == {"x": v}
    assert type(yaml.safe_load(text)["x"]) is float
    assert formats.loads_flat_yaml(text) == {"x": v}


def test_unknown_format_is_refused():
    with pytest.raises(ValueError, match="format='rovio' is not allowed"):
        formats.read({}, "rovio")
    with pytest.raises(ValueError, match="format='rovio'"):
        formats.to_mapping(TriadNoise(), TriadNoise(), "rovio")


def test_simulated_log_matches_kalibr_discrete_sigma(tmp_path):
    # a model read from a Kalibr file, run at its update_rate, has Kalibr's discrete sigma
    path = tmp_path / "imu.yaml"
    path.write_text(KALIBR_EXAMPLE.replace("4.33e-04", "0.0").replace("2.66e-05", "0.0"))
    k = yaml.safe_load(path.read_text())
    imu = ImuNoise.from_kalibr(path, seed=4, normal_dtype="float64")
    n = 200_000
    w, a = imu.apply(np.zeros((n, 3)), np.zeros((n, 3)), 1.0 / k["update_rate"])
    expect = k["gyroscope_noise_density"] / math.sqrt(1.0 / k["update_rate"])
    # sd of a sample sd of n normals: sigma / sqrt(2n) (0.16%); 5 of those
    assert np.std(w, axis=0) == pytest.approx(np.full(3, expect), rel=5 / math.sqrt(2 * n))


# ---- fastnoise fit --format ----------------------------------------------------------------------
@pytest.mark.parametrize("fmt", ["kalibr", "allan_variance_ros", "openvins"])
def test_fastnoise_fit_format_writes_the_tools_file(fmt, tmp_path, capsys):
    from fastnoise import cli

    gyro = TriadNoise(noise_density=2e-4)  # no random walk: its upper limit is written
    accel = TriadNoise(noise_density=2e-3, random_walk_density=2e-4)
    zeros = np.zeros((60_000, 3))
    w, a = ImuNoise(gyro=gyro, accel=accel, seed=1).apply(zeros, zeros, 0.01)
    log = tmp_path / "log.npy"
    np.save(log, np.hstack([w, a]))
    out = tmp_path / "fit"
    args = ["fit", str(log), "--rate", "100", "--no-plots", "--format", fmt, "--out", str(out)]
    assert cli.main(args) == 0
    err = capsys.readouterr().err
    if fmt == "openvins":
        back = ImuNoise.from_openvins(out / "imu_vins.yaml")
    else:
        k = kalibr_imu_parameters(out / "imu.yaml")  # Kalibr's checks pass: every value > 0
        assert k["update_rate"] == 100.0 and k["rostopic"] == "/imu0"
        assert k["gyroscope_noise_density"] == pytest.approx(2e-4, rel=0.05)
        back = ImuNoise.from_kalibr(out / "imu.yaml")
    assert back.accel.noise_density[0] == pytest.approx(2e-3, rel=0.05)
    assert back.gyro.random_walk_density[0] > 0.0
    assert "upper limit" in err


def test_fastnoise_fit_format_needs_six_columns(tmp_path, capsys):
    from fastnoise import cli

    log = tmp_path / "log.npy"
    np.save(log, np.random.default_rng(0).standard_normal((5000, 3)))
    args = [
        "fit",
        str(log),
        "--rate",
        "100",
        "--no-plots",
        "--quiet",
        "--format",
        "kalibr",
        "--out",
        str(tmp_path / "o"),
    ]
    assert cli.main(args) == 1
    assert "six-column" in capsys.readouterr().err
