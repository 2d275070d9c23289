"""fastnoise.dask on a real LocalCluster (worker processes): every chunking gives the
bits of the in-memory computation, a killed worker changes nothing, Zarr in and out."""

import os

import numpy as np
import pytest

distributed = pytest.importorskip("dask.distributed")
da = pytest.importorskip("dask.array")

import fastnoise  # noqa: E402
from fastnoise import dask as fdask  # noqa: E402

# The Dask adapter is Python around kernels that the model tests cover directly: the
# scalar-path and sanitizer runs leave it out (-m "not python_only"), and its worker
# processes under ASan cost minutes.
pytestmark = pytest.mark.python_only


@pytest.fixture(scope="module")
def client():
    import dask

    with dask.config.set({"distributed.nanny.pre-spawn-environ": fdask.worker_environ()}):
        cluster = distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
            death_timeout=30,
        )  # fmt: skip
    cl = distributed.Client(cluster, timeout=30)
    try:
        yield cl
    finally:
        cl.close(timeout=10)
        cluster.close(timeout=10)


def test_worker_environ_reaches_the_workers(client):
    # Dask's other worker variables are kept; the mmap (32 MiB) and trim (128 MiB)
    # thresholds are set, so frame-sized buffers are reused rather than mapped and
    # faulted in every chunk
    import dask

    env = fdask.worker_environ()
    assert env["MALLOC_MMAP_THRESHOLD_"] == 32 * 1024 * 1024
    assert env["MALLOC_TRIM_THRESHOLD_"] == 128 * 1024 * 1024
    default = dask.config.get("distributed.nanny.pre-spawn-environ")
    assert all(env[k] == v for k, v in default.items() if k != "MALLOC_TRIM_THRESHOLD_")
    seen = client.run(
        lambda: (os.environ.get("MALLOC_MMAP_THRESHOLD_"), os.environ.get("MALLOC_TRIM_THRESHOLD_"))
    )
    assert len(seen) == 2 and set(seen.values()) == {("33554432", "134217728")}


def _compute(client, x):
    return client.compute(x).result(timeout=60)


# ---- camera ---------------------------------------------------------------------------

IMAGE_CHUNKS = [
    (1, -1, -1, -1),  # whole frames
    (2, 7, -1, -1),  # row bands
    (3, -1, 5, -1),  # width chunks
    (2, 6, 9, -1),  # tiles
    (4, 13, 4, 1),  # tiles, channels split (made whole again)
]


@pytest.mark.parametrize("per_channel", [False, True])
@pytest.mark.parametrize("chunks", IMAGE_CHUNKS)
def test_image_chunks_equal_whole_frames(client, chunks, per_channel):
    rng = np.random.default_rng(1)
    imgs = rng.integers(0, 256, size=(5, 20, 23, 3), dtype=np.uint8)
    model = fastnoise.ImageNoise(stddev=0.05, per_channel=per_channel, seed=7)
    want = np.stack([model.apply(imgs[i], frame=10 + i) for i in range(5)])
    got = _compute(
        client, fdask.image_noise(da.from_array(imgs, chunks=chunks), model, first_frame=10)
    )
    assert np.array_equal(got, want)


@pytest.mark.parametrize("dtype", [np.float32, np.uint16])
def test_image_gray_width_chunks(client, dtype):
    rng = np.random.default_rng(2)
    imgs = (rng.random((3, 17, 31)) * (65535 if dtype == np.uint16 else 1)).astype(dtype)
    model = fastnoise.ImageNoise(stddev=0.02, variant="ogre2", seed=3)
    want = np.stack([model.apply(imgs[i], frame=i) for i in range(3)])
    got = _compute(client, fdask.image_noise(da.from_array(imgs, chunks=(2, 5, 8)), model))
    assert np.array_equal(got, want)


def test_tile_apply_matches_whole_frame():
    """The kernel entry itself: a tile with row/col offsets and the full width."""
    rng = np.random.default_rng(3)
    img = rng.integers(0, 256, size=(40, 50, 3), dtype=np.uint8)
    model = fastnoise.ImageNoise(stddev=0.05, per_channel=True, seed=1)
    whole = model.apply(img, frame=4)
    tile = model.apply(img[11:29, 17:43], frame=4, row_offset=11, col_offset=17, full_width=50)
    assert np.array_equal(tile, whole[11:29, 17:43])
    with pytest.raises(ValueError, match="col_offset"):
        model.apply(img[:, :10], col_offset=45, full_width=50)


