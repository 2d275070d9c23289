"""The DVL built from its JSON configuration (the Metron simulator's field names).

``dvl_config.json`` beside this script sets bias, noiseDev, anchor and
anchorProbability per sensor, and the seed. One message is measured from ground truth,
then a whole recording at 5 Hz; the composite vN/vE/vU comes from the measured angles.
Angles are in degrees, as in the source document; speeds in m/s, depths in m.
"""

from pathlib import Path

import numpy as np

import fastnoise as fn
from fastnoise.models.dvl.simulator import TRUTH_DTYPE

config = Path(__file__).with_name("dvl_config.json")
dvl = fn.DvlSimulator.from_config(config)

truth = {
    "roll": 1.0, "pitch": -2.0, "yaw": 45.0,  # deg
    "surge": 1.5, "sway": 0.0, "heave": 0.0,  # m/s, body frame
    "depth": 20.0, "altitude": 5.0,  # m
    "water_speed": 1.5, "rpm": 600.0,  # m/s, rev/min
}  # fmt: skip
msg = dvl.measure(truth)
print(f"one message: yaw {msg.yaw:.2f} deg, vN {msg.vn:.3f} m/s, vE {msg.ve:.3f} m/s")

n = 5 * 600  # ten minutes at 5 Hz
rec = np.zeros(n, dtype=TRUTH_DTYPE)
for name, value in truth.items():
    rec[name] = value
out = dvl.measure_many(rec)  # structured array: the ten fields, then vn, ve, vu
anchored = np.mean(out["altitude"] == -1.0)  # anchor -1 m, probability 0.01
print(f"{n} messages: surge sd {out['surge'].std():.3f} m/s, altitude anchored {anchored:.1%}")

again = fn.DvlSimulator.from_config(config)  # the same seed from the file
again.measure(truth)
assert np.array_equal(again.measure_many(rec), out)
print("same configuration, same messages: ok")
