"""Per-sample calls (issue 28): each one beside a bare compiled call of the same arity
and result kind, beside numba ``@njit`` (when numba is installed) and beside the numpy
code a user would write.

The bare calls come from a tiny Cython module compiled into a temporary folder when
this file is collected (``_bare.pyx`` below): each takes the same arguments as the
fastnoise call and returns the same kind of result (a float, a tuple of floats, a new
(3,) array, the arrays passed in, a new small object) and does nothing else, so it is
the cost of crossing the Python/C boundary alone. Without Cython or a C compiler the
bare cases are skipped; the fastnoise, numba and numpy cases still run.

Target: every fastnoise case within 2x its bare call and never slower than numba;
``DvlSimulator.measure`` with a ``TRUTH_DTYPE`` record at most 1 us.

Run (prints the table: ns per call of the fastest round, x bare, x numba):

    python -m pytest bench/bench_per_sample.py --benchmark-enable -q -p no:cacheprovider

Each pytest-benchmark round times ``_CALLS`` calls; pytest-benchmark divides by that
count, so the times are per call. The table comes from a pass of its own in which the
four kinds of each call take turns round by round (see ``test_table``). Many short
rounds, and the fastest kept: on a shared machine a short round is more often left
alone than a long one.
"""

# numba's nopython code draws with numpy's global functions (np.random.standard_normal),
# as numba users write it; the legacy-API rule does not apply to those cases.
# ruff: noqa: NPY002

from __future__ import annotations

import functools
import importlib.util
import os
import shutil
import subprocess
import sysconfig
import tempfile
import time

import numpy as np
import pytest

from fastnoise import (
    DvlSimulator,
    ForceTorqueNoise,
    GaussianNoiseGenerator,
    GazeboNoise,
    ImuNoise,
    MagnetometerNoise,
    RangeNoise,
    RigidBodySimulator,
    SensorSimulator,
)
from fastnoise.models.dvl import TRUTH_DTYPE
from fastnoise.models.imu import TriadNoise

_CALLS = 2_000
_ROUNDS = 60

# ---- the bare compiled calls ---------------------------------------------------------

_BARE_SRC = r"""
# cython: language_level=3, boundscheck=False, wraparound=False
cimport numpy as cnp
cnp.import_array()

cdef class Message:
    # a new small object holding 13 doubles (DvlMeasurement's size)
    cdef double v[13]

# a float made on each call, as a call that computes its result must (a literal would
# be Cython's cached constant: no float made at all)
cdef double _quarter = 0.25

def f0():
    return _quarter

def f1(double x):
    return x

def f2(double a, double b):
    return a

def f3(double x, double y, double z):
    return (x, y, z)

def f6(double a, double b, double c, double d, double e, double f):
    return (a, b, c, d, e, f)

def obj1(x):
    return Message.__new__(Message)

def new3():
    cdef cnp.npy_intp n = 3
    return cnp.PyArray_EMPTY(1, &n, cnp.NPY_FLOAT64, 0)

def out1(cnp.ndarray out):
    (<double *>cnp.PyArray_DATA(out))[0] = 0.0
    return out

def step_new(cnp.ndarray w, cnp.ndarray a, double dt):
    cdef cnp.npy_intp n = 3
    return (cnp.PyArray_EMPTY(1, &n, cnp.NPY_FLOAT64, 0),
            cnp.PyArray_EMPTY(1, &n, cnp.NPY_FLOAT64, 0))

def step_out(cnp.ndarray w, cnp.ndarray a, double dt, cnp.ndarray wo, cnp.ndarray ao):
    cdef double *p = <double *>cnp.PyArray_DATA(wo)
    cdef double *q = <double *>cnp.PyArray_DATA(ao)
    p[0] = dt
    q[0] = dt
    return wo, ao
"""


