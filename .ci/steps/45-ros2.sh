#!/usr/bin/env bash
# The live ROS 2 node (issue 23): tests/ros2 and the 5 s version of
# bench/bench_ros2_node.py against real rclpy and Fast DDS, in a venv of their own
# (.ci-ros2-venv). The ROS 2 wheels install ros_wheels_bootstrapper.pth, which
# re-executes every Python process of their environment once (to set LD_LIBRARY_PATH):
# mixed into .ci-venv with packages that start Python subprocesses at import it
# multiplied processes until memory ran out. So that venv's interpreter is called by
# its path, and it gets the wheel that 20-build-wheel built (no second compile).
set -euo pipefail
. .ci/lib.sh

wheels=(wheelhouse/*.whl)
if [ "${#wheels[@]}" -ne 1 ] || [ ! -f "${wheels[0]}" ]; then
  echo "expected the one wheel of 20-build-wheel in wheelhouse/, got: ${wheels[*]}" >&2
  exit 1
fi
ros_venv=$PWD/.ci-ros2-venv
"$CI_PYTHON" -m venv --clear "$ros_venv"
rpy=$ros_venv/bin/python
"$rpy" -m pip install -q --upgrade pip
# the ros2 extra (rclpy, message packages, Fast DDS) and what the tests use beside it
# (rosbags for the offline half of the bits test, OpenCV for its CompressedImage topic)
"$rpy" -m pip install -q "${wheels[0]}[ros2]" "rosbags>=0.10" "opencv-python-headless>=4.8" "pytest>=7" "pytest-benchmark>=4"

# one DDS domain per run (1..101), loopback only, so parallel runs do not cross;
# ROS_LOCALHOST_ONLY for an older rmw that reads only that
ROS_DOMAIN_ID=$((1 + $$ % 101))
export ROS_DOMAIN_ID ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST RMW_IMPLEMENTATION=rmw_fastrtps_cpp
echo "-- ROS_DOMAIN_ID=$ROS_DOMAIN_ID"
# from the checkout (the tests read its files); fastnoise is the venv's installed wheel
"$rpy" - <<'PY'
import sys, sysconfig
from pathlib import Path

import fastnoise
import rclpy

site = Path(sysconfig.get_paths()["platlib"]).resolve()
where = Path(fastnoise.__file__).resolve()
print(f"-- fastnoise {fastnoise.__version__} from {where}, rclpy from {Path(rclpy.__file__).parent}")
if site not in where.parents:
    sys.exit(f"fastnoise is imported from {where}, not from the venv's {site}")
PY
"$rpy" -m pytest -q -p no:cacheprovider tests/ros2
"$rpy" -m pytest -q -p no:cacheprovider tests/test_examples.py -k ros2_live_demo
FASTNOISE_ROS2_BENCH_SECONDS=5 "$rpy" -m pytest -q -p no:cacheprovider -s bench/bench_ros2_node.py
