"""fastnoise.analysis.plots: every picture renders to a PNG file (Agg, no display), and
the plotted data (line data of the axes, histogram bars) are what the models and the
fit say, not pixels."""

from __future__ import annotations

import math

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from fastnoise.analysis import fit_noise, oadev  # noqa: E402
from fastnoise.analysis.plots import (  # noqa: E402
    plot_allan_fit,
    plot_allan_model,
    plot_camera,
    plot_dvl,
    plot_lidar,
)
from fastnoise.analysis.theory import allan_deviation, allan_deviation_terms  # noqa: E402
from fastnoise.models.camera.image_noise import ImageNoise  # noqa: E402
from fastnoise.models.dvl.config import SENSORS, example_config  # noqa: E402
from fastnoise.models.dvl.simulator import DvlSimulator  # noqa: E402
from fastnoise.models.imu.imu_noise import ImuNoise  # noqa: E402
from fastnoise.models.imu.triad import TriadNoise  # noqa: E402
from fastnoise.models.lidar.lidar_noise import LidarNoise, RangeNoise  # noqa: E402

# matplotlib figures, no C code of their own: the scalar-path and sanitizer runs leave
# them out (-m "not python_only").
pytestmark = pytest.mark.python_only

DT = 0.01
PNG = b"\x89PNG\r\n\x1a\n"


def _lines(ax):
    return {line.get_label(): line for line in ax.get_lines()}


def _is_png(path) -> bool:
    with open(path, "rb") as f:
        return f.read(8) == PNG


def _bars(ax):
    """Heights and left edges of the histogram bars of an axes."""
    heights = np.array([p.get_height() for p in ax.patches])
    lefts = np.array([p.get_x() for p in ax.patches])
    widths = np.array([p.get_width() for p in ax.patches])
    return heights, lefts, widths


@pytest.fixture(scope="module")
def six_axis_fit():
    gyro = TriadNoise(
        noise_density=2e-4,
        gauss_markov_stddev=5e-4,
        gauss_markov_correlation_time=3.0,
        gauss_markov_steady_state=True,
    )
    accel = TriadNoise(noise_density=2e-3, random_walk_density=2e-4)
    zeros = np.zeros((100_000, 3))
    w, a = ImuNoise(gyro=gyro, accel=accel, seed=3).apply(zeros, zeros, DT)
    return fit_noise(np.concatenate([w, a], axis=1), 1.0 / DT)


def test_allan_fit_picture_holds_the_data_and_the_model(six_axis_fit, tmp_path):
    path = tmp_path / "fit.png"
    fig = plot_allan_fit(six_axis_fit, path)
    assert _is_png(path)
    axes = [ax for ax in fig.axes if ax.get_visible()]
    assert len(axes) == 6
    for c, ax in enumerate(axes):
        assert ax.get_xscale() == ax.get_yscale() == "log"
        assert ax.get_title() == six_axis_fit.axes[c].name
        lines = _lines(ax)
        data = lines["data"]
        np.testing.assert_array_equal(data.get_xdata(), six_axis_fit.allan.tau)
        np.testing.assert_array_equal(data.get_ydata(), six_axis_fit.allan.adev[:, c])
        t = np.asarray(lines["total"].get_xdata())
        model = six_axis_fit.model_terms(t)
        np.testing.assert_allclose(lines["total"].get_ydata(), model["total"][:, c], rtol=1e-12)
        for term in six_axis_fit.axes[c].terms:
            np.testing.assert_allclose(lines[term].get_ydata(), model[term][:, c], rtol=1e-12)
        for term in {"white", "gauss_markov", "random_walk"} - set(six_axis_fit.axes[c].terms):
            assert term not in lines
    assert "rad/s" in axes[0].get_ylabel() and "m/s²" in axes[3].get_ylabel()


