"""Benchmark conventions: in each pytest-benchmark group, a ``test_fastnoise_*`` case
stands beside the ``test_numpy_*`` code a user would otherwise write. At the end of a
timed run a table gives, per group, numpy median / fastnoise median (the speed-up)."""

from __future__ import annotations

import pytest


def _ratios(config):
    session = getattr(config, "_benchmarksession", None)
    if session is None or getattr(session, "disabled", True):
        return []
    groups: dict[str, dict[str, float]] = {}
    for bench in session.benchmarks:
        if not bench.stats or not getattr(bench.stats, "rounds", 0):
            continue
        name = bench.name.split("[")[0]
        kind = "fastnoise" if "fastnoise" in name else "numpy" if "numpy" in name else None
        if kind is None:
            continue
        key = bench.group or name
        if "[" in bench.name:
            key += "[" + bench.name.split("[", 1)[1]
        groups.setdefault(key, {})[kind] = bench.stats.median
    rows = []
    for group, d in sorted(groups.items()):
        if "fastnoise" in d and "numpy" in d:
            rows.append((group, d["fastnoise"], d["numpy"], d["numpy"] / d["fastnoise"]))
    return rows


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    rows = _ratios(config)
    if not rows:
        return
    tr = terminalreporter
    tr.section("fastnoise vs numpy (median times)")
    tr.write_line(f"{'group':<44}{'fastnoise':>14}{'numpy':>14}{'speed-up':>10}")
    for group, fn, npy, ratio in rows:
        tr.write_line(f"{group:<44}{fn * 1e6:>12.2f}us{npy * 1e6:>12.2f}us{ratio:>9.1f}x")


@pytest.fixture
def rng():
    import numpy as np

    return np.random.default_rng(12345)
