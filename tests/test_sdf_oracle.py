"""load_sensors against sdformat itself, on the real SDF files of gz-sim's and
sdformat's test and world folders: the 47 loose files of ``tests/data/sdf`` (sources in
its README) and every ``.sdf``/``.world`` file of sdformat's ``test/`` and gz-sim's
``test/`` and ``examples/`` (the two ``upstream-*.tar.xz`` archives, listed with their
git blob ids in ``upstream.tsv``).

The oracle is ``tools/sdf_oracle/sdf_oracle.cc`` built against Debian's
``libsdformat-dev`` (sdformat 12): it prints every sensor with a ``<noise>`` written in
the file and each such noise as sdformat parsed it (defaults filled in). CI builds it
(``.ci/steps/45-sdf-oracle.sh``) and points ``FASTNOISE_SDF_ORACLE`` at it; without it
these tests are skipped, naming how to build it (the tests that need no oracle run
everywhere).
"""

import csv
import functools
import hashlib
import os
import re
import subprocess
import tarfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from fastnoise.io.sdf import load_sensors
from fastnoise.io.sdf.noise import NOISE_KEYS, component
from fastnoise.io.sdf.sensors import ALIASES
from fastnoise.io.sdf.xml import MAX_NESTING, SdfError, parse_text

# SDF parsing is Python (step 45 runs these with the sdformat oracle): the scalar-path
# and sanitizer runs leave them out (-m "not python_only").
pytestmark = pytest.mark.python_only

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).parent / "data" / "sdf"
FILES = sorted(DATA.glob("*/*.sdf"))
ORACLE = Path(os.environ.get("FASTNOISE_SDF_ORACLE", ROOT / "build" / "sdf_oracle"))

needs_oracle = pytest.mark.skipif(
    not ORACLE.is_file(),
    reason=f"no sdformat oracle at {ORACLE}: build tools/sdf_oracle/sdf_oracle.cc "
    "(.ci/steps/45-sdf-oracle.sh) or set FASTNOISE_SDF_ORACLE",
)

# payload/path of each component of the gz-sensors component models
_COMPONENTS = {
    "magnetometer": ("magnetometer", {f"magnetometer/{a}/noise": a for a in "xyz"}),
    "altimeter": (
        "altimeter",
        {f"altimeter/{k}/noise": k for k in ("vertical_position", "vertical_velocity")},
    ),
    "air_pressure": ("air_pressure", {"air_pressure/pressure/noise": "pressure"}),
    "air_speed": ("air_speed", {"air_speed/pressure/noise": "pressure"}),
    "force_torque": (
        "force_torque",
        {f"force_torque/{g}/{a}/noise": f"{g}_{a}" for g in ("force", "torque") for a in "xyz"},
    ),
}


def _run_oracle(paths):
    """sdformat's reading of each of ``paths`` (one oracle process a chunk, in parallel):
    path -> :class:`_Read`."""
    paths = [str(p) for p in paths]
    jobs = max(1, min(4, os.cpu_count() or 1, len(paths)))
    chunks = [paths[i::jobs] for i in range(jobs)]

    def one(chunk):
        done = subprocess.run(
            [str(ORACLE), *chunk], capture_output=True, text=True, timeout=600, check=False
        )
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout

    with ThreadPoolExecutor(jobs) as pool:
        outs = list(pool.map(one, chunks))
    reads = {}
    for out in outs:
        reads.update(_parse_oracle(out))
    assert set(reads) == set(paths)
    return reads


class _Read:
    """What the oracle printed of one file: ``status`` ("ok", "errors": read with
    errors, "refused": not read), sdformat's ``errors``, every sensor (``every``), the
    sensors with a <noise> (``sensors``) and their noises (``noises``)."""

    def __init__(self):
        self.status, self.errors = None, []
        self.every, self.sensors, self.noises = {}, {}, {}


def _parse_oracle(out):
    reads, cur = {}, None
    for line in out.splitlines():
        kind, _, rest = line.partition(" ")
        if kind == "FILE":
            cur = reads[rest] = _Read()
        elif kind == "ALL":
            name, stype = rest.split(" ")
            cur.every[name] = stype
        elif kind == "SENSOR":
            name, stype = rest.split(" ")
            cur.sensors[name] = stype
        elif kind == "NOISE":
            name, where, ntype, *values = rest.split(" ")
            # key=value: sdformat's parsed value; key~text: the text of a <noise> it
            # copied unread (air_speed), parsed here as sdformat >= 13 would (a double)
            vals = {k: float(v) for k, v in (re.split("[=~]", kv, maxsplit=1) for kv in values)}
            cur.noises.setdefault(name, {})[where] = {"type": ntype.lower(), **vals}
        elif kind == "ERROR":
            cur.errors.append(rest)
        elif kind == "END":
            cur.status = rest
    assert all(r.status in ("ok", "errors", "refused") for r in reads.values())
    return reads


