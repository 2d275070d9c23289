"""The live node (``fastnoise node``) beside a plain rclpy relay that republishes
unchanged (the floor), each the middle of three processes: publisher -> middle ->
subscriber, Reliable QoS, on the executor ``fastnoise node`` picks.

- ``imu``: sensor_msgs/Imu at 1 kHz. Figures: messages lost, latency p50/p99 (publish
  time of the input to receive time of the output, CLOCK_MONOTONIC of one machine).
  Target: none lost, node p99 <= relay p99 + 1 ms.
- ``heavy``: a 64 x 2048 PointCloud2 at 20 Hz and a 1280 x 720 rgb8 Image at 30 Hz
  together. Figures: messages lost, CPU time of the middle process per message (and,
  beside it, the part spent in the kernel and the page faults: frame-sized messages
  that fault their pages in again show there; see fastnoise.ros2.keep_freed_memory).
  Target: none lost, node CPU per message <= 1.5 x the relay's.

Both middles run between the same two ends (``ros2/stream.py``): a publisher that
sends pre-serialized records (the message serialized once, stamp and publish time
patched into a copy) and a subscriber that takes the output serialized and reads only
the header, so that neither competes much for the cores the middle needs. The relay
(``ros2/relay.py``) stays the plain rclpy relay a user writes (deserialized messages
in, serialized again by ``publish``); the node takes Image and PointCloud2 serialized
(see :class:`fastnoise.ros2.NoiseNode`), so the figures compare what each really costs.

Seconds per run: ``FASTNOISE_ROS2_BENCH_SECONDS`` (default 60; CI runs 5). QoS depth:
``FASTNOISE_ROS2_BENCH_DEPTH`` (default 1000, every process: 1 s at 1 kHz; the
node's own default, 10, is 10 ms, less than one scheduler stall of a loaded machine).
"None lost" is asserted while the node's latency stays under what the queue holds
(DEPTH messages); the latency and CPU targets only with
``FASTNOISE_ROS2_BENCH_STRICT=1`` (a shared CI machine's scheduling noise decides them
otherwise). The figures are printed and kept
in the benchmark's ``extra_info``. Runs in the ROS 2 venv (.ci/steps/45-ros2.sh)::

    FASTNOISE_ROS2_BENCH_SECONDS=60 python -m pytest bench/bench_ros2_node.py -s

A shared machine's other load decides single runs (a 30 s pair on a loaded 2-core
machine gave the relay anything from 1.2 ms to 1 s of p99). Two knobs make the
comparison fair:

- ``FASTNOISE_ROS2_BENCH_REPEAT=N`` (default 1) runs N relay/node pairs, alternated,
  and reports each pair and the medians over the pairs of the p99 difference (node
  minus relay, ms) and of the CPU ratio (node / relay); the targets are checked on
  those medians.
- ``FASTNOISE_ROS2_BENCH_RT=1`` runs the three processes of every measurement, relay
  and node alike, with the real-time round-robin policy (``SCHED_RR`` priority 10;
  needs root or CAP_SYS_NICE), so that the rest of the machine's load does not
  preempt them: what an otherwise idle machine would show.
"""

from __future__ import annotations

import json
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip(
    "rclpy",
    reason="rclpy is not installed: the live-node bench runs in the ROS 2 venv "
    "(pip install 'fastnoise[ros2]'; CI: .ci/steps/45-ros2.sh)",
)

HERE = Path(__file__).resolve().parent / "ros2"
SECONDS = float(os.environ.get("FASTNOISE_ROS2_BENCH_SECONDS", "60"))
DEPTH = int(os.environ.get("FASTNOISE_ROS2_BENCH_DEPTH", "1000"))
STRICT = os.environ.get("FASTNOISE_ROS2_BENCH_STRICT") == "1"
REPEAT = int(os.environ.get("FASTNOISE_ROS2_BENCH_REPEAT", "1"))
RT = os.environ.get("FASTNOISE_ROS2_BENCH_RT") == "1"
RT_PRIORITY = 10


def _realtime() -> None:  # preexec_fn of every process of a measurement (RT=1)
    os.sched_setscheduler(0, os.SCHED_RR, os.sched_param(RT_PRIORITY))


_SET_RR = f"import os; os.sched_setscheduler(0, os.SCHED_RR, os.sched_param({RT_PRIORITY}))"


