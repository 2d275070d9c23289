"""The live-node tests run against real rclpy and Fast DDS, in their own venv (see
.ci/steps/45-ros2.sh): the ROS 2 wheels' bootstrapper re-executes every Python process
of their environment, which the main test venv must not have. Without rclpy every test
of the folder is skipped, with the reason."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

try:
    import rclpy  # noqa: F401

    MISSING = None
except ImportError as exc:
    MISSING = (
        "rclpy is not installed: the live-node tests run in their own venv "
        f"(pip install 'fastnoise[ros2]'; CI: .ci/steps/45-ros2.sh) ({exc})"
    )

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Without rclpy every test of this folder is skipped with the reason (a skip
    marker, not pytest.importorskip here: raised in a conftest that is given on the
    command line, ``pytest tests/ros2``, it stops pytest instead of skipping)."""
    if MISSING is None:
        return
    skip = pytest.mark.skip(reason=MISSING)
    for item in items:
        if HERE in Path(str(item.path)).resolve().parents:
            item.add_marker(skip)


# one DDS domain per run, on loopback only, so parallel runs and other machines do not
# cross (set before any rclpy.init of this process and inherited by its subprocesses)
for _key, _value in (
    ("ROS_DOMAIN_ID", str(1 + os.getpid() % 101)),
    ("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST"),
    ("RMW_IMPLEMENTATION", "rmw_fastrtps_cpp"),
):
    if not os.environ.get(_key):
        os.environ[_key] = _value


@pytest.fixture
def context():
    """An initialized rclpy context of its own, shut down afterwards."""
    import rclpy

    ctx = rclpy.Context()
    rclpy.init(context=ctx)
    try:
        yield ctx
    finally:
        if ctx.ok():
            rclpy.shutdown(context=ctx)