@functools.cache
def _loose_reads():
    return _run_oracle(FILES)  # the loose files, in one go


def _oracle(path):
    r = _loose_reads()[str(path)]
    assert r.status != "refused", r.errors  # read (errors: includes not found offline)
    return r.every, r.sensors, r.noises


def test_the_vendored_files():
    # every file of the upstream test and world folders with a <noise> (20), plus 27
    # sensor files without one, from both projects; the README names each one's source
    assert len(FILES) >= 47
    assert {p.parent.name for p in FILES} == {"gz-sim", "sdformat"}
    readme = (DATA / "README.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `([^`]+\.sdf)` \| gazebosim/", readme, flags=re.M))
    assert listed == {f"{p.parent.name}/{p.name}" for p in FILES}


@needs_oracle
def test_sdformat_sees_sensors_in_the_files():
    # the noise-free files are there for their sensors: sdformat finds them, of many types
    every = {}
    for path in FILES:
        every.update({(path, k): v for k, v in _oracle(path)[0].items()})
    assert len(every) >= 90
    assert len(set(every.values())) >= 20


@needs_oracle
@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_load_sensors_finds_what_sdformat_parses(path):
    every, sensors, noises = _oracle(path)
    found = load_sensors(path, seed=0)
    # the same sensors (those with a <noise>), by scoped name, with the same type; a
    # sensor sdformat reads without a <noise> is not among them
    assert set(found) == set(sensors) <= set(every)
    for name, stype in sensors.items():
        rec = found[name]
        assert rec.sdf_type == stype and rec.type == ALIASES.get(stype, stype)
        for where, v in noises[name].items():
            _same_noise(rec, where, v)


# sdformat 12 (SDF 1.9) has no air_speed sensor (it came with sdformat 13, SDF 1.10): it
# copies <air_speed> unread, so the oracle prints the written text of each <noise> key
# (key~text) and no defaults. sdformat >= 13 reads that element as the others of
# noise.sdf: AirSpeed::Load (src/AirSpeed.cc) loads <pressure><noise> with Noise::Load,
# whose absent keys take noise.sdf's defaults, all 0.0 (sdf/1.10/noise.sdf). _full()
# fills those same zeros, so the comparison below is the one sdformat 13 would make.
AIR_SPEED_FILES = ["gz-sim/air_speed.sdf", "gz-sim/sensors.sdf", "sdformat/sensors.sdf"]


@needs_oracle
@pytest.mark.parametrize("rel", AIR_SPEED_FILES)
def test_air_speed_noise_is_the_text_sdformat_copied(rel):
    every, sensors, noises = _oracle(DATA / rel)
    speed = [n for n, t in sensors.items() if t == "air_speed"]
    assert len(speed) == 1
    (where, v), *more = noises[speed[0]].items()
    assert not more and where == "air_speed/pressure/noise" and v["type"] == "gaussian"
    rec = load_sensors(DATA / rel, seed=0)[speed[0]]
    assert rec.params["air_speed"]["pressure"] == component(_full(v))
    # gz-sensors src/AirSpeedSensor.cc (9ba02f24) applies that noise to the float32
    # differential pressure in hPa, then multiplies by 100: the model's default units
    # (tests/test_gazebo_sensors.py checks the float32 arithmetic itself)
    assert rec.models["air_speed"].pressure_units == "hectopascals"


def _full(v):
    return {"type": v["type"], **{k: v.get(k, 0.0) for k in NOISE_KEYS}}


