"""``fastnoise fit`` and ``fastnoise report``: files written, the table printed, progress
on stderr (silenced by --quiet), errors named with exit status 1."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import numpy as np
import pytest

from fastnoise import cli
from fastnoise.models.imu.imu_noise import ImuNoise
from fastnoise.models.imu.triad import TriadNoise

# The fit's command line (Python analysis and file output): the scalar-path and
# sanitizer runs leave it out (-m "not python_only").
pytestmark = pytest.mark.python_only

DT = 0.01


def write_imu_log(path, seed):
    """A 10-minute six-column log at 100 Hz: a Gauss-Markov gyro, a random-walk accel."""
    gyro = TriadNoise(
        noise_density=2e-4,
        gauss_markov_stddev=5e-4,
        gauss_markov_correlation_time=2.0,
        gauss_markov_steady_state=True,
    )
    accel = TriadNoise(noise_density=2e-3, random_walk_density=2e-4)
    zeros = np.zeros((60_000, 3))
    w, a = ImuNoise(gyro=gyro, accel=accel, seed=seed).apply(zeros, zeros, DT)
    np.save(path, np.concatenate([w, a], axis=1))
    return path


@pytest.fixture(scope="module")
def imu_log(tmp_path_factory):
    return write_imu_log(tmp_path_factory.mktemp("logs") / "imu.npy", 1)


def test_registry_has_fit_and_report():
    registry = cli.commands()
    assert {"fit", "report"} <= set(registry)


def test_fit_writes_the_estimates_the_picture_and_the_page(imu_log, tmp_path, capsys):
    pytest.importorskip("matplotlib")
    out = tmp_path / "fit"
    assert cli.main(["fit", str(imu_log), "--rate", "100", "--out", str(out)]) == 0
    captured = capsys.readouterr()
    assert "gyro_x" in captured.out and "accel_z" in captured.out
    assert "allan deviation" in captured.err and "fitting" in captured.err
    for name in ("fit.json", "allan_fit.png", "index.html"):
        assert (out / name).stat().st_size > 0
    data = json.loads((out / "fit.json").read_text())
    assert data["rate"] == 100.0 and data["source"] == "imu.npy"
    gyro, accel = (TriadNoise(**t) for t in data["triads"])
    assert gyro.gauss_markov_correlation_time is not None
    assert gyro.noise_density[0] == pytest.approx(2e-4, rel=0.01)
    assert accel.random_walk_density[0] > 0
    page = (out / "index.html").read_text()
    assert 'src="allan_fit.png"' in page and "gyro_x" in page


def test_fit_quiet_no_plots_and_default_folder(imu_log, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["fit", str(imu_log), "--rate", "100", "--quiet", "--no-plots"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    out = tmp_path / "imu_fit"
    assert (out / "fit.json").exists() and (out / "index.html").exists()
    assert not (out / "allan_fit.png").exists()


def test_fit_csv_with_time_column_and_columns(tmp_path, capsys):
    zeros = np.zeros((5000, 3))
    w, _ = ImuNoise(gyro=TriadNoise(noise_density=1e-3), seed=2).apply(zeros, zeros, DT)
    csv = tmp_path / "gyro.csv"
    t = np.arange(5000) * DT
    np.savetxt(csv, np.column_stack([t, w]), delimiter=",", header="t,x,y,z", comments="")
    args = ["fit", str(csv), "--time-column", "--columns", "0", "2", "--quiet", "--no-plots"]
    assert cli.main([*args, "--out", str(tmp_path / "o")]) == 0
    data = json.loads((tmp_path / "o" / "fit.json").read_text())
    assert data["rate"] == pytest.approx(100.0)
    assert [a["name"] for a in data["axes"]] == ["axis0", "axis1"]
    assert "triads" not in data  # two columns make no triad
    for ax in data["axes"]:
        assert ax["noise_density"]["value"] == pytest.approx(1e-3, rel=0.05)


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (["missing.npy", "--rate", "100"], "no such file"),
        (["LOG", "--rate", "100", "--ci", "2"], "--ci"),
        (["LOG"], "rate"),
        (["bag.bag", "--rate", "100"], "ROS bag"),
    ],
)
def test_fit_errors_exit_1_and_name_the_problem(imu_log, tmp_path, capsys, args, match):
    (tmp_path / "bag.bag").write_bytes(b"")
    args = [str(imu_log) if a == "LOG" else a for a in args]
    args = [str(tmp_path / a) if a in ("missing.npy", "bag.bag") else a for a in args]
    assert cli.main(["fit", *args, "--quiet", "--out", str(tmp_path / "o")]) == 1
    assert match in capsys.readouterr().err


def test_fit_select_is_passed_to_fit_noise(tmp_path):
    # seed 5 of imu_log's models: a log on which the per-triad and per-column term
    # choices differ, so each run must be fit_noise's with the same select
    from fastnoise.analysis.fit import fit_noise

    log = write_imu_log(tmp_path / "imu5.npy", 5)
    got = {}
    for select in ("triad", "axis"):
        out = tmp_path / select
        argv = ["fit", str(log), "--rate", "100", "--quiet", "--no-plots", "--out", str(out)]
        assert cli.main([*argv, "--select", select]) == 0
        got[select] = json.loads((out / "fit.json").read_text())["triads"]
        want = fit_noise(str(log), 100.0, select=select).to_dict()["triads"]
        assert got[select] == json.loads(json.dumps(want))
    assert got["triad"] != got["axis"]


def test_fit_select_refuses_other_words(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["fit", "x.npy", "--rate", "100", "--select", "sensor"])
    assert e.value.code == 2
    assert "--select" in capsys.readouterr().err


def test_fit_usage_error_is_status_2(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["fit", "x.npy", "--rate", "-5"])
    assert e.value.code == 2
    assert "--rate" in capsys.readouterr().err


# ---- report ---------------------------------------------------------------------------------
def _write(path, obj):
    path.write_text(json.dumps(obj))
    return str(path)


@pytest.mark.parametrize(
    ("model", "config"),
    [
        (
            "imu",
            {
                "params": {
                    "gyro": {
                        "noise_density": 1e-3,
                        "gauss_markov_stddev": 1e-3,
                        "gauss_markov_correlation_time": 1.0,
                        "gauss_markov_steady_state": True,
                    },
                    "accel": {"noise_density": 2e-3},
                },
                "seed": 3,
                "report": {"rate": 100, "samples": 20000},
            },
        ),
        (
            "lidar",
            {
                "params": {
                    "distance_noise_stddev_base": 0.01,
                    "hitpoint_angular_noise_stddev": 0.002,
                },
                "report": {"distances": [1, 10], "points_per_distance": 2000},
            },
        ),
        ("range", {"params": {"mean": 0.0, "stddev": 0.02, "min_range": 0.1, "max_range": 50}}),
        ("camera", {"params": {"stddev": 0.02}, "seed": 4, "report": {"crop": 16}}),
        (
            "dvl",
            {"seed": 5, "dvl_roll": {"bias": 0.2, "noiseDev": 0.5}, "report": {"samples": 500}},
        ),
    ],
)
def test_report_draws_each_model(model, config, tmp_path, capsys):
    pytest.importorskip("matplotlib")
    cfg = _write(tmp_path / "cfg.json", config)
    out = tmp_path / "r"
    assert cli.main(["report", model, "--config", cfg, "--out", str(out), "--quiet"]) == 0
    assert capsys.readouterr().err == ""
    png = out / f"{model}.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    page = (out / "index.html").read_text()
    assert f'src="{model}.png"' in page and "Parameters" in page


def test_report_accepts_a_saved_state(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    imu = ImuNoise(gyro=TriadNoise(noise_density=1e-3, full_scale=30.0, bits=16), seed=6)
    cfg = _write(tmp_path / "state.json", imu.state)  # full_scale inf is written as Infinity
    out = tmp_path / "r"
    assert cli.main(["report", "imu", "--config", cfg, "--out", str(out)]) == 0
    assert "simulating" in capsys.readouterr().err
    assert (out / "imu.png").exists()


@pytest.mark.parametrize(
    ("config", "match"),
    [
        ({"params": {"no_such_field": 1}}, "no_such_field"),
        ({"params": {}, "colour": "red"}, "colour"),
        ({"params": {}, "report": {"speed": 2}}, "speed"),
        ([1, 2], "JSON object"),
    ],
)
def test_report_bad_configs_exit_1(config, match, tmp_path, capsys):
    cfg = _write(tmp_path / "cfg.json", config)
    assert cli.main(["report", "camera", "--config", cfg, "--out", str(tmp_path / "r")]) == 1
    assert match in capsys.readouterr().err


def test_report_state_of_another_model_is_refused(tmp_path, capsys):
    from fastnoise.models.camera.image_noise import ImageNoise

    cfg = _write(tmp_path / "cfg.json", ImageNoise(seed=1).state)
    assert cli.main(["report", "imu", "--config", cfg, "--out", str(tmp_path / "r")]) == 1
    assert "camera" in capsys.readouterr().err


def test_python_dash_m_fit(imu_log, tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "fastnoise", "fit", str(imu_log), "--rate", "100", "--quiet"]
        + ["--no-plots", "--out", str(tmp_path / "o")],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "N [U/sqrt(Hz)]" in proc.stdout
    assert not math.isnan(json.loads((tmp_path / "o" / "fit.json").read_text())["rate"])
