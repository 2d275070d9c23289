"""Machine instructions per call of the per-sample cases (issue 28), beside the bare
compiled calls: the noise-free yardstick next to the timed table of
``bench_per_sample.py`` (on a shared machine the bare calls' times move by tens of
percent from run to run; instruction counts do not).

Run (needs valgrind; about a minute)::

    python bench/callgrind_per_sample.py                  # every case
    python bench/callgrind_per_sample.py imu_step_out ... # some

One callgrind process runs every case: for each (case, kind) an empty loop and a loop
of N calls, each between two ``os.getppid()`` calls, and callgrind dumps its counts at
each ``getppid`` (``--dump-before=getppid``), so a loop's cost is one dump part. The
count per call is (N-call loop - empty loop) / N, the Python loop that makes the calls
included, as in the timed benchmark (``fn(*args)`` on the same callables).
"""

# Not collected by pytest (python_files: bench_*.py); a script for the instruction table.

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import tempfile

N = 2000


def _child(out: str, names: list[str]) -> None:
    sys.path.insert(0, str(pathlib.Path(__file__).parent))
    import bench_per_sample as b

    bare = b._build_bare()
    if bare is None:
        raise SystemExit("no Cython or no C compiler: the bare calls cannot be built")

    def loop(fn, args, n):
        for _ in range(n):
            fn(*args)

    order = []
    for name in names:
        for kind in ("fastnoise", "bare"):
            if kind == "fastnoise":
                fn, args = b.CASES[name][0]()
            else:
                fname, a = b.CASES[name][1]
                fn, args = getattr(bare, fname), b._bare_args(a)
            loop(fn, args, 50)  # caches filled, first-call work done
            for n in (0, N):
                os.getppid()
                loop(fn, args, n)
                os.getppid()
            order.append((name, kind))
    pathlib.Path(out, "order.json").write_text(json.dumps(order))


def _total(path: pathlib.Path) -> int:
    for line in path.read_text().splitlines():
        if line.startswith(("totals:", "summary:")):
            return int(line.split()[1])
    raise ValueError(f"{path}: no totals line")


def main(names: list[str]) -> None:
    sys.path.insert(0, str(pathlib.Path(__file__).parent))
    import bench_per_sample as b

    names = names or list(b.CASES)
    with tempfile.TemporaryDirectory() as out:
        cmd = [
            "valgrind",
            "--tool=callgrind",
            "--dump-before=getppid",
            f"--callgrind-out-file={out}/cg.out",
            sys.executable,
            __file__,
            "--child",
            out,
            *names,
        ]
        env = dict(os.environ, PYTHONHASHSEED="0")
        subprocess.run(cmd, check=True, env=env, capture_output=True)
        order = json.loads(pathlib.Path(out, "order.json").read_text())
        res: dict[str, dict[str, float]] = {}
        # four dumps per (case, kind): before the empty loop, the empty loop, between,
        # the N-call loop
        for k, (name, kind) in enumerate(order):
            empty = _total(pathlib.Path(out, f"cg.out.{4 * k + 2}"))
            full = _total(pathlib.Path(out, f"cg.out.{4 * k + 4}"))
            res.setdefault(name, {})[kind] = (full - empty) / N
    print(f"{'per-sample call':<28}{'fastnoise':>10}{'bare':>8}{'x bare':>8}")
    for name, d in res.items():
        f, c = d["fastnoise"], d["bare"]
        print(f"{name:<28}{f:>10.0f}{c:>8.0f}{f / c:>8.2f}")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        _child(sys.argv[2], sys.argv[3:])
    else:
        main(sys.argv[1:])
