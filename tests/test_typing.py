"""The typing check's API tour (tools/typing/api_tour.py, run under mypy --strict in
CI step 35-typing) uses every public name, so no part of the API goes unchecked."""

import re
from pathlib import Path

import fastnoise

TOUR = Path(__file__).resolve().parents[1] / "tools" / "typing" / "api_tour.py"


def test_the_tour_uses_every_public_name():
    text = TOUR.read_text()
    body = text.split("def generator", 1)[1]  # after the imports
    # the public names, and those 0.3 moved from the top level (at their new spelling)
    names = [*fastnoise.__all__, *fastnoise._MOVED_NAMES]
    missing = [n for n in names if not re.search(rf"\b{n}\b", body)]
    assert missing == []


def test_the_stubtest_allowlist_is_short_and_justified():
    lines = (TOUR.parent.parent / "stubtest_allowlist.txt").read_text().splitlines()
    entries = [ln for ln in lines if ln.strip() and not ln.startswith("#")]
    comments = [ln for ln in lines if ln.startswith("#")]
    assert len(entries) <= 5
    assert len(comments) >= len(entries)