# ---- lidar and range --------------------------------------------------------------------


@pytest.mark.parametrize("chunks", [(1, -1), (2, 9), (3, 4)])
def test_lidar_chunks_with_hit_mask(client, chunks):
    rng = np.random.default_rng(4)
    pts = rng.normal(size=(5, 30, 3)) * 10
    lengths = [30, 12, 25, 0, 7]  # ragged frames, padded, the padding not a hit
    mask = np.arange(30)[None, :] < np.array(lengths)[:, None]
    model = fastnoise.LidarNoise(seed=5)
    want = np.stack([model.apply(pts[i], hit_mask=mask[i], frame=2 + i).points for i in range(5)])
    got = _compute(
        client,
        fdask.lidar_noise(
            da.from_array(pts, chunks=(*chunks, 3)),
            model,
            hit_mask=da.from_array(mask, chunks=2),
            first_frame=2,
        ),
    )
    assert np.array_equal(got, want)
    nomask = np.stack([model.apply(pts[i], frame=i).points for i in range(5)])
    got = _compute(client, fdask.lidar_noise(da.from_array(pts, chunks=(*chunks, 1)), model))
    assert np.array_equal(got, nomask)


@pytest.mark.parametrize("chunks", [(1, -1), (2, 11), (4, 3)])
def test_range_chunks(client, chunks):
    rng = np.random.default_rng(5)
    r = rng.random((6, 40)) * 30
    model = fastnoise.RangeNoise(0.0, 0.01, 0.5, 30.0, bias_mean=0.1, bias_stddev=0.05, seed=9)
    want = np.stack([model.apply(r[i], frame=i) for i in range(6)])
    got = _compute(client, fdask.range_noise(da.from_array(r, chunks=chunks), model))
    assert np.array_equal(got, want)


# ---- DVL ----------------------------------------------------------------------------


def _dvl_truth(n):
    from fastnoise.models.dvl.dtypes import TRUTH_DTYPE

    rng = np.random.default_rng(6)
    truth = np.zeros(n, dtype=TRUTH_DTYPE)
    for name in TRUTH_DTYPE.names:
        truth[name] = rng.random(n)
    return truth


@pytest.mark.parametrize("chunk", [7, 25, 100])
def test_dvl_chunks(client, chunk):
    truth = _dvl_truth(100)
    model = fastnoise.DvlSimulator(seed=11)
    model.measure_many(truth[:3])  # a model not at its start
    want = fastnoise.DvlSimulator.from_state(model.state).measure_many(truth)
    got = _compute(client, fdask.dvl_noise(da.from_array(truth, chunks=chunk), model))
    assert np.array_equal(got, want)
    names = truth.dtype.names
    table = np.stack([truth[n] for n in names], axis=1)
    got2 = _compute(
        client, fdask.dvl_noise(da.from_array(table, chunks=(chunk, 3)), model, fields=names)
    )
    assert np.array_equal(got2, np.stack([want[n] for n in want.dtype.names], axis=1))


# ---- IMU ----------------------------------------------------------------------------


IMU_CASES = [  # (chunks, normal_dtype)
    (1, "float32"),
    (13, "float64"),
    (64, "float32"),
    ((5, 1, 130, 3, 61), "float32"),
    ((5, 1, 130, 3, 61), "float64"),
    (200, "float64"),
]


