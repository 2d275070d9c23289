#!/usr/bin/env bash
# fit_noise's term identification grid and interval coverage (issue #26, items 3-4):
# the slow statistical tests of tests/test_fit_identification.py (12 grid cases x 30
# seeds x 3 axes; 3 coverage cases x 200 seeds, one axis each, at two levels), on
# threads.
# Budget: 4-5 minutes on 2 idle cores (the triad's pooled term choice reuses the
# per-axis candidate fits, so it adds no fitting time). -s prints the identification
# and coverage tables; every grid case is held to the 95 %.
set -euo pipefail
. .ci/lib.sh

FASTNOISE_SLOW=1 python -m pytest -q -s -p no:cacheprovider -m slow \
  tests/test_fit_identification.py
