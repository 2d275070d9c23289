"""Command line: ``fastnoise demo`` (or ``python -m fastnoise demo``)."""

from __future__ import annotations

import argparse
import math
import sys

from fastnoise import demo


def _positive_float(text: str) -> float:
    v = float(text)
    if not (math.isfinite(v) and v > 0):
        raise argparse.ArgumentTypeError(f"{text!r} is not allowed: it must be finite and > 0")
    return v


def _nonnegative_float(text: str) -> float:
    v = float(text)
    if not (math.isfinite(v) and v >= 0):
        raise argparse.ArgumentTypeError(f"{text!r} is not allowed: it must be finite and >= 0")
    return v


def _finite_float(text: str) -> float:
    v = float(text)
    if not math.isfinite(v):
        raise argparse.ArgumentTypeError(f"{text!r} is not allowed: it must be finite")
    return v


def _nonnegative_int(text: str) -> int:
    v = int(text)
    if v < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not allowed: it must be >= 0")
    return v


def _positive_int(text: str) -> int:
    v = int(text)
    if v < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not allowed: it must be >= 1")
    return v


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fastnoise", description="fastnoise: reproducible sensor-noise models."
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    p = commands.add_parser(
        "demo",
        help="simulate a torqued rigid body and its noisy, drifting IMU (seed 004 example)",
        description=(
            "Simulate a rigid body (inertia 10, 8, 12 kg m^2) under a constant torque and "
            "read it with a SensorSimulator; print true and measured angular velocity "
            "(rad/s) and measured pitch, yaw, roll (rad) every --report-every steps, and "
            "reset the sensor halfway through."
        ),
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    p.add_argument("--steps", type=_nonnegative_int, default=10000, help="number of steps")
    p.add_argument("--dt", type=_positive_float, default=0.01, help="time step (s)")
    p.add_argument("--seed", type=_nonnegative_int, default=0, help="noise seed (int >= 0)")
    p.add_argument(
        "--noise",
        type=_nonnegative_float,
        default=0.001,
        help="per-axis noise stddev (rad/s for rates, rad for angles)",
    )
    p.add_argument(
        "--drift",
        type=_finite_float,
        default=1e-6,
        help="per-axis drift rate (rad/s^2 for the rate bias, rad/s for the angle bias)",
    )
    p.add_argument(
        "--report-every", type=_positive_int, default=1000, help="print a row every N steps"
    )
    p.add_argument(
        "--torque",
        type=_finite_float,
        nargs=3,
        default=list(demo.DEFAULT_TORQUE),
        metavar=("TX", "TY", "TZ"),
        help="body torque (N m)",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``fastnoise`` console script; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "demo":
        return demo.run_demo(
            steps=args.steps,
            dt=args.dt,
            seed=args.seed,
            noise=args.noise,
            drift=args.drift,
            report_every=args.report_every,
            torque=args.torque,
        )
    parser.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())
