"""The model contract: every model is built, validated, copied, pickled and keyed the
same way.

Every public model class derives from :class:`Model` and is registered with
:func:`register_model`. The contract:

* ``seed`` is the ``numpy.random.SeedSequence`` behind the model's keys, ``key`` its
  64-bit Philox key, ``reset()`` rewinds to the state right after construction, and
  ``repr()`` shows the parameters.
* ``state`` is a plain dict of one shape for every model::

      {"model": "imu", "version": 1, "params": {...}, "seed_seq": {...}, "position": {...}}

  ``params`` are the constructor's keyword arguments (plain values), ``seed_seq`` the
  seed sequence's state, ``position`` every counter and recurrent value that moves
  as the model is used. ``version`` is the schema version of this dict (not of the
  output streams, which the CHANGELOG versions); an unknown version is refused.
* ``params`` are read from the model's attributes named as its declared parameters
  (``declaration.state_params``), so a declared parameter cannot be left out.
* ``Model.from_state(state)`` and ``model.state = state`` build through the
  constructor, so a state is validated exactly as constructor arguments are; setting
  a state is all-or-nothing (a refused state changes nothing): the setter builds a new
  model from the state first, then runs ``__init__`` on itself with the same
  arguments (which cannot fail then) and sets the position. No model copies its
  fields by hand.
* A constructor validates its arguments with ``declaration.check_params``: one error
  format for every model, and the specs are what is checked.
* ``copy()``, ``copy.copy``, ``copy.deepcopy`` and pickling all go through
  ``from_state``, so an unpickled object is validated like a new one and continues
  the stream bit for bit.
* C state is set up in ``__cinit__``, before ``__init__`` runs, so an object made with
  ``cls.__new__(cls)`` or left by a failed ``__init__`` is unusable-but-safe, never
  dangling.
* Threads: one object may be shared. Every call that reads and advances a position
  does it under the object's lock (``lock_model``/``unlock_model`` in model.pxd), so
  no stream value is handed out twice or skipped; stateless-per-call models reserve
  their span under the lock and compute with the GIL released, models with a
  recurrence hold the lock for the whole call.

How the models differ, in one place:

* ``RigidBodySimulator`` draws nothing: ``stochastic = False``, its ``seed`` is None,
  it has no ``key``, and its ``state['seed_seq']`` is None.
* The frame models (``ImageNoise``, ``DepthNoise``, ``LidarNoise``, ``RangeNoise``,
  ``CarlaLidarNoise``; the ``_FrameCounter`` base) share one frame rule: their
  position is a frame counter, ``{"frame": n}``, and ``reset()`` sets it to 0.
  ``apply(..., frame=None)`` uses the counter's frame and advances it (reserved under
  the lock, so threads get distinct frames); ``frame=k`` is random access, leaves
  the counter alone and takes no lock. ``LidarNoise.perturb_rays`` and
  ``RangeNoise.apply_one`` read the counter's current frame without advancing it. The
  counter stops at the model's last frame (2**64 - 1 for the camera models, 2**62 - 2
  for the lidar family, whose frame 2**62 - 1 is reserved) with an OverflowError
  naming ``frame``. A lidar-family state of 0.2 (empty position) loads as frame 0.
  ``RangeNoise``'s once-drawn bias (Gazebo draws it once) is a pure function of the
  seed and the parameters, so it is drawn again, identically, on every rebuild.
* ``SensorSimulator`` reads a user's motion source, which is not part of its state:
  ``from_state(state, source=...)``; ``copy()`` and ``copy.copy`` share the source on
  purpose, ``copy.deepcopy`` and pickling copy it. Its ``reset()`` also zeroes the
  drift rates, as the SensorSimulator API document specifies.
* ``DvlSimulator`` is made of ``AugmentedWhiteNoise`` sensors whose params and
  positions nest in its own state.
"""

from libc.stdint cimport uint64_t

import copy as _copy
import warnings
from collections.abc import Mapping

