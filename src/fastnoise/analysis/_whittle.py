"""Whittle (spectral) likelihood of the IMU noise terms of one stationary log column.

The log y (rate samples, unit U, step dt) is the sum of white noise (variance
``a_w = N^2 / dt``), a steady-state first-order Gauss-Markov process (variance
``a_g = sigma_b^2``, correlation time tau_c) and a random walk (increment variance
``a_r = K^2 dt``). Its first difference d_t = y_t - y_(t-1) is stationary for all three,
with the exact discrete-time spectrum (variance per unit of normalized angular frequency,
omega in radians per sample, u = sin^2(omega/2), phi = exp(-dt/tau_c))::

    S(omega) = a_w 4u + a_g (1 - phi^2) 4u / ((1 - phi)^2 + 4 phi u) + a_r

The lowest Fourier bins (k = 1 .. K0, omega_k = 2 pi k / L) carry most of what separates
a Gauss-Markov term with a long tau_c from a random walk, so there every bin is used,
untapered, with its exact distribution ("the low ordinates"). The untapered DFT of d is
X_k = (e^(i omega_k) - 1) Y_k + e^(i omega_k) (y_L - y_0), Y_k the DFT of y_1 .. y_L.
The term along the fixed direction v_k = e^(i omega_k) is the leakage of a
non-periodic log: for white noise (and nearly for a Gauss-Markov term) the rest,
(e^(i omega) - 1) Y_k, has independent ordinates of mean S(omega_k) (exactly for white
noise; a Gauss-Markov term gets its finite-length Fejer correction, of relative size
tau_c / T), and for a random walk X_k itself has. So the coefficient beta of the data
along v is treated as unknown (a restricted, or marginal, likelihood: beta has a flat
prior and is integrated out), which makes the low ordinates exact for all three terms:
with z_k = Z_k / sqrt(L) (Z_k = X_k - v_k (y_L - y_0)), P_k = |z_k|^2, c_k = Re(conj(v_k)
z_k), their negative log-likelihood is
``sum_k (ln S_k + P_k / S_k) - (sum_k c_k / S_k)^2 / sum_k (1 / S_k) + ln(sum_k 1 / S_k) / 2``.
This uses twice the ordinates of a tapered periodogram there (every bin, not the odd ones)
and about doubles the information on the terms' low-frequency shapes.

The end-to-end change s = (y_L - y_0) / sqrt(L) is one more ordinate, Gaussian with
variance (2 a_w + 2 a_g (1 - phi^L)) / L + a_r (the last band, count 1/2): a random walk
wanders over the whole log, a Gauss-Markov term only by about sigma_b, so this one number
separates the two. (It is nearly independent of the low ordinates' contrasts: exactly
for white noise and a random walk, to O(sqrt(tau_c / T)) for a Gauss-Markov term.)

Above the low ordinates d is Hann-tapered (its DFT is 0.5 X_k - 0.25 (X_(k-1) + X_(k+1))),
its periodogram I_k taken at the Fourier frequencies, and only the odd k >= K0 + 3 are
kept (they share no untapered bin with the low ordinates): with a Hann taper
neighbouring bins are correlated (0.44), bins two apart almost not (0.03), so the kept
ordinates are close to independent, each exponential with mean E[I_k]. (d has mean zero
for all three terms, so nothing is subtracted.) The taper smooths the spectrum over a few
bins; to second order E[I_k] = S + (2 pi^2 / (3 L^2)) S'' (S'' = d^2 S / d omega^2),
which matters only in the lowest bins where the white and Gauss-Markov terms of the
differenced series vanish like omega^2; this correction is in the model. The kept
ordinates are averaged in bands (single bins at the low end, then about 20% wide);
a band mean of n ordinates is Gamma(n, S/n) distributed, so the negative log-likelihood
is ``sum_b n_b (ln S_b + P_b / S_b)`` (S_b the band mean of the model), exact up to the
within-band variation of S, which is averaged over the band.

For a fixed tau_c the model is linear in the amplitudes; their maximum-likelihood values
are found by iteratively reweighted non-negative least squares (Fisher scoring of the
gamma likelihood, with beta at its generalized-least-squares value for the current
model), and tau_c by a grid search on ln tau_c refined by golden section.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeAlias

import numpy as np
import numpy.typing as npt

FloatArray: TypeAlias = npt.NDArray[np.float64]

#: Term order of the amplitude vector: white a_w, Gauss-Markov a_g, random walk a_r.
TERMS = ("white", "gauss_markov", "random_walk")
#: Bins of the lowest bands (one ordinate each), then bands grow by this ratio.
_SINGLE = 12
_RATIO = 1.2
#: Variance inflation of a mean of the kept ordinates: with a Hann taper the power at
#: bins two apart has correlation (1/6)^2 = 1/36, so var(mean) is (1 + 2/36) times that
#: of independent ordinates (the Fisher information is divided by it).
ORDINATE_CORRELATION = 1.0 + 2.0 / 36.0
#: At most this many model evaluation points per band.
_POINTS = 8
#: Untapered low ordinates k = 1 .. LOW_BINS (fewer in short logs; an even number).
LOW_BINS = 48


def fast_length(n: int) -> int:
    """Largest 2^a 3^b 5^c <= n (an FFT length numpy transforms quickly)."""
    best = 1
    p2 = 1
    while p2 <= n:
        p3 = p2
        while p3 <= n:
            p5 = p3
            while p5 <= n:
                best = max(best, p5)
                p5 *= 5
            p3 *= 3
        p2 *= 2
    return best


@dataclass(frozen=True)
class BandSpectrum:
    """The band-averaged Hann periodogram of a differenced column.

    power: (B,) band means P_b (U^2 per unit normalized angular frequency, i.e. the
    variance of d for a flat spectrum); count: (B,) ordinates per band; omega: (E,)
    evaluation frequencies (rad/sample); band: (E,) band of each; weight: (E,) 1 / points
    in its band; length: L, the transformed length; dt: sample step, s.
    """

    power: FloatArray
    count: FloatArray
    omega: FloatArray
    band: npt.NDArray[np.int64]
    weight: FloatArray
    length: int
    dt: float
    trig: FloatArray  # (3, E): sin^2(omega/2), cos(omega), sin^2(omega)
    starts: npt.NDArray[np.int64]  # (B,): first evaluation point of each band
    white: FloatArray  # (B,): exact band means of the white shape
    low: int  # the first ``low`` bands are the untapered low ordinates (count 1 each)
    lowc: FloatArray  # (low,): c_k = Re(conj(v_k) z_k) of the low ordinates
    tapered: FloatArray  # (E,): 1 at the points of Hann bands, 0 at the low ordinates
    info_weight: FloatArray  # (B,): count / variance inflation of the band mean

    def effective_power(self, model: FloatArray) -> FloatArray:
        """(B,) or (G, B) band powers with the low ordinates' leakage coefficient beta
        set to its generalized-least-squares value under ``model`` (B,) or (G, B)."""
        lo = self.low
        power = np.broadcast_to(self.power, model.shape).copy()
        if lo == 0:
            return power
        inv = 1.0 / np.maximum(model[..., :lo], 1e-300)
        beta = np.sum(self.lowc * inv, axis=-1) / np.sum(inv, axis=-1)
        b = np.asarray(beta)[..., None]
        power[..., :lo] = self.power[:lo] - 2.0 * b * self.lowc + b * b
        return power

    def band_mean(self, values: FloatArray) -> FloatArray:
        """(E, k) values at the evaluation points -> (B, k) band means."""
        return np.asarray(np.add.reduceat(values * self.weight[:, None], self.starts, axis=0))


def band_spectrum(y: FloatArray, dt: float) -> BandSpectrum:
    """Band spectrum of one column y (n,), n >= 64."""
    d = np.diff(np.asarray(y, dtype=np.float64))
    length = fast_length(d.size)
    d = d[:length]
    x = np.fft.rfft(d)
    top = (length - 1) // 2
    if top < 1:
        raise ValueError(f"{y.size} samples are too few for a spectral fit")
    # the low ordinates: every bin k = 1 .. low, untapered (module docstring)
    low = min(LOW_BINS, 2 * (top // 8))
    kl = np.arange(1, low + 1)
    wl = 2.0 * math.pi * kl / length
    vl = np.exp(1j * wl)
    zl = (x[kl] - vl * float(np.sum(d))) / math.sqrt(length)
    pl = zl.real**2 + zl.imag**2
    cl = np.asarray(vl.real * zl.real + vl.imag * zl.imag, dtype=np.float64)
    # the Hann-tapered DFT from the untapered one (h = 0.5 - 0.5 cos(2 pi t / L))
    k0, k1 = low + 3, min(top, length // 2 - 1) + 1
    k = np.arange(k0, k1, 2)  # k + 1 <= L // 2
    # strided slices, not x[k] gathers: the same values, without copying three
    # index arrays' worth of complex ordinates (a 10^7 log: ~0.5 s less per column)
    hann = 0.5 * x[k0:k1:2] - 0.25 * (x[k0 - 1 : k1 - 1 : 2] + x[k0 + 1 : k1 + 1 : 2])
    pk = (hann.real**2 + hann.imag**2) / (0.375 * length)  # sum(h^2) = 3 L / 8
    # band edges in the index j of the kept ordinates
    edges = list(range(min(_SINGLE, k.size) + 1))
    while edges[-1] < k.size:
        edges.append(min(k.size, max(edges[-1] + 1, int(math.ceil(edges[-1] * _RATIO)))))
    e = np.asarray(edges)
    cs = np.concatenate([[0.0], np.cumsum(pk)])
    count = np.diff(e).astype(np.float64)
    power = (cs[e[1:]] - cs[e[:-1]]) / count
    om: list[FloatArray] = [np.asarray(w, dtype=np.float64).reshape(1) for w in wl]
    for b in range(count.size):
        lo, hi = int(e[b]), int(e[b + 1])
        idx: FloatArray
        if hi - lo <= _POINTS:
            idx = np.arange(lo, hi, dtype=np.float64)
        else:  # the centres of _POINTS equal blocks of the band's ordinates
            idx = np.asarray(
                lo - 0.5 + (np.arange(_POINTS) + 0.5) * ((hi - lo) / _POINTS), dtype=np.float64
            )
        om.append(2.0 * math.pi * (k[0] + 2.0 * idx) / length)  # k = k0 + 2 j
    omega = np.concatenate(om)
    sizes = [p.size for p in om]
    band = np.repeat(np.arange(len(om), dtype=np.int64), sizes)
    weight = np.concatenate([np.full(n, 1.0 / n) for n in sizes])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    trig = np.stack([np.sin(0.5 * omega) ** 2, np.cos(omega), np.sin(omega) ** 2])
    tapered = np.ones(omega.size)
    tapered[:low] = 0.0
    # the white shape's band means exactly, over every kept ordinate (the bands hold up
    # to ~1e6 ordinates, where an approximate mean would bias N by more than its sd)
    wk = 2.0 * math.pi * k / length
    c = 2.0 * math.pi**2 / (3.0 * float(length) ** 2)
    cos_wk = np.cos(wk)
    wsum = np.concatenate([[0.0], np.cumsum(2.0 - 2.0 * cos_wk + c * 2.0 * cos_wk)])
    white = np.concatenate([2.0 - 2.0 * np.cos(wl), (wsum[e[1:]] - wsum[e[:-1]]) / count])
    # the endpoint band: s = (y_L - y_0) / sqrt(L), one real Gaussian ordinate
    s_end = float(np.sum(d)) / math.sqrt(length)
    white = np.concatenate([white, [2.0 / length]])
    counts = np.concatenate([np.ones(low), count, [0.5]])
    inflation = np.concatenate([np.ones(low), np.full(count.size, ORDINATE_CORRELATION), [1.0]])
    return BandSpectrum(
        power=np.concatenate([pl, power, [s_end * s_end]]),
        count=counts,
        omega=omega,
        band=band,
        weight=weight,
        length=length,
        dt=dt,
        trig=trig,
        starts=starts,
        white=white,
        low=low,
        lowc=cl,
        tapered=tapered,
        info_weight=counts / inflation,
    )


def _point_shapes(spec: BandSpectrum, tau_c: float) -> FloatArray:
    """(E, 3) expected periodogram per unit amplitude at the evaluation points: the
    tapered one (to second order in the taper's smoothing) at the Hann bands' points,
    the exact finite-length one at the low ordinates."""
    length = spec.length
    c = 2.0 * math.pi**2 / (3.0 * float(length) ** 2) * spec.tapered
    u, cw, s2 = spec.trig[0], spec.trig[1], spec.trig[2]
    g = np.empty((u.size, 3))
    g[:, 0] = 4.0 * u + c * 2.0 * cw
    g[:, 2] = 1.0
    if math.isfinite(tau_c):
        eps = -math.expm1(-spec.dt / tau_c)  # 1 - phi
        phi = 1.0 - eps
        q = eps * (1.0 + phi)  # 1 - phi^2
        a, b = eps * eps, 4.0 * phi
        den = a + b * u
        f = 4.0 * u / den
        f1 = 4.0 * a / den**2
        f2 = -8.0 * a * b / den**3
        g[:, 1] = q * (f + c * (f2 * s2 / 4.0 + f1 * cw / 2.0))
        lo = spec.low
        if lo:
            # E|Y_k|^2 / L of a unit AR(1) over L samples: sum_(|h| < L) (1 - |h| / L)
            # phi^|h| e^(-i omega h) = 2 Re(A) - 1 (A the h >= 0 half), times |e^(i omega) - 1|^2
            z = phi * np.exp(-1j * spec.omega[:lo])
            pl = phi ** float(length)
            big = (1.0 - pl) / (1.0 - z) - (z - length * pl + (length - 1) * pl * z) / (
                length * (1.0 - z) ** 2
            )
            g[:lo, 1] = 4.0 * u[:lo] * (2.0 * big.real - 1.0)
    else:
        g[:, 1] = 0.0
    return g


def shapes(spec: BandSpectrum, tau_c: float) -> FloatArray:
    """(B, 3) band-mean model per unit amplitude (white, Gauss-Markov at tau_c, RW)."""
    g = spec.band_mean(_point_shapes(spec, tau_c))
    # the endpoint band: var(y_L - y_0) / L per unit amplitude
    length = float(spec.length)
    gm = -2.0 * math.expm1(-length * spec.dt / tau_c) / length if math.isfinite(tau_c) else 0.0
    g = np.concatenate([g, [[2.0 / length, gm, 1.0]]])
    g[:, 0] = spec.white
    return g


def nll(spec: BandSpectrum, model: FloatArray) -> float:
    """Negative log-likelihood (up to a constant) of band means ``model`` (B,): the
    restricted one at the low ordinates (module docstring), the gamma one above."""
    s = np.maximum(model, 1e-300)
    val = float(np.sum(spec.count * (np.log(s) + spec.power / s)))
    lo = spec.low
    if lo:
        inv = 1.0 / s[:lo]
        si = float(np.sum(inv))
        sc = float(np.sum(spec.lowc * inv))
        val += 0.5 * math.log(si) - sc * sc / si
    return val


def _nll_rows(spec: BandSpectrum, s: FloatArray) -> FloatArray:
    """``nll`` of each row of s (G, B) (s > 0)."""
    val = np.sum(spec.count[None, :] * (np.log(s) + spec.power[None, :] / s), axis=1)
    lo = spec.low
    if lo:
        inv = 1.0 / s[:, :lo]
        si = np.sum(inv, axis=1)
        sc = np.sum(spec.lowc[None, :] * inv, axis=1)
        val = val + 0.5 * np.log(si) - sc * sc / si
    return np.asarray(val, dtype=np.float64)


def _solve(g: list[list[float]], r: list[float]) -> list[float] | None:
    """Solve the k x k system g x = r (k <= 3), Gaussian elimination with partial
    pivoting in Python floats; None when (nearly) singular."""
    k = len(r)
    a = [row[:] + [r[i]] for i, row in enumerate(g)]
    for col in range(k):
        piv = max(range(col, k), key=lambda i: abs(a[i][col]))
        if abs(a[piv][col]) < 1e-12:
            return None
        a[col], a[piv] = a[piv], a[col]
        for i in range(col + 1, k):
            f = a[i][col] / a[col][col]
            for j in range(col, k + 1):
                a[i][j] -= f * a[col][j]
    x = [0.0] * k
    for i in range(k - 1, -1, -1):
        x[i] = (a[i][k] - sum(a[i][j] * x[j] for j in range(i + 1, k))) / a[i][i]
    return x


def _nnls(a: FloatArray, b: FloatArray) -> FloatArray:
    """Non-negative least squares, at most 3 unknowns: the unconstrained solution when it
    is non-negative, else the best non-negative one over the subsets of free columns
    (exact for this convex problem). Columns are scaled to unit norm; the costs come
    from the Gram matrix (cost = b'b - 2 x'r + x'Gx)."""
    p = a.shape[1]
    norms = np.sqrt(np.sum(a * a, axis=0))
    norms[norms == 0] = 1.0
    an = a / norms
    gram = (an.T @ an).tolist()
    rhs = (an.T @ b).tolist()
    best = [0.0] * p
    best_cost = 0.0
    for mask in range(2**p - 1, 0, -1):
        cols = [j for j in range(p) if mask >> j & 1]
        x = _solve([[gram[i][j] for j in cols] for i in cols], [rhs[i] for i in cols])
        if x is None or min(x) < 0.0 or not all(math.isfinite(v) for v in x):
            continue
        # cost relative to b'b: -x'r (at the least-squares solution x'Gx = x'r)
        cost = -sum(xi * rhs[c] for xi, c in zip(x, cols, strict=True))
        if mask == 2**p - 1:
            best = x
            break
        if cost < best_cost:
            best_cost = cost
            best = [0.0] * p
            for xi, c in zip(x, cols, strict=True):
                best[c] = xi
    return np.asarray(np.asarray(best, dtype=np.float64) / norms, dtype=np.float64)


def amplitudes(
    spec: BandSpectrum, g: FloatArray, free: Sequence[int], start: FloatArray | None = None
) -> tuple[FloatArray, float]:
    """Maximum-likelihood amplitudes >= 0 of the ``free`` columns of g (B, 3) (the others
    0): Fisher scoring, i.e. least squares of the band means on the shapes with weights
    n_b / S_b^2, repeated; returns (amplitudes (3,), negative log-likelihood)."""
    cols = list(free)
    amp = np.zeros(3)
    if not cols:
        return amp, nll(spec, np.zeros(spec.power.size))
    gs = g[:, cols]
    sw = np.sqrt(spec.count) / np.maximum(spec.power, 1e-300)  # first weights: S ~ P
    if start is not None and np.any(start[cols] > 0):
        x = np.asarray(start[cols], dtype=np.float64)
    else:
        x = _nnls(gs * sw[:, None], spec.effective_power(np.maximum(spec.power, 1e-300)) * sw)
    cur = nll(spec, gs @ x)
    for _ in range(40):
        s = np.maximum(gs @ x, 1e-300)
        sw = np.sqrt(spec.count) / s
        x_new = _nnls(gs * sw[:, None], spec.effective_power(s) * sw)
        new = nll(spec, gs @ x_new)
        step = 1.0
        while not new <= cur and step > 1e-3:
            step *= 0.5
            x_try = x + step * (x_new - x)
            new = nll(spec, gs @ x_try)
            if new <= cur:
                x_new = x_try
        if not new <= cur:
            break
        done = cur - new <= 1e-7
        x, cur = x_new, new
        if done:
            break
    amp[cols] = x
    return amp, cur


def _amplitudes_grid(
    spec: BandSpectrum, gs: FloatArray, iterations: int = 12
) -> tuple[FloatArray, FloatArray]:
    """Fisher scoring without constraints for a stack of models at once: gs (G, B, p)
    -> amplitudes (G, p) and negative log-likelihoods (G,) (inf where an amplitude came
    out negative or the iteration failed: those need ``amplitudes``)."""
    norms = np.sqrt(np.sum(gs * gs, axis=1))  # (G, p)
    norms[norms == 0] = 1.0
    gn = gs / norms[:, None, :]
    sw = np.broadcast_to(np.sqrt(spec.count) / np.maximum(spec.power, 1e-300), gs.shape[:2])
    x = np.zeros((gs.shape[0], gs.shape[2]))
    eye = 1e-12 * np.eye(gs.shape[2])
    power = spec.effective_power(np.broadcast_to(np.maximum(spec.power, 1e-300), gs.shape[:2]))
    for _ in range(iterations):
        a = gn * sw[:, :, None]
        m = np.einsum("gbi,gbj->gij", a, a) + eye
        r = np.einsum("gbi,gb->gi", a, power * sw)
        x = np.linalg.solve(m, r[:, :, None])[:, :, 0]
        s = np.maximum(np.einsum("gbi,gi->gb", gn, x), 1e-300)
        sw = np.sqrt(spec.count)[None, :] / s
        power = spec.effective_power(s)
    s = np.maximum(np.einsum("gbi,gi->gb", gn, x), 1e-300)
    vals = _nll_rows(spec, s)
    bad = np.any(x < 0.0, axis=1) | ~np.all(np.isfinite(x), axis=1) | ~np.isfinite(vals)
    vals[bad] = np.inf
    return x / norms, vals


@dataclass(frozen=True)
class ModelFit:
    """Maximum-likelihood fit of one set of terms."""

    terms: frozenset[str]
    amp: FloatArray  # (3,): a_w, a_g, a_r
    tau_c: float  # s; inf without a Gauss-Markov term
    nll: float
    at_bound: bool  # tau_c at an end of its search range


def fit_terms(
    spec: BandSpectrum, terms: frozenset[str], tau_bounds: tuple[float, float]
) -> ModelFit:
    """Fit the given terms (maximum likelihood), tau_c over ``tau_bounds`` (s)."""
    free = [j for j, t in enumerate(TERMS) if t in terms]
    if "gauss_markov" not in terms:
        amp, val = amplitudes(spec, shapes(spec, math.inf), free)
        return ModelFit(terms, amp, math.inf, val, False)
    lo, hi = math.log(tau_bounds[0]), math.log(tau_bounds[1])
    grid = np.linspace(lo, hi, max(6, int(1.5 * (hi - lo)) + 2))
    cache: dict[float, tuple[float, FloatArray]] = {}
    prev: list[FloatArray] = []

    def at(x: float) -> float:
        if x not in cache:
            amp, val = amplitudes(spec, shapes(spec, math.exp(x)), free, prev[-1] if prev else None)
            cache[x] = (val, amp)
            prev.append(amp)
        return cache[x][0]

    # the grid at once (unconstrained Fisher scoring), constrained fits where needed
    gs = np.stack([shapes(spec, math.exp(float(x)))[:, free] for x in grid])
    xs, vs = _amplitudes_grid(spec, gs)
    vals = []
    for gi, x in enumerate(grid):
        if math.isfinite(vs[gi]):
            amp = np.zeros(3)
            amp[free] = xs[gi]
            cache[float(x)] = (float(vs[gi]), amp)
            prev.append(amp)
        vals.append(at(float(x)))
    i = int(np.argmin(vals))
    a, b = float(grid[max(i - 1, 0)]), float(grid[min(i + 1, grid.size - 1)])
    gr = (math.sqrt(5.0) - 1.0) / 2.0
    x1, x2 = b - gr * (b - a), a + gr * (b - a)
    f1, f2 = at(x1), at(x2)
    while b - a > 1e-2:
        if f1 < f2:
            b, x2, f2 = x2, x1, f1
            x1 = b - gr * (b - a)
            f1 = at(x1)
        else:
            a, x1, f1 = x1, x2, f2
            x2 = a + gr * (b - a)
            f2 = at(x2)
    best = min(cache, key=lambda x: cache[x][0])
    val, amp = cache[best]
    step = (hi - lo) / (grid.size - 1)
    at_bound = best - lo < 0.5 * step or hi - best < 0.5 * step
    return ModelFit(terms, amp, math.exp(best), val, at_bound)


def log_covariance(spec: BandSpectrum, fit: ModelFit) -> tuple[list[str], FloatArray]:
    """Inverse Fisher information of the fit in the log-parameters of its non-zero
    terms (ln a_w, ln a_g, ln tau_c, ln a_r, in that order, those present): names and
    covariance."""
    g = shapes(spec, fit.tau_c)
    model = np.maximum(g @ fit.amp, 1e-300)
    names: list[str] = []
    cols: list[FloatArray] = []
    for j, t in enumerate(TERMS):
        if fit.amp[j] > 0:
            names.append(t)
            cols.append(g[:, j] * fit.amp[j] / model)
            if t == "gauss_markov":
                h = 1e-4
                gp = shapes(spec, fit.tau_c * math.exp(h))[:, 1]
                gm = shapes(spec, fit.tau_c * math.exp(-h))[:, 1]
                names.append("tau_c")
                cols.append(fit.amp[1] * (gp - gm) / (2.0 * h) / model)
    if not cols:
        return names, np.zeros((0, 0))
    jac = np.stack(cols, axis=1)
    info = jac.T @ (jac * spec.info_weight[:, None])
    return names, np.asarray(np.linalg.pinv(info), dtype=np.float64)


def amplitude_sd(spec: BandSpectrum, fit: ModelFit, g: FloatArray, j: int) -> float:
    """Standard deviation of amplitude j (linear scale, at 0) when the column g[:, j] is
    added to the fitted model: from the Fisher information of the amplitudes."""
    model = np.maximum(g @ fit.amp, 1e-300)
    use = [i for i in range(3) if fit.amp[i] > 0 and i != j] + [j]
    jac = g[:, use] / model[:, None]
    info = jac.T @ (jac * spec.info_weight[:, None])
    cov = np.linalg.pinv(info)
    return float(math.sqrt(max(cov[-1, -1], 0.0)))
