"""Scaling of fastnoise.dask on images in a Zarr store (issue 16's closing figures).

N 1080p RGB uint8 frames in a Zarr store (chunks of one frame, a fixed Blosc/zstd
compressor), noised and written back to a second store:

  * no Dask: the loop read frame -> ImageNoise.apply -> write frame;
  * the same loop in a freshly spawned process, and inside the one Dask worker process
    (client.submit): what a process other than the main one costs on its own;
  * Dask on a LocalCluster of 1 and of 2 worker processes, one thread each.

Zarr's own codec thread pool is held to one thread (ZARR_THREADING__MAX_WORKERS=1, set
before zarr is imported and inherited by the worker processes), and Blosc's internal
threads are off (numcodecs.blosc.use_threads = False: by default Blosc compresses with
every core when called from a main thread, as in the plain loop, and with one thread
from a Dask worker's task thread), so every process computes on one thread, as the
comparison asks.

Run: python tools/bench_dask.py [--frames 200] [--dir /tmp/fn-bench-dask]
"""

import argparse
import os
import shutil
import time
from pathlib import Path

import numpy as np


def _store(path, shape, zarr, codecs):
    return zarr.create_array(
        str(path),
        shape=shape,
        chunks=(1, *shape[1:]),
        dtype=np.uint8,
        compressors=codecs,
        overwrite=True,
    )


def _plain_loop(root, frames):
    """The loop without Dask: read frame i, ImageNoise.apply(frame=i), write it; seconds.
    Module level, so a child process or a Dask worker can run it too."""
    import numcodecs.blosc
    import zarr
    from zarr.codecs import BloscCodec

    import fastnoise

    numcodecs.blosc.use_threads = False
    root = Path(root)
    shape = (frames, 1080, 1920, 3)
    codecs = [BloscCodec(cname="zstd", clevel=1, shuffle="bitshuffle")]
    model = fastnoise.ImageNoise(stddev=0.01, seed=1)
    t0 = time.perf_counter()
    dst = _store(root / "plain.zarr", shape, zarr, codecs)
    s = zarr.open_array(str(root / "in.zarr"), mode="r")
    for i in range(shape[0]):
        dst[i] = model.apply(s[i], frame=i)
    return time.perf_counter() - t0


def _in_child(root, frames):
    """_plain_loop in a freshly spawned process (no Dask): best of two runs."""
    import multiprocessing as mp

    with mp.get_context("spawn").Pool(1) as pool:
        return min(pool.apply(_plain_loop, (str(root), frames)) for _ in range(2))


def main():
    os.environ.setdefault("ZARR_THREADING__MAX_WORKERS", "1")
    import dask
    import dask.array as da
    import numcodecs.blosc
    import zarr
    from dask.distributed import Client, LocalCluster
    from zarr.codecs import BloscCodec

    import fastnoise
    from fastnoise import dask as fdask

    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=200)
    ap.add_argument("--dir", default="/tmp/fn-bench-dask")
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    numcodecs.blosc.use_threads = False  # one thread in the plain loop too (see above)
    root = Path(args.dir)
    root.mkdir(parents=True, exist_ok=True)
    shape = (args.frames, 1080, 1920, 3)
    codecs = [BloscCodec(cname="zstd", clevel=1, shuffle="bitshuffle")]

    src = _store(root / "in.zarr", shape, zarr, codecs)
    rng = np.random.default_rng(0)
    base = rng.integers(0, 256, size=shape[1:], dtype=np.uint8)
    for i in range(shape[0]):
        src[i] = np.roll(base, i, axis=1)
    model = fastnoise.ImageNoise(stddev=0.01, seed=1)

    def on_dask(client):
        noisy = fdask.image_noise(da.from_zarr(str(root / "in.zarr")), model)
        dst = _store(root / "dask.zarr", shape, zarr, codecs)
        da.store(noisy, dst, lock=False, compute=False).compute(scheduler=client)

    def best(fn, *a):
        t = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            fn(*a)
            t.append(time.perf_counter() - t0)
        return min(t)

    # Dask starts workers with MALLOC_TRIM_THRESHOLD_=65536, and setting any malloc
    # threshold switches off glibc's adaptive mmap threshold: then every frame-sized
    # buffer (zarr's and ours) is a fresh mmap, page-faulted in and unmapped again, which
    # made the same loop 1.5-1.75x slower in a worker than here. The recipe in
    # docs/dask.rst sets MALLOC_MMAP_THRESHOLD_ too, and so does this comparison.
    dask.config.set({"distributed.nanny.pre-spawn-environ": fdask.worker_environ()})
    res = {"plain": min(_plain_loop(root, args.frames) for _ in range(args.repeat))}
    res["plain-child"] = _in_child(root, args.frames)
    for n in (1, 2):
        with (
            LocalCluster(
                n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None
            ) as cl,
            Client(cl) as client,
        ):
            res[f"dask-{n}"] = best(on_dask, client)
            if n == 1:  # the same loop inside the worker process, without Dask tasks
                res["plain-worker"] = min(
                    client.submit(_plain_loop, str(root), args.frames, pure=False).result()
                    for _ in range(args.repeat)
                )
    a = zarr.open_array(str(root / "plain.zarr"), mode="r")
    b = zarr.open_array(str(root / "dask.zarr"), mode="r")
    same = all(np.array_equal(a[i], b[i]) for i in range(0, shape[0], max(1, shape[0] // 8)))
    mp = shape[0] * 1080 * 1920 / 1e6
    for k, v in res.items():
        print(f"{k:8s} {v:8.2f} s  {mp / v:7.1f} Mpixel/s")
    print(f"2 workers vs 1: {res['dask-1'] / res['dask-2']:.2f}x")
    print(f"1 worker vs no Dask: {res['dask-1'] / res['plain']:.2f} (time ratio)")
    print(
        f"1 worker vs the loop in the worker process: {res['dask-1'] / res['plain-worker']:.2f}; "
        f"the loop in a spawned process vs in this one: {res['plain-child'] / res['plain']:.2f}"
    )
    print(f"sampled frames equal: {same}")
    shutil.rmtree(root)


if __name__ == "__main__":
    main()
