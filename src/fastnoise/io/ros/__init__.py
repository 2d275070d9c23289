"""ROS messages and bags: noise a topic in your own node, or a whole recording.

In a node (``rclpy``; no ROS install is needed for bags), five lines::

    from fastnoise.io.ros import TopicNoise

    noise = TopicNoise.from_suite("suite.toml", "/camera/image_raw")  # keyed by the topic

    def callback(msg):  # the subscription callback: message k is frame k
        publisher.publish(noise.apply_inplace(msg))  # noises msg itself

A recording (ROS 1 bag, ROS 2 bag, ``.mcap``): ``fastnoise apply --config suite.toml IN
OUT``, or :func:`fastnoise.io.apply.apply.apply` in Python. The suite file is described in
:mod:`fastnoise.io.suite.suite`.

Which model noises a topic is the suite's choice; how a message is noised is the
handler's that the model declares for its type (``imu``, ``scan``, ``range``,
``points``, ``points_drop``, ``image``, ``depth_image``, ``compressed_image``,
``odometry``, ``navsat_fix``, ``magnetic_field``, ``fluid_pressure``: each with its call
protocol in :mod:`fastnoise.io.ros.noise`), so a registered third-party model noises
messages as the built-ins do. The noise of a message depends on the topic's earlier
messages only (an IMU's time step comes from its own and earlier stamps, the first one
from the entry's ``rate``); a stamp that repeats or goes backwards is a
:class:`StampWarning` (a node logs it), and the message is still noised.

Helpers (:mod:`fastnoise.io.ros.messages`), for any message object with the ROS field
names (``rosbags`` or ``rclpy``): PointCloud2 <-> structured array views with write-back
(:func:`pointcloud2_array`, :func:`pointcloud2_xyz`, :func:`set_pointcloud2_xyz`, the
in-place rows :func:`pointcloud2_xyz_rows`; for
the ``points_drop`` result :func:`set_pointcloud2_carla`), Image
<-> ndarray by encoding (:func:`image_array`, :func:`set_image_array`), CompressedImage
decode and encode (:func:`decode_compressed_image`, :func:`encode_compressed_image`), and
covariances (:func:`fill_imu_covariance`, :func:`fill_odometry_covariance`,
:func:`fill_navsat_covariance`, :func:`fill_magnetic_field_covariance`,
:func:`fill_fluid_pressure_variance`, each from :func:`gazebo_variance`).

Serialized messages (:mod:`fastnoise.io.ros.cdr`): the fields of a CDR-encoded Image
or PointCloud2 read where they lie, and the record the noise writes into, for a node
that takes those messages as bytes (the live node does; see its docs) with the bits
of the deserialized path.

Reading and writing bags needs ``pip install 'fastnoise[ros]'`` (rosbags);
CompressedImage needs OpenCV (``fastnoise[files]``).
"""

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
    pointcloud2_array,
    pointcloud2_intensity_field,
    pointcloud2_xyz,
    pointcloud2_xyz_rows,
    rgb_view,
    set_image_array,
    set_pointcloud2_carla,
    set_pointcloud2_xyz,
    stamp_ns,
)
from fastnoise.io.ros.noise import (
    MESSAGE_HANDLERS,
    StampWarning,
    TopicNoise,
    check_topic,
    message_type,
)

__all__ = [
    "IMAGE_ENCODINGS",
    "MESSAGE_HANDLERS",
    "StampWarning",
    "TopicNoise",
    "check_topic",
    "decode_compressed_image",
    "encode_compressed_image",
    "fill_fluid_pressure_variance",
    "fill_imu_covariance",
    "fill_magnetic_field_covariance",
    "fill_navsat_covariance",
    "fill_odometry_covariance",
    "gazebo_variance",
    "image_array",
    "message_type",
    "pointcloud2_array",
    "pointcloud2_intensity_field",
    "pointcloud2_xyz",
    "pointcloud2_xyz_rows",
    "rgb_view",
    "set_image_array",
    "set_pointcloud2_carla",
    "set_pointcloud2_xyz",
    "stamp_ns",
]
