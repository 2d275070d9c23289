"""TopicNoise: the noise of one topic, message by message (what ``fastnoise apply`` runs
for every noised topic, and what a node calls in its subscription callback)."""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from fastnoise.io.ros.messages import (
    IMAGE_ENCODINGS,
    decode_compressed_image,
    encode_compressed_image,
    fill_imu_covariance,
    fill_odometry_covariance,
    image_array,
    message_bytes,
    pointcloud2_intensity_field,
    pointcloud2_xyz,
    set_pointcloud2_carla,
    set_pointcloud2_xyz,
    stamp_ns,
)
from fastnoise.io.suite.suite import Entry, Suite, load_suite, normalize_topic

__all__ = ["MESSAGE_MODELS", "TopicNoise", "message_type"]

#: message type (without "/msg/") -> the suite models that can noise it
MESSAGE_MODELS = {
    "sensor_msgs/Imu": ("imu",),
    "sensor_msgs/LaserScan": ("range",),
    "sensor_msgs/PointCloud2": ("lidar", "carla_lidar"),
    "sensor_msgs/Image": ("camera", "depth"),
    "sensor_msgs/CompressedImage": ("camera",),
    "nav_msgs/Odometry": ("odometry",),
}


def message_type(msg_or_type: Any) -> str:
    """ "pkg/Name" of a message type name ("pkg/msg/Name" or "pkg/Name"), of a
    ``rosbags`` message or of an ``rclpy`` message."""
    if isinstance(msg_or_type, str):
        name = msg_or_type
    else:
        name = getattr(msg_or_type, "__msgtype__", None)
        if name is None:
            cls = type(msg_or_type)
            name = f"{cls.__module__.split('.')[0]}/{cls.__name__}"
    return name.replace("/msg/", "/")