def test_allan_model_picture_is_the_theory_and_the_simulated_log(tmp_path):
    g = TriadNoise(
        noise_density=1e-3,
        gauss_markov_stddev=1e-3,
        gauss_markov_correlation_time=1.0,
        gauss_markov_steady_state=True,
        random_walk_density=1e-4,
    )
    a = TriadNoise(noise_density=2e-3, full_scale=156.96, bits=10)
    imu = ImuNoise(gyro=g, accel=a, seed=9)
    path = tmp_path / "model.png"
    fig = plot_allan_model(imu, DT, path, n_samples=50_000, seed=4)
    assert _is_png(path)
    zeros = np.zeros((50_000, 3))
    w, acc = ImuNoise(gyro=g, accel=a, seed=4).apply(zeros, zeros, DT)
    data = oadev(np.concatenate([w, acc], axis=1), 1.0 / DT).adev
    axes = fig.axes
    assert len(axes) == 6
    for c, ax in enumerate(axes):
        lines = _lines(ax)
        np.testing.assert_array_equal(lines["data"].get_ydata(), data[:, c])
        t = np.asarray(lines["total"].get_xdata())
        np.testing.assert_allclose(
            lines["total"].get_ydata(), allan_deviation(imu, t, DT)[:, c], rtol=1e-12
        )
        terms = allan_deviation_terms(imu, t, DT)
        for name, v in terms.items():
            if np.any(v[:, c] > 0):
                np.testing.assert_allclose(lines[name].get_ydata(), v[:, c], rtol=1e-12)
    assert "quantization" in _lines(axes[3])
    assert "gauss_markov" in _lines(axes[0]) and "gauss_markov" not in _lines(axes[3])
    # the theory alone, for a TriadNoise
    fig = plot_allan_model(g, DT, n_samples=0)
    assert len(fig.axes) == 3 and "data" not in _lines(fig.axes[0])


def test_lidar_picture_compares_with_the_configured_sigma(tmp_path):
    model = LidarNoise(
        distance_noise_mean=0.005,
        distance_noise_stddev_base=0.01,
        distance_noise_stddev_rise_per_meter=0.002,
        hitpoint_angular_noise_stddev=0.003,
        ray_angular_noise_mean=0.001,
        ray_angular_noise_stddev=0.002,
        seed=5,
    )
    before = model.state
    path = tmp_path / "lidar.png"
    fig = plot_lidar(model, path, distances=(2.0, 10.0, 40.0), points_per_distance=20_000)
    assert _is_png(path)
    assert model.state == before  # the model was not used
    hist, sigma, angle = fig.axes
    # the normalized range errors are standard normal: histogram density ~ the pdf
    heights, lefts, widths = _bars(hist)
    assert np.sum(heights * widths) == pytest.approx(1.0, abs=0.01)
    pdf = _lines(hist)["configured"]
    x = np.asarray(pdf.get_xdata())
    np.testing.assert_allclose(pdf.get_ydata(), np.exp(-0.5 * x * x) / math.sqrt(2 * math.pi))
    centre = lefts + widths / 2
    near = np.abs(centre) < 2
    expect = np.exp(-0.5 * centre[near] ** 2) / math.sqrt(2 * math.pi)
    assert np.max(np.abs(heights[near] - expect)) < 0.03
    # the measured sigma per distance follows base + rise * d within 3% (n = 20000:
    # the sd of a sample sigma is 0.5%)
    lines = _lines(sigma)
    d = np.asarray(lines["measured"].get_xdata())
    np.testing.assert_array_equal(d, [2.0, 10.0, 40.0])
    np.testing.assert_allclose(lines["measured"].get_ydata(), 0.01 + 0.002 * d, rtol=0.03)
    cd = np.asarray(lines["configured"].get_xdata())
    np.testing.assert_allclose(lines["configured"].get_ydata(), 0.01 + 0.002 * cd, rtol=1e-12)
    # angular error: hitpoint and ray noise, each against its configured normal
    lines = _lines(angle)
    for name, mean, sd in (("hitpoint", 0.0, 0.003), ("ray", 0.001, 0.002)):
        pdf = lines[f"configured ({name})"]
        x = np.asarray(pdf.get_xdata())
        expect = np.exp(-0.5 * ((x - mean) / sd) ** 2) / (sd * math.sqrt(2 * math.pi))
        np.testing.assert_allclose(pdf.get_ydata(), expect)
    heights, lefts, widths = _bars(angle)
    assert np.sum(heights * widths) == pytest.approx(2.0, abs=0.02)  # two densities


