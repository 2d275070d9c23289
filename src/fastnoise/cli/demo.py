"""``fastnoise demo``: the SensorSimulator API document's usage example, a torqued
spacecraft and its noisy, drifting IMU.

Prints, every ``report_every`` steps, the true angular velocity, the measured angular
velocity and the measured orientation (pitch, yaw, roll), and resets the sensor halfway
through, as the document's ``main.cpp`` does.
"""

from __future__ import annotations

import argparse
import math
import numbers
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import TextIO

from fastnoise.cli import Command, _args

DEFAULT_INERTIA = (10.0, 8.0, 12.0)  # kg m^2
DEFAULT_TORQUE = (0.1, -0.05, 0.02)  # N m
STEP_WIDTH = 6
COLUMN_WIDTH = 12
COLUMNS = ("t.ω_x", "t.ω_y", "t.ω_z", "m.ω_x", "m.ω_y", "m.ω_z", "m.pitch", "m.yaw", "m.roll")


def _header(stream: TextIO) -> str:
    """The SensorSimulator API document's column header; plain "w" where the stream
    cannot encode "ω"."""
    names: tuple[str, ...] = COLUMNS
    try:
        "ω".encode(getattr(stream, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        names = tuple(n.replace("ω", "w") for n in names)
    return f"{'step':>{STEP_WIDTH}}  " + "".join(f"{n:>{COLUMN_WIDTH}}" for n in names)


def _real(name: str, value: object, ok: Callable[[float], bool], allowed: str) -> float:
    """``value`` as a finite float satisfying ``ok``, else an error naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name}={value!r} is not allowed: it must be a real number")
    v = float(value)
    if not (math.isfinite(v) and ok(v)):
        raise ValueError(f"{name}={value!r} is not allowed: it must be {allowed}")
    return v


def _vec(v: Iterable[float]) -> str:
    return "[" + ", ".join(f"{x:.6f}" for x in v) + "]"


def run_demo(
    steps: int = 10000,
    dt: float = 0.01,
    seed: int | None = 0,
    noise: float = 0.001,
    drift: float = 1e-6,
    report_every: int = 1000,
    inertia: Sequence[float] = DEFAULT_INERTIA,
    torque: Sequence[float] = DEFAULT_TORQUE,
    stream: TextIO | None = None,
) -> int:
    """Run the example and print its table to ``stream`` (default stdout).

    ``dt`` in s, ``noise`` the per-axis stddev (rad/s for rates, rad for angles),
    ``drift`` the per-axis drift rate (rad/s^2 for the rate bias, rad/s for the angle
    bias), ``inertia`` in kg m^2, ``torque`` in N m. Returns 0, or 1 if the numeric
    check failed (the run then stops early, as in the document's example).
    """
    import numpy as np

    from fastnoise import RigidBodySimulator, SensorSimulator

    out = sys.stdout if stream is None else stream
    if steps < 0:
        raise ValueError(f"steps={steps!r} is not allowed: it must be >= 0")
    if report_every < 1:
        raise ValueError(f"report_every={report_every!r} is not allowed: it must be >= 1")
    dt = _real("dt", dt, lambda v: v > 0, "finite and > 0")
    noise = _real("noise", noise, lambda v: v >= 0, "finite and >= 0")
    drift = _real("drift", drift, lambda v: True, "finite")
    spacecraft = RigidBodySimulator(inertia)
    imu = SensorSimulator(spacecraft, seed=seed)
    noise_std = (noise, noise, noise)
    drift_rate = (drift, drift, drift)
    torque = tuple(float(t) for t in torque)

    # deterministic start: clear drifts and the generator, then configure
    imu.reset()
    imu.set_noise_stddev(noise_std)
    imu.set_drift_rate(drift_rate)

    w = out.write
    entropy = getattr(imu.seed, "entropy", None)
    w(f"Starting simulation ({steps} steps, dt={dt:.6f}s, seed={entropy})\n")
    w(f"Noise stddev (per-axis): [{noise:g}, {noise:g}, {noise:g}]\n")
    w(f"Drift rate (per-axis):   [{drift:g}, {drift:g}, {drift:g}]\n\n")
    w(f"Initial true angular velocity (rad/s): {_vec(spacecraft.omega)}\n")
    angles = (spacecraft.pitch, spacecraft.yaw, spacecraft.roll)
    w(f"Initial true orientation (pitch,yaw,roll) (rad): {_vec(angles)}\n\n")
    w(_header(out) + "\n")
    w("-" * (STEP_WIDTH + 1 + COLUMN_WIDTH * 9) + "\n")

    measured_omega = np.empty(3)
    measured_angles = np.empty(3)
    status = 0
    for step in range(steps):
        spacecraft.update(dt, torque)
        imu.update(dt)
        imu.read_angular_velocity(out=measured_omega)
        imu.read_orientation(out=measured_angles)

        if step % report_every == 0:
            values = (*spacecraft.omega, *measured_omega, *measured_angles)
            w(f"{step:>{STEP_WIDTH}} " + "".join(f"{v:>{COLUMN_WIDTH}.6f}" for v in values))
            w("\n")

        if not imu.check_numerics():
            print(f"Numeric check failed at step {step}. Aborting.", file=sys.stderr)
            status = 1
            break

        if step == steps // 2:
            w("\n  Mid-simulation: resetting sensor drift and RNG state for repeatability.\n\n")
            imu.reset()
            # reset() zeroes the drift rate: apply the configuration again
            imu.set_noise_stddev(noise_std)
            imu.set_drift_rate(drift_rate)

    w("\nSimulation complete.\n")
    return status


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--steps", type=_args.nonnegative_int, default=10000, help="number of steps")
    p.add_argument("--dt", type=_args.positive_float, default=0.01, help="time step (s)")
    p.add_argument("--seed", type=_args.nonnegative_int, default=0, help="noise seed (int >= 0)")
    p.add_argument(
        "--noise",
        type=_args.nonnegative_float,
        default=0.001,
        help="per-axis noise stddev (rad/s for rates, rad for angles)",
    )
    p.add_argument(
        "--drift",
        type=_args.finite_float,
        default=1e-6,
        help="per-axis drift rate (rad/s^2 for the rate bias, rad/s for the angle bias)",
    )
    p.add_argument(
        "--report-every", type=_args.positive_int, default=1000, help="print a row every N steps"
    )
    p.add_argument(
        "--torque",
        type=_args.finite_float,
        nargs=3,
        default=list(DEFAULT_TORQUE),
        metavar=("TX", "TY", "TZ"),
        help="body torque (N m)",
    )


def run(args: argparse.Namespace) -> int:
    return run_demo(
        steps=args.steps,
        dt=args.dt,
        seed=args.seed,
        noise=args.noise,
        drift=args.drift,
        report_every=args.report_every,
        torque=args.torque,
    )


COMMAND = Command(
    name="demo",
    help="simulate a torqued rigid body and its noisy, drifting IMU (SensorSimulator example)",
    description=(
        "Simulate a rigid body (inertia 10, 8, 12 kg m^2) under a constant torque and "
        "read it with a SensorSimulator; print true and measured angular velocity "
        "(rad/s) and measured pitch, yaw, roll (rad) every --report-every steps, and "
        "reset the sensor halfway through."
    ),
    add_arguments=add_arguments,
    run=run,
)
