"""TopicNoise: the noise of one topic, message by message (what ``fastnoise apply`` runs
for every noised topic, and what a node calls in its subscription callback).

Which model noises a message is the suite's business; how is the business of the
model's *handler*: a model's declaration (:class:`fastnoise.core.spec.Declaration`)
maps each ROS message type it noises to one of the handlers below, and the handler, not
the model's name, decides what is read from the message, what is called on the model
and what is written back. A third-party model serves a message type by declaring one of
these handlers and implementing its call protocol (``k`` is the frame, the message's
index on its topic; ``n`` the suite's threads):

``imu`` (``sensor_msgs/Imu``)
    ``model.step(w, a, dt) -> (w_meas, a_meas)`` per message, ``w``/``a`` float64
    (3,) arrays (rad/s, m/s^2), ``dt`` (s) the message's time step (see "Time steps"
    below). Covariances, unless the option ``covariance`` is ``"keep"``:
    ``model.angular_velocity_covariance(dt, convention)`` and
    ``model.linear_acceleration_covariance(dt, convention)``, each 9 floats (row-major
    3 x 3). Orientation untouched. The model declares the options ``rate`` (Hz),
    ``stamps`` and ``covariance``.
``range`` (``sensor_msgs/Range``)
    ``model.apply(r, frame=k, threads=n)``, ``r`` a float32 (1,) array of ``range``
    (m); the model is built per message's ``min_range``/``max_range`` as for ``scan``.
    REP 117's -inf (too close) and +inf (nothing detected) stay as they are (the
    ``range`` model passes them through), a NaN becomes ``max_range`` (Gazebo's rule).
    A message with a ``variance`` field (ROS 2 Jazzy and later) gets
    stddev^2 + bias_mean^2 + bias_stddev^2 of the model (m^2) there, unless the model is
    disabled.
``navsat_fix`` (``sensor_msgs/NavSatFix``)
    ``model.apply_one(latitude, longitude, altitude)`` (deg, deg, m; dt = 0, as
    gz-sensors) per message, its first three results written back; the status is
    not read. ``position_covariance`` (m^2, east, north, up) and
    ``position_covariance_type`` = 2 (COVARIANCE_TYPE_DIAGONAL_KNOWN) from the model's
    parameters (:func:`~fastnoise.io.ros.messages.fill_navsat_covariance`); a message
    without a fix (latitude NaN) stays NaN and gets type 0 (UNKNOWN) with zeros.
``magnetic_field`` (``sensor_msgs/MagneticField``)
    ``model.apply_one(x, y, z)`` (T; dt = 0) per message; ``magnetic_field_covariance``
    (T^2) from the model's x, y, z parameters
    (:func:`~fastnoise.io.ros.messages.fill_magnetic_field_covariance`).
``fluid_pressure`` (``sensor_msgs/FluidPressure``)
    ``model.apply_one(fluid_pressure)`` (Pa; dt = 0) per message; ``variance`` (Pa^2)
    from the model's ``pressure`` parameters
    (:func:`~fastnoise.io.ros.messages.fill_fluid_pressure_variance`).
``scan`` (``sensor_msgs/LaserScan``)
    ``model.apply(ranges, frame=k, threads=n)``, ``ranges`` float32 (m), returns the
    new ranges; intensities kept. A model whose declaration lists ``message_params``
    among ``min_range``/``max_range`` is built once per distinct value of the message's
    ``range_min``/``range_max`` with those parameters; any other model is built once.
``points`` (``sensor_msgs/PointCloud2``)
    ``model.apply(xyz, lidar_pose=pose, frame=k, out=xyz, threads=n)``, ``xyz`` the
    points' x, y, z (N, 3) (float32 when all three fields are FLOAT32, else float64; NaN
    points kept), written back in place; ``pose`` the option ``pose`` (default None:
    the header's frame is the sensor frame). Every other field is kept.
``points_drop`` (``sensor_msgs/PointCloud2``)
    ``model.apply(cloud, frame=k, drop=False, threads=n) -> (points, mask)``, ``cloud``
    (N, 4): x, y, z and an intensity column of zeros; ``points`` (N, 4) x, y, z and the
    intensity to store, ``mask`` (N,) True for kept points. Dropped points are removed
    (``height`` 1, ``width`` the kept count), or kept as NaN with the option
    ``keep_layout = true``; the ``intensity`` field (FLOAT32/FLOAT64; another type is
    refused) receives column 3 (see
    :func:`~fastnoise.io.ros.messages.set_pointcloud2_carla`).
``image`` (``sensor_msgs/Image``: mono8, mono16, rgb8, bgr8, rgba8, bgra8)
    ``model.apply(pixels, frame=k, out=noised, threads=n)`` on an (H, W) or (H, W, C)
    uint8/uint16 view, colours in R, G, B order (alpha, a 4th channel, is for the model
    to copy); a model with a true ``per_channel`` attribute gets bgra8 reordered too.
``depth_image`` (``sensor_msgs/Image``, 32FC1 in metres)
    ``model.apply(depth, frame=k, out=noised, threads=n)`` on the (H, W) float32 view.
``compressed_image`` (``sensor_msgs/CompressedImage``, JPEG or PNG)
    decoded with OpenCV, then as ``image`` (``model.apply(view, frame=k, out=view,
    threads=n)``, colours in R, G, B order), re-encoded at the options ``quality``
    (JPEG, default 95) and ``png_compression`` (PNG, default 3); ``compressedDepth`` is
    refused.
``odometry`` (``nav_msgs/Odometry``)
    the "model" is a pair (pose, twist) of 36-float covariance tables, written to
    ``pose.covariance`` and ``twist.covariance``; nothing else changes.

An option a model does not declare takes the default named here. The Gazebo sensors'
handlers (``navsat_fix``, ``magnetic_field``, ``fluid_pressure``) call the model once
per message in order, so message ``k`` is the model's sample ``k``; their covariances
are sigma^2 = stddev^2 + bias_mean^2 + bias_stddev^2 per component
(:func:`~fastnoise.io.ros.messages.gazebo_variance`). Every handler keeps the header
(stamp and frame) as it was.

Time steps (``imu``). Message ``k``'s ``dt`` depends on messages ``0..k`` only, the same
rule for ``fastnoise apply`` and a live node, so a node never holds a message back:

- its time ``t_k`` is ``header.stamp`` in integer ns, or with the option
  ``stamps = "log"`` the bag's log time (a node's receive time);
- message 0: ``dt = 1 / rate``, ``rate`` (Hz) the suite entry's option (an ``[sdf]``
  sensor's ``<update_rate>``); ``TopicNoise(first_dt=...)`` overrides it;
- message ``k > 0``: ``dt = (t_k - t_{k-1}) / 1e9`` s;
- a stamp that repeats or goes backwards (``t_k <= t_{k-1}``) emits a
  :class:`StampWarning` naming the topic, the index and both stamps, and the message
  takes the last good ``dt`` (that of message ``k - 1``, ``1 / rate`` at message 1);
  the next message's ``dt`` counts from ``t_k`` (a clock that restarts, as a
  simulation reset does, warns once).
"""

