"""Every script in examples/ runs in a fresh interpreter, exits 0 and prints what it
promises (the scripts check their own claims with assert; these lines are what a
reader is told to expect)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

# script -> lines its output must contain
PROMISES = {
    "generator_basics.py": ["normal(0, 0.01, 5):", "reproduce the stream: ok"],
    "imu_1khz.py": ["gyro error sd:", "accel error sd:", "step() x 1000 == apply(): ok"],
    "lidar_cloud.py": ["hits:", "depends only on (seed, frame, i): ok"],
    "camera_frame.py": ["noise sd:", "however the video is processed: ok"],
    "dvl_from_config.py": ["one message:", "3000 messages:", "same messages: ok"],
    "sensor_simulator_loop.py": ["true w", "final (pitch, yaw, roll):", "simulation complete"],
    "threads.py": ["normals on 1 thread(s):", "does not depend on threads=: ok"],
    "ros2_live_demo.py": ["/imu: 40 messages", "/scan: 2 messages", "headers and stamps kept: ok"],
    "noisy_ant.py": ["gyro noise sd:", "plot written to noisy_ant.png"],
}
# script -> the optional modules it needs (it is skipped, saying so, without them)
NEEDS = {"noisy_ant.py": ("gymnasium", "mujoco", "matplotlib")}


def test_every_example_is_checked() -> None:
    scripts = sorted(p.name for p in EXAMPLES.glob("*.py"))
    assert scripts == sorted(PROMISES)


@pytest.mark.parametrize("script", sorted(PROMISES))
def test_example_runs(script: str, tmp_path: Path) -> None:
    if script.startswith("ros2_"):  # the live ROS 2 examples run where rclpy is installed
        pytest.importorskip("rclpy", reason="rclpy is not installed: pip install 'fastnoise[ros2]'")
    for module in NEEDS.get(script, ()):
        pytest.importorskip(module, reason=f"{script} needs {module} (fastnoise[sim])")
    # from an empty directory, so a script relies only on its own folder and fastnoise
    proc = subprocess.run(
        [sys.executable, str(EXAMPLES / script)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, f"{script} failed:\n{proc.stdout}\n{proc.stderr}"
    for line in PROMISES[script]:
        assert line in proc.stdout, f"{script} did not print {line!r}:\n{proc.stdout}"
    assert "Traceback" not in proc.stderr
