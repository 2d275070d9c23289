# mypy: disable-error-code="import-not-found, import-untyped"
"""Sensor noise for MuJoCo models: :class:`SensorNoise` reads a ``mujoco.MjModel``'s
sensors once, makes a plan, and noises a whole ``sensordata`` per step in one C call.

MuJoCo parses the MJCF sensor attribute ``noise`` but has not applied it since 3.1.4;
this puts it back, reproducibly: step s of environment e is a pure function of
(seed, e, s). ``mujoco`` itself is needed only to read the model (duck-typed here, so
``import fastnoise.mujoco`` does not import it).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any

import numpy as np

from fastnoise.core import spec, validate
from fastnoise.core.generator import fill_normals
from fastnoise.core.seeding import as_seed_sequence, env_model_key, seed_sequence_state
from fastnoise.mujoco._plan import KINDS, ROW, Plan

__all__ = ["SENSOR_KINDS", "SensorNoise"]

#: Key tag of SensorNoise's keys (``model_seed_sequence(seed, KEY_TAG)``).
KEY_TAG = "mujoco_sensor"
_BIAS_STREAM = 1  # csrc/mjsensor.h FN_MJ_STREAM_BIAS

#: What each MuJoCo sensor type (``mujoco.mjtSensor`` name, without ``mjSENS_``) gets:
#: ``white`` additive noise per value; ``nonneg`` the same, kept >= 0; ``range`` the
#: same, >= 0, with -1 (no hit) kept; ``unit`` the same, then scaled back to unit
#: length; ``quat`` a small rotation; ``none`` nothing (discrete readings).
SENSOR_KINDS: dict[str, str] = {
    "TOUCH": "nonneg",
    "ACCELEROMETER": "white",
    "VELOCIMETER": "white",
    "GYRO": "white",
    "FORCE": "white",
    "TORQUE": "white",
    "MAGNETOMETER": "white",
    "RANGEFINDER": "range",
    "CAMPROJECTION": "white",
    "JOINTPOS": "white",
    "JOINTVEL": "white",
    "TENDONPOS": "white",
    "TENDONVEL": "white",
    "ACTUATORPOS": "white",
    "ACTUATORVEL": "white",
    "ACTUATORFRC": "white",
    "JOINTACTFRC": "white",
    "TENDONACTFRC": "white",
    "BALLQUAT": "quat",
    "BALLANGVEL": "white",
    "JOINTLIMITPOS": "white",
    "JOINTLIMITVEL": "white",
    "JOINTLIMITFRC": "white",
    "TENDONLIMITPOS": "white",
    "TENDONLIMITVEL": "white",
    "TENDONLIMITFRC": "white",
    "FRAMEPOS": "white",
    "FRAMEQUAT": "quat",
    "FRAMEXAXIS": "unit",
    "FRAMEYAXIS": "unit",
    "FRAMEZAXIS": "unit",
    "FRAMELINVEL": "white",
    "FRAMEANGVEL": "white",
    "FRAMELINACC": "white",
    "FRAMEANGACC": "white",
    "SUBTREECOM": "white",
    "SUBTREELINVEL": "white",
    "SUBTREEANGMOM": "white",
    "INSIDESITE": "none",
    "GEOMDIST": "white",
    "GEOMNORMAL": "unit",
    "GEOMFROMTO": "white",
    "CONTACT": "none",
    "E_POTENTIAL": "white",
    "E_KINETIC": "white",
    "CLOCK": "none",
    "TACTILE": "white",
    "PLUGIN": "white",
    "USER": "white",
}

#: The keys of a sensor's configuration (``sensors={"name": {...}}``), as
#: :class:`fastnoise.TriadNoise` names them; each a scalar or one value per component.
CONFIG_KEYS = (
    "noise_stddev",
    "noise_density",
    "bias",
    "turn_on_bias_stddev",
    "random_walk_density",
)
_MAX = 1e150
#: ``state['model']`` and ``state['version']`` of a SensorNoise state.
STATE_MODEL = "mujoco.SensorNoise"
STATE_VERSION = 1


def _type_names() -> dict[int, str]:
    import mujoco

    return {
        int(v): n[len("mjSENS_") :]
        for n, v in vars(mujoco.mjtSensor).items()
        if n.startswith("mjSENS_")
    }


def _keys(ss: np.random.SeedSequence, num_envs: int | None, env: int) -> np.ndarray:
    """The Philox key of each environment: child e of the model's seed sequence
    (:func:`fastnoise.core.seeding.env_model_key`), e in range(num_envs) or [env]."""
    ids = range(num_envs) if num_envs is not None else (env,)
    return np.array([env_model_key(ss, KEY_TAG, e) for e in ids], dtype=np.uint64)


def _plain(value: object) -> object:
    """A configuration value as plain Python (a list for an array), for the state."""
    arr = np.asarray(value)
    return arr.tolist() if arr.ndim else value


def _per_component(name: str, value: object, n: int, *, signed: bool = False) -> np.ndarray:
    arr = np.asarray(value, dtype=object)
    if arr.ndim == 0:
        arr = np.full(n, value, dtype=object)
    if arr.shape != (n,):
        raise ValueError(f"{name}={value!r} is not allowed: give a scalar or {n} values")
    low = -_MAX if signed else 0.0
    return np.array([validate.in_range(name, v, low, _MAX) for v in arr], dtype=np.float64)


class SensorNoise:
    """SensorNoise(model, *, seed=None, sensors=None, num_envs=None, env=0, dt=None,
    steps=1)

    Noise for every sensor of a ``mujoco.MjModel``, one C call per step.

    Parameters
    ----------
    model : mujoco.MjModel
        Read once, at construction: each sensor's type, address, size and MJCF
        ``noise``.
    seed : int, numpy.random.SeedSequence or None
    sensors : dict or None
        ``{"sensor name": config}`` for richer noise than the MJCF ``noise``: config
        is a dict of ``noise_stddev`` (white noise per sample, the sensor's unit;
        replaces the MJCF noise), ``noise_density`` (white-noise density N,
        unit/sqrt(Hz): per-sample sigma^2 = noise_stddev^2 + N^2/dt), ``bias``
        (constant, unit), ``turn_on_bias_stddev`` (a bias drawn per environment at
        construction and at each of its resets, unit) and ``random_walk_density``
        (K, unit/sqrt(s): the bias walks by K sqrt(dt) z per step), the names of
        :class:`fastnoise.TriadNoise`; each a scalar or one value per component. For
        a gyro (rad/s) and an accelerometer (m/s^2) this is ImuNoise's triad model
        without the Gauss-Markov term. A quaternion sensor takes ``noise_stddev``
        only, per rotation axis (rad).
    num_envs : int or None
        A batch: :meth:`apply` takes an (num_envs, nsensordata) array (MJX's and
        MuJoCo Warp's layout, as host numpy), and environment i gives the bits of
        ``env=i``.
    env : int
        The environment a single model is keyed as (child ``env`` of the model's
        seed sequence, as every batched model); 0 with ``num_envs``.
    dt : float or None
        Seconds between calls of :meth:`apply`; None: ``model.opt.timestep * steps``.
    steps : int
        Physics steps between calls (for the default dt).

    Sensors with no MJCF noise and no config are left bit for bit as they are.
    Each sensor type gets what :data:`SENSOR_KINDS` says (docs/mujoco.rst lists
    them): additive noise in the sensor's frame and unit; touch stays >= 0; a
    rangefinder's -1 (no hit) is kept and a hit stays >= 0; frame axes and geom
    normals stay unit vectors; ``framequat`` and ``ballquat`` are turned by a
    rotation vector of per-axis standard deviation ``noise`` (rad) and stay unit
    quaternions; ``contact``, ``insidesite`` and ``clock`` are discrete or exact and
    get nothing (a nonzero MJCF noise there warns).
    """

    def __init__(
        self,
        model: Any,
        *,
        seed: object = None,
        sensors: Mapping[str, Mapping[str, Any]] | None = None,
        num_envs: int | None = None,
        env: int = 0,
        dt: float | None = None,
        steps: int = 1,
    ) -> None:
        if num_envs is not None:
            num_envs = validate.integer("num_envs", num_envs, 1, 65537)
            if env != 0:
                raise ValueError(
                    f"env={env!r} is not allowed with num_envs={num_envs!r}: a batch holds "
                    "environments 0 to num_envs - 1"
                )
        env = validate.integer("env", env, 0, 2**31)
        steps = validate.integer("steps", steps, 1, 2**31)
        if dt is None:
            dt = float(model.opt.timestep) * steps
        self.dt = validate.in_range("dt", dt, 0.0, _MAX)
        if not self.dt > 0:
            raise ValueError(f"dt={dt!r} is not allowed: it must be > 0 (s)")
        if sensors is None:
            sensors = {}
        if not isinstance(sensors, Mapping):
            raise TypeError(f"sensors={sensors!r} is not allowed: it must be a dict")
        names = [model.sensor(i).name for i in range(model.nsensor)]
        unknown = [k for k in sensors if k not in names]
        if unknown:
            raise ValueError(
                f"sensors has the names {unknown}, which are not sensors of the model "
                f"(its sensors: {names})"
            )
        types = _type_names()
        rows: list[tuple[int, ...]] = []
        sd: list[float] = []
        nd: list[float] = []
        cb: list[float] = []
        rw: list[float] = []
        tob: list[float] = []
        nz = nstate = 0
        self.kinds: dict[str, str] = {}
        for i, name in enumerate(names):
            tname = types.get(int(model.sensor_type[i]), "USER")
            kind = SENSOR_KINDS.get(tname, "white")
            noise = float(model.sensor_noise[i])
            cfg = sensors.get(name)
            label = name or f"sensor {i}"
            if cfg is None and noise == 0.0:
                continue
            if kind == "none":
                if cfg is not None:
                    raise ValueError(
                        f"sensors[{label!r}]: a {tname.lower()} sensor is not noised "
                        "(a discrete or exact reading)"
                    )
                warnings.warn(
                    f"sensor {label!r} ({tname.lower()}) has noise={noise} in the model, "
                    "which SensorNoise does not apply: its reading is discrete or exact",
                    UserWarning,
                    stacklevel=2,
                )
                continue
            adr, dim = int(model.sensor_adr[i]), int(model.sensor_dim[i])
            cfg = dict(cfg or {})
            bad = [k for k in cfg if k not in CONFIG_KEYS]
            if bad:
                raise ValueError(
                    f"sensors[{label!r}] has the unknown keys {bad}: allowed are "
                    f"{list(CONFIG_KEYS)}"
                )
            if kind == "quat":
                if set(cfg) - {"noise_stddev"}:
                    raise ValueError(
                        f"sensors[{label!r}]: a quaternion sensor takes noise_stddev "
                        "only (rad per rotation axis)"
                    )
                n = 3
            else:
                n = dim
            key = f"sensors[{label!r}]"
            p_sd = _per_component(f"{key}['noise_stddev']", cfg.get("noise_stddev", noise), n)
            p_nd = _per_component(f"{key}['noise_density']", cfg.get("noise_density", 0.0), n)
            p_cb = _per_component(f"{key}['bias']", cfg.get("bias", 0.0), n, signed=True)
            p_tb = _per_component(
                f"{key}['turn_on_bias_stddev']", cfg.get("turn_on_bias_stddev", 0.0), n
            )
            p_rw = _per_component(
                f"{key}['random_walk_density']", cfg.get("random_walk_density", 0.0), n
            )
            stateful = bool(p_tb.any() or p_rw.any())
            rows.append((KINDS[kind], adr, dim, nz, len(sd), nstate if stateful else -1))
            nz += 3 if kind == "quat" else (2 * dim if stateful else dim)
            if stateful:
                nstate += 2 * dim
            sd.extend(p_sd)
            nd.extend(p_nd)
            cb.extend(p_cb)
            rw.extend(p_rw)
            tob.extend(p_tb)
            self.kinds[name] = kind
        self.model_nsensordata = int(model.nsensordata)
        self._sensors = {
            k: {c: _plain(v) for c, v in dict(cfg).items()} for k, cfg in sensors.items()
        }
        self.num_envs = num_envs
        self.env = env
        self.seed = as_seed_sequence(seed)
        keys = _keys(self.seed, num_envs, env)
        self._rows = np.array(rows, dtype=ROW)
        self._tob = np.array(tob, dtype=np.float64)
        self._plan = Plan(self._rows, sd, nd, cb, rw, nz, nstate, keys, self.model_nsensordata)
        self._plan_values = [float(v) for v in (*sd, *nd, *cb, *rw)]
        self._resets = np.zeros(keys.shape[0], dtype=np.uint64)
        self._draw_biases(np.arange(keys.shape[0]))

    def _draw_biases(self, ids: np.ndarray) -> None:
        plan = self._plan
        if plan.nstate == 0:
            return
        keys = _keys(self.seed, self.num_envs, self.env)
        z = np.empty(plan.nstate, dtype=np.float64)
        for e in ids:
            fill_normals(int(keys[e]), int(self._resets[e]) << 1 | _BIAS_STREAM, 0, z)
            st = plan.state[e]
            st[:] = 0.0
            for row in self._rows:
                if row["soff"] < 0:
                    continue
                s, d, p = int(row["soff"]), int(row["dim"]), int(row["poff"])
                st[s : s + d] = self._tob[p : p + d] * z[s : s + d]

    def apply(self, data: Any, *, dt: float | None = None) -> np.ndarray:
        """Noise one step in place and return the noised array.

        ``data``: a ``mujoco.MjData`` (its ``sensordata``) or a float64 array of
        shape (nsensordata,); with ``num_envs=N`` an (N, nsensordata) array. ``dt``
        (s) overrides the constructor's for this call."""
        arr = getattr(data, "sensordata", data)
        want = (
            (self.model_nsensordata,)
            if self.num_envs is None
            else (self.num_envs, self.model_nsensordata)
        )
        if (
            not isinstance(arr, np.ndarray)
            or arr.dtype != np.float64
            or arr.shape != want
            or not arr.flags.c_contiguous
            or not arr.flags.writeable
        ):
            raise ValueError(
                f"data must be a mujoco.MjData or a writeable C-contiguous float64 array "
                f"of shape {want} (noised in place), not {type(arr).__name__} "
                f"{getattr(arr, 'dtype', '')}{getattr(arr, 'shape', '')}"
            )
        step_dt = self.dt if dt is None else validate.in_range("dt", dt, 0.0, _MAX)
        if not step_dt > 0:
            raise ValueError(f"dt={dt!r} is not allowed: it must be > 0 (s)")
        return self._plan.run(arr, step_dt)

    def reset(self, env_ids: Any = None) -> None:
        """``reset()``: back to construction (steps 0, first turn-on biases, walks 0).
        ``reset(env_ids)`` (indices, or a boolean mask of shape (num_envs,)): those
        environments draw new turn-on biases (reset r of environment e from (seed,
        e, r)) and their random walks restart at 0; the others are not touched."""
        n = self._plan.nenv
        if env_ids is None:
            self._plan.steps[:] = 0
            self._resets[:] = 0
            ids = np.arange(n)
        else:
            ids = spec.env_ids(env_ids, n)
            self._resets[ids] += 1
        self._draw_biases(ids)

    @property
    def step(self) -> np.ndarray:
        """Steps applied so far per environment (uint64, shape (num_envs,) or (1,))."""
        return self._plan.steps.copy()

    # ---- state ---------------------------------------------------------------------
    def _fingerprint(self) -> list[list[Any]]:
        """What the model contributed to the plan: each noised row (kind, address,
        size) and its parameters, so a state is only restored on the same model."""
        rows = [[int(r[f]) for f in ("kind", "adr", "dim")] for r in self._rows]
        return rows + [list(self._plan_values)]

    @property
    def state(self) -> dict[str, Any]:
        """The whole state as a plain dict: ``model``, ``version``, ``params`` (the
        constructor's ``sensors``, ``num_envs``, ``env`` and ``dt`` in s), ``seed_seq``,
        ``plan`` (each noised sensor's kind, address and size in ``sensordata`` and the
        parameters read from the model, to check that a state is restored on the same
        model) and ``position``: per environment the steps applied, the resets done
        and the bias states (turn-on bias and random walk of each stateful sensor, in
        its unit). :meth:`from_state` rebuilds it on a ``mujoco.MjModel``."""
        return {
            "model": STATE_MODEL,
            "version": STATE_VERSION,
            "params": {
                "sensors": {k: dict(v) for k, v in self._sensors.items()},
                "num_envs": self.num_envs,
                "env": self.env,
                "dt": self.dt,
            },
            "seed_seq": seed_sequence_state(self.seed),
            "plan": {"nsensordata": self.model_nsensordata, "rows": self._fingerprint()},
            "position": {
                "steps": [int(v) for v in self._plan.steps],
                "resets": [int(v) for v in self._resets],
                "bias": self._plan.state.tolist(),
            },
        }

    @classmethod
    def from_state(cls, state: Mapping[str, Any], model: Any) -> SensorNoise:
        """A SensorNoise on ``model`` (a ``mujoco.MjModel``, the one the state was taken
        on) in the state ``state`` (:attr:`state`): it continues the stream bit for bit.
        A state of another model (other sensors, addresses or noise) or a malformed one
        is refused with a ValueError naming the field."""
        if not isinstance(state, Mapping):
            raise TypeError(f"state={state!r} is not allowed: it must be a dict")
        want = {"model", "version", "params", "seed_seq", "plan", "position"}
        if set(state) != want:
            raise ValueError(
                f"state has the keys {sorted(state)}: a SensorNoise state has {sorted(want)}"
            )
        if state["model"] != STATE_MODEL or state["version"] != STATE_VERSION:
            raise ValueError(
                f"state['model']={state['model']!r}, state['version']={state['version']!r} "
                f"is not allowed: it must be {STATE_MODEL!r} version {STATE_VERSION}"
            )
        params = state["params"]
        if not isinstance(params, Mapping) or set(params) != {"sensors", "num_envs", "env", "dt"}:
            raise ValueError(
                f"state['params']={params!r} is not allowed: it must hold sensors, "
                "num_envs, env and dt"
            )
        ss = validate.seed_sequence("state['seed_seq']", state["seed_seq"])
        obj = cls(model, seed=ss, **params)
        plan = state["plan"]
        if plan != {"nsensordata": obj.model_nsensordata, "rows": obj._fingerprint()}:
            raise ValueError(
                "state['plan'] does not match this model: the state was taken on a model "
                "with other sensors, addresses or noise parameters"
            )
        pos = state["position"]
        n = obj._plan.nenv
        if not isinstance(pos, Mapping) or set(pos) != {"steps", "resets", "bias"}:
            raise ValueError(
                f"state['position']={pos!r} is not allowed: it must hold steps, resets and bias"
            )
        steps = [validate.integer("state['position']['steps']", v, 0, 2**64) for v in pos["steps"]]
        resets = [
            validate.integer("state['position']['resets']", v, 0, 2**64) for v in pos["resets"]
        ]
        bias = np.asarray(pos["bias"], dtype=np.float64)
        if len(steps) != n or len(resets) != n or bias.shape != obj._plan.state.shape:
            raise ValueError(
                f"state['position'] has {len(steps)} steps, {len(resets)} resets and bias "
                f"of shape {bias.shape}: this model needs {n}, {n} and "
                f"{obj._plan.state.shape}"
            )
        if not np.all(np.abs(bias) <= _MAX):
            raise ValueError(
                "state['position']['bias'] is not allowed: every bias must be finite "
                f"and within +/-{_MAX:g}"
            )
        obj._plan.steps[:] = steps
        obj._resets[:] = resets
        obj._plan.state[:] = bias
        return obj

    def __repr__(self) -> str:
        return (
            f"SensorNoise({len(self._rows)} noised sensors of {self.model_nsensordata} "
            f"values, num_envs={self.num_envs}, env={self.env}, dt={self.dt})"
        )
