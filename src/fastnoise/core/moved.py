"""Module paths of fastnoise 0.2 that moved in 0.3, kept importable for one release.

0.3 put the models in subpackages by sensor family and ``io`` in subpackages by format.
Where an old module path is now a package (``fastnoise.models.imu``, ``fastnoise.io.sdf``,
...), the package exports the same public names. Every other old path is listed in
:data:`MOVED`: importing it (as a 0.2 pickle does, to find its class) gives a stand-in
module that forwards every name to the new module and warns with a DeprecationWarning
naming the new path. The stand-ins are made on demand by a finder placed last on
``sys.meta_path``, so no real module is ever shadowed.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types
import warnings

#: old module path -> new module path
MOVED = {
    "fastnoise.analysis._allan_types": "fastnoise.analysis.allan",
    "fastnoise.analysis._fit_result": "fastnoise.analysis.fit",
    "fastnoise.io.dvl_config": "fastnoise.models.dvl.config",
    "fastnoise.models.camera_checks": "fastnoise.models.camera.checks",
    "fastnoise.models.carla_lidar": "fastnoise.models.lidar.carla",
    "fastnoise.models.carla_points": "fastnoise.models.lidar.carla_points",
    "fastnoise.models.depth": "fastnoise.models.camera.depth",
    "fastnoise.models.dvl_checks": "fastnoise.models.dvl.checks",
    "fastnoise.models.dvl_dtypes": "fastnoise.models.dvl.dtypes",
    "fastnoise.models.dvl_measurement": "fastnoise.models.dvl.measurement",
    "fastnoise.models.dvl_sensor": "fastnoise.models.dvl.sensor",
    "fastnoise.models.gazebo_navsat": "fastnoise.models.gazebo.navsat",
    "fastnoise.models.gazebo_noise": "fastnoise.models.gazebo.noise",
    "fastnoise.models.gazebo_pressure": "fastnoise.models.gazebo.pressure",
    "fastnoise.models.gazebo_sensors": "fastnoise.models.gazebo.sensors",
    "fastnoise.models.imu_checks": "fastnoise.models.imu.checks",
    "fastnoise.models.imu_config": "fastnoise.models.imu.triad",
    "fastnoise.models.lidar_call": "fastnoise.models.lidar.call",
    "fastnoise.models.lidar_geometry": "fastnoise.models.lidar.geometry",
    "fastnoise.models.lidar_params": "fastnoise.models.lidar.params",
    "fastnoise.models.range_noise": "fastnoise.models.lidar.range_noise",
    "fastnoise.models.rigid_body": "fastnoise.models.motion.rigid_body",
    "fastnoise.models.sensor_simulator": "fastnoise.models.motion.sensor_simulator",
    "fastnoise.models.sensor_simulator_checks": "fastnoise.models.motion.sensor_simulator_checks",
}


class _MovedModuleFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path, target=None):  # type: ignore[no-untyped-def]
        if fullname in MOVED:
            return importlib.machinery.ModuleSpec(fullname, self)
        return None

    def create_module(self, spec):  # type: ignore[no-untyped-def]
        return None  # the default: a plain module object

    def exec_module(self, module: types.ModuleType) -> None:
        new = MOVED[module.__name__]
        warnings.warn(
            f"the module {module.__name__} is deprecated: it moved to {new} (or import the "
            "names from fastnoise)",
            DeprecationWarning,
            stacklevel=2,
        )
        target = importlib.import_module(new)

        def forward(name: str) -> object:
            return getattr(target, name)

        module.__getattr__ = forward  # type: ignore[method-assign]
        module.__doc__ = f"Deprecated alias of {new}."


def install() -> None:
    """Put the finder last on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, _MovedModuleFinder) for f in sys.meta_path):
        sys.meta_path.append(_MovedModuleFinder())
