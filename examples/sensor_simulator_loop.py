"""The SensorSimulator demo loop: a torqued rigid body read by a drifting, noisy gyro.

A body of inertia (10, 8, 12) kg m^2 spins up under a constant torque; the sensor
reports angular velocity (rad/s) and orientation packed (pitch, yaw, roll) (rad), each
with Gaussian noise and a linear drift. Halfway through the sensor is reset.
"""

import numpy as np

import fastnoise as fn

body = fn.RigidBodySimulator([10.0, 8.0, 12.0])  # kg m^2
imu = fn.SensorSimulator(body, seed=0)
imu.set_noise_stddev(0.001)  # rad/s for rates, rad for angles
imu.set_drift_rate(1e-6)  # rad/s^2 for the rate drift, rad/s for the angle drift

dt = 0.01  # s
torque = [0.1, -0.05, 0.02]  # N m
steps = 2000
w_meas = np.empty(3)  # rad/s
angles = np.empty(3)  # rad, (pitch, yaw, roll)
for step in range(steps):
    body.update(dt, torque)
    imu.update(dt)
    imu.read_angular_velocity(out=w_meas)
    imu.read_orientation(out=angles)
    if step % 500 == 0:
        print(f"{step:5d}  true w {np.round(body.omega, 6)}  measured w {np.round(w_meas, 6)}")
    assert imu.check_numerics()
    if step == steps // 2:
        imu.reset()  # zeroes the drifts and the drift rate, rewinds the generator
        imu.set_noise_stddev(0.001)
        imu.set_drift_rate(1e-6)  # reset() zeroed it: configure again
print(f"final (pitch, yaw, roll): {np.round(angles, 4)} rad")
print("simulation complete")
