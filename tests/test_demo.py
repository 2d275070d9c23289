"""The `fastnoise demo` command: the SensorSimulator API document's usage example and its table."""

from __future__ import annotations

import io

import numpy as np
import pytest

from fastnoise import cli
from fastnoise.cli.demo import run_demo

HEADER = (
    "step",
    "t.ω_x",
    "t.ω_y",
    "t.ω_z",
    "m.ω_x",
    "m.ω_y",
    "m.ω_z",
    "m.pitch",
    "m.yaw",
    "m.roll",
)


def _rows(text):
    """{step: 9 floats} from the demo's table."""
    rows = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 10 and parts[0].isdigit():
            rows[int(parts[0])] = np.array([float(p) for p in parts[1:]])
    return rows


def _run(**kw):
    buf = io.StringIO()
    status = run_demo(stream=buf, **kw)
    return status, buf.getvalue()


def test_default_demo_prints_the_seed_table():
    status, text = _run()
    assert status == 0
    lines = text.splitlines()
    assert lines[0].startswith("Starting simulation (10000 steps, dt=0.010000s")
    header = next(line for line in lines if line.split()[:1] == ["step"])
    assert tuple(header.split()) == HEADER
    rows = _rows(text)
    assert sorted(rows) == list(range(0, 10000, 1000))
    # the true rates are the seed's printed values (6 decimals; see test_rigid_body)
    np.testing.assert_allclose(rows[1000][:3], [0.101303, -0.061336, 0.013223], atol=1.1e-6)
    np.testing.assert_allclose(rows[2000][:3], [0.205555, -0.119333, 0.005962], atol=1.1e-6)
    # measured = true + small noise and drift (sigma 1e-3)
    np.testing.assert_allclose(rows[9000][3:6], rows[9000][:3], atol=6e-3)
    msg = "Mid-simulation: resetting sensor drift and RNG state for repeatability."
    assert text.index("  5000 ") < text.index(msg) < text.index("  6000 ")
    assert lines[-1] == "Simulation complete."


def test_mid_run_reset_restarts_the_drift():
    # no noise: measured - true = drift = (updates since the last reset) * drift * dt
    _, text = _run(steps=4000, noise=0.0, drift=1e-3)
    rows = _rows(text)
    bias = {k: rows[k][3:6] - rows[k][:3] for k in rows}
    np.testing.assert_allclose(bias[0], 1e-5, atol=1.1e-6)
    np.testing.assert_allclose(bias[1000], 1001 * 1e-5, atol=1.1e-6)
    np.testing.assert_allclose(bias[2000], 2001 * 1e-5, atol=1.1e-6)
    np.testing.assert_allclose(bias[3000], 1000 * 1e-5, atol=1.1e-6)  # reset after step 2000


def test_same_seed_same_table_other_seed_other_noise():
    a, b, c = (_run(steps=1001, seed=s)[1] for s in (5, 5, 6))
    assert a == b
    ra, rc = _rows(a), _rows(c)
    np.testing.assert_array_equal(ra[1000][:3], rc[1000][:3])
    assert not np.array_equal(ra[1000][3:], rc[1000][3:])


def test_cli_options_reach_the_demo(capsys):
    argv = [
        "demo",
        "--steps",
        "50",
        "--dt",
        "0.02",
        "--seed",
        "3",
        "--noise",
        "0",
        "--drift",
        "0",
        "--report-every",
        "10",
        "--torque",
        "0.2",
        "0",
        "0",
    ]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    rows = _rows(out)
    assert sorted(rows) == [0, 10, 20, 30, 40]
    # torque 0.2 N m about x, I_x = 10 kg m^2: w_x = 0.02 * 41 * 0.02 rad/s after 41 steps
    assert rows[40][0] == pytest.approx(0.0164, abs=1e-6)
    np.testing.assert_array_equal(rows[40][3:6], rows[40][:3])  # no noise, no drift


def test_cli_help_and_bad_options(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["demo", "--help"])
    assert e.value.code == 0
    help_text = capsys.readouterr().out
    for opt in ("--steps", "--dt", "--seed", "--noise", "--drift"):
        assert opt in help_text
    for bad in (["--dt", "-1"], ["--noise", "-0.1"], ["--steps", "x"], ["--drift", "nan"]):
        with pytest.raises(SystemExit) as e:
            cli.main(["demo", *bad])
        assert e.value.code == 2
        err = capsys.readouterr().err
        assert bad[0] in err
        assert f"{bad[1]!r} is not allowed: it must be" in err  # the value and its range


def test_bad_run_demo_arguments():
    with pytest.raises(ValueError, match="dt"):
        _run(dt=0.0)
    with pytest.raises(ValueError, match="steps"):
        _run(steps=-1)
    with pytest.raises(ValueError, match="noise"):
        _run(noise=-1.0)
