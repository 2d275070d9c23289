"""Live ROS 2: :class:`NoiseNode`, an rclpy node that noises the topics of a sensor
suite as they are published, with the noise ``fastnoise apply`` gives a recording of
them (``fastnoise node --config suite.toml`` runs one; see the "Live ROS 2" page).

Needs rclpy and the message packages: ``pip install 'fastnoise[ros2]'``. This package
imports without them; ``import fastnoise`` never imports it.
"""

from fastnoise.ros2.memory import keep_freed_memory
from fastnoise.ros2.names import message_class, output_topic
from fastnoise.ros2.node import NoiseNode
from fastnoise.ros2.qos import QOS_CHOICES, qos_profile
from fastnoise.ros2.spin import best_executor, run_node

__all__ = [
    "QOS_CHOICES",
    "NoiseNode",
    "best_executor",
    "keep_freed_memory",
    "message_class",
    "output_topic",
    "qos_profile",
    "run_node",
]
