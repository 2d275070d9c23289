"""``fastnoise apply``: a suite's noise over a recording (ROS 1 bag, ROS 2 bag, MCAP) or
a folder of files."""

from fastnoise.io.apply.apply import ApplyError, Report, TopicReport, apply, input_kind

__all__ = ["ApplyError", "Report", "TopicReport", "apply", "input_kind"]
