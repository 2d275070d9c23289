"""Third-party models through the entry-point group ``fastnoise.models``
(fastnoise.core.registry).

With the demo plugin of tests/plugin_pkg installed (CI installs it; locally:
``python -m pip install --no-deps ./tests/plugin_pkg``), its model ``demo_range`` is in
the registry, passes the contract (fastnoise.testing.check_model), works in a suite file
and in ``fastnoise apply``, and a child process lists it beside the built-ins with no
warning. The loading itself, a broken entry point among good ones included, is tested
without the package: entry points made up in this process, and a made-up installed
distribution in a child process (a broken entry point in the demo package would warn
in every run of the environment it is installed in).
"""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import fastnoise as fn
from fastnoise.core import registry
from fastnoise.core.registry import ENTRY_POINT_GROUP, PluginWarning
from fastnoise.testing import check_model

# Python only (plugin loading): it runs once, in the plain run; CI's scalar-path and
# sanitizer runs, which are there for the C code, leave it out (-m "not python_only").
pytestmark = pytest.mark.python_only

TESTS = Path(__file__).resolve().parent


def _demo_installed() -> bool:
    try:
        importlib.metadata.distribution("fastnoise-plugin-demo")
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


needs_demo = pytest.mark.skipif(
    not _demo_installed(),
    reason="the demo plugin is not installed (python -m pip install --no-deps "
    "./tests/plugin_pkg; CI installs it)",
)

_LIST_MODELS = "import fastnoise; from fastnoise.core import registry; print(*registry.names())"


def _child(*args: str, env_path: list[str] | None = None) -> subprocess.CompletedProcess:
    env = None
    if env_path is not None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(env_path)}
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, timeout=120, env=env
    )


# ---- the demo plugin, installed --------------------------------------------------------


@needs_demo
def test_the_plugin_model_is_registered():
    assert "demo_range" in registry.names()
    decl = registry.get("demo_range")
    assert decl.cls.__module__ == "fastnoise_plugin_demo.model"
    assert decl.cls.model_name == "demo_range"


@needs_demo
def test_the_plugin_model_passes_the_contract():
    check_model(registry.get("demo_range"))


@needs_demo
def test_the_plugin_model_works_in_a_suite_file():
    from fastnoise.io.suite.suite import Suite

    suite = Suite.from_dict(
        {"seed": 1, "topics": {"/scan": {"model": "demo_range", "stddev": 0.1, "bias": 0.5}}}
    )
    entry = suite.for_topic("/scan")
    model = entry.build("/scan")
    cls = registry.get("demo_range").cls
    assert type(model) is cls
    assert model.state["params"] == {"stddev": 0.1, "bias": 0.5}
    # keyed from the suite's seed and the topic, as every model of a suite
    same = cls(stddev=0.1, bias=0.5, seed=entry.seed_for("/scan"))
    r = np.linspace(0.0, 10.0, 11)
    assert np.array_equal(model.apply(r, frame=2), same.apply(r, frame=2))


@needs_demo
def test_the_plugin_model_works_in_fastnoise_apply(tmp_path):
    from fastnoise.cli import main
    from fastnoise.io.suite.suite import load_suite

    (tmp_path / "in").mkdir()
    ranges = np.linspace(0.0, 10.0, 11)
    np.save(tmp_path / "in" / "r.npy", ranges)
    config = tmp_path / "suite.toml"
    config.write_text('seed = 1\n[files."*.npy"]\nmodel = "demo_range"\nstddev = 0.1\n')
    argv = ["apply", "--config", str(config), "-q", str(tmp_path / "in"), str(tmp_path / "out")]
    assert main(argv) == 0
    model = load_suite(config).for_file("r.npy").build("r.npy")
    assert np.array_equal(np.load(tmp_path / "out" / "r.npy"), model.apply(ranges, frame=0))