def test_range_noise_picture(tmp_path):
    model = RangeNoise(0.01, 0.02, 0.5, 30.0, seed=6)
    fig = plot_lidar(model, tmp_path / "range.png", distances=(1.0, 10.0, 50.0))
    assert len(fig.axes) == 2
    lines = _lines(fig.axes[1])
    np.testing.assert_array_equal(lines["measured"].get_xdata(), [1.0, 10.0])  # 50 m is out
    np.testing.assert_allclose(lines["measured"].get_ydata(), 0.02, rtol=0.05)


def test_camera_picture_shows_the_crops_and_the_noise_histogram(tmp_path):
    model = ImageNoise(stddev=0.02, seed=7)
    rng = np.random.default_rng(0)
    image = rng.integers(60, 190, (120, 160, 3)).astype(np.uint8)
    path = tmp_path / "camera.png"
    fig = plot_camera(model, path, image=image, crop=32)
    assert _is_png(path)
    before_ax, after_ax, hist = fig.axes
    noisy = model.copy().apply(image)
    np.testing.assert_array_equal(before_ax.images[0].get_array(), image[:32, :32] / 255.0)
    np.testing.assert_array_equal(after_ax.images[0].get_array(), noisy[:32, :32] / 255.0)
    heights, lefts, widths = _bars(hist)
    diff = (noisy.astype(float) - image) / 255.0
    edges = np.append(lefts, lefts[-1] + widths[-1])
    expect, _ = np.histogram(diff.ravel(), bins=edges, density=True)
    np.testing.assert_allclose(heights, expect, rtol=1e-12)
    # one bar per 8-bit level, and the configured Gaussian
    np.testing.assert_allclose(widths, 1.0 / 255.0)
    pdf = _lines(hist)["configured"]
    x = np.asarray(pdf.get_xdata())
    expect = np.exp(-0.5 * (x / 0.02) ** 2) / (0.02 * math.sqrt(2 * math.pi))
    np.testing.assert_allclose(pdf.get_ydata(), expect)
    # the measured noise's sigma is the configured one (clamping is negligible here)
    assert float(np.std(diff)) == pytest.approx(0.02, rel=0.02)


def test_dvl_picture_has_every_field_and_the_composites(tmp_path):
    sim = DvlSimulator.from_config(example_config(), seed=8)
    path = tmp_path / "dvl.png"
    fig = plot_dvl(sim, path, n=5000)
    assert _is_png(path)
    axes = [ax for ax in fig.axes if ax.get_visible()]
    assert len(axes) == len(SENSORS) + 3
    for ax, (name, spec) in zip(axes, SENSORS.items(), strict=False):
        assert ax.get_title() == f"{name} ({spec.field})"
        noise = sim[name]
        if noise.noise_stddev > 0:
            pdf = _lines(ax)["configured (error)"]
            x = np.asarray(pdf.get_xdata())
            sd, mean = noise.noise_stddev, noise.bias
            expect = np.exp(-0.5 * ((x - mean) / sd) ** 2) / (sd * math.sqrt(2 * math.pi))
            np.testing.assert_allclose(pdf.get_ydata(), expect)
            heights, lefts, widths = _bars(ax)
            centre = lefts + widths / 2
            # the measured error density peaks at the configured bias
            assert centre[np.argmax(heights)] == pytest.approx(mean, abs=0.5 * sd)
    for ax, comp in zip(axes[len(SENSORS) :], ("vn", "ve", "vu"), strict=True):
        assert ax.get_title().startswith(f"composite {comp}")
        heights, _, widths = _bars(ax)
        assert np.sum(heights * widths) == pytest.approx(1.0, abs=1e-9)


def test_pictures_refuse_other_models():
    with pytest.raises(TypeError, match="model"):
        plot_lidar(ImageNoise())
    with pytest.raises(TypeError, match="model"):
        plot_camera(LidarNoise())
    with pytest.raises(TypeError, match="sim"):
        plot_dvl(ImageNoise())
    with pytest.raises(TypeError, match="model"):
        plot_allan_model(ImageNoise(), DT)
    with pytest.raises(ValueError, match="distances"):
        plot_lidar(LidarNoise(), distances=(-1.0,))