import numpy as np

from fastnoise.core import registry as _registry
from fastnoise.core import validate
from fastnoise.core.seeding import (
    as_seed_sequence,
    key_from_seed_sequence,
    model_key,
    seed_sequence_state,
)

#: Schema version of the ``state`` dict (not of the output streams).
STATE_VERSION = 1
STATE_KEYS = ("model", "version", "params", "seed_seq", "position")


def register_model(cls):
    """Register a model class by its ``declaration``
    (:func:`fastnoise.core.registry.register`).
    The contract tests, suites, SDF import, ROS and file dispatch read that registry."""
    if not (isinstance(cls, type) and issubclass(cls, Model)):
        raise TypeError(f"cls={cls!r} is not allowed: it must be a subclass of Model")
    return _registry.register(cls)


def registered_models():
    """``{name: class}`` of every registered model class (plugins included)."""
    return {d.name: d.cls for d in _registry.models() if d.cls is not None}


def check_state(cls, state):
    """Check the shape every model's state shares; return (params, seed_seq, position)
    with the seed sequence rebuilt. The model's own fields are checked by its
    constructor and ``_set_position``."""
    if not isinstance(state, dict):
        raise TypeError(f"state={state!r} is not allowed: it must be a dict as "
                        f"{cls.__name__}.state returns")
    validate.fields("state", state, STATE_KEYS)
    name = state["model"]
    if isinstance(name, str) and name in cls.declaration.aliases:
        warnings.warn(f"state['model']={name!r} is deprecated: the model is now named "
                      f"{cls.model_name!r}", DeprecationWarning, stacklevel=3)
    elif name != cls.model_name:
        raise ValueError(f"state['model']={name!r} is not allowed: this is a "
                         f"{cls.__name__}, whose states have model={cls.model_name!r}")
    version = validate.integer("state['version']", state["version"], 0, 2**31)
    if version != STATE_VERSION:
        raise ValueError(f"state['version']={version!r} is not allowed: this fastnoise "
                         f"reads version {STATE_VERSION} only")
    params = state["params"]
    if not isinstance(params, dict):
        raise TypeError(f"state['params']={params!r} is not allowed: it must be a dict")
    for k in params:
        if not isinstance(k, str) or k == "seed":
            raise ValueError(f"state['params'] has the entry {k!r}, which is not a parameter")
    if cls.stochastic:
        ss = validate.seed_sequence("state['seed_seq']", state["seed_seq"])
    elif state["seed_seq"] is not None:
        raise ValueError(f"state['seed_seq']={state['seed_seq']!r} is not allowed: "
                         f"{cls.__name__} draws no random numbers (use None)")
    else:
        ss = None
    position = state["position"]
    if not isinstance(position, dict):
        raise TypeError(f"state['position']={position!r} is not allowed: it must be a dict")
    return params, ss, position


def _plain(p, value):
    # spec p's plain value; a batch's per-environment arrays (a real's (N,), a vector's
    # (N, 3), or in a component dict) as lists
    if isinstance(value, np.ndarray):
        return value.tolist()
    if p.kind in ("component", "mapping") and isinstance(value, Mapping):
        return {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in value.items()}
    return p.plain(value)


def _restore(cls, state, extras):
    """Unpickle: the one path, through ``from_state``."""
    if not (isinstance(cls, type) and issubclass(cls, Model)):
        raise TypeError(f"cannot restore {cls!r}: it is not a fastnoise model")
    return cls.from_state(state, **extras)


def _seed_repr(ss):
    if ss is None:
        return None
    if not ss.spawn_key and ss.pool_size == 4:
        return repr(ss.entropy)
    return repr(ss)


