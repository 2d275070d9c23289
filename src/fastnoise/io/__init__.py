"""Data in and out, one subpackage per format: sensor-suite files (``suite``), SDFormat
(``sdf``), files on disk (``files``), ROS messages and bags (``ros``), and
``fastnoise apply`` over all of them (``apply``)."""
