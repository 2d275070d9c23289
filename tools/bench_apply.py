"""How much ``fastnoise apply`` adds to a plain rosbags copy of a bag.

Builds a ROS 2 bag (mcap or sqlite3 storage, uncompressed) of 1080p rgb8 images and
lidar clouds in a temporary folder, then times, interleaved in ABBA order, with a warm
page cache and the dirty pages synced before each run:

- baseline: rosbags reading every message, deserializing and serializing it, and
  writing it to a new bag with the same connections (no noise);
- apply: ``fastnoise.io.apply.apply.apply`` with camera noise on the images and LidarNoise on
  the clouds (threads=2 by default), same input, same output format.

Prints the medians, the ratio apply / baseline and the throughput. The issue's target:
noise adds at most 25% to the baseline.

    python tools/bench_apply.py                    # ~500 MB, 5 runs each
    python tools/bench_apply.py --mb 200 --runs 7  # smaller bag
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np


def build_bag(path: Path, mb: float, storage: str, points: int) -> tuple[int, int]:
    from rosbags.rosbag2 import StoragePlugin, Writer
    from rosbags.typesys import Stores, get_typestore

    ts = get_typestore(Stores.ROS2_HUMBLE)
    T = ts.types
    img_bytes = 1080 * 1920 * 3
    cloud_bytes = points * 32
    n = max(1, int(mb * 1e6 / (img_bytes + cloud_bytes)))
    rng = np.random.default_rng(0)
    pixels = rng.integers(0, 256, img_bytes, dtype=np.uint8)
    cloud = np.zeros((points, 8), np.float32)  # x y z intensity ring(as f4) time pad pad
    cloud[:, :3] = rng.uniform(-50, 50, (points, 3))
    cloud[:, 3] = rng.uniform(0, 1, points)
    PF = T["sensor_msgs/msg/PointField"]
    fields = [
        PF(name=n_, offset=4 * i, datatype=7, count=1)
        for i, n_ in enumerate(("x", "y", "z", "intensity", "ring", "time"))
    ]
    plugin = StoragePlugin.MCAP if storage == "mcap" else StoragePlugin.SQLITE3
    with Writer(path, version=9, storage_plugin=plugin) as w:
        ci = w.add_connection("/camera/image_raw", "sensor_msgs/msg/Image", typestore=ts)
        cc = w.add_connection("/lidar/points", "sensor_msgs/msg/PointCloud2", typestore=ts)
        for k in range(n):
            t = 1_700_000_000 * 10**9 + k * 100_000_000
            stamp = T["builtin_interfaces/msg/Time"](sec=t // 10**9, nanosec=t % 10**9)
            hdr = T["std_msgs/msg/Header"](stamp=stamp, frame_id="sensor")
            img = T["sensor_msgs/msg/Image"](
                header=hdr,
                height=1080,
                width=1920,
                encoding="rgb8",
                is_bigendian=0,
                step=1920 * 3,
                data=np.roll(pixels, k),
            )
            w.write(ci, t, ts.serialize_cdr(img, "sensor_msgs/msg/Image"))
            pc = T["sensor_msgs/msg/PointCloud2"](
                header=hdr,
                height=1,
                width=points,
                fields=fields,
                is_bigendian=False,
                point_step=32,
                row_step=32 * points,
                data=cloud.view(np.uint8).reshape(-1),
                is_dense=True,
            )
            w.write(cc, t + 1, ts.serialize_cdr(pc, "sensor_msgs/msg/PointCloud2"))
    size = sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
    return n, size


def baseline(src: Path, dst: Path) -> None:
    """rosbags alone: read, deserialize, serialize, write every message."""
    from rosbags.rosbag2 import Reader, StoragePlugin, Writer
    from rosbags.typesys import Stores, get_types_from_msg, get_typestore

    with Reader(src) as r:
        store = get_typestore(Stores.EMPTY)
        for c in r.connections:
            store.register(get_types_from_msg(c.msgdef.data, c.msgtype))
        inner = r.storage.storages[0]
        plugin = (
            StoragePlugin.MCAP if type(inner).__name__ == "McapReader" else (StoragePlugin.SQLITE3)
        )
        with Writer(dst, version=9, storage_plugin=plugin) as w:
            conns = {
                c.id: w.add_connection(
                    c.topic,
                    c.msgtype,
                    msgdef=c.msgdef.data,
                    rihs01=c.digest,
                    serialization_format=c.ext.serialization_format,
                    offered_qos_profiles=c.ext.offered_qos_profiles,
                )
                for c in r.connections
            }
            for c, t, raw in r.messages():
                # a memoryview spares rosbags a copy of the message (a stricter baseline)
                msg = store.deserialize_cdr(memoryview(raw), c.msgtype)
                w.write(conns[c.id], t, store.serialize_cdr(msg, c.msgtype))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--mb", type=float, default=500.0, help="bag size (MB, about)")
    p.add_argument("--runs", type=int, default=5, help="runs of each (median)")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--points", type=int, default=131072, help="points per cloud")
    p.add_argument("--storage", choices=("mcap", "sqlite3"), default="mcap")
    p.add_argument("--dir", default=None, help="where to build the bag (default: a temp dir)")
    args = p.parse_args(argv)

    from fastnoise.io.apply.apply import apply
    from fastnoise.io.suite.suite import Suite

    suite = Suite.from_dict(
        {
            "seed": 1,
            "threads": args.threads,
            "topics": {
                "/camera/image_raw": {"model": "camera", "stddev": 0.007},
                "/lidar/points": {
                    "model": "lidar",
                    "distance_noise_stddev_base": 0.02,
                    "hitpoint_angular_noise_stddev": 0.001,
                },
            },
        }
    )
    root = Path(tempfile.mkdtemp(prefix="bench_apply_", dir=args.dir))
    try:
        src = root / "in"
        t0 = time.perf_counter()
        n, size = build_bag(src, args.mb, args.storage, args.points)
        print(
            f"built {src}: {n} images 1920x1080 rgb8 + {n} clouds of {args.points} points, "
            f"{size / 1e6:.0f} MB, {args.storage}, in {time.perf_counter() - t0:.1f} s",
            file=sys.stderr,
        )
        baseline(src, root / "warm")  # warm the page cache and both code paths
        shutil.rmtree(root / "warm")
        times: dict[str, list[float]] = {"baseline": [], "apply": []}
        cpu: dict[str, list[float]] = {"baseline": [], "apply": []}
        for i in range(args.runs):
            # ABBA order, and the page cache's dirty pages written out before each run:
            # otherwise the second of a pair pays for writing back the first's output
            order = ("baseline", "apply") if i % 2 == 0 else ("apply", "baseline")
            for name in order:
                out = root / f"out_{name}"
                os.sync()
                t, c = time.perf_counter(), time.process_time()
                if name == "baseline":
                    baseline(src, out)
                else:
                    apply(suite, src, out)
                times[name].append(time.perf_counter() - t)
                cpu[name].append(time.process_time() - c)
                shutil.rmtree(out)
            print(
                f"run {i + 1}: baseline {times['baseline'][-1]:.2f} s, apply "
                f"{times['apply'][-1]:.2f} s",
                file=sys.stderr,
            )
        b = statistics.median(times["baseline"])
        a = statistics.median(times["apply"])
        print(
            f"bag: {size / 1e6:.0f} MB ({args.storage}), {2 * n} messages; threads={args.threads}"
        )
        print(
            f"baseline (rosbags read+deserialize+serialize+write): median {b:.2f} s "
            f"({size / 1e6 / b:.0f} MB/s)  runs {[round(x, 2) for x in times['baseline']]}"
        )
        print(
            f"fastnoise apply:                                    median {a:.2f} s "
            f"({size / 1e6 / a:.0f} MB/s)  runs {[round(x, 2) for x in times['apply']]}"
        )
        print(f"noise adds {100 * (a / b - 1):.0f}% to the baseline (target: <= 25%)")
        paired = statistics.median(
            x / y for x, y in zip(times["apply"], times["baseline"], strict=True)
        )
        print(f"median of the paired ratios apply/baseline (run by run): {paired:.2f}")
        cb, ca = statistics.median(cpu["baseline"]), statistics.median(cpu["apply"])
        print(
            f"CPU time (all threads), medians: baseline {cb:.2f} s, apply {ca:.2f} s "
            f"(+{100 * (ca / cb - 1):.0f}%)"
        )
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