def _same_noise(rec, where, v):
    """The noise sdformat parsed at ``where`` is the one load_sensors built."""
    comp = component(_full(v))  # gz-sensors' GaussianNoiseModel of sdformat's values
    if rec.type in _COMPONENTS:
        model, paths = _COMPONENTS[rec.type]
        got = rec.params.get(model, {}).get(paths[where]) if rec.params else None
        assert got == comp, (where, got, comp)
    elif rec.type == "navsat":
        key = where.split("/", 1)[1].replace("_sensing", "").replace("/noise", "")
        key = {
            "position/horizontal": "horizontal_position",
            "position/vertical": "vertical_position",
            "velocity/horizontal": "horizontal_velocity",
            "velocity/vertical": "vertical_velocity",
        }[key]
        got = rec.params["navsat"][key] if rec.params else None
        assert got == comp, (where, got, comp)
    elif rec.type == "imu":
        triad, axis = where.split("/")[1:3]
        t = rec.params["imu"]["gyro" if triad == "angular_velocity" else "accel"]
        i = "xyz".index(axis)
        c = comp or dict.fromkeys(NOISE_KEYS, 0.0)
        assert t.noise_stddev[i] == c["stddev"] and t.bias[i] == c["mean"]
        assert t.turn_on_bias_mean[i] == c["bias_mean"]
        assert t.turn_on_bias_stddev[i] == c["bias_stddev"]
    elif rec.type in ("lidar", "gpu_lidar"):
        if "range" in rec.params:
            p = rec.params["range"]
            assert v["type"] == "gaussian"
            assert (p["mean"], p["stddev"]) == (v["mean"], v["stddev"])
        else:
            assert v["type"] != "gaussian" or not (v["mean"] or v["stddev"]), rec.reason
    elif rec.type in ("camera", "depth_camera", "rgbd_camera"):
        for model in ("camera", "depth"):
            if model in rec.params:
                p = rec.params[model]
                assert v["type"] == "gaussian"
                assert (p["mean"], p["stddev"]) == (v["mean"], v["stddev"])
        if not rec.params:
            assert v["type"] != "gaussian" or not (v["mean"] or v["stddev"]), rec.reason
    else:  # a type fastnoise has no model for: nothing built, and it says so
        assert not rec.params and "no model" in rec.reason


@needs_oracle
@pytest.mark.parametrize("depth", [MAX_NESTING - 1, MAX_NESTING, MAX_NESTING + 1])
def test_the_nesting_limit_is_sdformats(depth, tmp_path):
    # sdformat parses with tinyxml2, whose element depth limit refuses an element at
    # depth MAX_NESTING + 1 (XML_ELEMENT_DEPTH_EXCEEDED); load_sensors refuses the same
    head = '<sdf version="1.9"><world name="w"><model name="m"><link name="l">'
    head += '<sensor name="s" type="imu"><imu>'
    k = depth - 6  # sdf, world, model, link, sensor, imu
    path = tmp_path / "deep.sdf"
    path.write_text(head + "<a>" * k + "</a>" * k + "</imu></sensor></link></model></world></sdf>")
    done = subprocess.run(
        [str(ORACLE), str(path)], capture_output=True, text=True, timeout=60, check=False
    )
    refused = "XML_ELEMENT_DEPTH_EXCEEDED" in done.stdout + done.stderr
    assert done.stdout.rstrip().endswith("END refused" if refused else "END ok")
    assert refused == (depth > MAX_NESTING)
    if refused:
        with pytest.raises(SdfError, match=f"nested {depth} elements deep"):
            load_sensors(path)
    else:
        assert list(load_sensors(path)) == []


# --- every SDF file of the upstream test and world folders ---------------------------

MANIFEST = DATA / "upstream.tsv"
ARCHIVES = {
    "gazebosim/sdformat": DATA / "upstream-sdformat.tar.xz",
    "gazebosim/gz-sim": DATA / "upstream-gz-sim.tar.xz",
}
# FASTNOISE_SDF_ORACLE_SLOW=1 also gives sdformat the files the manifest marks "slow"
SLOW = os.environ.get("FASTNOISE_SDF_ORACLE_SLOW", "") == "1"


def _manifest():
    with MANIFEST.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


@pytest.fixture(scope="module")
def upstream(tmp_path_factory):
    """The two archives unpacked (repo/path, as upstream); manifest rows with ``file``."""
    top = tmp_path_factory.mktemp("upstream")
    for repo, archive in ARCHIVES.items():
        with tarfile.open(archive) as tar:
            tar.extractall(top / repo.split("/")[1], filter="data")
    rows = _manifest()
    for row in rows:
        row["file"] = top / row["repo"].split("/")[1] / row["path"]
    return rows


