"""Fit result classes (split out of :mod:`fastnoise.analysis.fit`, which re-exports it)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from fastnoise.analysis._fit_model import FIT_TERMS, FloatArray, _amplitudes, _shapes, _three
from fastnoise.analysis.allan import (
    AllanDeviation,
)
from fastnoise.models.imu.triad import TriadNoise


@dataclass(frozen=True)
class Estimate:
    """A fitted value with its confidence interval [low, high] (same unit)."""

    value: float
    low: float
    high: float

    def as_dict(self) -> dict[str, float]:
        """``{"value", "low", "high"}`` (floats; NaN where undefined)."""
        return {"value": self.value, "low": self.low, "high": self.high}


@dataclass(frozen=True)
class AxisFit:
    """Fitted noise terms of one axis (unit U of the data: rad/s, m/s^2, ...).

    Attributes
    ----------
    name : str
        Axis name ("gyro_x", ..., "accel_z" for six columns; "x", "y", "z" for three).
    noise_density : Estimate
        White-noise density N, U/sqrt(Hz) (single-sided, sigma = N/sqrt(dt)).
    bias_stddev : Estimate
        Gauss-Markov stationary standard deviation sigma_b, U (0 when not detected).
    bias_correlation_time : Estimate
        Gauss-Markov correlation time tau_c, s (NaN when not detected).
    random_walk_density : Estimate
        Rate random walk density K, U/sqrt(s) (0 when not detected).
    bias_instability : Estimate
        Derived figure B = sigma_model(tau_B) / 0.664, U, read where the model's
        log-log slope is flattest (NaN when no flat region lies in the data).
    bias_instability_tau : float
        That tau_B, s (NaN with B).
    terms : tuple of str
        The terms kept ("white", "gauss_markov", "random_walk").
    reduced_chi2 : float
        Weighted residual sum of squares per point (about 1 for a good fit with
        independent points; overlapping points make it smaller).
    """

    name: str
    noise_density: Estimate
    bias_stddev: Estimate
    bias_correlation_time: Estimate
    random_walk_density: Estimate
    bias_instability: Estimate
    bias_instability_tau: float
    terms: tuple[str, ...]
    reduced_chi2: float

    def as_dict(self) -> dict[str, Any]:
        """Plain data (JSON-able except NaN)."""
        return {
            "name": self.name,
            "noise_density": self.noise_density.as_dict(),
            "bias_stddev": self.bias_stddev.as_dict(),
            "bias_correlation_time": self.bias_correlation_time.as_dict(),
            "random_walk_density": self.random_walk_density.as_dict(),
            "bias_instability": self.bias_instability.as_dict(),
            "bias_instability_tau": self.bias_instability_tau,
            "terms": list(self.terms),
            "reduced_chi2": self.reduced_chi2,
        }


@dataclass(frozen=True)
class NoiseFit:
    """Result of :func:`fit_noise`.

    Attributes
    ----------
    allan : AllanDeviation
        The data's Allan deviation (T, k), U, with the EDF (noise type from the fitted
        model's slope) and confidence intervals.
    axes : tuple of AxisFit
        One per column.
    rate : float
        Sample rate, Hz.
    ci : float
        Probability content of every interval.
    """

    allan: AllanDeviation
    axes: tuple[AxisFit, ...]
    rate: float
    ci: float

    @property
    def dt(self) -> float:
        """Sample step, s."""
        return 1.0 / self.rate

    @property
    def triads(self) -> tuple[TriadNoise, ...]:
        """One ready :class:`TriadNoise` per three columns (x, y, z): noise_density N,
        bias_stddev sigma_b with bias_correlation_time tau_c and
        ``bias_steady_state=True`` (a stationary log), random_walk_density K. Where an
        axis has no Gauss-Markov term but another axis of the triad has one, that axis
        gets sigma_b = 0 and its tau_c is taken from the others (it then has no
        effect)."""
        k = len(self.axes)
        if k % 3:
            raise ValueError(
                f"the log has {k} columns: triads need a multiple of 3 (x, y, z per triad)"
            )
        out = []
        for t in range(k // 3):
            ax = self.axes[3 * t : 3 * t + 3]
            nd = _three([a.noise_density.value for a in ax])
            sb = _three([a.bias_stddev.value for a in ax])
            kk = _three([a.random_walk_density.value for a in ax])
            taus = [a.bias_correlation_time.value for a in ax]
            present = [v for v, s in zip(taus, sb, strict=True) if s > 0 and math.isfinite(v)]
            if present:
                fill = float(np.exp(np.mean(np.log(present))))
                tc = _three(
                    [
                        v if (s > 0 and math.isfinite(v)) else fill
                        for v, s in zip(taus, sb, strict=True)
                    ]
                )
                out.append(
                    TriadNoise(
                        noise_density=nd,
                        bias_stddev=sb,
                        bias_correlation_time=tc,
                        bias_steady_state=True,
                        random_walk_density=kk,
                    )
                )
            else:
                out.append(TriadNoise(noise_density=nd, random_walk_density=kk))
        return tuple(out)

    @property
    def triad(self) -> TriadNoise:
        """The fitted :class:`TriadNoise` of a three-column log."""
        if len(self.axes) != 3:
            raise ValueError(f"the log has {len(self.axes)} columns: .triad needs exactly 3")
        return self.triads[0]

    @property
    def gyro(self) -> TriadNoise:
        """Columns 0-2 of a six-column IMU log (rad/s)."""
        return self._imu_triads()[0]

    @property
    def accel(self) -> TriadNoise:
        """Columns 3-5 of a six-column IMU log (m/s^2)."""
        return self._imu_triads()[1]

    def _imu_triads(self) -> tuple[TriadNoise, ...]:
        if len(self.axes) != 6:
            raise ValueError(
                f"the log has {len(self.axes)} columns: gyro/accel need six (gyro x, y, z "
                "in rad/s, then accel x, y, z in m/s^2)"
            )
        return self.triads

    def imu_noise(self, seed: int | np.random.SeedSequence | None = None, **kw: Any) -> Any:
        """An :class:`~fastnoise.models.imu.imu_noise.ImuNoise` with the fitted gyro and accel
        triads (six-column logs); ``kw`` goes to its constructor."""
        from fastnoise.models.imu.imu_noise import ImuNoise

        g, a = self._imu_triads()
        return ImuNoise(gyro=g, accel=a, seed=seed, **kw)

    def model_terms(self, tau: npt.ArrayLike | None = None) -> dict[str, FloatArray]:
        """The fitted model's Allan deviation per term ("white", "gauss_markov",
        "random_walk") and "total", each (T, k) in U, at ``tau`` (s, whole multiples of
        dt; default the data's taus)."""
        t = self.allan.tau if tau is None else np.atleast_1d(np.asarray(tau, dtype=np.float64))
        m = np.round(t * self.rate)
        if np.any(m < 1) or np.any(np.abs(t * self.rate - m) > 1e-9 * np.maximum(m, 1)):
            raise ValueError(f"tau={t.tolist()!r} is not allowed: use whole multiples of dt")
        out = {name: np.zeros((t.size, len(self.axes))) for name in FIT_TERMS}
        for c, ax in enumerate(self.axes):
            g = _shapes(m, self.dt, ax.bias_correlation_time.value)
            amp = _amplitudes(ax)
            for j, name in enumerate(FIT_TERMS):
                out[name][:, c] = np.sqrt(np.maximum(g[:, j] * amp[j], 0.0))
        total = np.sqrt(sum(np.square(v) for v in out.values()))
        out["total"] = total
        return out

    def table(self) -> str:
        """A plain-text table of every axis's fitted terms and intervals."""
        pct = f"{100 * self.ci:.1f}%"
        head = (
            f"{'axis':<8} {'N [U/sqrt(Hz)]':>34} {'sigma_b [U]':>34} {'tau_c [s]':>34} "
            f"{'K [U/sqrt(s)]':>34} {'B [U]':>34}"
        )
        rows = [f"fitted terms with {pct} intervals [low, high]; rate {self.rate:g} Hz", head]

        def cell(e: Estimate) -> str:
            if not math.isfinite(e.value):
                return f"{'-':>34}"
            return f"{e.value:>11.4g} [{e.low:>9.3g}, {e.high:>9.3g}]"

        for ax in self.axes:
            rows.append(
                f"{ax.name:<8} {cell(ax.noise_density)} {cell(ax.bias_stddev)} "
                f"{cell(ax.bias_correlation_time)} {cell(ax.random_walk_density)} "
                f"{cell(ax.bias_instability)}"
            )
        return "\n".join(rows)

    def to_dict(self) -> dict[str, Any]:
        """Plain data: rate, ci, per-axis fits, the Allan deviation with its intervals,
        and the fitted TriadNoise fields (where the columns make triads)."""
        a = self.allan
        out: dict[str, Any] = {
            "rate": self.rate,
            "ci": self.ci,
            "n_samples": a.n_samples,
            "axes": [ax.as_dict() for ax in self.axes],
            "allan": {
                "tau": a.tau.tolist(),
                "adev": np.asarray(a.adev).tolist(),
                "low": None if a.low is None else a.low.tolist(),
                "high": None if a.high is None else a.high.tolist(),
                "edf": None if a.edf is None else a.edf.tolist(),
                "alpha": None if a.alpha is None else a.alpha.tolist(),
            },
        }
        if len(self.axes) % 3 == 0:
            out["triads"] = [t.to_dict() for t in self.triads]
        return out
