"""``fastnoise bench``: the table, the baseline file and the regression rule (the
comparison logic on given ratios; no timing is asserted here)."""

import json

import pytest

from fastnoise.cli import bench, main

BASE = {"a": 10.0, "b": 4.0}


def _rows(**ratios):
    return [{"name": k, "ratio": v} for k, v in ratios.items()]


def test_an_unchanged_build_within_the_tolerance_passes():
    assert bench.compare(_rows(a=7.0, b=2.6), BASE, 1.6) == []
    assert bench.compare(_rows(a=8.0, b=3.5), BASE, 1.8, 1.35) == []


def test_a_2x_slowdown_of_everything_fails_the_overall_rule():
    # each ratio alone stays above baseline / 1.8 when the noise lifts it a little,
    # but the geometric mean of ratio / baseline (0.6) falls below 1 / 1.35
    problems = bench.compare(_rows(a=6.0, b=2.4), BASE, 1.8, 1.35)
    assert problems == ["all workloads: geometric mean of ratio / baseline 0.60 < 1 / 1.35 = 0.74"]


def test_a_2x_slowdown_is_caught():
    problems = bench.compare(_rows(a=5.0, b=4.0), BASE, 1.6)
    assert len(problems) == 1 and problems[0].startswith("a: ratio 5.00x")


def test_a_workload_missing_from_the_run_is_reported():
    assert bench.compare(_rows(a=10.0), BASE, 1.6) == ["b: in the baseline but not measured"]


def test_the_shipped_baseline_covers_every_workload():
    doc = json.loads(bench.BASELINE.read_text())
    names = [w.name for w in bench.workloads(0.001)]
    assert sorted(doc["ratios"]) == sorted(names)
    assert all(r > 1.0 for r in doc["ratios"].values())


def test_the_command_prints_every_workload_and_writes_a_baseline(tmp_path, capsys):
    out = tmp_path / "base.json"
    assert main(["bench", "--quick", "--rounds", "1", "--save-baseline", str(out)]) == 0
    table = capsys.readouterr().out
    for w in bench.workloads(0.001):
        assert w.name in table
    saved = json.loads(out.read_text())
    assert set(saved["ratios"]) == {w.name for w in bench.workloads(0.001)}


def test_check_uses_the_baseline_and_the_exit_status(tmp_path, capsys):
    base = tmp_path / "base.json"
    # a baseline no machine can reach: the check must fail with status 1
    base.write_text(json.dumps({"ratios": {w.name: 1e9 for w in bench.workloads(0.001)}}))
    assert main(["bench", "--quick", "--rounds", "1", "--check", "--baseline", str(base)]) == 1
    assert "regressions" in capsys.readouterr().err


@pytest.mark.parametrize("opt", ["--tolerance", "--overall-tolerance"])
@pytest.mark.parametrize("tol", ["1", "0.5"])
def test_a_tolerance_of_1_or_less_is_refused(opt, tol, capsys):
    assert main(["bench", "--quick", "--rounds", "1", opt, tol]) == 2