from __future__ import annotations

import copy
import os
import warnings
from typing import Any

import numpy as np

from fastnoise.core import registry
from fastnoise.io.files.image import noise_bgr
from fastnoise.io.ros.messages import (
    IMAGE_ENCODINGS,
    decode_compressed_image,
    encode_compressed_image,
    fill_fluid_pressure_variance,
    fill_imu_covariance,
    fill_magnetic_field_covariance,
    fill_navsat_covariance,
    fill_odometry_covariance,
    gazebo_variance,
    image_array,
    message_bytes,
    pointcloud2_intensity_field,
    pointcloud2_xyz,
    pointcloud2_xyz_dtype,
    pointcloud2_xyz_rows,
    set_pointcloud2_carla,
    set_pointcloud2_xyz,
    stamp_ns,
)
from fastnoise.io.suite import RATE_HANDLERS, Entry, Suite, load_suite, normalize_topic

__all__ = ["MESSAGE_HANDLERS", "StampWarning", "TopicNoise", "check_topic", "message_type"]

#: handler name -> the message type it noises (``"pkg/Name"``; see the module docstring)
MESSAGE_HANDLERS = {
    "imu": "sensor_msgs/Imu",
    "scan": "sensor_msgs/LaserScan",
    "points": "sensor_msgs/PointCloud2",
    "points_drop": "sensor_msgs/PointCloud2",
    "image": "sensor_msgs/Image",
    "depth_image": "sensor_msgs/Image",
    "compressed_image": "sensor_msgs/CompressedImage",
    "odometry": "nav_msgs/Odometry",
    "range": "sensor_msgs/Range",
    "navsat_fix": "sensor_msgs/NavSatFix",
    "magnetic_field": "sensor_msgs/MagneticField",
    "fluid_pressure": "sensor_msgs/FluidPressure",
}


