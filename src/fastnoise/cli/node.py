# mypy: disable-error-code="import-not-found, import-untyped"
"""``fastnoise node --config suite.toml [--ros-args ...]``: run the live ROS 2 noise
node (:class:`fastnoise.ros2.NoiseNode`) until SIGINT or SIGTERM.

    fastnoise node --config suite.toml
    fastnoise node --config suite.toml --ros-args -r __ns:=/robot -p use_sim_time:=true

Everything after ``--ros-args`` goes to ROS (remapping, namespaces, ``-p``,
``--params-file``, ``--log-level``), so it comes last. Needs ``fastnoise[ros2]``.
Exit status 0 after a clean shutdown, 1 when the suite or ROS refuses to start, 2 on a
usage error.
"""

from __future__ import annotations

import argparse
import sys

from fastnoise.cli import Command


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config", required=True, metavar="SUITE", help="the sensor-suite file (TOML or JSON)"
    )
    parser.add_argument("--node-name", default="fastnoise_noise", help="the node's name")
    parser.add_argument(
        "--depth", type=int, default=10, help="history depth of the Reliable QoS (messages)"
    )
    parser.add_argument(
        "--diagnostics-period",
        type=float,
        default=1.0,
        metavar="S",
        help="seconds between two /diagnostics reports (0: none)",
    )
    parser.add_argument(
        "--drain-timeout",
        type=float,
        default=10.0,
        metavar="S",
        help="at shutdown, seconds to noise what was delivered, then to wait for acknowledgements",
    )
    parser.add_argument(
        "--ready-file", default=None, help=argparse.SUPPRESS
    )  # written once subscribed (tests, scripts)
    parser.add_argument(
        "--ros-args",
        dest="ros_args",
        nargs=argparse.REMAINDER,
        default=None,
        help="ROS arguments (remapping, namespace, parameters), last on the line",
    )


def run(args: argparse.Namespace) -> int:
    try:
        import rclpy  # noqa: F401
    except ImportError as exc:
        print(f"fastnoise node needs rclpy: pip install 'fastnoise[ros2]' ({exc})", file=sys.stderr)
        return 1
    from fastnoise.io.suite import load_suite
    from fastnoise.ros2 import run_node

    try:
        suite = load_suite(args.config)
    except (OSError, ValueError) as exc:
        print(f"fastnoise node: {exc}", file=sys.stderr)
        return 1
    ros_args = [] if args.ros_args is None else ["--ros-args", *args.ros_args]
    try:
        return run_node(
            suite,
            ros_args,
            node_name=args.node_name,
            depth=args.depth,
            diagnostics_period=args.diagnostics_period,
            drain_timeout=args.drain_timeout,
            ready_file=args.ready_file,
        )
    except (ValueError, RuntimeError) as exc:
        print(f"fastnoise node: {exc}", file=sys.stderr)
        return 1


COMMAND = Command(
    name="node",
    help="run the live ROS 2 noise node on the topics of a sensor suite",
    add_arguments=add_arguments,
    run=run,
    description=__doc__.split("\n\n")[0] if __doc__ else None,
)
