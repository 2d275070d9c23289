"""An IMU at 1 kHz: per-sample ``step()`` and whole-recording ``apply()``.

A WT901C-like gyroscope and accelerometer (white noise, Gauss-Markov bias, 16-bit
ADC) read a slow rotation for one second. A real-time loop of ``step()`` calls and one
``apply()`` over the recording give the same bits.
"""

import numpy as np

import fastnoise as fn

rate_hz = 1000.0  # Hz
dt = 1.0 / rate_hz  # s
n = 1000  # samples: one second
t = np.arange(n) * dt  # s
omega = np.column_stack([np.zeros(n), np.zeros(n), 0.1 * np.sin(t)])  # rad/s
accel = np.tile([0.0, 0.0, 9.81], (n, 1))  # m/s^2, at rest in gravity

gyro, acc = fn.wt901c()
live = fn.ImuNoise(gyro=gyro, accel=acc, seed=7)
batch = live.copy()  # the same model and position, for the batch run

w_step = np.empty((n, 3))
a_step = np.empty((n, 3))
for k in range(n):  # a real-time loop: one sample per call
    w_step[k], a_step[k] = live.step(omega[k], accel[k], dt)

w_all, a_all = batch.apply(omega, accel, dt=dt)  # the whole recording at once
assert np.array_equal(w_step, w_all) and np.array_equal(a_step, a_all)

print(f"gyro error sd:  {np.std(w_all - omega, axis=0)} rad/s")
print(f"accel error sd: {np.std(a_all - accel, axis=0)} m/s^2")
print(f"gyro covariance diagonal: {live.angular_velocity_covariance(dt)[::4]} (rad/s)^2")
print("step() x 1000 == apply(): ok")