@pytest.mark.parametrize(("chunk", "normal_dtype"), IMU_CASES)
def test_imu_fold_equals_sequential(client, chunk, normal_dtype):
    """Fold of the biases, outputs in parallel: the bits and the final state of one
    sequential apply, for chunks of 1 sample, even and uneven chunks, one chunk."""
    rng = np.random.default_rng(8)
    om = rng.normal(size=(200, 3))
    ac = rng.normal(size=(200, 3)) + [0.0, 0.0, 9.81]
    gyro = fastnoise.TriadNoise(
        noise_density=2e-3,
        turn_on_bias_mean=0.02,
        turn_on_bias_stddev=0.01,
        gauss_markov_stddev=5e-3,
        gauss_markov_correlation_time=(0.5, 2.0, 10.0),
        gauss_markov_steady_state=True,
        random_walk_density=1e-3,
        misalignment=[[0, 1e-3, 0], [-1e-3, 0, 2e-3], [0, 0, 0]],
        bits=16,
        full_scale=4.0,
    )
    accel = fastnoise.TriadNoise(
        noise_stddev=0.05,
        gauss_markov_stddev=0.01,
        gauss_markov_correlation_time=5.0,
        random_walk_density=2e-3,
    )
    model = fastnoise.ImuNoise(gyro=gyro, accel=accel, seed=3, normal_dtype=normal_dtype)
    model.apply(om[:5], ac[:5], 0.01)  # a model with biases already moving
    seq = fastnoise.ImuNoise.from_state(model.state)
    want_o, want_a = seq.apply(om, ac, 0.01)
    c = (chunk, 3) if isinstance(chunk, int) else (chunk, (3,))
    o, a, st = fdask.imu_noise(
        da.from_array(om, chunks=c), da.from_array(ac, chunks=c), 0.01, model, return_state=True
    )
    got_o, got_a, got_st = client.compute([o, a, st], sync=True)
    assert np.array_equal(got_o, want_o)
    assert np.array_equal(got_a, want_a)
    assert got_st == seq.state
    assert got_st["position"]["sample_count"] == 205
    assert model.state["position"]["sample_count"] == 5  # the model is not advanced


# ---- failures and storage -------------------------------------------------------------


def _kill_once(block, marker):
    """Kills its own worker process the first time any copy of it runs on a worker."""
    try:
        distributed.get_worker()
    except ValueError:
        return block  # not on a worker (never kill the test process)
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return block
    os.close(fd)
    os._exit(1)


def test_killed_worker_changes_nothing(client, tmp_path):
    rng = np.random.default_rng(9)
    imgs = rng.integers(0, 256, size=(6, 16, 18, 3), dtype=np.uint8)
    model = fastnoise.ImageNoise(stddev=0.05, seed=2)
    want = np.stack([model.apply(imgs[i], frame=i) for i in range(6)])
    src = da.from_array(imgs, chunks=(1, 8, 9, 3))
    src = src.map_blocks(
        _kill_once,
        marker=str(tmp_path / "killed"),
        dtype=np.uint8,
        meta=np.empty((0, 0, 0, 0), dtype=np.uint8),
    )
    fut = client.compute(fdask.image_noise(src, model), retries=2)
    got = fut.result(timeout=90)
    assert (tmp_path / "killed").exists()
    assert np.array_equal(got, want)
    client.wait_for_workers(2, timeout=60)


def test_imu_killed_worker_changes_nothing(client, tmp_path):
    """A worker dies mid-run (with fold states and output chunks on it): the lost
    tasks are recomputed from their inputs and the bits are those of apply."""
    rng = np.random.default_rng(11)
    om = rng.normal(size=(600, 3))
    ac = rng.normal(size=(600, 3))
    model = fastnoise.ImuNoise(
        gyro_noise_density=1e-3,
        gyro_gauss_markov_stddev=1e-2,
        gyro_gauss_markov_correlation_time=2.0,
        accel_random_walk_density=1e-3,
        seed=6,
    )
    seq = fastnoise.ImuNoise.from_state(model.state)
    want_o, want_a = seq.apply(om, ac, 0.01)
    src = da.from_array(om, chunks=(50, 3)).map_blocks(
        _kill_once, marker=str(tmp_path / "killed"), dtype=np.float64
    )
    o, a, st = fdask.imu_noise(src, da.from_array(ac, chunks=(50, 3)), 0.01, model, True)
    got_o, got_a, got_st = (f.result(timeout=90) for f in client.compute([o, a, st], retries=2))
    assert (tmp_path / "killed").exists()
    assert np.array_equal(got_o, want_o) and np.array_equal(got_a, want_a)
    assert got_st == seq.state
    client.wait_for_workers(2, timeout=60)