@needs_demo
def test_the_plugin_loads_quietly_beside_the_built_ins():
    r = _child("-W", "always", "-c", _LIST_MODELS)
    assert r.returncode == 0, r.stderr
    assert "Warning" not in r.stderr, r.stderr
    names = set(r.stdout.split())
    assert {"imu", "lidar", "range", "camera", "depth", "generator", "demo_range"} <= names


# ---- loading, without the demo package --------------------------------------------------


def _ep(name: str, value: str) -> importlib.metadata.EntryPoint:
    return importlib.metadata.EntryPoint(name=name, value=value, group=ENTRY_POINT_GROUP)


@pytest.fixture
def fresh_plugins(monkeypatch):
    """The registry's plugins loaded again from the entry points ``set_entry_points``
    gives; models they register are removed afterwards."""
    before = set(registry.names())
    chosen: list[importlib.metadata.EntryPoint] = []

    def entry_points(*, group):
        assert group == ENTRY_POINT_GROUP
        return list(chosen)

    monkeypatch.setattr(registry, "entry_points", entry_points)
    monkeypatch.setattr(registry, "_plugins_loaded", False)
    yield chosen.extend
    for name in set(registry.names()) - before:
        registry.unregister(name)


def test_broken_entry_points_warn_by_name_and_the_good_ones_load(fresh_plugins):
    fresh_plugins(
        [
            _ep("nowhere", "fastnoise_no_such_plugin_module:Model"),
            _ep("not_a_model", "json:dumps"),
            _ep("toy", "toy_model:ToyNoise"),  # a working plugin among broken ones
            _ep("clash", "fastnoise:ImuNoise"),  # a built-in's module: already registered
        ]
    )
    with pytest.warns(PluginWarning) as caught:
        names = registry.names()
    messages = [str(w.message) for w in caught]
    assert len(messages) == 2, messages
    assert "'nowhere'" in messages[0] and "fastnoise_no_such_plugin_module:Model" in messages[0]
    assert "ModuleNotFoundError" in messages[0]
    assert "'not_a_model'" in messages[1] and "json:dumps" in messages[1]
    assert {"toy", "imu", "lidar", "camera"} <= set(names)
    check_model(registry.get("toy"))
    registry.models()  # loaded once: no second warning
    assert len(caught) == 2


def test_a_plugin_that_takes_a_built_in_name_warns_and_the_built_in_stays(fresh_plugins):
    from dataclasses import replace

    import toy_model

    class ImpostorNoise(toy_model.ToyNoise):
        model_name = "imu"
        declaration = replace(toy_model.ToyNoise.declaration, name="imu")

    toy_model.ImpostorNoise = ImpostorNoise  # importable by the entry point
    try:
        fresh_plugins([_ep("impostor", "toy_model:ImpostorNoise")])
        with pytest.warns(PluginWarning, match="'impostor'.*already registered"):
            registry.models()
    finally:
        del toy_model.ImpostorNoise
    assert registry.get("imu").cls is fn.ImuNoise


def test_an_installed_distribution_with_a_broken_entry_point(tmp_path):
    """A made-up distribution (a .dist-info on the path) whose entry points are one
    broken and one good plugin: the child warns naming the broken one, and registers
    the good one beside every built-in."""
    info = tmp_path / "fastnoise_fake_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: fastnoise-fake-plugin\nVersion: 1.0\n"
    )
    (info / "entry_points.txt").write_text(
        textwrap.dedent(
            f"""\
            [{ENTRY_POINT_GROUP}]
            fake_broken = fastnoise_fake_missing_module:Nothing
            toy = toy_model:ToyNoise
            """
        )
    )
    r = _child("-W", "always", "-c", _LIST_MODELS, env_path=[str(tmp_path), str(TESTS)])
    assert r.returncode == 0, r.stderr
    assert "PluginWarning" in r.stderr and "'fake_broken'" in r.stderr
    assert "fastnoise_fake_missing_module:Nothing" in r.stderr
    names = set(r.stdout.split())
    assert {"toy", "imu", "lidar", "range", "camera", "depth", "generator"} <= names
