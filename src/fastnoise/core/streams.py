"""The stream registry: which model draws which Philox stream, in which order.

Every random number is a pure function of ``(key, stream, index)``. A model's key is
``model_key(seed, tag)`` (``fastnoise.core.seeding``): the tag is what separates the
models, so two models of different tags given the same seed draw independent noise.
The stream ids separate the draws inside one model. ``csrc/streams.h`` holds the same
ids for the C kernels; ``tests/test_streams.py`` parses it and checks both say the
same, and ``tools/pin_digests.py`` pins what each stream produces.

A key tag (a model declaration's ``tags``) used by two models is shared on purpose,
and one of them says why in its declaration's ``shared_tags``; ``tests/test_streams.py``
fails on an undeclared sharing and tests the declared ones: ``range`` draws only
stream ``4 f + 3`` of the lidar key, which ``lidar`` never draws (``4 f + 0..2``), so
the two stay independent; ``depth`` draws the camera's own normal of each pixel, the
same Gaussian for a depth and a colour image, as Gazebo's RGB-D noise; the sensors of
a ``dvl_simulator`` key with child seeds, apart from an ``augmented_white_noise``.

Tags listed in ``RESERVED_TAGS`` are kept free: no model in use may take one.

Batched environments: environment ``i`` of a model built with ``num_envs`` (and a model
built with ``env=i``) draws the streams listed here under its own key,
``env_model_key(seed, tag, i)``: child ``i`` of the model's seed sequence
(``fastnoise.core.seeding.env_seed_sequence``; ``docs/batching.rst``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Stream:
    """One stream (or family of streams) of one model."""

    model: str  #: the model's state name (``Model.model_name``)
    key_tag: str | None  #: tag of ``model_key``; None: the key is the seed's own
    stream: str  #: the stream id, or its formula
    draws: str  #: what it draws, in which order
    limit: str = ""  #: the counters' limits
    c_names: tuple[tuple[str, int], ...] = ()  #: the matching constants in streams.h


STREAMS: tuple[Stream, ...] = (
    Stream(
        "generator",
        None,
        "stream (constructor argument, < 2**64)",
        "normal n of the canonical stream (16 per group of 4 Philox blocks)",
        "position < 2**64",
    ),
    Stream(
        "sensor_simulator",
        "sensor_simulator",
        "0",
        "per read: 3 normals (x, y, z) of the rates or of the angles, in call order",
        "position < 2**64",
    ),
    Stream(
        "imu",
        "imu",
        "IMU_TAG | axis << 8 | WHITE",
        "normal k: white noise of sample k on axis (gyro x, y, z, accel x, y, z)",
        "sample count < 2**64",
        (("IMU_TAG", 0x494D550000000000), ("IMU_WHITE", 0)),
    ),
    Stream(
        "imu",
        "imu",
        "IMU_TAG | axis << 8 | GAUSS_MARKOV",
        "normal k: Gauss-Markov drive of sample k (drawn only when sigma_b > 0)",
        "sample count < 2**64",
        (("IMU_GAUSS_MARKOV", 1),),
    ),
    Stream(
        "imu",
        "imu",
        "IMU_TAG | axis << 8 | RANDOM_WALK",
        "normal k: random-walk step of sample k (drawn only when K > 0)",
        "sample count < 2**64",
        (("IMU_RANDOM_WALK", 2),),
    ),
    Stream(
        "imu",
        "imu",
        "IMU_TAG | axis << 8 | STARTUP",
        "float64 normal 0: turn-on bias; normal 1: steady-state Gauss-Markov start",
        "2 normals",
        (("IMU_STARTUP", 3),),
    ),
    Stream(
        "imu",
        "imu",
        "IMU_TAG | axis << 8 | SIGN",
        "raw Philox word 0 of block 0: its top bit flips the turn-on bias",
        "1 word",
        (("IMU_SIGN", 4),),
    ),
    Stream(
        "augmented_white_noise",
        "dvl",
        "NOISE",
        "float32 normal n: white noise of sample n (drawn anchored or not)",
        "position < 2**64",
        (("AWN_NOISE", 0),),
    ),
    Stream(
        "augmented_white_noise",
        "dvl",
        "ANCHOR",
        "16-bit half n % 8 of block n / 8: the anchor decision of sample n",
        "position < 2**64",
        (("AWN_ANCHOR", 1),),
    ),
    Stream(
        "augmented_white_noise",
        "dvl",
        "TIE",
        "raw word n: refines a 16-bit decision that falls on the threshold",
        "position < 2**64",
        (("AWN_TIE", 2),),
    ),
    Stream(
        "dvl_simulator",
        "dvl",
        "as augmented_white_noise, one key per sensor",
        "sensor i (table order) keys with child i of the seed; then as above",
        "position < 2**64",
    ),
    Stream(
        "lidar",
        "lidar",
        "frame << 2 | RAY_ANGULAR",
        "float32 normal i: angular noise of ray i",
        "frame < 2**62 - 1",
        (("LIDAR_RAY_ANGULAR", 0), ("LIDAR_FRAME_BITS", 62)),
    ),
    Stream(
        "lidar",
        "lidar",
        "frame << 2 | HITPOINT_ANGULAR",
        "float32 normal i: angular noise of point i",
        "frame < 2**62 - 1",
        (("LIDAR_HITPOINT_ANGULAR", 1),),
    ),
    Stream(
        "lidar",
        "lidar",
        "frame << 2 | DISTANCE",
        "float32 normal i: distance noise of point i",
        "frame < 2**62 - 1",
        (("LIDAR_DISTANCE", 2),),
    ),
    Stream(
        "range",
        "lidar",
        "frame << 2 | RANGE",
        "float32 normal i: noise of beam i; frame 2**62 - 1 (reserved): normal 0 the "
        "bias, normal 1 its sign flip",
        "frame < 2**62 - 1",
        (("LIDAR_RANGE", 3),),
    ),
    Stream(
        "gazebo_noise",
        "gazebo_noise",
        "GZ_TAG | component << 8 | WHITE",
        "normal k: white noise of sample k of the component (drawn when stddev > 0); "
        "GazeboNoise is component 0, a sensor's components are numbered in constructor "
        "order; key tag: the model's name (magnetometer, altimeter, air_pressure, "
        "air_speed, navsat, force_torque share this layout)",
        "sample count < 2**64 - 1",
        (("GZ_TAG", 0x475A4E0000000000), ("GZ_WHITE", 0)),
    ),
    Stream(
        "gazebo_noise",
        "gazebo_noise",
        "GZ_TAG | component << 8 | DYNAMIC",
        "normal k: dynamic-bias drive of sample k (drawn when sigma_d > 0, tau > 0, dt > 0)",
        "sample count < 2**64 - 1",
        (("GZ_DYNAMIC", 1),),
    ),
    Stream(
        "gazebo_noise",
        "gazebo_noise",
        "GZ_TAG | component << 8 | BIAS",
        "float64 normal 0: the turn-on bias (used when bias_stddev > 0)",
        "1 normal",
        (("GZ_BIAS", 2),),
    ),
    Stream(
        "gazebo_noise",
        "gazebo_noise",
        "GZ_TAG | component << 8 | SIGN",
        "raw Philox word 0 of block 0 (u = w / 2**32): the bias is negated when u < 0.5",
        "1 word",
        (("GZ_SIGN", 3),),
    ),
    Stream(
        "magnetometer",
        "magnetometer",
        "as gazebo_noise, one component per noise argument",
        "component i (constructor order) as gazebo_noise's component",
        "sample count < 2**64 - 1",
    ),
    Stream(
        "altimeter",
        "altimeter",
        "as gazebo_noise, one component per noise argument",
        "component i (constructor order) as gazebo_noise's component",
        "sample count < 2**64 - 1",
    ),
    Stream(
        "air_pressure",
        "air_pressure",
        "as gazebo_noise, one component per noise argument",
        "component i (constructor order) as gazebo_noise's component",
        "sample count < 2**64 - 1",
    ),
    Stream(
        "air_speed",
        "air_speed",
        "as gazebo_noise, one component per noise argument",
        "component i (constructor order) as gazebo_noise's component",
        "sample count < 2**64 - 1",
    ),
    Stream(
        "navsat",
        "navsat",
        "as gazebo_noise, one component per noise argument",
        "component i (constructor order) as gazebo_noise's component",
        "sample count < 2**64 - 1",
    ),
    Stream(
        "force_torque",
        "force_torque",
        "as gazebo_noise, one component per noise argument",
        "component i (constructor order) as gazebo_noise's component",
        "sample count < 2**64 - 1",
    ),
    Stream(
        "carla_lidar",
        "carla_lidar",
        "frame << 2 | CARLA_GENERAL",
        "raw word i / 2**32: general drop-off uniform of point i (drawn when the rate "
        "exceeds FLT_EPSILON)",
        "frame < 2**62 - 1",
        (("CARLA_GENERAL", 0), ("CARLA_FRAME_BITS", 62)),
    ),
    Stream(
        "carla_lidar",
        "carla_lidar",
        "frame << 2 | CARLA_NOISE",
        "float32 normal i: range noise of point i (drawn when noise_stddev exceeds FLT_EPSILON)",
        "frame < 2**62 - 1",
        (("CARLA_NOISE", 1),),
    ),
    Stream(
        "carla_lidar",
        "carla_lidar",
        "frame << 2 | CARLA_INTENSITY",
        "raw word i / 2**32: intensity drop-off uniform of point i (drawn when "
        "dropoff_zero_intensity > 0)",
        "frame < 2**62 - 1",
        (("CARLA_INTENSITY", 2),),
    ),
    Stream(
        "camera",
        "camera",
        "frame",
        "float32 normal j (pixel y * width + x; per channel j * channels + c); variant "
        "ogre2_rgbd also normal 2**63 + j, the Box-Muller partner of the capped normal",
        "frame < 2**64; pixel index < 2**64 (ogre2_rgbd: < 2**63)",
    ),
    Stream(
        "depth",
        "camera",
        "frame",
        "float32 normal j (pixel y * width + x): the camera's own normal of that pixel, "
        "on purpose (one Gaussian per pixel for RGB-D depth and colour, as gz-rendering's "
        "depth noise shader); with uniform_floor also normal 2**63 + j, the Box-Muller "
        "partner of the capped normal",
        "frame < 2**64; pixel index < 2**64 (uniform_floor: < 2**63)",
    ),
    Stream(
        "gaussian_noise",
        "gaussian_noise",
        "step << 1 | SIMPLE_NOISE",
        "normal j: component j of the step (environment e keys with child e of the "
        "model's seed sequence, as every batched model)",
        "step < 2**63",
        (("SIMPLE_NOISE", 0),),
    ),
    Stream(
        "uniform_noise",
        "uniform_noise",
        "step << 1 | SIMPLE_NOISE",
        "block j // 2, words 2 (j % 2) and 2 (j % 2) + 1 as a 64-bit integer, top 53 bits "
        "times 2**-53: the uniform of component j",
        "step < 2**63",
    ),
    Stream(
        "constant_noise",
        "constant_noise",
        "(none)",
        "nothing: a constant term draws no random numbers (keyed for the shared contract)",
    ),
    Stream(
        "additive_bias_noise",
        "additive_bias_noise",
        "step << 1 | SIMPLE_NOISE",
        "the noise term's values of the step, as gaussian_noise or uniform_noise",
        "step < 2**63",
    ),
    Stream(
        "additive_bias_noise",
        "additive_bias_noise",
        "reset << 1 | SIMPLE_BIAS",
        "the bias term's values drawn at the environment's reset r (r = 0: construction)",
        "reset < 2**63",
        (("SIMPLE_BIAS", 1),),
    ),
    Stream(
        "suite",
        "suite",
        "as the topic's (or file's) model",
        "fastnoise.io.suite.suite: topic or file n (normalized name) seeds its model with "
        "child(child(seed, tag('suite')), first 4 bytes LE of sha256(n)); message k of the "
        "topic is frame k (the IMU: sample k from the topic's first message)",
        "one key per name",
    ),
)

#: Key tags reserved so that no model in use takes one. ``depth_camera``: ``DepthNoise``
#: keys with the camera's tag on purpose (it shares ImageNoise's per-pixel normals, as
#: Gazebo's RGB-D noise does); the tag stays free for a depth noise keyed apart from
#: the colour image, should one be offered.
RESERVED_TAGS: tuple[str, ...] = ("depth_camera",)


def c_constants() -> dict[str, int]:
    """``{name without FN_STREAM_: value}`` of every constant the table names."""
    return {name: value for s in STREAMS for name, value in s.c_names}


def table_markdown() -> str:
    """The registry as a Markdown table (for the docs)."""
    rows = ["| model | key tag | stream | draws | limits |", "| --- | --- | --- | --- | --- |"]

    def cell(text: str) -> str:
        return text.replace("|", "\\|")  # a literal bar inside a cell

    for s in STREAMS:
        cells = (s.model, s.key_tag or "(seed)", s.stream, s.draws, s.limit)
        rows.append("| " + " | ".join(cell(c) for c in cells) + " |")
    return "\n".join(rows)