@functools.cache
def _build_bare():
    """Compile _BARE_SRC into a temporary folder and import it; None when Cython or a
    C compiler is missing (the bare cases then skip)."""
    try:
        from Cython.Build import cythonize  # noqa: F401
        from Cython.Compiler import Main
    except ImportError:
        return None
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    cc = cc.split()[0]
    if shutil.which(cc) is None:
        return None
    # the folder goes once the module is loaded (a loaded library stays mapped after
    # its file is removed): every run used to leave 0.7 MB behind in the temp folder
    folder = tempfile.mkdtemp(prefix="fastnoise_bare_")
    try:
        return _compile_bare(Main, cc, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _compile_bare(Main, cc, folder):
    pyx = os.path.join(folder, "_fastnoise_bare.pyx")
    with open(pyx, "w") as f:
        f.write(_BARE_SRC)
    opts = Main.CompilationOptions(Main.default_options, language_level=3)
    result = Main.compile(pyx, opts)
    if result.num_errors:
        return None
    so = os.path.join(folder, "_fastnoise_bare" + sysconfig.get_config_var("EXT_SUFFIX"))
    cmd = [
        cc,
        "-shared",
        "-fPIC",
        "-O2",
        "-DNPY_NO_DEPRECATED_API=NPY_1_7_API_VERSION",
        "-I" + sysconfig.get_paths()["include"],
        "-I" + np.get_include(),
        result.c_file,
        "-o",
        so,
    ]
    if subprocess.run(cmd, capture_output=True).returncode != 0:
        return None
    spec = importlib.util.spec_from_file_location("_fastnoise_bare", so)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def bare():
    mod = _build_bare()
    if mod is None:
        pytest.skip("no Cython or no C compiler: the bare compiled calls cannot be built")
    return mod


# ---- numba (optional) ----------------------------------------------------------------

try:
    import numba
except ImportError:  # numba is in the bench extra; without it those cases skip
    numba = None

_NB = {}


def _numba_funcs():
    """The @njit code a user would write for each call, compiled once (first use)."""
    if numba is None:
        pytest.skip("numba is not installed (pip install fastnoise[bench])")
    if _NB:
        return _NB
    njit = numba.njit

    @njit
    def normal0():
        return np.random.standard_normal()

    @njit
    def normal2(loc, scale):
        return loc + scale * np.random.standard_normal()

    @njit
    def gz1(x):
        return x + 0.01 + 0.1 * np.random.standard_normal()

    @njit
    def gz3(x, y, z):
        return (
            x + 1e-7 * np.random.standard_normal(),
            y + 1e-7 * np.random.standard_normal(),
            z + 1e-7 * np.random.standard_normal(),
        )

    @njit
    def gz6(a, b, c, d, e, f):
        return (
            a + 0.5 * np.random.standard_normal(),
            b + 0.5 * np.random.standard_normal(),
            c + 0.5 * np.random.standard_normal(),
            d + 0.05 * np.random.standard_normal(),
            e + 0.05 * np.random.standard_normal(),
            f + 0.05 * np.random.standard_normal(),
        )

    @njit
    def range1(r):
        if r < 0.1 or r > 30.0:
            return np.inf
        v = r + 0.01 + 0.02 * np.random.standard_normal()
        return min(max(v, 0.1), 30.0)

    @njit
    def dvl(t, bias, sd):
        m = np.empty(13)
        for i in range(10):
            m[i] = t[i] + bias[i] + sd[i] * np.random.standard_normal()
        d2r = np.pi / 180.0
        cr, sr = np.cos(m[0] * d2r), np.sin(m[0] * d2r)
        cp, sp = np.cos(m[1] * d2r), np.sin(m[1] * d2r)
        cy, sy = np.cos(m[2] * d2r), np.sin(m[2] * d2r)
        u, v, w = m[3], m[4], m[5]
        m[10] = cy * cp * u + (cy * sp * sr - sy * cr) * v + (cy * sp * cr + sy * sr) * w
        m[11] = sy * cp * u + (sy * sp * sr + cy * cr) * v + (sy * sp * cr - cy * sr) * w
        m[12] = -sp * u + cp * sr * v + cp * cr * w
        return m

    @njit
    def imu_into(w, a, dt, bg, ba, wo, ao):
        s = np.sqrt(dt)
        for i in range(3):
            bg[i] += 1e-4 * s * np.random.standard_normal()
            ba[i] += 1e-3 * s * np.random.standard_normal()
            wo[i] = w[i] + bg[i] + 1e-3 / s * np.random.standard_normal()
            ao[i] = a[i] + ba[i] + 0.02 * np.random.standard_normal()
        return wo, ao

    @njit
    def imu_new(w, a, dt, bg, ba):
        return imu_into(w, a, dt, bg, ba, np.empty(3), np.empty(3))

    @njit
    def read3(x, drift, sigma):
        out = np.empty(3)
        for i in range(3):
            out[i] = x[i] + drift[i] + sigma[i] * np.random.standard_normal()
        return out

    @njit
    def read3_into(x, drift, sigma, out):
        for i in range(3):
            out[i] = x[i] + drift[i] + sigma[i] * np.random.standard_normal()
        return out

    _NB.update(locals())
    return _NB


# ---- the inputs ---------------------------------------------------------------------

GZ = {"mean": 0.01, "stddev": 0.1, "bias_mean": 0.02, "bias_stddev": 0.01}
GYRO = TriadNoise(noise_density=1e-3, random_walk_density=1e-4, turn_on_bias_stddev=0.01)
ACCEL = TriadNoise(noise_stddev=0.02, random_walk_density=1e-3)
TRUTH = (2.0, -1.0, 45.0, 1.5, 0.2, -0.1, 20.0, 5.0, 1.4, 900.0)
DVL_SENSORS = {
    name: {"bias": 0.01, "noise_stddev": 0.05, "anchor": 0.0, "anchor_probability": 0.0}
    for name in ("dvl_roll", "dvl_pitch", "dvl_yaw", "dvl_surge", "dvl_sway")
}


def _dvl():
    return DvlSimulator(DVL_SENSORS, seed=1)


def _truth_record():
    return np.array([TRUTH], dtype=TRUTH_DTYPE)[0]


def _truth_dict():
    return dict(zip(TRUTH_DTYPE.names, TRUTH, strict=True))


def _imu():
    return ImuNoise(GYRO, ACCEL, seed=1)


def _simulator():
    body = RigidBodySimulator(np.array([10.0, 8.0, 12.0]), omega=(0.1, -0.06, 0.01))
    return SensorSimulator(body, seed=1, noise_stddev=np.full(3, 1e-3), drift_rate=1e-6)


W = np.array([0.1, -0.2, 0.05])
A = np.array([0.3, 0.1, 9.81])
DT = 0.01

# Each case: (name, fastnoise callable factory, bare function name and its args,
# numba function name and args factory, numpy callable factory). A factory returns
# (function, args) so that state is built outside the timed calls.


def _case_generate():
    g = GaussianNoiseGenerator(1)
    return g.generate, ()


def _case_standard_normal():
    g = GaussianNoiseGenerator(1)
    return g.standard_normal, ()


def _case_normal():
    g = GaussianNoiseGenerator(1)
    return g.normal, (0.5, 2.0)


def _case_dvl_record():
    return _dvl().measure, (_truth_record(),)


def _case_dvl_array():
    return _dvl().measure, (np.array(TRUTH),)


def _case_dvl_dict():
    return _dvl().measure, (_truth_dict(),)


def _case_force_torque():
    m = ForceTorqueNoise(*([GZ] * 6), seed=1)
    return m.apply_one, (1.0, 2.0, 3.0, 0.1, 0.2, 0.3)


def _case_magnetometer():
    m = MagnetometerNoise(*([{"stddev": 1e-7, "bias_stddev": 1e-8}] * 3), seed=1)
    return m.apply_one, (2e-5, 1e-6, -4e-5)


def _case_gazebo():
    return GazeboNoise(**GZ, seed=1).apply_one, (1.0,)


def _case_range():
    return RangeNoise(0.01, 0.02, 0.1, 30.0, seed=1).apply_one, (5.0,)


def _case_imu_out():
    return _imu().step, (W, A, DT, np.empty(3), np.empty(3))


def _case_imu_new():
    return _imu().step, (W, A, DT)


def _case_read_omega():
    return _simulator().read_angular_velocity, ()


def _case_read_omega_out():
    return _simulator().read_angular_velocity, (np.empty(3),)


def _case_read_orientation():
    return _simulator().read_orientation, ()


CASES = {
    "generate": (_case_generate, ("f0", ()), ("normal0", ())),
    "standard_normal": (_case_standard_normal, ("f0", ()), ("normal0", ())),
    "normal_scalar": (_case_normal, ("f2", (0.5, 2.0)), ("normal2", (0.5, 2.0))),
    "dvl_measure_record": (_case_dvl_record, ("obj1", (None,)), ("dvl", "dvl")),
    "dvl_measure_array": (_case_dvl_array, ("obj1", (None,)), ("dvl", "dvl")),
    "dvl_measure_dict": (_case_dvl_dict, ("obj1", (None,)), ("dvl", "dvl")),
    "force_torque_apply_one": (
        _case_force_torque,
        ("f6", (1.0, 2.0, 3.0, 0.1, 0.2, 0.3)),
        ("gz6", (1.0, 2.0, 3.0, 0.1, 0.2, 0.3)),
    ),
    "magnetometer_apply_one": (
        _case_magnetometer,
        ("f3", (2e-5, 1e-6, -4e-5)),
        ("gz3", (2e-5, 1e-6, -4e-5)),
    ),
    "gazebo_apply_one": (_case_gazebo, ("f1", (1.0,)), ("gz1", (1.0,))),
    "range_apply_one": (_case_range, ("f1", (5.0,)), ("range1", (5.0,))),
    "imu_step_out": (_case_imu_out, ("step_out", "imu_out"), ("imu_into", "imu_out")),
    "imu_step_new": (_case_imu_new, ("step_new", (W, A, DT)), ("imu_new", "imu_new")),
    "read_angular_velocity": (_case_read_omega, ("new3", ()), ("read3", "read3")),
    "read_angular_velocity_out": (
        _case_read_omega_out,
        ("out1", "out3"),
        ("read3_into", "read3_into"),
    ),
    "read_orientation": (_case_read_orientation, ("new3", ()), ("read3", "read3")),
}


def _numba_args(kind):
    if kind == "dvl":
        return (np.array(TRUTH), np.full(10, 0.01), np.full(10, 0.05))
    if kind in ("imu_out", "imu_new"):
        extra = (np.empty(3), np.empty(3)) if kind == "imu_out" else ()
        return (W, A, DT, np.zeros(3), np.zeros(3), *extra)
    if kind in ("read3", "read3_into"):
        extra = (np.empty(3),) if kind == "read3_into" else ()
        return (W, np.zeros(3), np.full(3, 1e-3), *extra)
    return kind


def _bare_args(kind):
    if kind == "imu_out":
        return (W, A, DT, np.empty(3), np.empty(3))
    if kind == "out3":
        return (np.empty(3),)
    return kind


def _numpy_case(name):
    """The numpy code a user writes for each call, as (function, args)."""
    rng = np.random.default_rng(1)
    if name in ("generate", "standard_normal"):
        return rng.standard_normal, ()
    if name == "normal_scalar":
        return rng.normal, (0.5, 2.0)
    if name.startswith("dvl"):
        bias, sd = np.full(10, 0.01), np.full(10, 0.05)
        d2r = np.pi / 180.0

        def dvl(truth):
            t = (
                np.array([truth[f] for f in TRUTH_DTYPE.names])
                if name != "dvl_measure_array"
                else truth
            )
            m = t + bias + sd * rng.standard_normal(10)
            r, p, y = m[:3] * d2r
            cr, sr, cp, sp, cy, sy = (
                np.cos(r),
                np.sin(r),
                np.cos(p),
                np.sin(p),
                np.cos(y),
                np.sin(y),
            )
            rot = np.array(
                [
                    [cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
                    [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
                    [-sp, cp * sr, cp * cr],
                ]
            )
            return m, rot @ m[3:6]

        arg = {"dvl_measure_record": _truth_record(), "dvl_measure_dict": _truth_dict()}
        return dvl, (arg.get(name, np.array(TRUTH)),)
    if name == "force_torque_apply_one":
        bias = np.full(6, 0.02)
        return (lambda *v: np.asarray(v) + bias + 0.1 * rng.standard_normal(6)), (
            1.0,
            2.0,
            3.0,
            0.1,
            0.2,
            0.3,
        )
    if name == "magnetometer_apply_one":
        return (lambda *v: np.asarray(v) + 1e-7 * rng.standard_normal(3)), (2e-5, 1e-6, -4e-5)
    if name == "gazebo_apply_one":
        return (lambda x: x + 0.03 + 0.1 * rng.standard_normal()), (1.0,)
    if name == "range_apply_one":
        return (lambda r: min(max(r + 0.01 + 0.02 * rng.standard_normal(), 0.1), 30.0)), (5.0,)
    if name.startswith("imu"):
        bg, ba = np.zeros(3), np.zeros(3)

        def step(w, a, dt, wo=None, ao=None):
            s = np.sqrt(dt)
            bg[:] += 1e-4 * s * rng.standard_normal(3)
            ba[:] += 1e-3 * s * rng.standard_normal(3)
            wn = w + bg + 1e-3 / s * rng.standard_normal(3)
            an = a + ba + 0.02 * rng.standard_normal(3)
            if wo is None:
                return wn, an
            wo[:] = wn
            ao[:] = an
            return wo, ao

        extra = (np.empty(3), np.empty(3)) if name == "imu_step_out" else ()
        return step, (W, A, DT, *extra)
    drift, sigma = np.zeros(3), np.full(3, 1e-3)
    if name == "read_angular_velocity_out":
        buf = np.empty(3)

        def read_into(out):
            np.add(W, drift, out=out)
            out += sigma * rng.standard_normal(3)
            return out

        return read_into, (buf,)
    return (lambda: W + drift + sigma * rng.standard_normal(3)), ()


def _time(benchmark, fn, args):
    return benchmark.pedantic(fn, args, iterations=_CALLS, rounds=_ROUNDS, warmup_rounds=1)


# ---- the cases -------------------------------------------------------------------------

_RESULTS: dict[str, dict[str, float]] = {}


def _record(benchmark, name, kind):
    stats = getattr(benchmark, "stats", None)
    if stats is not None and getattr(stats, "stats", None) is not None:
        # the fastest round: on a shared machine the other loads only ever add time
        _RESULTS.setdefault(name, {})[kind] = stats.stats.min * 1e9


def _run_fastnoise(benchmark, request, name):
    fn, args = CASES[name][0]()
    _time(benchmark, fn, args)


def _run_bare(benchmark, request, name):
    bare = request.getfixturevalue("bare")  # skips without Cython or a C compiler
    fname, args = CASES[name][1]
    _time(benchmark, getattr(bare, fname), _bare_args(args))


def _run_numba(benchmark, request, name):
    funcs = _numba_funcs()
    fname, args = CASES[name][2]
    fn = funcs[fname]
    args = _numba_args(args)
    fn(*args)  # compile outside the timing
    _time(benchmark, fn, args)


def _run_numpy(benchmark, request, name):
    fn, args = _numpy_case(name)
    _time(benchmark, fn, args)


_KINDS = {
    "fastnoise": _run_fastnoise,
    "bare": _run_bare,
    "numba": _run_numba,
    "numpy": _run_numpy,
}


# Call by call: the four cases of one call run one after the other, so the ratios
# compare timings taken within seconds of each other (on a shared machine the load
# drifts over the minutes a whole run takes).
@pytest.mark.parametrize(("name", "kind"), [(name, kind) for name in CASES for kind in _KINDS])
def test_call(benchmark, request, name, kind):
    benchmark.group = f"per-sample-{name}"
    _KINDS[kind](benchmark, request, name)
    _record(benchmark, name, kind)


# The table's ratios come from a pass of its own: for each call, rounds of the four
# kinds taken in turn (fastnoise, bare, numba, numpy), each round a plain loop of direct
# calls after a short untimed one, and the fastest round of each kind kept. So
# fastnoise and its yardsticks are timed within milliseconds of each other, each warm
# (the untimed calls refill the caches and branch history the other kinds' rounds
# took), in an order that turns round by round (no kind always follows the same one),
# and without pytest-benchmark's own call (``f(*args, **kwargs)`` in a closure), which
# adds the same 10-40 ns to both and so flattens the ratio.
_TABLE_ROUNDS = 150
_TABLE_CALLS = 1_000
_TABLE_WARM = 100


def _loop_ns(fn, args, n):
    t0 = time.perf_counter_ns()
    for _ in range(n):
        fn(*args)
    return (time.perf_counter_ns() - t0) / n


def _interleaved(name, bare):
    kinds = {"fastnoise": CASES[name][0]()}
    if bare is not None:
        fname, a = CASES[name][1]
        kinds["bare"] = (getattr(bare, fname), _bare_args(a))
    if numba is not None:
        funcs = _numba_funcs()
        fname, a = CASES[name][2]
        kinds["numba"] = (funcs[fname], _numba_args(a))
    kinds["numpy"] = _numpy_case(name)
    best = dict.fromkeys(kinds, float("inf"))
    order = list(kinds)
    for r in range(_TABLE_ROUNDS):
        for kind in order[r % len(order) :] + order[: r % len(order)]:
            fn, args = kinds[kind]
            _loop_ns(fn, args, _TABLE_WARM)  # numba compiles in the first of these
            best[kind] = min(best[kind], _loop_ns(fn, args, _TABLE_CALLS))
    return best


def test_table(capsys):
    """Prints ns per call and the ratios, from the interleaved pass above, once the
    timed cases have run (a timed run only: ``--benchmark-enable``)."""
    if not _RESULTS:
        return
    bare = _build_bare()
    nan = float("nan")
    lines = [
        "",
        f"{'per-sample call':<28}{'fastnoise ns':>13}{'bare ns':>9}{'x bare':>8}"
        f"{'numba ns':>10}{'x numba':>9}{'numpy ns':>10}",
    ]
    for name in CASES:
        d = _interleaved(name, bare)
        fn, b, nb, npy = (d.get(k, nan) for k in ("fastnoise", "bare", "numba", "numpy"))
        lines.append(
            f"{name:<28}{fn:>13.1f}{b:>9.1f}{fn / b:>8.2f}{nb:>10.0f}{fn / nb:>9.2f}{npy:>10.0f}"
        )
    with capsys.disabled():
        print("\n".join(lines))
