"""`fastnoise apply` from the command line: exit codes, the progress bar, --dry-run,
--quiet, --overwrite, and refusals printed with the path or entry (`fastnoise sdf`:
tests/test_sdf_sensors.py)."""

from __future__ import annotations

import pytest

from fastnoise import cli

pytest.importorskip("rosbags")
from test_ros_bags import read_bag, write_bag  # noqa: E402  (the bag builders)

SUITE = """seed = 5
[topics."/cam"]
model = "camera"
stddev = 0.02
"""


@pytest.fixture
def bag(tmp_path):
    (tmp_path / "suite.toml").write_text(SUITE)
    return write_bag(tmp_path / "in", "sqlite3", topics=["/cam", "/chatter"]), tmp_path


def test_apply_writes_with_progress_and_summary(bag, capsys):
    src, tmp = bag
    assert cli.main(["apply", "--config", str(tmp / "suite.toml"), str(src), str(tmp / "o")]) == 0
    err = capsys.readouterr().err
    assert "48/48" in err and "msg/s" in err  # counts and throughput
    assert "48 messages (24 noised)" in err and "MB/s" in err
    a, _, _ = read_bag(src)
    b, _, _ = read_bag(tmp / "o")
    assert len(a) == len(b) == 48


def test_quiet_dry_run_overwrite_and_refusals(bag, capsys):
    src, tmp = bag
    cfg = ["--config", str(tmp / "suite.toml")]
    assert cli.main(["apply", *cfg, str(src), str(tmp / "o"), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "would write" in out and "/cam" in out and "model camera" in out
    assert not (tmp / "o").exists()
    assert cli.main(["apply", *cfg, str(src), str(tmp / "o"), "--quiet"]) == 0
    assert capsys.readouterr() == ("", "")
    assert cli.main(["apply", *cfg, str(src), str(tmp / "o"), "-q"]) == 1
    assert "exists: remove it or give --overwrite" in capsys.readouterr().err
    assert cli.main(["apply", *cfg, str(src), str(tmp / "o"), "-q", "--overwrite"]) == 0
    assert cli.main(["apply", *cfg, str(src), str(src), "-q", "--overwrite"]) == 1
    assert "same path" in capsys.readouterr().err
    (tmp / "bad.toml").write_text('seed = 1\n[topics."/cam"]\nmodel = "camera"\nstddev = -2\n')
    assert cli.main(["apply", "--config", str(tmp / "bad.toml"), str(src), str(tmp / "p")]) == 1
    err = capsys.readouterr().err
    assert 'bad.toml: topics."/cam": stddev=-2 is not allowed' in err
    with pytest.raises(SystemExit) as e:  # usage error: no --config
        cli.main(["apply", str(src), str(tmp / "p")])
    assert e.value.code == 2


def test_seed_option_changes_the_noise(bag, capsys):
    src, tmp = bag
    cfg = ["--config", str(tmp / "suite.toml"), "-q"]
    cli.main(["apply", *cfg, str(src), str(tmp / "a")])
    cli.main(["apply", *cfg, str(src), str(tmp / "b"), "--seed", "5"])
    cli.main(["apply", *cfg, str(src), str(tmp / "c"), "--seed", "6"])
    a, b, c = (read_bag(tmp / n)[0] for n in "abc")
    assert a == b != c


def test_imu_without_rate_refused_and_output_ignored(tmp_path, capsys):
    """An IMU entry without rate stops the CLI with the entry, the topic and the fix;
    with rate and an output topic, the output bag keeps the input topic's name."""
    src = write_bag(tmp_path / "in", "sqlite3", topics=["/imu", "/chatter"])
    (tmp_path / "norate.toml").write_text('seed = 1\n[topics."/imu"]\nmodel = "imu"\n')
    cfg = ["--config", str(tmp_path / "norate.toml")]
    assert cli.main(["apply", *cfg, str(src), str(tmp_path / "o"), "-q"]) == 1
    err = capsys.readouterr().err
    assert "norate.toml: topics.\"/imu\": topic /imu: model 'imu' needs the Imu" in err
    assert "rate = 200" in err and not (tmp_path / "o").exists()
    (tmp_path / "ok.toml").write_text(
        'seed = 1\n[topics."/imu"]\nmodel = "imu"\nrate = 100\noutput = "/imu/noised"\n'
    )
    cfg = ["--config", str(tmp_path / "ok.toml")]
    assert cli.main(["apply", *cfg, str(src), str(tmp_path / "o"), "-q"]) == 0
    a, conns_a, _ = read_bag(src)
    b, conns_b, _ = read_bag(tmp_path / "o")
    assert [c.topic for c in conns_a] == [c.topic for c in conns_b] == ["/chatter", "/imu"]
    assert [t for t, _, _ in a] == [t for t, _, _ in b]
