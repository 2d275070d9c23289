"""The live-node tests run against real rclpy and Fast DDS, in their own venv (see
.ci/steps/45-ros2.sh): the ROS 2 wheels' bootstrapper re-executes every Python process
of their environment, which the main test venv must not have. Without rclpy the whole
folder is skipped, with the reason."""

from __future__ import annotations

import os

import pytest

pytest.importorskip(
    "rclpy",
    reason="rclpy is not installed: the live-node tests run in their own venv "
    "(pip install 'fastnoise[ros2]'; CI: .ci/steps/45-ros2.sh)",
)

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
