"""Generator basics and reproducibility.

Draws numpy-shaped normals from a GaussianNoiseGenerator (``normal``,
``standard_normal``, float32, ``generate``) and reproduces its stream four ways:
``copy()``, pickling, the ``state`` dict and ``reset()``.
"""

import pickle

import numpy as np

import fastnoise as fn

g = fn.GaussianNoiseGenerator(seed=42)
first = g.normal(0.0, 0.01, size=5)  # 5 float64 values: mean 0 m, sd 0.01 m
block = g.standard_normal((2, 3), dtype=np.float32)  # unit normals in float32
one = g.generate(mean=1.0, stddev=0.1)  # one float64 value, the source API
print("normal(0, 0.01, 5):", np.round(first, 5))
print("float32 block:", block.dtype, block.shape, "one value:", round(one, 5))

saved = g.state  # a plain dict: model, version, params, seed_seq, position
twin = g.copy()  # an independent generator at the same position
clone = pickle.loads(pickle.dumps(g))
ahead = g.standard_normal(1000)
assert np.array_equal(twin.standard_normal(1000), ahead)
assert np.array_equal(clone.standard_normal(1000), ahead)
g.state = saved  # back to the saved position
assert np.array_equal(g.standard_normal(1000), ahead)

g.reset()  # back to the seeded start: normal j of the stream is fixed
assert np.array_equal(g.normal(0.0, 0.01, size=5), first)
g.reset()
singles = [g.generate(0.0, 0.01) for _ in range(5)]  # 5 calls equal one fill of 5
assert np.array_equal(np.array(singles), first)
print("copy, pickle, state and reset reproduce the stream: ok")
