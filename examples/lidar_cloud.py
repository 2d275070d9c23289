"""A lidar point cloud with hitpoint angular noise and distance noise (RGL's model).

Points are noised in the lidar frame: each hit turns about the lidar's Y axis by a
small random angle, then moves along its ray by eps ~ N(0, 0.01 m + 0.001 * d).
Non-hits (inf coordinates here) are left alone, and a cloud noised in two pieces
equals the whole cloud noised at once.
"""

import numpy as np

import fastnoise as fn

rng = np.random.default_rng(0)
n = 262_144  # points in one frame
directions = rng.normal(size=(n, 3))
directions /= np.linalg.norm(directions, axis=1, keepdims=True)
ranges_m = rng.uniform(1.0, 80.0, n)  # m
points = directions * ranges_m[:, None]  # m, lidar frame
points[::100] = np.inf  # every 100th ray hit nothing

lidar = fn.LidarNoise(
    hitpoint_angular_noise_stddev=0.001,  # rad
    distance_noise_stddev_base=0.01,  # m
    distance_noise_stddev_rise_per_meter=0.001,  # m of sd per m of distance
    seed=3,
)
res = lidar.apply(points, frame=0)
hits = res.hit_mask
err = res.distances[hits] - ranges_m[hits]  # m
print(f"hits: {hits.sum()} of {n}; distance error mean {err.mean():+.4f} m, sd {err.std():.4f} m")
assert np.array_equal(res.points[~hits], points[~hits])  # non-hits untouched

half = n // 2  # the same frame in two pieces: first_index keys each point
a = lidar.apply(points[:half], frame=0).points
b = lidar.apply(points[half:], frame=0, first_index=half).points
assert np.array_equal(np.vstack([a, b]), res.points)
print("noise of point i depends only on (seed, frame, i): ok")
