#!/usr/bin/env bash
# The HTML page of `fastnoise report` in a real browser (issue 29): Debian's chromium
# package (apt, no browser download) renders it headless, and tests/test_report_browser.py
# checks the screenshot (the window's size, not blank, the report's plot drawn) and that
# a page without its image fails that check. The screenshot is kept at
# build/report-page/camera.png. Budget: about 2 minutes, most of it the apt install of
# chromium (2m13s measured on a loaded 2-core machine); the tests take seconds.
set -euo pipefail
. .ci/lib.sh

need_apt chromium chromium
shot=$PWD/build/report-page/camera.png
rm -f "$shot"
FASTNOISE_REPORT_SCREENSHOT=$shot \
  python -m pytest -q -p no:cacheprovider tests/test_report_browser.py -rs
# a skip (no chromium found after all) must not pass for a check
if [ ! -s "$shot" ]; then
  echo "no screenshot at $shot: did tests/test_report_browser.py skip?" >&2
  exit 1
fi
echo "-- screenshot: build/report-page/camera.png"