def _git_blob(data):
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def test_the_archives_are_every_upstream_file_unchanged(upstream):
    # the manifest lists each file with its git blob id at the named commit: the archive
    # holds exactly those files, byte for byte (git's own hash of the content)
    by_repo = {}
    for row in upstream:
        by_repo.setdefault(row["repo"], set()).add(row["path"])
        assert _git_blob(row["file"].read_bytes()) == row["blob"], row["path"]
        assert re.fullmatch("[0-9a-f]{40}", row["commit"]) and row["oracle"] in ("yes", "slow")
    for repo, archive in ARCHIVES.items():
        with tarfile.open(archive) as tar:
            assert {m.name for m in tar.getmembers() if m.isfile()} == by_repo[repo]
    # sdformat's test/ (220 files) and gz-sim's test/ and examples/ (361) at the commits
    # of tests/data/sdf/README.md
    assert len(by_repo["gazebosim/sdformat"]) == 220
    assert len(by_repo["gazebosim/gz-sim"]) == 361
    assert all(p.startswith("test/") for p in by_repo["gazebosim/sdformat"])
    assert all(p.startswith(("test/", "examples/")) for p in by_repo["gazebosim/gz-sim"])


def test_load_sensors_reads_every_upstream_file_or_says_why_not(upstream):
    # no oracle needed: every file gives a result or a clear SdfError, nothing else
    refused = []
    for row in upstream:
        try:
            load_sensors(row["file"], seed=0)
        except SdfError:
            refused.append(row["path"])
    # sdformat's deliberately broken files (the oracle test says which sdformat refuses)
    assert 0 < len(refused) <= 10, refused


def test_the_slow_files_have_no_sensor(upstream):
    # 3k_shapes.sdf (twice, 2.8 MB each): sdformat 12 needs about 30 s of CPU for each,
    # a quarter of CI's budget for the whole oracle step, so the oracle reads them only
    # with FASTNOISE_SDF_ORACLE_SLOW=1 (it found no sensor and no error when run so).
    # They are 3000 shapes without a single <sensor>: load_sensors finds none either.
    slow = [row for row in upstream if row["oracle"] == "slow"]
    assert [r["path"] for r in slow] == [
        "examples/worlds/3k_shapes.sdf",
        "test/worlds/3k_shapes.sdf",
    ]
    for row in slow:
        assert b"<sensor" not in row["file"].read_bytes()
        assert dict(load_sensors(row["file"], seed=0)) == {}


_READING = re.compile(r"Error reading element <(\w+)>")
_REQUIRED = re.compile(
    r"Required attribute\[[\w:]+\] in element\[(\w+)\] is not specified in SDF\."
)
_SENSOR_PARTS = {"sensor", "noise", "plugin", "include"}


def _include(error, read, found):
    """sdformat could not find an included model (it is given no model path, as
    load_sensors is given no search path): it says so and reads the rest of the file;
    load_sensors lists a Fuel or model:// include in ``unresolved`` (it never
    downloads) and reads a plain file name from the including file's folder when it is
    there (sdformat's own tests find those through SDF_PATH)."""
    m = error and re.fullmatch(r"Unable to find uri\[(.*)\]", error)
    if not m or read.status != "errors":
        return False
    uri = m.group(1)
    if uri.startswith(("http://", "https://", "model://")):
        assert any(f"<include> {uri}:" in u for u in found.unresolved), uri
    return True


def _frames(error, read, found):
    """sdformat checks pose frames (``__root__`` references, a top-level model's
    ``relative_to``), which carry no noise and which load_sensors does not read."""
    marks = (
        "'__root__' is reserved",
        "of top level model must be left empty",
        "Errors were found when checking the XML of element<sdf>",
    )
    return error is not None and any(m in error for m in marks)


def _value(error, read, found):
    """sdformat refuses a value, or a missing required attribute, of an element outside
    every sensor (physics, visual, pose, a link's or world's name): load_sensors reads
    sensors and their noise only, so it reads such a file (only sensor-free files)."""
    m = error and (_READING.fullmatch(error) or _REQUIRED.fullmatch(error))
    return bool(m) and m.group(1) not in _SENSOR_PARTS and len(found) == 0


def _no_version(error, read, found):
    """sdformat 12 refuses an <sdf> without its version attribute (naming no error);
    load_sensors reads every SDF version alike and needs none (only sensor-free files)."""
    return error is None and read.status == "refused" and not read.version and not found


# each known difference between sdformat and load_sensors: its reason is the docstring;
# a file is explained when each error sdformat gives for it (None: it gave none) is
DEVIATIONS = {
    "include not found offline": _include,
    "pose frame checks": _frames,
    "bad value outside any sensor": _value,
    "no version attribute": _no_version,
}


