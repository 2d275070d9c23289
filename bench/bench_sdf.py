"""Reading the noise of every sensor of an SDF world: ``load_sensors`` (expat with line
numbers, gz-sensors' rules, the models built) beside the ElementTree loop a user writes
to pull the ``<noise>`` values into dicts (no rules, no positions, no models).

A world of 25 robots with an IMU, a gpu_lidar, a camera and a magnetometer each (100
sensors), parsed from text.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from fastnoise.io.sdf import load_sensors

_NOISE = '<noise type="gaussian"><mean>0</mean><stddev>{s}</stddev></noise>'
_ROBOT = (
    '<model name="r{i}"><link name="base">'
    '<sensor name="imu" type="imu"><imu><angular_velocity>'
    + "".join(f"<{a}>{_NOISE.format(s=0.0002)}</{a}>" for a in "xyz")
    + "</angular_velocity><linear_acceleration>"
    + "".join(f"<{a}>{_NOISE.format(s=0.017)}</{a}>" for a in "xyz")
    + "</linear_acceleration></imu></sensor>"
    '<sensor name="lidar" type="gpu_lidar"><lidar><range><min>0.1</min><max>30</max>'
    "</range><noise><type>gaussian</type><stddev>0.01</stddev></noise></lidar></sensor>"
    '<sensor name="cam" type="camera"><camera><noise><type>gaussian</type>'
    "<stddev>0.007</stddev></noise></camera></sensor>"
    '<sensor name="mag" type="magnetometer"><magnetometer>'
    + "".join(f"<{a}>{_NOISE.format(s=1e-5)}</{a}>" for a in "xyz")
    + "</magnetometer></sensor></link></model>"
)
WORLD = (
    '<sdf version="1.9"><world name="w">'
    + "".join(_ROBOT.format(i=i) for i in range(25))
    + "</world></sdf>"
)


def _elementtree(text: str) -> dict[str, list[dict[str, float]]]:
    out: dict[str, list[dict[str, float]]] = {}
    root = ET.fromstring(text)
    for model in root.iter("model"):
        for link in model.iter("link"):
            for sensor in link.iter("sensor"):
                name = f"{model.get('name')}::{link.get('name')}::{sensor.get('name')}"
                out[name] = [
                    {c.tag: float(c.text or 0) for c in n if c.tag != "type"}
                    for n in sensor.iter("noise")
                ]
    return out


@pytest.mark.benchmark(group="sdf-world-100-sensors")
def test_fastnoise_load_sensors(benchmark):
    found = benchmark(load_sensors, WORLD, seed=1)
    assert len(found) == 100


@pytest.mark.benchmark(group="sdf-world-100-sensors")
def test_numpy_elementtree_loop(benchmark):
    found = benchmark(_elementtree, WORLD)
    assert len(found) == 100
