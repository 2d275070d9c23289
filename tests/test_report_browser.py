"""The page of ``fastnoise report`` as a browser shows it (issue 29): headless Chromium
(Debian's ``chromium`` package, no browser download) renders ``index.html`` to a PNG,
which must be a real picture of the page at the window's size, with the report's plot
drawn in it, not a blank or single-colour image and not a broken-image icon.

Skipped when no Chromium is on PATH; CI installs it and runs this file in
``.ci/steps/72-report-page.sh``. With ``FASTNOISE_REPORT_SCREENSHOT=PATH`` the screenshot
of the report page is also copied to PATH (CI: ``build/report-page/camera.png``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

from fastnoise import cli

CHROMIUM = next(
    (p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p),
    None,
)
pytestmark = [
    pytest.mark.skipif(
        CHROMIUM is None,
        reason="no chromium on PATH (Debian: apt-get install chromium); "
        "CI runs this file in .ci/steps/72-report-page.sh",
    ),
    # an HTML page in a browser, no C code: and the sanitizer run's LD_PRELOAD must not
    # reach a browser process (-m "not python_only" leaves it out there)
    pytest.mark.python_only,
]

WIDTH, HEIGHT = 1200, 900  # the browser window, CSS pixels (device scale factor 1)
# a pixel is "coloured" when its channels differ by more than this (0-255): the page's
# text, rules and borders are grey, the histogram of the camera plot is blue
CHROMA = 40


class _Links(HTMLParser):
    """The img src and a href values of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is not None and (tag, name) in (("img", "src"), ("a", "href")):
                self.links.append(value)


def _report(tmp_path: Path) -> Path:
    """``fastnoise report camera`` into tmp_path/r; the page's path."""
    pytest.importorskip("matplotlib")
    cfg = tmp_path / "cfg.json"
    cfg.write_text(json.dumps({"params": {"stddev": 0.02}, "seed": 4, "report": {"crop": 16}}))
    out = tmp_path / "r"
    assert cli.main(["report", "camera", "--config", str(cfg), "--out", str(out), "--quiet"]) == 0
    return out / "index.html"


def _screenshot(page: Path, png: Path, tmp_path: Path) -> np.ndarray:
    """Chromium's screenshot of ``page`` in a WIDTH x HEIGHT window, as (H, W, 3) uint8."""
    image = pytest.importorskip("PIL.Image")
    assert CHROMIUM is not None
    cmd = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",  # CI runs as root, where Chromium's sandbox cannot start
        "--disable-gpu",
        "--hide-scrollbars",
        "--no-first-run",
        "--force-device-scale-factor=1",
        f"--user-data-dir={tmp_path / 'chromium-profile'}",
        "--virtual-time-budget=10000",  # the page and its image loaded before the shot
        f"--window-size={WIDTH},{HEIGHT}",
        f"--screenshot={png}",
        page.resolve().as_uri(),
    ]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0 and png.is_file(), run.stderr[-2000:]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with image.open(png) as im:
        assert im.size == (WIDTH, HEIGHT)
        return np.asarray(im.convert("RGB"))


def _coloured_fraction(rgb: np.ndarray) -> float:
    wide = rgb.astype(np.int16)
    return float(np.mean(wide.max(axis=2) - wide.min(axis=2) > CHROMA))


def test_every_link_of_the_report_page_is_a_file(tmp_path):
    page = _report(tmp_path)
    parser = _Links()
    parser.feed(page.read_text(encoding="utf-8"))
    assert parser.links, "the page links no image"
    for link in parser.links:
        assert (page.parent / link).is_file(), link


def test_chromium_draws_the_report_page_with_its_plot(tmp_path):
    page = _report(tmp_path)
    png = tmp_path / "report.png"
    rgb = _screenshot(page, png, tmp_path)
    if os.environ.get("FASTNOISE_REPORT_SCREENSHOT"):
        keep = Path(os.environ["FASTNOISE_REPORT_SCREENSHOT"])
        keep.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(png, keep)

    # not blank, not one colour: a white page with text and a plot on it
    colours = np.unique(rgb.reshape(-1, 3), axis=0)
    assert len(colours) > 200, len(colours)
    white = np.all(rgb >= 250, axis=2)
    assert 0.3 < white.mean() < 0.97, white.mean()
    # the heading's text: dark pixels in the top band (h1 at the page's 2em margin)
    top = rgb[:120]
    assert np.mean(top.max(axis=2) < 100) > 0.002
    # the plot was loaded and drawn: its blue histogram covers a good part of the window
    # (a broken image leaves a small icon and the alt text: see the next test)
    assert _coloured_fraction(rgb) > 0.01, _coloured_fraction(rgb)


def test_a_page_whose_image_is_missing_fails_the_plot_check(tmp_path):
    """The control of the check above: the same page without its PNG beside it."""
    page = _report(tmp_path)
    alone = tmp_path / "alone"
    alone.mkdir()
    shutil.copyfile(page, alone / "index.html")
    rgb = _screenshot(alone / "index.html", tmp_path / "broken.png", tmp_path)
    assert _coloured_fraction(rgb) < 0.001, _coloured_fraction(rgb)