def _check_realtime() -> None:
    probe = subprocess.run(
        [sys.executable, "-c", _SET_RR],
        capture_output=True,
        text=True,
    )
    if probe.returncode != 0:
        pytest.fail(
            "FASTNOISE_ROS2_BENCH_RT=1 needs the SCHED_RR policy (root or CAP_SYS_NICE): "
            + probe.stderr.strip().splitlines()[-1]
        )


for _key, _value in (
    ("ROS_DOMAIN_ID", str(1 + (os.getpid() + 50) % 101)),
    ("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST"),
    ("RMW_IMPLEMENTATION", "rmw_fastrtps_cpp"),
):
    if not os.environ.get(_key):
        os.environ[_key] = _value

RATES = {"imu": [1000.0], "heavy": [20.0, 30.0]}  # Hz, as bench/ros2/stream.py sends

SUITE = """seed = 3
[topics."/imu_raw"]
model = "imu"
rate = 1000.0
gyro = { noise_stddev = 0.002, gauss_markov_stddev = 0.0003, gauss_markov_correlation_time = 400.0 }
accel = { noise_stddev = 0.02 }

[topics."/points_raw"]
model = "lidar"
distance_noise_stddev_base = 0.02

[topics."/camera/image_raw"]
model = "camera"
stddev = 0.007
"""