def test_zarr_in_and_out(client, tmp_path):
    zarr = pytest.importorskip("zarr")
    rng = np.random.default_rng(10)
    imgs = rng.integers(0, 256, size=(6, 24, 32, 3), dtype=np.uint8)
    src = zarr.open_array(
        str(tmp_path / "in.zarr"), mode="w", shape=imgs.shape, chunks=(2, 12, 16, 3), dtype=np.uint8
    )
    src[:] = imgs
    model = fastnoise.ImageNoise(stddev=0.04, seed=4)
    noisy = fdask.image_noise(da.from_zarr(str(tmp_path / "in.zarr")), model)
    da.to_zarr(noisy, str(tmp_path / "out.zarr"), compute=False).compute(scheduler=client)
    out = zarr.open_array(str(tmp_path / "out.zarr"), mode="r")[:]
    want = np.stack([model.apply(imgs[i], frame=i) for i in range(6)])
    assert np.array_equal(out, want)


# ---- models are known by their registered name ------------------------------------------


def test_each_function_takes_only_the_model_it_serves():
    # dispatch goes by the model class's declaration (its registered name), so a wrong
    # model is refused at once, naming the class the function needs, instead of
    # failing later in a worker
    imgs = da.zeros((1, 4, 4), dtype=np.uint8)
    pts = da.zeros((1, 5, 3))
    rng = da.zeros((1, 5))
    wrong = fastnoise.AltimeterNoise(seed=1)
    calls = [
        (lambda m: fdask.image_noise(imgs, m), "fastnoise.ImageNoise", "camera"),
        (lambda m: fdask.lidar_noise(pts, m), "fastnoise.LidarNoise", "lidar"),
        (lambda m: fdask.range_noise(rng, m), "fastnoise.RangeNoise", "range"),
        (lambda m: fdask.imu_noise(pts[0], pts[0], 0.01, m), "fastnoise.ImuNoise", "imu"),
    ]
    for call, cls, name in calls:
        with pytest.raises(TypeError, match=rf"must be a {cls} \(the registered model '{name}'\)"):
            call(wrong)
    truth = da.zeros((4, 2))
    with pytest.raises(TypeError, match=r"must be a fastnoise.DvlSimulator"):
        fdask.dvl_noise(truth, wrong, fields=("depth", "altitude"))


# ---- every entry point with every dtype its model takes -----------------------------
#
# Each case: the lazy result's declared dtype, the computed dtype and the bits all equal
# the in-memory model call's, on the cluster, with chunks that split every chunked axis.


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.float32, np.float64])
def test_image_every_dtype(client, dtype):
    rng = np.random.default_rng(21)
    if np.dtype(dtype).kind == "u":
        imgs = rng.integers(0, np.iinfo(dtype).max, size=(3, 10, 12, 3), dtype=dtype)
    else:
        imgs = rng.random((3, 10, 12, 3)).astype(dtype)
    model = fastnoise.ImageNoise(stddev=0.03, seed=2)
    want = np.stack([model.apply(imgs[i], frame=i) for i in range(3)])
    lazy = fdask.image_noise(da.from_array(imgs, chunks=(2, 4, 5, -1)), model)
    got = _compute(client, lazy)
    assert lazy.dtype == got.dtype == want.dtype == np.dtype(dtype)
    assert np.array_equal(got, want)


def test_image_refuses_other_dtypes_before_computing():
    with pytest.raises(ValueError, match=r"images has dtype int16: it must be uint8, uint16"):
        fdask.image_noise(da.zeros((1, 4, 4), dtype=np.int16), fastnoise.ImageNoise(seed=1))


# float32 stays float32 (KITTI .bin, PointCloud2); every other real type gives float64
CLOUD_DTYPES = [(np.float32, np.float32), (np.float64, np.float64), (np.int32, np.float64)]


