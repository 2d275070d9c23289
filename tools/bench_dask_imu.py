"""Wall time of ``fastnoise.dask.imu_noise`` on a LocalCluster against ``ImuNoise.apply``.

N samples x 6 axes (N x 3 rates and accelerations) in a few chunks, every IMU term on.
Per repetition, interleaved: the plain ``apply`` in this process, the fold alone
(``_advance_biases`` over the whole record, the sequential part), then
``imu_noise(...).compute()`` (results gathered here) and ``imu_noise(...).persist()``
(results left on the workers) on a cluster of 1 and of 2 worker processes (one thread
each), and the same for the previous design ("full chain": each chunk's full ``apply``
waits for the previous one's). The inputs are persisted on each cluster first (not
timed). Prints the medians.

    python tools/bench_dask_imu.py [--samples 2000000] [--chunks 8] [--reps 7]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np


def _model():
    import fastnoise as fn

    gyro = fn.TriadNoise(
        noise_density=2e-3,
        turn_on_bias_mean=0.02,
        turn_on_bias_stddev=0.01,
        gauss_markov_stddev=5e-3,
        gauss_markov_correlation_time=(0.5, 2.0, 10.0),
        gauss_markov_steady_state=True,
        random_walk_density=1e-3,
        bits=16,
        full_scale=4.0,
    )
    accel = fn.TriadNoise(
        noise_stddev=0.05,
        gauss_markov_stddev=0.01,
        gauss_markov_correlation_time=5.0,
        random_walk_density=2e-3,
    )
    return fn.ImuNoise(gyro=gyro, accel=accel, seed=1)


def _full_chunk(state, omega, accel, dt):
    from fastnoise.dask import _rebuild

    model = _rebuild(state)
    o, a = model.apply(np.asarray(omega), np.asarray(accel), dt)
    return o, a, model.state


def _full_chain(omega, accel, dt, model):
    """The previous imu_noise: one chain of full applies, each chunk waiting for the
    state the previous chunk's apply gave out (the baseline of the fold)."""
    import dask.array as da
    from dask import delayed

    state = delayed(model.state, traverse=True)
    outs_o, outs_a = [], []
    for blk_o, blk_a, n in zip(
        omega.to_delayed().ravel(), accel.to_delayed().ravel(), omega.chunks[0], strict=True
    ):
        o, a, state = delayed(_full_chunk, nout=3, pure=True)(state, blk_o, blk_a, dt)
        outs_o.append(da.from_delayed(o, (n, 3), dtype=np.float64))
        outs_a.append(da.from_delayed(a, (n, 3), dtype=np.float64))
    return da.concatenate(outs_o), da.concatenate(outs_a)


def main() -> None:
    import dask
    import dask.array as da
    from dask.distributed import Client, LocalCluster, futures_of, wait

    import fastnoise as fn
    from fastnoise import dask as fdask

    ap = argparse.ArgumentParser()
    ap.add_argument("--samples", type=int, default=2_000_000)
    ap.add_argument("--chunks", type=int, default=8)
    ap.add_argument("--reps", type=int, default=7)
    args = ap.parse_args()
    n, dt = args.samples, 0.005
    rng = np.random.default_rng(0)
    w = rng.normal(size=(n, 3))
    a = rng.normal(size=(n, 3)) + [0.0, 0.0, 9.81]
    model = _model()
    want_w, want_a = fn.ImuNoise.from_state(model.state).apply(w, a, dt)
    chunk = -(-n // args.chunks)

    clusters = {}
    for workers in (1, 2):
        cluster = LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = Client(cluster, set_as_default=False)
        dw = client.persist(da.from_array(w, chunks=(chunk, 3)))
        dacc = client.persist(da.from_array(a, chunks=(chunk, 3)))
        with client.as_current():
            wait(futures_of([dw, dacc]))
        clusters[workers] = (cluster, client, dw, dacc)
        # once untimed (workers import fastnoise), and the bits checked
        for make in (fdask.imu_noise, _full_chain):
            o, oa = make(dw, dacc, dt, model)
            got_w, got_a = client.compute([o, oa], sync=True)
            assert np.array_equal(got_w, want_w) and np.array_equal(got_a, want_a)

    times: dict[str, list[float]] = {}

    def timed(name, fn_):
        t0 = time.perf_counter()
        fn_()
        times.setdefault(name, []).append(time.perf_counter() - t0)

    for _ in range(args.reps):
        timed("apply, one process", lambda: fn.ImuNoise.from_state(model.state).apply(w, a, dt))
        timed(
            "fold alone (_advance_biases)",
            lambda: fn.ImuNoise.from_state(model.state)._advance_biases(n, dt),
        )
        for workers, (_, client, dw, dacc) in clusters.items():
            for label, make in (("imu_noise", fdask.imu_noise), ("full chain", _full_chain)):
                o, oa = make(dw, dacc, dt, model)
                timed(
                    f"{label} .compute(), {workers} worker(s)",
                    lambda o=o, oa=oa, c=client: dask.compute(o, oa, scheduler=c),
                )
                o, oa = make(dw, dacc, dt, model)

                def keep(o=o, oa=oa, c=client):
                    with c.as_current():
                        wait(futures_of(c.persist([o, oa])))

                timed(f"{label} .persist(), {workers} worker(s)", keep)

    print(f"{n} samples x 6 axes, {args.chunks} chunks, {args.reps} reps (medians):")
    base = statistics.median(times["apply, one process"])
    for name, ts in times.items():
        med = statistics.median(ts)
        print(f"  {name:40s} {med * 1e3:8.1f} ms   apply / this = {base / med:5.2f}")
    for cluster, client, _, _ in clusters.values():
        client.close()
        cluster.close()


if __name__ == "__main__":
    main()