def _explain(read, found):
    kinds = set()
    for error in read.errors or [None]:
        kind = next((k for k, f in DEVIATIONS.items() if f(error, read, found)), None)
        if kind is None:
            return None
        kinds.add(kind)
    return " + ".join(sorted(kinds))


@needs_oracle
def test_load_sensors_agrees_with_sdformat_on_every_upstream_file(upstream):
    rows = [r for r in upstream if r["oracle"] == "yes" or SLOW]
    reads = _run_oracle(r["file"] for r in rows)
    counts = dict.fromkeys(
        [
            "files",
            "parsed by both",
            "refused by both",
            "explained differences",
            "sensors sdformat reads",
            "sensors with noise compared",
        ],
        0,
    )
    unexplained = []
    for row in rows:
        read = reads[str(row["file"])]
        m = re.search(rb"<sdf[^>]*\sversion\s*=", row["file"].read_bytes())
        read.version = m and m.group()
        counts["files"] += 1
        counts["sensors sdformat reads"] += len(read.every)
        try:
            found = load_sensors(row["file"], seed=0)
        except SdfError as exc:
            if read.status == "ok":
                unexplained.append((row["path"], f"load_sensors refuses: {exc}"))
            else:
                counts["refused by both"] += 1
            continue
        if read.status == "ok":
            counts["parsed by both"] += 1
        else:
            kind = _explain(read, found)
            if kind is None:
                unexplained.append((row["path"], f"sdformat {read.status}: {read.errors}"))
                continue
            counts["explained differences"] += 1
            counts[kind] = counts.get(kind, 0) + 1
            if read.status == "refused":
                continue  # sdformat read nothing to compare with (and found is empty)
        # what sdformat read (with or without errors) is what load_sensors finds
        try:
            assert set(found) == set(read.sensors) <= set(read.every)
            for name, stype in read.sensors.items():
                rec = found[name]
                assert rec.sdf_type == stype and rec.type == ALIASES.get(stype, stype)
                for where, v in read.noises[name].items():
                    _same_noise(rec, where, v)
        except AssertionError as exc:
            unexplained.append((row["path"], f"sensors differ: {exc!r}"))
            continue
        counts["sensors with noise compared"] += len(found)
    print("sdformat oracle over the upstream files:", counts)
    assert not unexplained, unexplained
    # every file is accounted for, and the numbers docs/peers.rst states hold
    assert counts["files"] == len(rows) == 579 + 2 * SLOW
    explained = counts["explained differences"]
    assert counts["parsed by both"] + counts["refused by both"] + explained == counts["files"]
    # the numbers docs/peers.rst and the CHANGELOG state (without the slow files)
    if not SLOW:
        stated = {
            "parsed by both": 455,
            "refused by both": 8,
            "explained differences": 116,
            "sensors sdformat reads": 222,
            "sensors with noise compared": 33,
        }
        assert {k: counts[k] for k in stated} == stated


@pytest.mark.parametrize(
    "path", ["test/worlds/fixed_world_joint.sdf", "test/worlds/reset_detachable_joint.sdf"]
)
def test_a_file_start_tinyxml2_skips(path, upstream):
    # gz-sim files that sdformat (tinyxml2) reads and expat alone refuses: a space before
    # the XML declaration, and "?xml ...?>" with its "<" missing; load_sensors reads them
    # (the oracle test checks it finds what sdformat finds: no noisy sensor)
    (row,) = [r for r in upstream if r["repo"] == "gazebosim/gz-sim" and r["path"] == path]
    assert not row["file"].read_bytes().startswith(b"<")
    assert dict(load_sensors(row["file"], seed=0)) == {}


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (' <?xml version="1.0"?>\n<sdf version="1.9">\n<x/></sdf>', 3),
        ('?xml version="1.0" encoding="UTF-8"?>\n<sdf version="1.9">\n<x/></sdf>', 3),
        ('\n\n<?xml version="1.0"?>\n<sdf version="1.9"><x/></sdf>', 4),
        (b'\xef\xbb\xbf<?xml version="1.0"?>\n<sdf version="1.9"><x/></sdf>', 2),
        ('<?xml version="1.0"?>\n\n<sdf version="1.9"><x/></sdf>', 3),
    ],
)
def test_text_before_the_first_tag_keeps_line_numbers(text, line):
    root = parse_text(text)
    assert root.tag == "sdf" and root.children[0].line == line


def test_a_declaration_after_the_root_is_still_malformed():
    with pytest.raises(SdfError, match="not well-formed"):
        parse_text('<sdf version="1.9"/>\n<?xml version="1.0"?>')