@pytest.mark.parametrize(("dtype", "result"), CLOUD_DTYPES)
@pytest.mark.parametrize("masked", [False, True])
def test_lidar_every_dtype(client, dtype, result, masked):
    rng = np.random.default_rng(22)
    pts = (rng.normal(size=(4, 20, 3)) * 10).astype(dtype)
    mask = rng.random((4, 20)) < 0.7 if masked else None
    model = fastnoise.LidarNoise(
        distance_noise_stddev_base=0.02, hitpoint_angular_noise_stddev=1e-3, seed=3
    )
    want = np.stack(
        [
            model.apply(pts[i], hit_mask=None if mask is None else mask[i], frame=i).points
            for i in range(4)
        ]
    )
    lazy = fdask.lidar_noise(
        da.from_array(pts, chunks=(3, 7, 3)),
        model,
        hit_mask=None if mask is None else da.from_array(mask, chunks=(2, 9)),
    )
    got = _compute(client, lazy)
    assert lazy.dtype == got.dtype == want.dtype == np.dtype(result)
    assert np.array_equal(got, want)
    assert not np.array_equal(got, pts.astype(result))  # noise was added


def test_lidar_float32_kitti_cloud(client):
    # the case: float32 x, y, z as a KITTI .bin gives them (its fourth column,
    # the reflectance, dropped), no `out` passed by the user, float32 out
    rng = np.random.default_rng(23)
    kitti = (rng.normal(size=(2, 50, 4)) * 20).astype(np.float32)
    model = fastnoise.LidarNoise(distance_noise_stddev_base=0.02, seed=4)
    got = _compute(
        client, fdask.lidar_noise(da.from_array(kitti[:, :, :3], chunks=(1, 16, 3)), model)
    )
    assert got.dtype == np.float32
    want = np.stack(
        [model.apply(np.ascontiguousarray(kitti[i, :, :3]), frame=i).points for i in range(2)]
    )
    assert np.array_equal(got, want)


@pytest.mark.parametrize(("dtype", "result"), CLOUD_DTYPES)
def test_range_every_dtype(client, dtype, result):
    rng = np.random.default_rng(24)
    r = (rng.random((5, 30)) * 25 + 1).astype(dtype)
    model = fastnoise.RangeNoise(0.0, 0.02, 0.5, 30.0, bias_stddev=0.05, seed=5)
    want = np.stack([model.apply(r[i], frame=i) for i in range(5)])
    lazy = fdask.range_noise(da.from_array(r, chunks=(2, 11)), model)
    got = _compute(client, lazy)
    assert lazy.dtype == got.dtype == want.dtype == np.dtype(result)
    assert np.array_equal(got, want)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_dvl_columns_every_dtype(client, dtype):
    # the structured form has one dtype (TRUTH_DTYPE, tested above); the N x F form takes
    # any real columns, read as measure_many reads them, float64 out
    truth = _dvl_truth(40)
    names = truth.dtype.names
    table = (np.stack([truth[n] for n in names], axis=1) * 10).astype(dtype)
    model = fastnoise.DvlSimulator(seed=12)
    rec = fastnoise.DvlSimulator.from_state(model.state).measure_many(
        {n: table[:, i] for i, n in enumerate(names)}
    )
    want = np.stack([rec[n] for n in rec.dtype.names], axis=1)
    lazy = fdask.dvl_noise(da.from_array(table, chunks=(9, 4)), model, fields=names)
    got = _compute(client, lazy)
    assert lazy.dtype == got.dtype == np.float64
    assert np.array_equal(got, want)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_imu_every_dtype(client, dtype):
    rng = np.random.default_rng(25)
    om = (rng.normal(size=(60, 3)) * 3).astype(dtype)
    ac = (rng.normal(size=(60, 3)) * 3 + [0.0, 0.0, 9.81]).astype(dtype)
    gyro = fastnoise.TriadNoise(noise_density=2e-3, random_walk_density=1e-3)
    model = fastnoise.ImuNoise(gyro=gyro, accel=gyro, seed=6)
    want_o, want_a = fastnoise.ImuNoise.from_state(model.state).apply(om, ac, 0.01)
    o, a = fdask.imu_noise(
        da.from_array(om, chunks=(17, 3)), da.from_array(ac, chunks=(17, 3)), 0.01, model
    )
    got_o, got_a = client.compute([o, a], sync=True)
    assert o.dtype == a.dtype == got_o.dtype == got_a.dtype == want_o.dtype == np.float64
    assert np.array_equal(got_o, want_o) and np.array_equal(got_a, want_a)