cdef class Model:
    """Base class of every fastnoise model (see :mod:`fastnoise.core.model`)."""

    #: Name recorded in ``state['model']``: the declaration's name.
    model_name = None
    #: The model's :class:`fastnoise.core.spec.Declaration` (each model sets its own).
    declaration = None
    #: False for models that draw no random numbers (no seed, no key).
    stochastic = True

    def __cinit__(self, *args, **kwargs):
        self._seed_seq = None  # the lock needs no set-up: zeroed memory is unlocked

    # ---- what each model provides ---------------------------------------------------
    def _model_params(self):
        """The model's own constructor keyword arguments (plain values), without
        ``num_envs`` and ``env`` (:meth:`_params` adds those): by default every declared
        parameter kept in the state, read from the attribute of its name
        (:meth:`fastnoise.core.spec.Declaration.state_params`), a per-environment array
        (of a batch, also inside a dict-valued parameter) as a list. A model overrides
        it only where such an attribute is not the constructor's value."""
        params = {}
        for p in type(self).declaration.params:
            if p.in_state:
                params[p.name] = _plain(p, getattr(self, p.name))
        return params

    def _params(self):
        """``state['params']``: the constructor's keyword arguments (plain values) that
        rebuild this model, :meth:`_model_params` and, where set, ``num_envs`` and
        ``env`` (the one place they are added, for every batched model)."""
        check_built(self)
        params = self._model_params()
        if self.num_envs is not None:
            params["num_envs"] = self.num_envs
        if self.env is not None:
            params["env"] = self.env
        return params

    def _position(self):
        """Counters and recurrent values that move as the model is used (plain values)."""
        return {}

    def _set_position(self, position):
        """Check and apply a position on a freshly built model (the default: none)."""
        validate.fields("state['position']", position, ())

    def reset(self):
        """Back to the state right after construction (each model says what that is)."""
        raise NotImplementedError

    def _state_extras(self):
        """Constructor arguments that are not part of the state (SensorSimulator's
        source)."""
        return {}

    # ---- the shared contract ------------------------------------------------------------
    def _set_seed(self, seed):
        """Take ``seed`` (an int, a SeedSequence, a state's sequence, or None for fresh
        entropy) as this model's seed, derive its key (``model_key(seed, tag)`` of the
        declaration's first key tag) and mark the model built; return the
        SeedSequence. A model written in Python (a plugin) calls it last in its
        ``__init__``, once everything else is checked: its instances cannot set the
        base's C fields themselves."""
        ss = as_seed_sequence(seed)
        tags = type(self).declaration.tags
        self._key = model_key(ss, tags[0]) if tags else key_from_seed_sequence(ss)
        self._seed_seq = ss
        self._built = True
        return ss

    @property
    def key(self):
        """64-bit Philox key of the model: ``model_key(seed, tag)`` of its first key
        tag (``fastnoise.core.streams`` lists each model's streams under it). Models
        that draw nothing have no key."""
        if not type(self).stochastic:
            raise AttributeError(f"{type(self).__name__} draws no random numbers: it has "
                                 "no key")
        check_built(self)
        return int(self._key)

    @property
    def num_envs(self):
        """Number of environments of a batch (``num_envs=N``, :doc:`/batching`), or None:
        one model, with no environment axis (every model that is not a batch)."""
        return self._num_envs

    @property
    def env(self):
        """The environment of a batch this single model is (``env=i``: it gives bit for
        bit what environment i of a batch gives), or None: its own key."""
        return self._env

    @property
    def seed(self):
        """The numpy.random.SeedSequence behind the keys (None if the model draws
        nothing)."""
        return self._seed_seq

    @property
    def state(self):
        """The whole state as a plain dict (settable): ``model``, ``version``,
        ``params``, ``seed_seq``, ``position``; see :mod:`fastnoise.core.model`."""
        return {
            "model": self.model_name,
            "version": STATE_VERSION,
            "params": self._params(),
            "seed_seq": None if self._seed_seq is None else seed_sequence_state(self._seed_seq),
            "position": self._position(),
        }

    @state.setter
    def state(self, value):
        # built and validated in full first, so a refused state changes nothing; then
        # self is built again from the same (now known good) arguments, which cannot
        # fail: no model copies its fields by hand, so none can be forgotten
        extras = self._state_extras()
        cdef Model other = type(self).from_state(value, **extras)
        params = other._params()
        with warnings.catch_warnings():
            # whatever the state's values warn about, from_state has just warned
            warnings.simplefilter("ignore")
            if type(self).stochastic:
                type(self).__init__(self, **params, **extras, seed=other._seed_seq)
            else:
                type(self).__init__(self, **params, **extras)
        self._set_position(other._position())

    @classmethod
    def from_state(cls, state, **extras):
        """A new model from a ``state`` dict, validated as the constructor validates
        its arguments. ``extras`` are the constructor arguments outside the state
        (``source=`` for SensorSimulator)."""
        params, ss, position = check_state(cls, state)
        if cls.stochastic:
            obj = cls(**params, **extras, seed=ss)
        else:
            obj = cls(**params, **extras)
        obj._set_position(position)
        return obj

    def copy(self):
        """An independent model in the same state; it continues the same stream."""
        return type(self).from_state(self.state, **self._state_extras())

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        extras = {k: _copy.deepcopy(v, memo) for k, v in self._state_extras().items()}
        return type(self).from_state(self.state, **extras)

    def __reduce__(self):
        return (_restore, (type(self), self.state, self._state_extras()))

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return self.state == other.state

    __hash__ = None

    def __repr__(self):
        args = [f"{k}={v!r}" for k, v in self._params().items()]
        if self.stochastic:
            args.append(f"seed={_seed_repr(self._seed_seq)}")
        return f"{type(self).__name__}({', '.join(args)})"