class StampWarning(UserWarning):
    """A message's stamp repeats or goes backwards on its topic: the message was noised
    with the last good time step (see :mod:`fastnoise.io.ros.noise`)."""


# constructor parameters a handler takes from each message: parameter -> message field,
# and the field values that stand for "a valid message" when a topic is checked
_MESSAGE_FIELDS = {
    "scan": {"min_range": "range_min", "max_range": "range_max"},
    "range": {"min_range": "min_range", "max_range": "max_range"},
}
_PROBE = {"range_min": 0.0, "range_max": 1.0, "min_range": 0.0, "max_range": 1.0}

# handlers that change only the bytes of ``data``, so the noised bytes can be written
# into a caller's buffer (``out``); points_drop only with keep_layout
_DATA_ONLY = ("points", "points_drop", "image", "depth_image")


def _same_bytes(a: np.ndarray, b: np.ndarray) -> bool:
    """True when two 1-D uint8 arrays are the very same bytes (same start, same size)."""
    return bool(
        a.size == b.size
        and a.__array_interface__["data"][0] == b.__array_interface__["data"][0]
        and a.strides == b.strides
    )


def message_type(msg_or_type: Any) -> str:
    """ "pkg/Name" of a message type name ("pkg/msg/Name" or "pkg/Name"), of a
    ``rosbags`` message or of an ``rclpy`` message."""
    if isinstance(msg_or_type, str):
        return msg_or_type.replace("/msg/", "/")
    name = getattr(msg_or_type, "__msgtype__", None)
    if name is None:
        cls = type(msg_or_type)
        name = f"{cls.__module__.split('.')[0]}/{cls.__name__}"
    return name.replace("/msg/", "/")


def _one_of(names: list[str]) -> str:
    return " or ".join(names) if len(names) < 3 else f"{', '.join(names[:-1])} or {names[-1]}"


def check_topic(entry: Entry, topic: str, msgtype: str) -> str | None:
    """The handler that noises ``topic``'s messages of type ``msgtype`` with ``entry``'s
    model (None for ``copy``); ValueError naming the topic, the type and the models that
    take it when the model does not noise that type, or when its parameters are not
    allowed (a model built from each message's figures is built once with stand-ins)."""
    decl = entry.decl
    if decl is None:
        return None
    mtype = message_type(msgtype)
    handler = decl.messages.get(mtype)
    if handler is None:
        takers = sorted(d.name for d in registry.for_message(mtype))
        if not takers:
            raise ValueError(
                f"topic {topic} ({mtype}): {entry.where} gives model {entry.model!r}, but no "
                f"model noises {mtype} (handled types: {registry.message_types()})"
            )
        raise ValueError(
            f"topic {topic} ({mtype}): {entry.where} gives model {entry.model!r}; {mtype} "
            f"takes {_one_of(takers)}"
        )
    if MESSAGE_HANDLERS.get(handler) != mtype:
        raise ValueError(
            f"model {decl.name!r} declares handler {handler!r} for {mtype}: not allowed: "
            f"{mtype} has the handlers "
            f"{sorted(h for h, t in MESSAGE_HANDLERS.items() if t == mtype)}"
        )
    fields = _MESSAGE_FIELDS.get(handler, {})
    unknown = [p for p in decl.message_params if p not in fields]
    if unknown:
        raise ValueError(
            f"model {decl.name!r} takes {unknown} from each message, but the {handler!r} "
            f"handler supplies only {sorted(fields)}"
        )
    if decl.message_params:
        entry.build(topic, **{p: _PROBE[fields[p]] for p in decl.message_params})
    return handler