class TopicNoise:
    """The noise of one topic: ``noise(msg)`` noises a message in place and returns it.

    Message ``k`` given to this object is frame ``k`` (``first_frame + k``) of the
    topic's model, keyed by the topic's normalized name under the suite seed (see
    :mod:`fastnoise.io.suite.suite`): the same noise ``fastnoise apply`` gives that message in
    a bag. Per message type:

    - ``sensor_msgs/Imu`` (``imu``): angular velocity and linear acceleration through
      ``ImuNoise.step`` with ``dt`` = (stamp_k - stamp_{k-1}) in integer ns / 1e9
      (``header.stamp``, or the bag's log time with ``stamps = "log"``); the first
      message takes ``first_dt`` (s). Covariances by the entry's ``covariance``
      (default ``"white_and_bias"``); orientation untouched.
    - ``sensor_msgs/LaserScan`` (``range``): ``ranges`` through ``RangeNoise`` with the
      message's own ``range_min``/``range_max`` (Gazebo's clamp); intensities kept.
    - ``sensor_msgs/PointCloud2`` (``lidar``): x, y, z (float32 or float64, any offsets,
      ``point_step``, ``row_step``, byte order) through ``LidarNoise`` in the header's
      frame (or the entry's ``pose``); NaN points and every other field kept.
    - ``sensor_msgs/PointCloud2`` (``carla_lidar``): ``CarlaLidarNoise`` on the points
      in the header's frame (the sensor frame): x, y, z read as for ``lidar``, the
      ``intensity`` field (FLOAT32/FLOAT64; another type is refused) receives
      e^(-a d); a cloud without one gets the drop-off that intensity drives but no
      field for it. Dropped points (NaN points among them) are removed: ``height`` 1,
      ``width`` the kept count, ``row_step`` and ``data`` rebuilt, every other byte of
      a kept point unchanged; with ``keep_layout = true`` they stay, with x, y, z =
      NaN (see :func:`~fastnoise.io.ros.messages.set_pointcloud2_carla`).
    - ``sensor_msgs/Image`` (``camera``: mono8, mono16, rgb8, bgr8, rgba8, bgra8, colours
      noised in R, G, B order; ``depth``: 32FC1 in metres, no clamp, NaN/inf kept).
    - ``sensor_msgs/CompressedImage`` (``camera``): decoded, noised, re-encoded (JPEG at
      ``quality``, PNG at ``png_compression``); ``compressedDepth`` refused.
    - ``nav_msgs/Odometry`` (``odometry``): the covariance table only.
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
        self.first_dt = first_dt
        self.frame = int(first_frame)
        self.msgtype = None if msgtype is None else message_type(msgtype)
        if self.msgtype is not None:
            self._check_type(self.msgtype)
        self.model = None if entry.model == "range" else entry.build(self.topic)
        self._ranges: dict[tuple[float, float], Any] = {}
        self._prev_ns: int | None = None
        self._cov: dict[float, tuple[np.ndarray, np.ndarray]] = {}

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

    def _check_type(self, msgtype: str) -> None:
        allowed = MESSAGE_MODELS.get(msgtype)
        if self.entry.model == "copy":
            return
        if allowed is None:
            raise ValueError(
                f"topic {self.topic}: message type {msgtype} is not handled (handled: "
                f"{sorted(MESSAGE_MODELS)})"
            )
        if self.entry.model not in allowed:
            raise ValueError(
                f"topic {self.topic}: {msgtype} takes model {' or '.join(allowed)}, but "
                f"{self.entry.where} gives {self.entry.model!r}"
            )

    # ---------------------------------------------------------------------------------
    def __call__(
        self, msg: Any, log_time_ns: int | None = None, out: np.ndarray | None = None
    ) -> Any:
        """Noise ``msg`` in place (its next frame) and return it. ``log_time_ns``: the
        bag's record time, used by an IMU with ``stamps = "log"``. ``out``: for an Image
        or PointCloud2, a writable uint8 array of ``data``'s size that receives the
        noised bytes and becomes ``msg.data`` (by default a new array)."""
        msgtype = self.msgtype or message_type(msg)
        if self.msgtype is None:
            self._check_type(msgtype)
        frame = self.frame
        if self.entry.model == "copy":
            pass
        elif msgtype == "sensor_msgs/Imu":
            self._imu(msg, log_time_ns)
        elif msgtype == "sensor_msgs/LaserScan":
            self._scan(msg, frame)
        elif msgtype == "sensor_msgs/PointCloud2" and self.entry.model == "carla_lidar":
            self._carla_cloud(msg, frame, out)
        elif msgtype == "sensor_msgs/PointCloud2":
            self._cloud(msg, frame, out)
        elif msgtype == "sensor_msgs/Image":
            self._image(msg, frame, out)
        elif msgtype == "sensor_msgs/CompressedImage":
            self._compressed(msg, frame)
        elif msgtype == "nav_msgs/Odometry":
            fill_odometry_covariance(msg, self.model)
        self.frame = frame + 1
        return msg

    def _imu(self, msg: Any, log_time_ns: int | None) -> None:
        if self.entry.options.get("stamps", "header") == "log":
            if log_time_ns is None:
                raise ValueError("stamps = 'log' needs the log time of each message")
            t = int(log_time_ns)
        else:
            t = stamp_ns(msg.header.stamp)
        if self._prev_ns is None:
            if self.first_dt is None:
                raise ValueError(
                    "the first IMU message has no time step: give first_dt (s), the time "
                    "to the next message"
                )
            dt = float(self.first_dt)
        else:
            step = t - self._prev_ns
            if step <= 0:
                raise ValueError(
                    f"IMU stamp {t} ns is not after the previous message's ({self._prev_ns} "
                    f"ns): dt must be > 0"
                )
            dt = step / 1e9
        av, la = msg.angular_velocity, msg.linear_acceleration
        w = np.array([av.x, av.y, av.z], dtype=np.float64)
        a = np.array([la.x, la.y, la.z], dtype=np.float64)
        wo, ao = self.model.step(w, a, dt)
        av.x, av.y, av.z = wo.tolist()
        la.x, la.y, la.z = ao.tolist()
        convention = self.entry.options.get("covariance", "white_and_bias")
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
        self._prev_ns = t

    def _scan(self, msg: Any, frame: int) -> None:
        lim = (float(msg.range_min), float(msg.range_max))
        model = self._ranges.get(lim)
        if model is None:
            try:
                model = self.entry.build(self.topic, min_range=lim[0], max_range=lim[1])
            except ValueError as exc:
                raise ValueError(f"range_min {lim[0]}, range_max {lim[1]}: {exc}") from None
            self._ranges[lim] = model
        ranges = np.asarray(msg.ranges, dtype=np.float32)
        msg.ranges = model.apply(ranges, frame=frame, threads=self.threads)

    def _cloud(self, msg: Any, frame: int, out: np.ndarray | None) -> None:
        xyz = pointcloud2_xyz(msg)
        if out is not None:
            out[...] = message_bytes(msg.data)  # every other field kept
            msg.data = out
        if xyz.shape[0]:
            self.model.apply(
                xyz,
                lidar_pose=self.entry.options.get("pose"),
                frame=frame,
                out=xyz,
                threads=self.threads,
            )
        set_pointcloud2_xyz(msg, xyz)

    @property
    def resizes(self) -> bool:
        """True when this topic's messages change size (``carla_lidar`` removing points):
        ``out`` is then not taken."""
        return self.entry.model == "carla_lidar" and not self.entry.options.get(
            "keep_layout", False
        )

    def _carla_cloud(self, msg: Any, frame: int, out: np.ndarray | None) -> None:
        keep_layout = bool(self.entry.options.get("keep_layout", False))
        if out is not None and not keep_layout:
            raise ValueError(
                "out is not taken by carla_lidar without keep_layout = true (dropped points "
                "are removed, so the data shrinks)"
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

    def _image(self, msg: Any, frame: int, into: np.ndarray | None) -> None:
        enc = msg.encoding
        depth = self.entry.model == "depth"
        if enc not in IMAGE_ENCODINGS:
            raise ValueError(
                f"Image encoding {enc!r} is not handled: use one of {sorted(IMAGE_ENCODINGS)}"
            )
        if depth != (enc == "32FC1"):
            raise ValueError(
                f"Image encoding {enc!r} takes model "
                f"{'depth' if enc == '32FC1' else 'camera'}, not {self.entry.model!r}"
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

    def _compressed(self, msg: Any, frame: int) -> None:
        from fastnoise.io.files.files import _image_noise

        img = decode_compressed_image(msg)
        res = _image_noise(self.model, img, frame, self.threads)
        encode_compressed_image(
            msg,
            res,
            quality=self.entry.options.get("quality", 95),
            png_compression=self.entry.options.get("png_compression", 3),
        )
