"""A camera frame with Gazebo's per-pixel noise (one normal per pixel, shared by R, G, B).

A 1080p RGB uint8 frame gets noise of standard deviation 0.007 of full scale (about
1.8 grey levels). Frames are keyed by their index, so frame 5 is the same whether a
video is processed in order or frame 5 is asked for alone.
"""

import numpy as np

import fastnoise as fn

frame = np.full((1080, 1920, 3), 128, np.uint8)  # mid-grey; intensity 1.0 = 255 levels
cam = fn.ImageNoise(stddev=0.007, seed=2)  # sd in full-scale units

noisy = cam.apply(frame)  # frame 0 (the model's counter advances to 1)
diff = noisy.astype(np.int16) - frame
print(f"noise sd: {diff.std():.2f} grey levels (expected about {0.007 * 255:.2f})")
assert np.array_equal(diff[..., 0], diff[..., 1])  # one value per pixel for all channels

video = [cam.apply(frame) for _ in range(5)]  # frames 1 .. 5
assert np.array_equal(video[-1], cam.apply(frame, frame=5))  # random access to frame 5
assert not np.array_equal(video[0], video[1])  # each frame has its own noise

rgb = fn.ImageNoise(stddev=0.007, per_channel=True, seed=2).apply(frame, frame=0)
assert not np.array_equal(rgb[..., 0], rgb[..., 1])  # per_channel=True: R, G, B apart
print("frame k is the same however the video is processed: ok")
