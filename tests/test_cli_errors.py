"""The one error path of the command line (issue 27): every subcommand turns a user's or
the environment's error into one line ``fastnoise <cmd>: error: ...`` naming the path,
topic or message index, exit status 1, no traceback (``--debug`` shows it); output paths
are checked before the long work; nothing is left at OUT after a failure."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from fastnoise import cli

pytest.importorskip("rosbags")
from test_ros_bags import write_bag  # noqa: E402  (the bag builders)

SUITE = 'seed = 5\n[topics."/cam"]\nmodel = "camera"\nstddev = 0.02\n'
FILES = 'seed = 1\n[files."*"]\nmodel = "lidar"\n'


def corrupt(src: Path, dst: Path, at: float, n: int = 8) -> Path:
    data = bytearray(src.read_bytes())
    i = int(len(data) * at)
    data[i : i + n] = b"\xff" * n
    dst.write_bytes(bytes(data))
    return dst


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    t = tmp_path_factory.mktemp("cli_errors")
    (t / "suite.toml").write_text(SUITE)
    (t / "files.toml").write_text(FILES)
    bag = write_bag(t / "k.bag", "ros1", topics=["/cam", "/chatter"])
    mcap = write_bag(t / "k_mcap", "bare-mcap", topics=["/cam", "/chatter"])
    (t / "k.mcap").write_bytes(mcap.read_bytes())
    sq = write_bag(t / "sq", "sqlite3", topics=["/cam", "/chatter"])
    db = next(sq.glob("*.db3"))
    corrupt(db, db, 0.5, 64)
    corrupt(bag, t / "header.bag", 0.975)
    corrupt(bag, t / "field.bag", 0.45)
    corrupt(bag, t / "assert.bag", 0.55)
    corrupt(bag, t / "string.bag", 0.35)
    corrupt(t / "k.mcap", t / "bad.mcap", 0.975)
    (t / "fold").mkdir()
    np.random.default_rng(1).random((3000, 4)).astype("<f4").tofile(t / "fold/a.bin")
    imu = np.random.default_rng(2).normal(0, 1e-3, (4000, 6))
    np.save(t / "imu.npy", imu)
    deep = "seed = 1\n[files.'*']\nmodel = 'lidar'\n[x]\n" + "a = " + "[" * 2000 + "]" * 2000
    (t / "deep.toml").write_text(deep + "\n")
    (t / "deep.json").write_text('{"seed": 1, "x": ' + "[" * 5000 + "]" * 5000 + "}")
    (t / "bad.json").write_text("{not json")
    return t


def run_cli(args: list[str], capsys) -> tuple[int, str]:
    code = cli.main(args)
    out, err = capsys.readouterr()
    return code, err


#: (name, argv with {t} for the inputs folder, what the one line must say)
CASES = [
    # apply: corrupt records, output it cannot create
    (
        "bag header",
        "apply --config {t}/suite.toml {t}/header.bag {t}/o1.bag",
        r"header.bag: record \d+ .*cannot be read",
    ),
    (
        "bag field",
        "apply --config {t}/suite.toml {t}/field.bag {t}/o2.bag",
        r"field.bag: record \d+ .*cannot be read",
    ),
    (
        "bag assert",
        "apply --config {t}/suite.toml {t}/assert.bag {t}/o3.bag",
        r"assert.bag: record \d+ .*cannot be read",
    ),
    (
        "bag string",
        "apply --config {t}/suite.toml {t}/string.bag {t}/o4.bag",
        r"string.bag: topic /cam message \d+ \(log time",
    ),
    ("mcap", "apply --config {t}/suite.toml {t}/bad.mcap {t}/o5.mcap", r"bad.mcap: "),
    ("sqlite", "apply --config {t}/suite.toml {t}/sq {t}/o6", r"sq: topic /cam message \d+"),
    (
        "out under a file",
        "apply --config {t}/suite.toml {t}/k.mcap {t}/suite.toml/o.mcap",
        r"OUT .*suite.toml/o.mcap: cannot be created: .*suite.toml is not a folder",
    ),
    (
        "out in /proc",
        "apply --config {t}/files.toml {t}/fold/a.bin /proc/fastnoise_x.bin -q",
        r"OUT /proc/fastnoise_x.bin: cannot be created",
    ),
    (
        "missing in",
        "apply --config {t}/suite.toml {t}/nope.bag {t}/o7.bag",
        r"IN .*nope.bag does not exist",
    ),
    ("missing config", "apply --config {t}/nope.toml {t}/k.mcap {t}/o8.mcap", r"nope.toml"),
    ("bad json", "apply --config {t}/bad.json {t}/k.mcap {t}/o9.mcap", r"bad.json"),
    (
        "deep toml",
        "apply --config {t}/deep.toml {t}/fold {t}/o10",
        r"deep.toml: nested too deeply to be read: a suite file allows at most 32",
    ),
    (
        "deep json",
        "apply --config {t}/deep.json {t}/fold {t}/o11",
        r"deep.json: nested too deeply to be read",
    ),
    # fit
    (
        "fit out under a file",
        "fit {t}/imu.npy --rate 100 --quiet --out {t}/suite.toml/fit",
        r"--out .*suite.toml/fit: cannot be created: .*suite.toml is not a folder",
    ),
    (
        "fit out is a file",
        "fit {t}/imu.npy --rate 100 --quiet --out {t}/suite.toml",
        r"--out .*suite.toml: exists and is not a folder",
    ),
    ("fit missing log", "fit {t}/nope.npy --rate 100 --quiet --out {t}/f2", r"no such file"),
    (
        "fit huge log",
        "fit {t}/huge.npy --rate 100 --quiet --out {t}/f3",
        r"column 0 is not allowed: its samples are too large for the Allan variance",
    ),
    # report
    (
        "report out under a file",
        "report imu --config {t}/bad.json --out {t}/suite.toml/r",
        r"--out .*suite.toml/r: cannot be created",
    ),
    (
        "report bad config",
        "report imu --config {t}/bad.json --out {t}/r2",
        r"bad.json|JSON|Expecting",
    ),
    (
        "report deep config",
        "report imu --config {t}/deep.json --out {t}/r3",
        r"deep.json: nested too deeply to be read",
    ),
    # bench: paths refused before the run
    (
        "bench missing baseline",
        "bench --quick --rounds 1 --check --baseline {t}/nope.json",
        r"--baseline .*nope.json: no such file",
    ),
    (
        "bench bad baseline",
        "bench --quick --rounds 1 --check --baseline {t}/bad.json",
        r"--baseline .*bad.json: not a baseline file",
    ),
    (
        "bench unwritable save",
        "bench --quick --rounds 1 --save-baseline {t}/suite.toml/b.json",
        r"--save-baseline .*suite.toml/b.json: its folder .* does not exist",
    ),
    (
        "bench save to a folder",
        "bench --quick --rounds 1 --save-baseline {t}/fold",
        r"--save-baseline .*fold: is a folder",
    ),
    # demo and sdf
    ("demo dt 1e308", "demo --dt 1e308 --steps 3", r"dt=1e\+308.* is not allowed"),
    ("sdf missing", "sdf {t}/nope.sdf", r"nope.sdf"),
    ("sdf not xml", "sdf {t}/bad.json", r"bad.json"),
]


@pytest.mark.parametrize(("name", "argv", "told"), CASES, ids=[c[0] for c in CASES])
def test_each_error_is_one_line_and_status_1(inputs, capsys, name, argv, told):
    if name == "fit huge log":
        rng = np.random.default_rng(3)
        np.save(inputs / "huge.npy", rng.normal(0, 1, (4000, 3)) * 1e200)
    before = sorted(p.name for p in inputs.iterdir())
    code, err = run_cli(argv.format(t=inputs).split(), capsys)
    lines = err.strip().splitlines()
    cmd = argv.split()[0]
    assert code == 1, err
    assert "Traceback" not in err
    assert lines[-1].startswith(f"fastnoise {cmd}: error: "), err
    assert sum(ln.startswith("fastnoise ") for ln in lines) == 1
    assert re.search(told, lines[-1]), lines[-1]
    assert "internal error" not in lines[-1]
    after = sorted(p.name for p in inputs.iterdir())
    assert after == before or after == sorted({*before, "huge.npy"})  # no output left


def test_bench_refuses_its_paths_before_measuring(inputs, capsys):
    code, err = run_cli(["bench", "--rounds", "1", "--check", "--baseline", "nope"], capsys)
    assert code == 1 and "workload" not in err and "rounds per workload" not in err


def test_debug_shows_the_traceback(inputs):
    env = dict(os.environ)
    cmd = [
        sys.executable,
        "-m",
        "fastnoise",
        "fit",
        str(inputs / "nope.npy"),
        "--rate",
        "1",
        "--quiet",
    ]
    plain = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    assert plain.returncode == 1 and "Traceback" not in plain.stderr, plain.stderr
    assert plain.stderr.count("\n") == 1 and plain.stderr.startswith("fastnoise fit: error: ")
    for argv in (
        [*cmd[:3], "--debug", *cmd[3:]],  # global, before the command
        [*cmd, "--debug"],  # or after it
    ):
        r = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120)
        assert r.returncode == 1 and "Traceback (most recent call last)" in r.stderr


def test_a_full_disk_is_one_line_and_leaves_nothing(inputs, tmp_path, capsys):
    """A 12 KiB tmpfs as OUT's folder (needs root to mount; skipped otherwise)."""
    tiny = tmp_path / "tiny"
    tiny.mkdir()
    r = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=12k", "tmpfs", str(tiny)], capture_output=True
    )
    if r.returncode:
        pytest.skip("cannot mount a small tmpfs here (not root)")
    try:
        for argv, told in (
            (
                [
                    "apply",
                    "--config",
                    str(inputs / "suite.toml"),
                    str(inputs / "k.mcap"),
                    str(tiny / "o.mcap"),
                ],
                "disk full",
            ),
            (
                [
                    "apply",
                    "--config",
                    str(inputs / "files.toml"),
                    str(inputs / "fold"),
                    str(tiny / "fo"),
                ],
                "file a.bin: writing OUT",
            ),
        ):
            code, err = run_cli([*argv, "-q"], capsys)
            assert code == 1 and "Traceback" not in err and told in err, err
            assert err.count("\n") == 1
            assert list(tiny.iterdir()) == []  # no partial output, no temporary
    finally:
        subprocess.run(["umount", str(tiny)], check=False)


def test_a_bug_still_gives_one_line_with_a_hint(capsys):
    from fastnoise.cli._errors import run_command

    def boom(args):
        raise AssertionError("x")

    assert run_command("demo", boom, None, debug=False) == 1
    err = capsys.readouterr().err
    assert err == (
        "fastnoise demo: error: x (AssertionError: an internal error; rerun with --debug "
        "and report it)\n"
    )
    with pytest.raises(AssertionError):
        run_command("demo", boom, None, debug=True)


def test_describe_names_the_path_of_an_os_error():
    from fastnoise.cli._errors import describe

    exc = OSError(28, "No space left on device", "/x/y")
    assert describe(exc) == "/x/y: no space left on the device (disk full)"
    assert describe(PermissionError(13, "Permission denied", "/a")) == "/a: Permission denied"
    assert describe(ValueError("a\n  b")) == "a; b"
    assert "nested too deeply" in describe(RecursionError())
    assert json.dumps(describe(KeyError("k"))) == json.dumps("missing key 'k'")