class TopicNoise:
    """The noise of one topic: ``noise(msg, inplace=False)`` returns a noised copy of a
    message; ``noise.apply_inplace(msg)`` (or ``noise(msg, inplace=True)``) noises the
    message itself and returns it. A call that does not say ``inplace`` noises in place,
    as up to 0.3, after a DeprecationWarning naming the two spellings.

    Message ``k`` given to this object is frame ``k`` (``first_frame + k``) of the
    topic's model, keyed by the topic's normalized name under the suite seed (see
    :mod:`fastnoise.io.suite.suite`): the same noise ``fastnoise apply`` gives that
    message in a bag. The model's declaration names the handler of each message type;
    the handlers and what each does are listed in :mod:`fastnoise.io.ros.noise`.
    ``msgtype`` (``"pkg/Name"`` or ``"pkg/msg/Name"``) is checked at once; without it,
    the first message's type is checked.

    A message the handler refuses (a malformed one: ValueError naming what is wrong)
    still counts: the next message is frame ``k + 1``, so a node that logs and skips it
    keeps "message ``k`` received is frame ``k``". (The IMU's and the Gazebo sensors'
    recurrences advance only on the messages they noise.)

    ``first_dt`` (s): the first IMU message's time step, overriding the entry's
    ``1 / rate`` (see "Time steps" in :mod:`fastnoise.io.ros.noise`); an IMU topic needs
    one of them. ``first_frame``: the frame of the first message given.
    """

    def __init__(
        self,
        entry: Entry,
        topic: str,
        msgtype: str | None = None,
        *,
        threads: int = 1,
        first_dt: float | None = None,
        first_frame: int = 0,
    ) -> None:
        self.entry = entry
        self.topic = normalize_topic(topic)
        self.threads = threads
        self.options = entry.option_values()
        if first_dt is not None:
            first_dt = float(first_dt)
            if not (first_dt > 0.0 and np.isfinite(first_dt)):
                raise ValueError(
                    f"first_dt={first_dt!r} is not allowed: it must be a finite time step > 0 (s)"
                )
        elif self.options.get("rate") is not None:
            first_dt = 1.0 / float(self.options["rate"])
        self.first_dt = first_dt
        self.frame = int(first_frame)
        self.msgtype = None if msgtype is None else message_type(msgtype)
        self.handler: str | None = None
        if self.msgtype is not None:
            self.handler = self._check(self.msgtype)
        decl = entry.decl
        # a model with message_params is built per message's figures (see _scan)
        self._message_params = () if decl is None else tuple(decl.message_params)
        # None for topics whose parameters come with each message (built per message)
        self.model: Any = None if self._message_params else entry.build(self.topic)
        self._by_fields: dict[tuple[float, ...], Any] = {}
        self._prev_ns: int | None = None
        self._dt: float | None = None  # the last good time step (s)
        #: how many messages had a stamp that repeated or went backwards (StampWarning)
        self.stamp_warnings = 0
        self._cov: dict[float, tuple[np.ndarray, np.ndarray]] = {}
        self._variances: Any = None  # a Gazebo model's sigma^2, computed once
        self._scratch: np.ndarray | None = None  # a PointCloud2 topic's points
        self._hits: tuple[np.ndarray, np.ndarray] | None = None  # their distances, hits

    def _check(self, msgtype: str) -> str | None:
        handler = check_topic(self.entry, self.topic, msgtype)
        if handler in RATE_HANDLERS and self.first_dt is None:
            raise ValueError(
                f"topic {self.topic} ({msgtype}): {self.entry.where}: the first message's time "
                "step is 1 / rate, and the entry gives no rate: give rate = <Hz> (e.g. rate = "
                "200) in the suite entry, or first_dt (s)"
            )
        return handler

    @classmethod
    def from_suite(
        cls,
        suite: Suite | str | os.PathLike[str],
        topic: str,
        msgtype: str | None = None,
        **kwargs: Any,
    ) -> TopicNoise:
        """The TopicNoise of ``topic`` in a suite (a :class:`Suite` or a suite file)."""
        if not isinstance(suite, Suite):
            suite = load_suite(suite)
        entry = suite.for_topic(topic)
        if entry is None:
            raise ValueError(f"the suite {suite.source} has no entry for topic {topic!r}")
        kwargs.setdefault("threads", suite.threads)
        return cls(entry, topic, msgtype, **kwargs)

    @property
    def resizes(self) -> bool:
        """True when this topic's messages change size (``points_drop`` removing
        points): ``out`` is then not taken."""
        return self.handler == "points_drop" and not self.options.get("keep_layout", False)

    @property
    def takes_out(self) -> bool:
        """True when the noise changes only the bytes of ``data`` (Image, PointCloud2
        without removal), so ``out`` may receive them."""
        return self.handler in _DATA_ONLY and not self.resizes

    # ---------------------------------------------------------------------------------
    def __call__(
        self,
        msg: Any,
        log_time_ns: int | None = None,
        out: np.ndarray | None = None,
        *,
        inplace: bool | None = None,
    ) -> Any:
        """The next frame's noise on ``msg``: ``inplace=False`` returns a noised deep
        copy and leaves ``msg`` as it was; ``inplace=True`` is :meth:`apply_inplace`.
        ``log_time_ns`` (ns) and ``out`` are :meth:`apply_inplace`'s (with
        ``inplace=False``, ``out`` becomes the copy's ``data``).

        Not giving ``inplace`` is deprecated: the message is noised in place, as up to
        0.3, after a DeprecationWarning; a later release will make the copy the
        default."""
        if inplace is None:
            warnings.warn(
                "TopicNoise(msg) noises msg in place, which is deprecated as a default: "
                "write noise.apply_inplace(msg) (or noise(msg, inplace=True)) to change "
                "msg, or noise(msg, inplace=False) for a noised copy",
                DeprecationWarning,
                stacklevel=2,
            )
            inplace = True
        elif not isinstance(inplace, (bool, np.bool_)):
            raise TypeError(f"inplace={inplace!r} is not allowed: it must be True or False")
        if not inplace:
            msg = copy.deepcopy(msg)
        return self.apply_inplace(msg, log_time_ns, out)

    def apply_inplace(
        self, msg: Any, log_time_ns: int | None = None, out: np.ndarray | None = None
    ) -> Any:
        """Noise ``msg`` itself (its next frame) and return it: the fields the handler
        noises are replaced in ``msg``. ``log_time_ns``: the bag's record time (ns),
        used by an IMU with ``stamps = "log"``. ``out``: for an Image or PointCloud2, a
        writable uint8 array of ``data``'s size that receives the noised bytes and
        becomes ``msg.data`` (by default a new array)."""
        if self.msgtype is None:
            self.msgtype = message_type(msg)
            self.handler = self._check(self.msgtype)
        frame = self.frame
        try:
            if self.handler is not None:
                _HANDLERS[self.handler](self, msg, frame, log_time_ns, out)
        finally:  # a message that fails (malformed) still was message k
            self.frame = frame + 1
        return msg

    # handlers: (self, msg, frame, log_time_ns, out) -----------------------------------
    def _imu(self, msg: Any, frame: int, log_time_ns: int | None, out: Any) -> None:
        if self.options.get("stamps", "header") == "log":
            if log_time_ns is None:
                raise ValueError("stamps = 'log' needs the log time of each message")
            t = int(log_time_ns)
        else:
            t = stamp_ns(msg.header.stamp)
        dt = self._time_step(t, frame)
        av, la = msg.angular_velocity, msg.linear_acceleration
        w = np.array([av.x, av.y, av.z], dtype=np.float64)
        a = np.array([la.x, la.y, la.z], dtype=np.float64)
        wo, ao = self.model.step(w, a, dt)
        av.x, av.y, av.z = wo.tolist()
        la.x, la.y, la.z = ao.tolist()
        convention = self.options.get("covariance", "white_and_bias")
        if convention != "keep":
            # the covariances depend on dt only: a recording's few distinct steps are
            # computed once (they cost ~30 us each, the noise itself ~1 us)
            cov = self._cov.get(dt)
            if cov is None:
                if len(self._cov) > 256:
                    self._cov.clear()
                fill_imu_covariance(msg, self.model, dt, convention)
                cov = self._cov[dt] = (
                    msg.angular_velocity_covariance,
                    msg.linear_acceleration_covariance,
                )
            msg.angular_velocity_covariance = cov[0].copy()
            msg.linear_acceleration_covariance = cov[1].copy()

    def _time_step(self, t: int, frame: int) -> float:
        """dt (s) of the message at time ``t`` (ns): the module docstring's rule."""
        prev, self._prev_ns = self._prev_ns, t
        if prev is None:
            assert self.first_dt is not None  # checked with the message type
            self._dt = self.first_dt
            return self.first_dt
        if t > prev:
            self._dt = (t - prev) / 1e9
            return self._dt
        assert self._dt is not None
        self.stamp_warnings += 1
        what = "repeats" if t == prev else "goes backwards from"
        warnings.warn(
            f"topic {self.topic} message {frame}: stamp {t} ns {what} the previous "
            f"message's {prev} ns: noised with the last time step, {self._dt!r} s",
            StampWarning,
            stacklevel=4,
        )
        return self._dt

    def _model_of(self, msg: Any) -> Any:
        """The model, or the one built from ``msg``'s figures (``message_params``)."""
        model = self.model
        if model is None:
            assert self.handler is not None
            fields = _MESSAGE_FIELDS[self.handler]
            params = {p: float(getattr(msg, fields[p])) for p in self._message_params}
            key = tuple(params.values())
            model = self._by_fields.get(key)
            if model is None:
                try:
                    model = self.entry.build(self.topic, **params)
                except ValueError as exc:
                    said = ", ".join(f"{fields[p]} {v}" for p, v in params.items())
                    raise ValueError(f"{said}: {exc}") from None
                self._by_fields[key] = model
        return model

    def _scan(self, msg: Any, frame: int, log_time_ns: int | None, out: Any) -> None:
        model = self._model_of(msg)
        ranges = np.asarray(msg.ranges, dtype=np.float32)
        msg.ranges = model.apply(ranges, frame=frame, threads=self.threads)

    def _range(self, msg: Any, frame: int, log_time_ns: int | None, out: Any) -> None:
        model = self._model_of(msg)
        r = np.array([msg.range], dtype=np.float32)
        msg.range = float(model.apply(r, frame=frame, threads=self.threads)[0])
        if hasattr(msg, "variance") and getattr(model, "enabled", True):
            # Range of ROS 2 Jazzy and later: sigma^2 of the white noise and the bias
            msg.variance = gazebo_variance(
                {
                    "stddev": float(model.stddev),
                    "bias_mean": float(model.bias_mean),
                    "bias_stddev": float(model.bias_stddev),
                }
            )

    def _navsat_fix(self, msg: Any, frame: int, log_time_ns: int | None, out: Any) -> None:
        lat, lon, alt = self.model.apply_one(
            float(msg.latitude), float(msg.longitude), float(msg.altitude)
        )[:3]
        if self._variances is None:
            params = self.model.state["params"]
            self._variances = (
                gazebo_variance(params["horizontal_position"]),
                gazebo_variance(params["vertical_position"]),
            )
        fill_navsat_covariance(msg, self.model, self._variances)  # at the true latitude
        msg.latitude, msg.longitude, msg.altitude = float(lat), float(lon), float(alt)

    def _magnetic_field(self, msg: Any, frame: int, log_time_ns: int | None, out: Any) -> None:
        f = msg.magnetic_field
        f.x, f.y, f.z = (float(v) for v in self.model.apply_one(f.x, f.y, f.z))
        if self._variances is None:
            fill_magnetic_field_covariance(msg, self.model)
            self._variances = np.array(msg.magnetic_field_covariance, dtype=np.float64)
        msg.magnetic_field_covariance = self._variances.copy()

    def _fluid_pressure(self, msg: Any, frame: int, log_time_ns: int | None, out: Any) -> None:
        msg.fluid_pressure = float(self.model.apply_one(float(msg.fluid_pressure)))
        if self._variances is None:
            fill_fluid_pressure_variance(msg, self.model)
            self._variances = float(msg.variance)
        msg.variance = self._variances

    def _points_buffer(self, msg: Any) -> np.ndarray | None:
        """The topic's (N, 3) points array for ``msg``'s cloud size and dtype, reused
        from cloud to cloud (1.5 MiB for a 131k-point float32 cloud); None when the
        header claims more points than the data can hold (pointcloud2_xyz then says
        what is wrong, before anything of that size is allocated)."""
        n = int(msg.height) * int(msg.width)
        if n * max(int(msg.point_step), 12) > message_bytes(msg.data).size:
            return None
        dt = pointcloud2_xyz_dtype(msg)
        xyz = self._scratch
        if xyz is None or xyz.shape[0] != n or xyz.dtype != dt:
            xyz = self._scratch = np.empty((n, 3), dtype=dt)
        return xyz

    def _points(self, msg: Any, frame: int, log_time_ns: int | None, out: Any) -> None:
        data = message_bytes(msg.data)
        if out is not None:
            dest = out
        else:  # as set_pointcloud2_xyz: msg's own bytes when writable
            dest = data if data.flags.writeable else np.array(data, copy=True)
        rows = pointcloud2_xyz_rows(msg, dest)
        if rows is None:  # a layout the kernel cannot read in place
            self._points_gathered(msg, frame, out)
            return
        if out is not None and not _same_bytes(out, data):
            out[...] = data  # every other field kept
        self._noise_points(rows, frame)
        msg.data = dest  # last: an rclpy message copies what it is given

    def _noise_points(self, xyz: np.ndarray, frame: int) -> None:
        """The lidar model on (N, 3) points, in place (contiguous, or rows of records);
        the distances and hit mask it writes beside them go to reused buffers."""
        n = xyz.shape[0]
        if n:
            dist, hits = self._hits_buffers(n, xyz.dtype)
            self.model.apply(
                xyz,
                lidar_pose=self.options.get("pose"),
                frame=frame,
                out=xyz,
                threads=self.threads,
                out_distances=dist,
                out_hit_mask=hits,
            )

    def _hits_buffers(self, n: int, dtype: np.dtype) -> tuple[np.ndarray, np.ndarray]:
        """The topic's (N,) distances and hit mask that LidarNoise.apply writes beside
        the points (not published), reused from cloud to cloud."""
        bufs = self._hits
        if bufs is None or bufs[0].shape[0] != n or bufs[0].dtype != dtype:
            bufs = self._hits = (np.empty(n, dtype=dtype), np.empty(n, dtype=np.bool_))
        return bufs

    def _points_gathered(self, msg: Any, frame: int, out: Any) -> None:
        """_points for a cloud whose x, y, z the kernel cannot read where they are:
        copied out into a contiguous array, noised, written back."""
        xyz = pointcloud2_xyz(msg, out=self._points_buffer(msg))
        if out is not None:
            data = message_bytes(msg.data)
            if not _same_bytes(out, data):  # out already is data: nothing to carry over
                out[...] = data  # every other field kept
            msg.data = out
        self._noise_points(xyz, frame)
        set_pointcloud2_xyz(msg, xyz)

    def _points_drop(self, msg: Any, frame: int, log_time_ns: int | None, out: Any) -> None:
        keep_layout = bool(self.options.get("keep_layout", False))
        if out is not None and not keep_layout:
            raise ValueError(
                f"out is not taken by {self.entry.model} without keep_layout = true (dropped "
                "points are removed, so the data shrinks)"
            )
        xyz = pointcloud2_xyz(msg)
        pointcloud2_intensity_field(msg)  # refuse an integer intensity before any work
        n = xyz.shape[0]
        cloud = np.zeros((n, 4), dtype=xyz.dtype)
        cloud[:, :3] = xyz
        if n:
            pts, mask = self.model.apply(cloud, frame=frame, drop=False, threads=self.threads)
        else:
            pts, mask = cloud, np.zeros(0, dtype=bool)
        set_pointcloud2_carla(msg, pts, mask, keep_layout=keep_layout, out=out)

    def _image(self, msg: Any, frame: int, log_time_ns: int | None, into: Any) -> None:
        enc = msg.encoding
        if enc not in IMAGE_ENCODINGS:
            raise ValueError(
                f"Image encoding {enc!r} is not handled: use one of {sorted(IMAGE_ENCODINGS)}"
            )
        wanted = "depth_image" if enc == "32FC1" else "image"
        if self.handler != wanted:
            takers = sorted(
                d.name
                for d in registry.for_message("sensor_msgs/Image")
                if d.messages["sensor_msgs/Image"] == wanted
            )
            raise ValueError(
                f"Image encoding {enc!r} takes model {_one_of(takers)}, not {self.entry.model!r}"
            )
        data = message_bytes(msg.data)
        src = image_array(msg, data)
        h, w = src.shape[:2]
        if h == 0 or w == 0:
            return
        per_channel = bool(getattr(self.model, "per_channel", False))
        px = src.dtype.itemsize * (src.shape[2] if src.ndim == 3 else 1)
        padded = int(msg.step) != w * px or data.size != h * int(msg.step)
        reorder = enc == "bgra8" and per_channel
        whole = not (padded or reorder or not src.dtype.isnative)  # the model writes all bytes
        if into is None:
            out = np.empty_like(data) if whole else data.copy()
        else:
            if into.shape != data.shape or into.dtype != np.uint8:
                raise ValueError(f"out must be a uint8 array of shape {data.shape}")
            out = into
            if not whole:
                out[...] = data
        dst = image_array(msg, out)
        if not src.dtype.isnative:  # big-endian multi-byte pixels: noise a native copy
            tmp = src.astype(src.dtype.newbyteorder("="))
            self.model.apply(tmp, frame=frame, out=tmp, threads=self.threads)
            dst[...] = tmp
        elif enc == "bgr8" or reorder:  # colours in R, G, B order
            s, d = src[..., 2::-1], dst[..., 2::-1]
            self.model.apply(s, frame=frame, out=d, threads=self.threads)
        else:  # alpha (the 4th channel) is copied by the model
            self.model.apply(src, frame=frame, out=dst, threads=self.threads)
        msg.data = out

    def _compressed_image(self, msg: Any, frame: int, log_time_ns: int | None, out: Any) -> None:
        img = decode_compressed_image(msg)
        res = noise_bgr(self.model, img, frame, self.threads)
        encode_compressed_image(
            msg,
            res,
            quality=self.options.get("quality", 95),
            png_compression=self.options.get("png_compression", 3),
        )

    def _odometry(self, msg: Any, frame: int, log_time_ns: int | None, out: Any) -> None:
        fill_odometry_covariance(msg, self.model)


_HANDLERS = {
    "imu": TopicNoise._imu,
    "scan": TopicNoise._scan,
    "points": TopicNoise._points,
    "points_drop": TopicNoise._points_drop,
    "image": TopicNoise._image,
    "depth_image": TopicNoise._image,
    "compressed_image": TopicNoise._compressed_image,
    "odometry": TopicNoise._odometry,
    "range": TopicNoise._range,
    "navsat_fix": TopicNoise._navsat_fix,
    "magnetic_field": TopicNoise._magnetic_field,
    "fluid_pressure": TopicNoise._fluid_pressure,
}
