"""The noise models, one subpackage per sensor family (``imu``, ``motion``, ``dvl``,
``lidar``, ``camera``, ``gazebo``). Each model is one class that declares itself once
(:class:`fastnoise.core.spec.Declaration`) and follows the contract of
:mod:`fastnoise.core.model`."""
