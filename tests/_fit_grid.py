"""The identification grid and the coverage cases of ``fit_noise`` (issue #26, items 3
and 4), their detectability, and the runners that produce the tables.

Detectability (written down before any fit is run, and computed here from the truth
alone): a term is *detectable* when its Allan-variance contribution, at the tau where it
is most visible, is at least 3 times the 1-sigma uncertainty of the Allan variance
estimate there. The taus are the octave grid the fit reports up to m <= n/4; the
uncertainty of the overlapping estimate is avar_total * sqrt(2 / nu), nu Greenhall's EDF
for the noise type that dominates the true Allan variance at that tau (random walk,
alpha = -2, where the Gauss-Markov and random-walk terms make up most of it; white,
alpha = 0, elsewhere). So a term is detectable when
``max_tau avar_term / (avar_total sqrt(2 / nu)) >= 3``.

A detectable Gauss-Markov term is moreover *distinguishable from a random walk* when,
at some tau, the true Allan variance and that of the same model with the Gauss-Markov
term replaced by its random-walk stand-in (K^2 = 2 sigma_b^2 / tau_c: the same Allan
variance for tau << tau_c) differ by at least 3 sigma of the ln-avar estimate:
``max_tau |ln(avar_gm / avar_rw)| / sqrt(2 / nu) >= 3`` (the log scale because the
estimates of the few longest taus are chi-square with 2-4 degrees of freedom). When it
is not, a reported random walk in its place is counted correct: that is the
identifiability limit (tau_c near or beyond the log's length makes a Gauss-Markov bias a
random walk over the log).

Correct identification: the reported terms are exactly white plus the detectable terms
(with that exchange allowed).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from fastnoise.analysis import fit_noise
from fastnoise.analysis.allan import edf_greenhall, tau_grid
from fastnoise.analysis.theory import allan_variance_terms
from fastnoise.models.imu.imu_noise import ImuNoise
from fastnoise.models.imu.triad import TriadNoise


@dataclass(frozen=True)
class Case:
    """One log configuration: rate (Hz), length (s) and the true terms (rad/s units)."""

    name: str
    rate: float
    seconds: float
    n: float  # white noise density N, rad/s/sqrt(Hz)
    sigma_b: float = 0.0  # Gauss-Markov sigma_b, rad/s
    tau_c: float = 1.0  # s
    k: float = 0.0  # random walk density K, rad/s/sqrt(s)

    @property
    def samples(self) -> int:
        return int(round(self.rate * self.seconds))

    def triad(self) -> TriadNoise:
        if self.sigma_b > 0:
            return TriadNoise(
                noise_density=self.n,
                gauss_markov_stddev=self.sigma_b,
                gauss_markov_correlation_time=self.tau_c,
                gauss_markov_steady_state=True,
                random_walk_density=self.k,
            )
        return TriadNoise(noise_density=self.n, random_walk_density=self.k)

    def log(self, seed: int) -> np.ndarray:
        zeros = np.zeros((self.samples, 3))
        w, _ = ImuNoise(gyro=self.triad(), seed=seed).apply(zeros, zeros, 1.0 / self.rate)
        return np.asarray(w)


H = 3600.0
#: The identification grid: white; white + GM; white + RW; white + GM + RW; tau_c from
#: 1 s to 1/10 of the log; logs from 10 min to 10 h (the 10 h case at 20 Hz, 720 000
#: samples; every other log <= 360 000 samples). N = 2e-4 rad/s/sqrt(Hz) throughout.
GRID = (
    Case("white 10min", 100.0, 600.0, 2e-4),
    Case("white 1h", 100.0, H, 2e-4),
    Case("white+RW 1h", 100.0, H, 2e-4, k=1e-5),
    Case("white+RW 10min", 100.0, 600.0, 2e-4, k=5e-5),
    Case("white+RW weak 10min", 100.0, 600.0, 2e-4, k=2e-6),
    Case("white+GM tau 1s 1h", 100.0, H, 2e-4, sigma_b=3e-4, tau_c=1.0),
    Case("white+GM tau 10s 10min", 100.0, 600.0, 2e-4, sigma_b=3e-4, tau_c=10.0),
    Case("white+GM tau 100s 1h", 100.0, H, 2e-4, sigma_b=3e-4, tau_c=100.0),
    Case("white+GM tau T/10 1h", 100.0, H, 2e-4, sigma_b=3e-4, tau_c=360.0),
    Case("white+GM faint 10min", 100.0, 600.0, 2e-4, sigma_b=2e-5, tau_c=10.0),
    Case("white+GM+RW 1h (issue)", 100.0, H, 2e-4, sigma_b=3e-4, tau_c=100.0, k=2e-6),
    Case("white+GM+RW 10h", 20.0, 10 * H, 2e-4, sigma_b=3e-4, tau_c=100.0, k=2e-5),
)

#: Detectability of each grid case's terms, as computed by ``detectability`` (checked by
#: the tests): (gauss_markov, gm distinguishable from a random walk, random_walk).
EXPECTED_DETECTABILITY = {
    "white 10min": (False, False, False),
    "white 1h": (False, False, False),
    "white+RW 1h": (False, False, True),
    "white+RW 10min": (False, False, True),
    "white+RW weak 10min": (False, False, False),
    "white+GM tau 1s 1h": (True, True, False),
    "white+GM tau 10s 10min": (True, True, False),
    "white+GM tau 100s 1h": (True, True, False),
    "white+GM tau T/10 1h": (True, False, False),
    "white+GM faint 10min": (False, False, False),
    "white+GM+RW 1h (issue)": (True, True, False),
    "white+GM+RW 10h": (True, True, True),
}

#: Coverage cases: every term strongly present, so that the intervals, not the choice of
#: terms, are measured.
COVERAGE = (
    Case("white", 100.0, 1000.0, 1e-3),
    Case("white+RW", 100.0, 1000.0, 1e-3, k=2e-4),
    Case("white+GM", 100.0, 1000.0, 1e-3, sigma_b=2e-3, tau_c=2.0),
)


def _fitted_m(case: Case) -> np.ndarray:
    m, _ = tau_grid(case.samples, case.rate, "octave")
    return m[m <= case.samples / 4]


def _avar(case: Case, triad: TriadNoise, m: np.ndarray) -> dict[str, np.ndarray]:
    terms = allan_variance_terms(triad, m / case.rate, 1.0 / case.rate, quantization=False)
    return {k: v[:, 0] for k, v in terms.items()}


def _nu(case: Case, m: np.ndarray, red_share: np.ndarray) -> np.ndarray:
    n = case.samples
    return np.array(
        [
            edf_greenhall(-2 if r > 0.5 else 0, int(mi), n + 1)
            for mi, r in zip(m, red_share, strict=True)
        ]
    )


def detectability(case: Case) -> tuple[bool, bool, bool]:
    """(gauss_markov detectable, gm distinguishable from a random walk, random_walk
    detectable) by the rules of the module docstring."""
    m = _fitted_m(case)
    parts = _avar(case, case.triad(), m)
    total = parts["white"] + parts["gauss_markov"] + parts["random_walk"]
    red = (parts["gauss_markov"] + parts["random_walk"]) / total
    nu = _nu(case, m, red)
    sd = total * np.sqrt(2.0 / nu)
    gm = case.sigma_b > 0 and float(np.max(parts["gauss_markov"] / sd)) >= 3.0
    rw = case.k > 0 and float(np.max(parts["random_walk"] / sd)) >= 3.0
    dist = False
    if gm:
        k2 = math.sqrt(case.k**2 + 2.0 * case.sigma_b**2 / case.tau_c)
        alt = _avar(case, TriadNoise(noise_density=case.n, random_walk_density=k2), m)
        alt_total = alt["white"] + alt["random_walk"]
        dist = float(np.max(np.abs(np.log(total / alt_total)) / np.sqrt(2.0 / nu))) >= 3.0
    return gm, dist, rw


def is_correct(terms: Iterable[str], det: tuple[bool, bool, bool]) -> bool:
    """Whether reported ``terms`` are the detectable ones (module docstring)."""
    got = set(terms)
    gm, dist, rw = det
    want = {"white"} | ({"gauss_markov"} if gm else set()) | ({"random_walk"} if rw else set())
    if got == want:
        return True
    if gm and not dist:  # the identifiability limit: a random walk stands in
        return got == (want - {"gauss_markov"}) | {"random_walk"}
    return False


def _map(fn: Callable[[int], list[object]], seeds: Iterable[int], threads: int) -> list[object]:
    with ThreadPoolExecutor(max_workers=threads) as pool:
        return [r for rs in pool.map(fn, seeds) for r in rs]


def identification(case: Case, seeds: int, threads: int = 2, base: int = 0) -> float:
    """Share of axes (3 per seed) whose terms are identified correctly."""
    det = detectability(case)

    def one(seed: int) -> list[object]:
        res = fit_noise(case.log(base + seed), case.rate, threads=1)
        return [is_correct(ax.terms, det) for ax in res.axes]

    hits = _map(one, range(seeds), threads)
    return sum(bool(h) for h in hits) / len(hits)


def coverage(
    case: Case,
    seeds: int,
    levels: tuple[float, ...] = (0.683, 0.95),
    threads: int = 2,
    base: int = 0,
    axes: int = 1,
) -> dict[tuple[str, float], float]:
    """Share of the fits (``axes`` axes of each seed's log) whose interval at each level
    holds the truth, per parameter present in the case ("N", "sigma_b", "tau_c", "K")."""
    truth = {"N": case.n}
    if case.sigma_b > 0:
        truth |= {"sigma_b": case.sigma_b, "tau_c": case.tau_c}
    if case.k > 0:
        truth["K"] = case.k

    def one(seed: int) -> list[object]:
        y = case.log(base + seed)[:, :axes]
        out: list[object] = []
        for level in levels:
            res = fit_noise(y, case.rate, ci=level, threads=1)
            for ax in res.axes:
                est = {
                    "N": ax.noise_density,
                    "sigma_b": ax.bias_stddev,
                    "tau_c": ax.bias_correlation_time,
                    "K": ax.random_walk_density,
                }
                for key, value in truth.items():
                    e = est[key]
                    out.append(((key, level), bool(e.low <= value <= e.high)))
        return out

    rows = _map(one, range(seeds), threads)
    tally: dict[tuple[str, float], list[int]] = {}
    for key, hit in rows:  # type: ignore[misc]
        t = tally.setdefault(key, [0, 0])
        t[0] += int(hit)
        t[1] += 1
    return {k: v[0] / v[1] for k, v in tally.items()}


if __name__ == "__main__":  # the tables of the report: python tests/_fit_grid.py SEEDS
    import sys
    import time

    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    cseeds = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    t0 = time.time()
    print("| case | samples | GM det. | GM vs RW | RW det. | fits | correct % |")
    print("|---|---|---|---|---|---|---|")
    for c in GRID:
        d = detectability(c)
        share = identification(c, seeds, base=5000)
        print(
            f"| {c.name} | {c.samples} | {d[0]} | {d[1]} | {d[2]} | {3 * seeds} | "
            f"{100 * share:.1f} |",
            flush=True,
        )
    print(f"({time.time() - t0:.0f} s)")
    print("| case | parameter | nominal % | measured % | seeds (1 axis each) |")
    print("|---|---|---|---|---|")
    for c in COVERAGE:
        for (key, level), share in sorted(coverage(c, cseeds, base=9000).items()):
            print(f"| {c.name} | {key} | {100 * level:.1f} | {100 * share:.1f} | {cseeds} |")
    print(f"({time.time() - t0:.0f} s)")