cdef class _FrameCounter(Model):
    """The shared part of the models whose position is a frame counter (ImageNoise,
    DepthNoise, LidarNoise, RangeNoise, CarlaLidarNoise): ``frame``, ``reset()`` and
    ``state['position']`` (``{"frame": n}``) are written here once. A call without
    ``frame`` uses the counter (``apply`` advances it, under the model's lock; see
    :func:`take_frames` in model.pxd); a call with ``frame=k`` is random access and
    leaves the counter alone."""

    #: The model's last frame: the counter holds a frame in [0, _frame_end] and never
    #: passes it (a call that would advance it further raises OverflowError).
    _frame_end = 2**64 - 1
    #: Whether a state may give an empty position, read as frame 0 (the lidar models'
    #: states of 0.2, which had no counter).
    _frame_optional = False

    @property
    def frame(self):
        """Frame index that the next call without ``frame`` uses."""
        return self._frame

    @frame.setter
    def frame(self, value):
        cdef uint64_t f = validate.integer("frame", value, 0, type(self)._frame_end + 1)
        lock_model(self)
        self._frame = f
        unlock_model(self)

    def reset(self):
        """Start the frame counter again at 0."""
        lock_model(self)
        self._frame = 0
        unlock_model(self)

    def _take_frames(self, count=1):
        """Reserve ``count`` frames of the counter under the model's lock and return the
        first (for the GPU calls, which cannot take the lock themselves);
        OverflowError naming ``frame`` where the counter would pass its end."""
        cdef uint64_t first
        cdef uint64_t n = validate.integer("count", count, 1, 2**64)
        take_frames(self, n, type(self)._frame_end, &first)
        return int(first)

    def _position(self):
        return {"frame": int(self._frame)}

    def _set_position(self, position):
        cls = type(self)
        if cls._frame_optional:
            validate.fields("state['position']", position, (), ("frame",))
        else:
            validate.fields("state['position']", position, ("frame",))
        cdef uint64_t f = 0  # a 0.2 lidar state has none: the frame was an argument of each call
        if "frame" in position:
            f = validate.integer("state['position']['frame']", position["frame"], 0,
                                 cls._frame_end + 1)
        lock_model(self)  # the state setter sets it on a model other threads may use
        self._frame = f
        unlock_model(self)