def _cpu(pid: int) -> tuple[float, float, int]:
    """(user s, system s, minor page faults) of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick, int(fields[7])


def _wait_line(proc: subprocess.Popen, word: str, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        line = proc.stdout.readline()
        if word in line:
            return
        if not line and proc.poll() is not None:
            raise RuntimeError(f"{proc.args} exited: {proc.stderr.read()}")
    raise RuntimeError(f"{proc.args}: no {word!r} in {timeout} s")


def _stop(proc: subprocess.Popen, timeout: float = 30.0) -> str:
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
    return err or ""


def run(scenario: str, middle: str, tmp: Path) -> dict:
    """One run: subscriber, then the middle (``relay`` or ``node``), then the publisher
    for SECONDS; the figures of the middle process."""
    py = sys.executable
    result = tmp / f"{scenario}-{middle}.json"
    args = dict(stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=HERE)
    if RT:
        args["preexec_fn"] = _realtime
    sub = subprocess.Popen(
        [py, "stream.py", "subscribe", scenario, str(SECONDS), str(DEPTH), str(result)], **args
    )
    procs = [sub]
    try:
        _wait_line(sub, "ready")
        if middle == "relay":
            mid = subprocess.Popen([py, "relay.py", scenario, str(DEPTH)], **args)
            procs.append(mid)
            _wait_line(mid, "ready")
        else:
            suite = tmp / "suite.toml"
            suite.write_text(SUITE)
            ready = tmp / f"ready-{scenario}"
            mid = subprocess.Popen(
                [py, "-m", "fastnoise", "node", "--config", str(suite), "--depth", str(DEPTH),
                 "--ready-file", str(ready), "--drain-timeout", "60"],
                **args,
            )  # fmt: skip
            procs.append(mid)
            end = time.monotonic() + 60
            while not ready.exists() and mid.poll() is None and time.monotonic() < end:
                time.sleep(0.05)
            assert ready.exists(), mid.stderr.read() if mid.poll() is not None else "no ready"
        _wait_line(sub, "matched")  # the middle's outputs reach the subscriber
        cpu0 = _cpu(mid.pid)
        pub = subprocess.run(
            [py, "stream.py", "publish", scenario, str(SECONDS), str(DEPTH)],
            capture_output=True,
            text=True,
            cwd=HERE,
            timeout=SECONDS + 120,
            preexec_fn=_realtime if RT else None,
        )
        user, system, faults = (b - a for a, b in zip(cpu0, _cpu(mid.pid), strict=True))
        assert pub.returncode == 0, pub.stderr
        sent = json.loads(pub.stdout.strip().splitlines()[-1])
        mid_err = _stop(mid, timeout=150.0)  # the node drains its backlog first (<= 60 s)
        time.sleep(0.5)
        _stop(sub)
        recorded = json.loads(result.read_text())
        lat = recorded["latency_ns"]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.communicate()
    n_sent = sum(sent["sent"].values())
    got = {t: len(v) for t, v in lat.items()}
    all_lat = sorted(x for v in lat.values() for x in v)

    def q(p: float) -> float:
        return all_lat[min(len(all_lat) - 1, int(p * (len(all_lat) - 1) + 0.5))] / 1e6

    return {
        "sent": sent["sent"],
        "received": got,
        "lost": n_sent - sum(got.values()),
        "acked": sent["acked"],
        "taken_after_stop": recorded["taken_after_stop"],
        "p50_ms": q(0.50) if all_lat else float("nan"),
        "p99_ms": q(0.99) if all_lat else float("nan"),
        "max_ms": q(1.0) if all_lat else float("nan"),
        "cpu_s": user + system,
        "cpu_us_per_msg": 1e6 * (user + system) / max(1, n_sent),
        "sys_us_per_msg": 1e6 * system / max(1, n_sent),
        "faults_per_msg": faults / max(1, n_sent),
        "log_tail": mid_err.strip().splitlines()[-2:],
    }


def _report(scenario: str, pairs: list[dict[str, dict]]) -> dict[str, float]:
    """Print every pair; return the medians over the pairs of the p99 difference (node
    minus relay, ms) and of the CPU ratio (node / relay)."""
    mode = ", SCHED_RR" if RT else ""
    print(f"\n{scenario} ({SECONDS:g} s, depth {DEPTH}, {len(pairs)} pair(s){mode}):")
    for i, figures in enumerate(pairs):
        for middle, f in figures.items():
            print(
                f"  {i + 1:>2} {middle:<6} sent {sum(f['sent'].values()):>6} lost {f['lost']:>4}  "
                f"latency p50 {f['p50_ms']:.3f} ms p99 {f['p99_ms']:.3f} ms "
                f"max {f['max_ms']:.3f} ms  cpu {f['cpu_us_per_msg']:.0f} us/msg "
                f"(sys {f['sys_us_per_msg']:.0f}, {f['faults_per_msg']:.0f} page faults)  "
                f"taken after stop {f['taken_after_stop']}"
            )
    diffs = [p["node"]["p99_ms"] - p["relay"]["p99_ms"] for p in pairs]
    ratios = [p["node"]["cpu_us_per_msg"] / max(1e-9, p["relay"]["cpu_us_per_msg"]) for p in pairs]
    medians = {"p99_diff_ms": statistics.median(diffs), "cpu_ratio": statistics.median(ratios)}
    print(
        f"  median over pairs: node p99 - relay p99 {medians['p99_diff_ms']:+.3f} ms "
        f"({', '.join(f'{d:+.3f}' for d in diffs)}), node cpu / relay cpu "
        f"{medians['cpu_ratio']:.2f} ({', '.join(f'{r:.2f}' for r in ratios)})"
    )
    return medians


@pytest.mark.parametrize("scenario", ["imu", "heavy"])
def test_fastnoise_node_beside_relay(scenario: str, tmp_path: Path, benchmark) -> None:
    if RT:
        _check_realtime()
    pairs: list[dict[str, dict]] = []

    def both() -> None:
        for _ in range(max(1, REPEAT)):  # alternated: load that drifts hits both
            pairs.append({"relay": run(scenario, "relay", tmp_path)})
            pairs[-1]["node"] = run(scenario, "node", tmp_path)

    benchmark.pedantic(both, rounds=1, iterations=1)
    medians = _report(scenario, pairs)
    benchmark.extra_info.update(medians)
    benchmark.extra_info["realtime"] = RT
    for i, figures in enumerate(pairs):
        suffix = f"_{i + 1}" if len(pairs) > 1 else ""
        benchmark.extra_info.update(
            {f"{m}_{k}{suffix}": v for m, f in figures.items() for k, v in f.items()}
        )
    # KEEP_LAST drops the oldest message once a reader holds DEPTH of them: when a
    # loaded machine delays the node that long, losses are the QoS working, and a
    # timing outcome (asserted only with STRICT); below that, none may be lost
    window_ms = 1e3 * DEPTH / max(RATES[scenario])
    for figures in pairs:
        node = figures["node"]
        if STRICT or node["max_ms"] < window_ms:
            assert node["lost"] == 0, f"the node lost {node['lost']} messages: {node}"
        else:
            print(f"  (latency over the {window_ms:.0f} ms of a depth-{DEPTH} queue: loss shown)")
        assert node["acked"], f"the node did not acknowledge every input: {node}"
    # the relay is the floor: what it loses or leaves unacknowledged is reported only
    if STRICT and scenario == "imu":
        assert medians["p99_diff_ms"] <= 1.0, pairs
    if STRICT and scenario == "heavy":
        assert medians["cpu_ratio"] <= 1.5, pairs
