#!/usr/bin/env bash
# The documentation, built with warnings as errors against the installed wheel: the
# docs extra's requirements (Sphinx, numpydoc, the theme, MyST) go into .ci-venv from
# the wheel's metadata, and Sphinx reads docs/ from the checkout. The API reference
# comes from the installed package's docstrings; the stream table and the CLI help are
# generated from it at build time (docs/_ext/fastnoise_docs.py). The examples in
# examples/ run in step 40 (tests/test_examples.py); the peer comparison of the
# performance page (docs/perf/measure_peers.py) is not run here.
set -euo pipefail
. .ci/lib.sh

wheels=(wheelhouse/*.whl)
if [ "${#wheels[@]}" -ne 1 ] || [ ! -f "${wheels[0]}" ]; then
  echo "expected one wheel in wheelhouse/ (step 20-build-wheel), got: ${wheels[*]}" >&2
  exit 1
fi
python -m pip install -q "${wheels[0]}[docs]"

# the package Sphinx documents is the installed one, not src/
python - <<'PY'
import sys
import sysconfig
from pathlib import Path

import fastnoise

site = Path(sysconfig.get_paths()["platlib"]).resolve()
where = Path(fastnoise.__file__).resolve()
print(f"-- documenting fastnoise {fastnoise.__version__} from {where}")
if site not in where.parents:
    sys.exit(f"fastnoise is imported from {where}, not from the venv's {site}")
PY

rm -rf docs/_build docs/_generated docs/api/generated
python -m sphinx -W --keep-going -q -b html docs docs/_build/html
echo "-- docs/_build/html/index.html"
