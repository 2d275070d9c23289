"""What the camera models declare (:mod:`fastnoise.core.spec`): ``camera``
(:class:`ImageNoise`) and ``depth`` (:class:`DepthNoise`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from fastnoise.core.spec import Declaration, Param

_IMG = np.random.default_rng(1).integers(0, 256, (9, 11, 3), dtype=np.uint8)
_DEPTH = np.random.default_rng(2).uniform(0.2, 30.0, (9, 11)).astype(np.float32)
_DEPTH[0, :3] = [np.nan, np.inf, -np.inf]

_FRAMES = Param(
    "frames",
    "bool",
    "a .npy/.npz holds a stack (N, H, W[, C]), entry k being frame k",
    default=False,
)


# Largest |mean| and stddev of both camera models (ImageNoise in full scales, DepthNoise
# in m, also its clip distances). ImageNoise's gazebo noise in levels, 65535 * (|mean| +
# stddev * |Z|), stays far inside float32 (3.4e38), so no noise value is inf or NaN; the
# ogre2 power |z|**2.1 is capped at e**88 in float32 (fn_exp_f32) and its levels
# limited before rounding (csrc/camera_pixel.h), which no clamped pixel can see. A
# float32 depth image's noise is never inf or NaN from the parameters either.
_MAX = 1e30

#: ImageNoise's parameters (intensities in full-scale units: 1.0 is 255 for uint8,
#: 65535 for uint16, 1.0 for float images).
CAMERA_PARAMS = (
    Param(
        "mean",
        "real",
        "noise mean",
        unit="full scale",
        default=0.0,
        low=-_MAX,
        high=_MAX,
        keyword_only=False,
    ),
    Param(
        "stddev",
        "real",
        "noise standard deviation (Gazebo's example: 0.007, about 1.8 levels of 8 bits)",
        unit="full scale",
        default=0.007,
        low=0.0,
        high=_MAX,
        keyword_only=False,
    ),
    Param(
        "per_channel",
        "bool",
        "an independent normal per colour channel, not one per pixel shared by all",
        default=False,
        keyword_only=True,
    ),
    Param(
        "variant",
        "choice",
        "gazebo: the noise is mean + stddev z (Ogre 1 shader); ogre2: that value shaped "
        "as sign(z) abs(z)**2.1 (Ogre 2 shader); ogre2_rgbd: Gazebo's RGB-D colour (z "
        "capped as the depth shader's, shaped, on the stored value, int(c * 255))",
        default="gazebo",
        choices=("gazebo", "ogre2", "ogre2_rgbd"),
        keyword_only=True,
    ),
    Param(
        "linear_light",
        "bool",
        "add the noise in linear light (the value decoded from sRGB and encoded back); "
        "None: on for ogre2, off for gazebo",
        default=None,
    ),
)

#: DepthNoise's parameters.
DEPTH_PARAMS = (
    Param(
        "mean",
        "real",
        "noise mean",
        unit="m",
        default=0.0,
        low=-_MAX,
        high=_MAX,
        keyword_only=False,
    ),
    Param(
        "stddev",
        "real",
        "noise standard deviation",
        unit="m",
        default=0.0,
        low=0.0,
        high=_MAX,
        keyword_only=False,
    ),
    Param(
        "near",
        "real",
        "near clip distance (Gazebo's <clip>): a noisy depth below near + 1e-6 becomes "
        "-inf; None: no clip",
        unit="m",
        default=None,
        low=-_MAX,
        high=_MAX,
        rule="< far when both are given",
    ),
    Param(
        "far",
        "real",
        "far clip distance: a noisy depth above far - 1e-6 becomes +inf; None: no clip",
        unit="m",
        default=None,
        low=-_MAX,
        high=_MAX,
        rule="> near when both are given",
    ),
    Param(
        "uniform_floor",
        "real",
        "None: a plain standard normal; else the normal is drawn as by Box-Muller from "
        "uniforms floored here (gz-rendering's depth-noise shader: 0.001, so |z| <= "
        "3.7169)",
        unit="",
        default=None,
        low=0.0,
        high=1.0,
        low_open=True,
        high_open=True,
        rule="a probability in (0, 1); Gazebo's is 0.001",
    ),
)


def _camera_example(cls: type) -> Any:
    return cls(0.0, 0.05, seed=10)


def _camera_exercise(m: Any) -> np.ndarray:
    return np.asarray(m.apply(_IMG))


CAMERA = Declaration(
    name="camera",
    summary="Gazebo's per-pixel Gaussian image noise, one normal per pixel (or per channel)",
    tags=("camera",),
    params=CAMERA_PARAMS,
    messages={"sensor_msgs/Image": "image", "sensor_msgs/CompressedImage": "compressed_image"},
    files={"image": "image", "npy": "image", "npz": "image"},
    sdf_types=("camera",),
    options=(
        Param(
            "quality",
            "int",
            "JPEG quality of re-encoded CompressedImage messages and JPEG files",
            default=95,
            low=0,
            high=100,
        ),
        Param(
            "png_compression",
            "int",
            "PNG compression level of re-encoded PNGs",
            default=3,
            low=0,
            high=9,
        ),
        _FRAMES,
    ),
    aliases=("image",),
    example=_camera_example,
    exercise=_camera_exercise,
)


def _depth_example(cls: type) -> Any:
    return cls(0.01, 0.5, seed=18, near=0.5, far=20.0)


def _depth_exercise(m: Any) -> np.ndarray:
    return np.asarray(m.apply(_DEPTH))


DEPTH = Declaration(
    name="depth",
    summary="Gaussian noise in metres on depth images (NaN and inf kept, no [0, 1] clamp)",
    tags=("camera",),
    shared_tags={
        "camera": "on purpose: a pixel's depth noise is the camera's own normal of that "
        "pixel, one Gaussian per pixel for RGB-D depth and colour, as gz-rendering's "
        "depth noise shader"
    },
    params=DEPTH_PARAMS,
    messages={"sensor_msgs/Image": "depth_image"},
    files={"image": "depth_image", "npy": "depth_image", "npz": "depth_image"},
    sdf_types=("depth_camera",),
    options=(_FRAMES,),
    example=_depth_example,
    exercise=_depth_exercise,
)
