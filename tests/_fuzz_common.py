"""Set-up shared by the fuzz suites of whole inputs, the damaged ROS records
(test_fuzz_ros_bytes.py) and the cloud and suite files (test_fuzz_files.py): a skip
when hypothesis is missing, one example budget, and one settings profile.

Import it after a suite's own ``pytest.importorskip`` calls, so that the first missing
package names the skip."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, settings  # noqa: E402

# a few seconds by default; FASTNOISE_SLOW=1 runs 20 times as many examples
EXAMPLES = 2000 if os.environ.get("FASTNOISE_SLOW") else 100


def fuzz_settings(*also_suppress: HealthCheck) -> settings:
    """The suites' settings: EXAMPLES examples, no deadline, the same examples on every
    run (derandomized), and the too-slow health check off, plus ``also_suppress``."""
    return settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, *also_suppress],
    )
