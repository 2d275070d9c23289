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


def test_the_allowlist_holds_cython_internals_only():
    # what Cython adds to compiled modules and extension types, and the C core's shared
    # library (a .so that stubtest takes for a module): no API entry is exempt
    lines = (TOUR.parent.parent / "stubtest_allowlist.txt").read_text().splitlines()
    entries = [ln for ln in lines if ln.strip() and not ln.startswith("#")]
    internals = {"__test__", "__pyx_capi__", "__reduce_cython__", "__setstate_cython__"}
    for entry in entries:
        assert entry == r"fastnoise\.libfncore" or entry.rsplit(".", 1)[-1] in internals, entry


def test_the_typing_step_runs_stubtest_plainly():
    # outside the checkout, without the repository's mypy config or --ignore-missing-stub
    step = (TOUR.parents[2] / ".ci" / "steps" / "35-typing.sh").read_text()
    calls = [ln for ln in step.splitlines() if "mypy.stubtest" in ln and not ln.startswith("#")]
    assert calls == [
        'python -m mypy.stubtest fastnoise --allowlist "$here/tools/stubtest_allowlist.txt"'
    ]
    assert 'cd "$(mktemp -d)"' in step and "generator_dtypes.py" in step


def test_the_dtype_overload_check_agrees_at_run_time():
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "generator_dtypes", TOUR.parent / "generator_dtypes.py"
    )
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.run()
