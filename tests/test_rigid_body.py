"""RigidBodySimulator: the reference numbers of the SensorSimulator API document
(seeds/004_83609f334612b53c.txt), closed forms, invariants, state."""

from __future__ import annotations

import copy
import math
import pickle

import numpy as np
import pytest

from fastnoise.models.motion.rigid_body import RigidBodySimulator

SEED_INERTIA = (10.0, 8.0, 12.0)
SEED_TORQUE = (0.1, -0.05, 0.02)
SEED_DT = 0.01
# The example table of seeds/004_83609f334612b53c.txt (SensorSimulator API document):
# row "step" is printed after step + 1 updates.
SEED_TRUE_OMEGA = {
    0: (0.000100, -0.000063, 0.000017),
    1000: (0.101303, -0.061336, 0.013223),
    2000: (0.205555, -0.119333, 0.005962),
    8000: (0.255117, -0.585477, 0.091330),
    9000: (0.213140, -0.685439, -0.199484),
}
# Its measured (pitch, yaw, roll): truth + drift (< 1e-4 rad) + noise (sigma 1e-3 rad).
SEED_MEASURED_ANGLES = {
    0: (-0.001500, -0.000302, 0.000120),
    1000: (-0.311029, 0.074805, 0.504589),
    2000: (-1.212306, 0.195257, 2.039102),
    8000: (0.174502, 2.583578, -0.584282),
    9000: (0.271821, 2.049884, 2.406160),
}


def _seed_run():
    body = RigidBodySimulator(SEED_INERTIA)
    rows = {}
    for step in range(9001):
        body.update(SEED_DT, SEED_TORQUE)
        if step in SEED_TRUE_OMEGA:
            rows[step] = (body.omega, np.array([body.pitch, body.yaw, body.roll]))
    return rows


@pytest.fixture(scope="module")
def seed_rows():
    return _seed_run()


@pytest.mark.parametrize("step", sorted(SEED_TRUE_OMEGA))
def test_true_omega_matches_seed_table(seed_rows, step):
    # The table has 6 decimals: half a unit is 5e-7. The C++ ran in float32 and its
    # rounding grows along the trajectory; by steps 8000-9000 float32 and float64 runs of
    # the same explicit Euler scheme differ by up to 1e-6, hence the wider tolerance there.
    tol = 5e-7 + 1e-12 if step <= 2000 else 1.5e-6
    np.testing.assert_allclose(seed_rows[step][0], SEED_TRUE_OMEGA[step], rtol=0, atol=tol)


@pytest.mark.parametrize("step", sorted(SEED_MEASURED_ANGLES))
def test_axis_kinematics_explains_seed_measured_angles(seed_rows, step):
    # 5 sigma of the example's noise plus its largest drift.
    np.testing.assert_allclose(
        seed_rows[step][1], SEED_MEASURED_ANGLES[step], rtol=0, atol=5e-3 + 1e-4
    )


def test_zyx_kinematics_does_not_explain_seed_angles():
    body = RigidBodySimulator(SEED_INERTIA, kinematics="zyx")
    for _ in range(2001):
        body.update(SEED_DT, SEED_TORQUE)
    err = np.abs(np.array([body.pitch, body.yaw, body.roll]) - SEED_MEASURED_ANGLES[2000])
    assert err.max() > 0.1


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_constant_torque_about_one_principal_axis(axis):
    inertia = np.array([10.0, 8.0, 12.0])
    torque = np.zeros(3)
    torque[axis] = 0.1 if axis != 1 else -0.05
    alpha = torque[axis] / inertia[axis]
    dt, n = 0.01, 1000
    body = RigidBodySimulator(inertia)
    for _ in range(n):
        body.update(dt, torque)
    t = n * dt
    expected = np.zeros(3)
    expected[axis] = alpha * t  # no gyroscopic coupling: the other rates stay exactly 0
    np.testing.assert_allclose(body.omega, expected, rtol=1e-12, atol=0)
    angles = np.array([body.roll, body.pitch, body.yaw])  # about x, y, z
    # the angle sums the updated rates: dt^2 alpha n (n + 1) / 2 ...
    assert angles[axis] == pytest.approx(dt * dt * alpha * n * (n + 1) / 2, rel=1e-12)
    # ... which is alpha t^2 / 2 to first order in dt
    assert abs(angles[axis] - 0.5 * alpha * t * t) <= 0.5 * abs(alpha) * dt * t * (1 + 1e-9)
    assert np.count_nonzero(angles) == 1


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_torque_free_spin_about_principal_axis_is_steady(axis):
    omega = np.zeros(3)
    omega[axis] = 2.0
    body = RigidBodySimulator((3.0, 5.0, 7.0), omega=omega)
    angles = []
    for _ in range(1000):
        body.update(0.01, (0.0, 0.0, 0.0))
        assert np.array_equal(body.omega, omega)  # exactly constant
        angles.append((body.roll, body.pitch, body.yaw))
    angles = np.array(angles)
    assert np.all(angles >= -math.pi) and np.all(angles < math.pi)
    # 20 rad wrapped into [-pi, pi)
    assert angles[-1, axis] == pytest.approx(20.0 - 6 * math.pi, abs=1e-9)
    others = [i for i in range(3) if i != axis]
    assert np.all(angles[:, others] == 0.0)


def _invariant_drift(dt, t_end=10.0):
    body = RigidBodySimulator((10.0, 8.0, 12.0), omega=(0.3, -0.2, 0.1))
    e0, l0 = body.kinetic_energy, np.linalg.norm(body.angular_momentum)
    w_max = 0.0
    for _ in range(round(t_end / dt)):
        body.update(dt, (0.0, 0.0, 0.0))
        w_max = max(w_max, float(np.linalg.norm(body.omega)))
    rel_e = (body.kinetic_energy - e0) / e0
    rel_l = (np.linalg.norm(body.angular_momentum) - l0) / l0
    return rel_e, rel_l, w_max


def test_energy_and_momentum_conserved_to_first_order_without_torque():
    dt, t_end = 1e-3, 10.0
    rel_e, rel_l, w_max = _invariant_drift(dt, t_end)
    # Explicit Euler adds (dt^2/2) f.I f > 0 to E and dt^2 |w x L|^2 to |L|^2 per step:
    # both grow, by at most t dt (I_max/I_min)^2 |w|^2 relative (here 3.2e-3).
    bound = t_end * dt * (12.0 / 8.0) ** 2 * w_max**2
    assert 0 < rel_e <= bound and 0 < rel_l <= bound
    # Stated tolerance for this case (dt = 1 ms, |w| = 0.37 rad/s, 10 s): 5e-5.
    assert rel_e < 5e-5 and rel_l < 5e-5
    # First order: half the step, half the drift.
    rel_e2, rel_l2, _ = _invariant_drift(dt / 2, t_end)
    assert rel_e / rel_e2 == pytest.approx(2.0, rel=0.05)
    assert rel_l / rel_l2 == pytest.approx(2.0, rel=0.05)


def test_zyx_kinematics_closed_form_rolled_body():
    # Rolled by 90 degrees, a body-y rate turns the heading: yaw' = q, pitch' = 0.
    body = RigidBodySimulator(
        (1.0, 1.0, 1.0), omega=(0.0, 0.5, 0.0), roll=math.pi / 2, kinematics="zyx"
    )
    for _ in range(200):
        body.update(0.01, (0.0, 0.0, 0.0))
    assert body.yaw == pytest.approx(1.0, abs=1e-12)
    assert body.roll == pytest.approx(math.pi / 2, abs=1e-12)
    assert body.pitch == pytest.approx(0.0, abs=1e-12)
    axis = RigidBodySimulator((1.0, 1.0, 1.0), omega=(0.0, 0.5, 0.0), roll=math.pi / 2)
    for _ in range(200):
        axis.update(0.01, (0.0, 0.0, 0.0))
    assert axis.pitch == pytest.approx(1.0, abs=1e-12) and axis.yaw == 0.0


def test_initial_angles_are_wrapped_and_accessors_report_state():
    body = RigidBodySimulator([2.0, 3.0, 4.0], roll=4.0, pitch=-4.0, yaw=0.5)
    assert body.roll == pytest.approx(4.0 - 2 * math.pi)
    assert body.pitch == pytest.approx(-4.0 + 2 * math.pi)
    assert body.yaw == 0.5
    np.testing.assert_array_equal(body.inertia, [2.0, 3.0, 4.0])
    assert body.kinematics == "axis"
    assert body.check_numerics()


def test_reset_returns_to_initial_state():
    body = RigidBodySimulator(SEED_INERTIA, omega=(0.1, 0.2, 0.3), yaw=1.0)
    for _ in range(50):
        body.update(0.01, SEED_TORQUE)
    body.reset()
    np.testing.assert_array_equal(body.omega, [0.1, 0.2, 0.3])
    assert (body.roll, body.pitch, body.yaw) == (0.0, 0.0, 1.0)


def _trajectory(body, n=100):
    out = []
    for _ in range(n):
        body.update(0.01, SEED_TORQUE)
        out.append((*body.omega, body.roll, body.pitch, body.yaw))
    return np.array(out)


@pytest.mark.parametrize(
    "make_copy",
    [lambda b: b.copy(), copy.copy, copy.deepcopy, lambda b: pickle.loads(pickle.dumps(b))],
)
def test_copies_continue_identically_and_independently(make_copy):
    body = RigidBodySimulator(SEED_INERTIA, omega=(0.1, 0.0, -0.1), yaw=0.5, kinematics="zyx")
    _trajectory(body, 10)
    twin = make_copy(body)
    assert type(twin) is RigidBodySimulator and twin is not body
    assert twin.state == body.state
    a = _trajectory(body)
    assert twin.state != body.state  # moving the original left the copy alone
    b = _trajectory(twin)
    np.testing.assert_array_equal(a, b)
    twin.reset()
    body.reset()
    assert twin.state == body.state
    np.testing.assert_array_equal(twin.omega, [0.1, 0.0, -0.1])  # the initial state


def test_state_holds_the_initial_state_as_params_and_the_motion_as_position():
    body = RigidBodySimulator(SEED_INERTIA, omega=(0.1, 0.2, 0.3), roll=4.0, kinematics="zyx")
    _trajectory(body, 5)
    s = body.state
    assert s["model"] == "rigid_body" and s["seed_seq"] is None
    assert s["params"] == {
        "inertia": [10.0, 8.0, 12.0],
        "omega": [0.1, 0.2, 0.3],
        "roll": 4.0 - 2 * math.pi,
        "pitch": 0.0,
        "yaw": 0.0,
        "kinematics": "zyx",
    }
    assert s["position"] == {
        "omega": body.omega.tolist(),
        "angles": [body.roll, body.pitch, body.yaw],
    }
    assert body.seed is None and not hasattr(body, "key")
    again = RigidBodySimulator.from_state(s)
    np.testing.assert_array_equal(_trajectory(again), _trajectory(body))


@pytest.mark.parametrize(
    ("field", "value", "exc"),
    [
        ("omega", [0.1, 0.2], ValueError),
        ("angles", [0.1], ValueError),
        ("angles", [], ValueError),
        ("omega", [0.1, 0.2, 0.3, 0.4], ValueError),
        ("omega", np.zeros(3), TypeError),
        ("angles", [0.0, 4.0, 0.0], ValueError),  # outside [-pi, pi)
        ("angles", [0.0, math.pi, 0.0], ValueError),
        ("omega", [0.0, math.nan, 0.0], ValueError),
        ("omega", [0.0, True, 0.0], TypeError),
    ],
)
def test_tampered_position_lists_are_refused_by_name(field, value, exc):
    body = RigidBodySimulator(SEED_INERTIA)
    _trajectory(body, 3)
    before = body.state
    bad = copy.deepcopy(before)
    bad["position"][field] = value
    with pytest.raises(exc, match=field):
        body.state = bad
    assert body.state == before


@pytest.mark.parametrize(
    ("kw", "exc"),
    [
        ({"inertia": [1.0, 2.0]}, ValueError),
        ({"inertia": [1.0, "x", 3.0]}, TypeError),
        ({"inertia": [1.0, 0.0, 3.0]}, ValueError),
        ({"inertia": [1.0, -2.0, 3.0]}, ValueError),
        ({"omega": [1.0]}, ValueError),
        ({"roll": None}, TypeError),
        ({"roll": True}, TypeError),
        ({"kinematics": ["axis"]}, ValueError),
    ],
)
def test_tampered_params_are_refused_by_name(kw, exc):
    body = RigidBodySimulator(SEED_INERTIA)
    before = body.state
    bad = copy.deepcopy(before)
    bad["params"].update(kw)
    with pytest.raises(exc, match=next(iter(kw))):
        body.state = bad
    assert body.state == before


def test_failed_reinit_changes_nothing():
    body = RigidBodySimulator(SEED_INERTIA, omega=(0.1, 0.2, 0.3))
    _trajectory(body, 3)
    before = body.state
    with pytest.raises(ValueError, match="kinematics"):
        body.__init__((1.0, 1.0, 1.0), omega=(9.0, 9.0, 9.0), yaw=1.0, kinematics="xyz")
    assert body.state == before


def test_an_object_made_with_new_is_safe():
    body = RigidBodySimulator.__new__(RigidBodySimulator)
    with pytest.raises(RuntimeError, match="initialised"):
        body.update(0.01, SEED_TORQUE)
    body.reset()
    assert body.check_numerics()
    with pytest.raises(RuntimeError, match="initialised"):
        body.copy()  # it has no state to copy (the Model base's _params says so)


def test_dt_must_be_a_real_number_not_a_bool():
    body = RigidBodySimulator(SEED_INERTIA)
    with pytest.raises(TypeError, match="dt"):
        body.update(True, SEED_TORQUE)
    with pytest.raises(TypeError, match="dt"):
        body.update("0.01", SEED_TORQUE)
    assert body.state == RigidBodySimulator(SEED_INERTIA).state
    other = RigidBodySimulator(SEED_INERTIA)
    body.update(np.float64(0.01), SEED_TORQUE)
    other.update(0.01, SEED_TORQUE)
    assert body.state == other.state


def test_inputs_are_not_modified_nor_aliased():
    inertia = np.array([10.0, 8.0, 12.0])
    torque = np.array([0.1, -0.05, 0.02])
    body = RigidBodySimulator(inertia)
    body.update(0.01, torque)
    np.testing.assert_array_equal(torque, [0.1, -0.05, 0.02])
    inertia[0] = 99.0
    assert body.inertia[0] == 10.0
    w = body.omega
    w[:] = 5.0
    assert body.omega[0] == pytest.approx(1e-4)


@pytest.mark.parametrize(
    "inertia, exc",
    [
        ((10.0, 0.0, 12.0), ValueError),
        ((10.0, -1.0, 12.0), ValueError),
        ((10.0, 8.0), ValueError),
        ((10.0, float("nan"), 12.0), ValueError),
        ((10.0, float("inf"), 12.0), ValueError),
    ],
)
def test_bad_inertia_is_rejected(inertia, exc):
    with pytest.raises(exc, match="inertia"):
        RigidBodySimulator(inertia)


@pytest.mark.parametrize("dt", [0.0, -0.01, float("nan"), float("inf")])
def test_bad_dt_is_rejected(dt):
    body = RigidBodySimulator(SEED_INERTIA)
    with pytest.raises(ValueError, match="dt"):
        body.update(dt, SEED_TORQUE)
    assert body.state == RigidBodySimulator(SEED_INERTIA).state


@pytest.mark.parametrize("torque", [(0.1, 0.2), (0.1, 0.2, 0.3, 0.4), (0.1, float("nan"), 0.0)])
def test_bad_torque_is_rejected(torque):
    with pytest.raises(ValueError, match="torque"):
        RigidBodySimulator(SEED_INERTIA).update(0.01, torque)


def test_bad_options_are_rejected():
    with pytest.raises(ValueError, match="kinematics"):
        RigidBodySimulator(SEED_INERTIA, kinematics="xyz")
    with pytest.raises(ValueError, match="roll"):
        RigidBodySimulator(SEED_INERTIA, roll=float("nan"))
    with pytest.raises(ValueError, match="omega"):
        RigidBodySimulator(SEED_INERTIA, omega=(1.0, 2.0))


def test_overflow_is_refused_and_changes_nothing():
    # it used to run to inf/NaN (check_numerics() False); now the state stays finite
    body = RigidBodySimulator((1.0, 1.0, 1.0))
    body.update(0.01, (0.1, 0.0, 0.0))
    before = body.state
    with pytest.raises(ValueError, match="rad/s"):
        body.update(1e300, (1e300, 0.0, 0.0))
    assert body.state == before and body.check_numerics()


def test_torque_may_be_any_length3_vector():
    forms = [
        (0.5, -0.25, 0.125),
        [0.5, -0.25, 0.125],
        np.array([0.5, -0.25, 0.125]),
        np.array([0.5, -0.25, 0.125], dtype=np.float32),
        np.array([0.5, 0, -0.25, 0, 0.125, 0])[::2],
    ]
    states = []
    for torque in forms:
        body = RigidBodySimulator(SEED_INERTIA)
        for _ in range(3):
            body.update(0.01, torque)
        states.append(body.state)
    assert all(s == states[0] for s in states)
    with pytest.raises(ValueError, match="torque"):
        RigidBodySimulator(SEED_INERTIA).update(0.01, np.array([0.0, np.inf, 0.0]))


def test_wrap_never_returns_below_minus_pi():
    # 5 pi - 1e-15 reduces by a multiple of 2 pi to just below -pi before the fix-up
    from fastnoise import RigidBodySimulator as Body

    body = Body(1.0, roll=5 * math.pi - 1e-15)
    assert -math.pi <= body.roll < math.pi


# ---- hardening (issue 12) ---------------------------------------------------------------


@pytest.mark.parametrize("angle", [1e17, 5e17, -3e18, 1e19, 1e300, -1.7976931348623157e308])
def test_huge_angles_are_wrapped_exactly(angle):
    # the plain reduction left 5e17 at 57.7 rad; the exact remainder is what wraps now
    body = RigidBodySimulator(1.0, roll=angle)
    r = math.fmod(angle, 2 * math.pi)
    r = r - 2 * math.pi if r >= math.pi else r + 2 * math.pi if r < -math.pi else r
    assert -math.pi <= body.roll < math.pi
    assert body.roll == pytest.approx(r, abs=1e-15)


def test_moderate_angles_wrap_as_before_bit_for_bit():
    # below 2**20 rad the plain reduction is kept, so pinned results do not move
    for a in (3.5, -3.5, 7.0, 20.0, -1000.25, 1048575.0):
        want = a - 2.0 * math.pi * math.floor((a + math.pi) / (2.0 * math.pi))
        want = want - 2 * math.pi if want >= math.pi else want
        want = want + 2 * math.pi if want < -math.pi else want
        assert RigidBodySimulator(1.0, yaw=a).yaw == want


def test_angle_increments_beyond_2_20_rad_still_land_in_range():
    body = RigidBodySimulator((1.0, 1.0, 1.0), omega=(1e100, -1e100, 3e99))
    body.update(1e200, (0.0, 0.0, 0.0))
    for a in (body.roll, body.pitch, body.yaw):
        assert -math.pi <= a < math.pi
    before = body.state
    with pytest.raises(ValueError, match="angle increment"):
        body.update(1e300, (0.0, 0.0, 0.0))  # 1e100 rad/s * 1e300 s overflows
    assert body.state == before


@pytest.mark.parametrize(
    ("kw", "word"),
    [
        ({"inertia": (1e101, 1.0, 1.0)}, "inertia"),
        ({"omega": (0.0, 2e100, 0.0)}, "omega"),
        ({"omega": (0.0, 0.0, -1e300)}, "omega"),
    ],
)
def test_ranges_of_inertia_and_rates(kw, word):
    args = {"inertia": (1.0, 1.0, 1.0), **kw}
    with pytest.raises(ValueError, match=word):
        RigidBodySimulator(**args)
    body = RigidBodySimulator((1.0, 1.0, 1.0))
    bad = body.state
    if "omega" in kw:
        bad["position"]["omega"] = list(kw["omega"])
        with pytest.raises(ValueError, match="omega"):
            body.state = bad


def test_an_ill_posed_torque_is_refused_and_changes_nothing():
    body = RigidBodySimulator((1e-300, 1.0, 1.0), omega=(1.0, 0.0, 0.0))
    before = body.state
    with pytest.raises(ValueError, match="rad/s"):
        body.update(1.0, (1.0, 0.0, 0.0))  # 1 N m on 1e-300 kg m^2
    with pytest.raises(ValueError, match="rad/s"):
        RigidBodySimulator((1.0, 1.0, 1.0)).update(1.0, (1.7e308, -1.7e308, 0.0))
    assert body.state == before and body.check_numerics()
    # the largest state: the derived quantities stay finite
    big = RigidBodySimulator((1e100, 1e100, 1e100), omega=(1e100, -1e100, 1e100))
    assert math.isfinite(big.kinetic_energy)
    assert np.all(np.isfinite(big.angular_momentum))


def test_vectors_are_read_by_value_in_any_layout():
    # big-endian arrays used to be read as raw bytes on the fast path
    torque = np.array([0.5, -0.25, 0.125])
    ref = RigidBodySimulator(SEED_INERTIA)
    ref.update(0.01, torque)
    raw = np.zeros(25, np.uint8)
    unaligned = raw[1:].view(np.float64)
    unaligned[:] = torque
    for t in (torque.astype(">f8"), unaligned, torque[::-1][::-1], tuple(torque)):
        body = RigidBodySimulator(SEED_INERTIA)
        body.update(0.01, t)
        assert body.state == ref.state
    b = RigidBodySimulator(np.array([10.0, 8.0, 12.0], ">f8"), omega=np.array([1.0, 0, 0], ">f8"))
    assert b.inertia.tolist() == [10.0, 8.0, 12.0] and b.omega.tolist() == [1.0, 0.0, 0.0]


@pytest.mark.parametrize(
    "torque",
    [
        np.array([True, False, True]),
        np.array([1 + 1j, 0, 0]),
        np.array(["a", "b", "c"]),
        np.array([0.0, None, 0.0], dtype=object),
        [0.0, 1 + 0j, 0.0],
        [[0.0], 0.0, 0.0],
        (0.0, np.timedelta64(1, "s"), 0.0),
    ],
    ids=["bool", "complex", "str", "object", "complex-entry", "ragged", "timedelta"],
)
def test_non_real_torques_are_refused_by_name(torque):
    body = RigidBodySimulator(SEED_INERTIA)
    before = body.state
    with pytest.raises((TypeError, ValueError), match="torque"):
        body.update(0.01, torque)
    assert body.state == before


@pytest.mark.parametrize("dt", [np.timedelta64(1, "s"), np.datetime64("2020-01-01"), 1j])
def test_non_real_steps_are_refused_by_name(dt):
    with pytest.raises(TypeError, match="dt"):
        RigidBodySimulator(SEED_INERTIA).update(dt, (0.0, 0.0, 0.0))


def test_a_hand_made_pickle_with_short_lists_is_refused():
    from fastnoise.core.model import _restore

    class Payload:
        def __init__(self, state):
            self.state = state

        def __reduce__(self):
            return (_restore, (RigidBodySimulator, self.state, {}))

    good = RigidBodySimulator(SEED_INERTIA, omega=(0.1, 0.2, 0.3)).state
    for where, value in [
        (("position", "omega"), [0.1]),
        (("position", "angles"), []),
        (("params", "inertia"), [1.0, 2.0]),
        (("params", "omega"), (0.5,)),
    ]:
        bad = copy.deepcopy(good)
        bad[where[0]][where[1]] = value
        with pytest.raises(ValueError, match=where[1]):
            pickle.loads(pickle.dumps(Payload(bad)))


def test_threads_sharing_one_body_run_its_updates_one_after_another():
    # (this held before as well: an update never releases the GIL)
    import threading

    torque = (0.1, -0.05, 0.02)
    shared = RigidBodySimulator(SEED_INERTIA)
    barrier = threading.Barrier(4)

    def work():
        barrier.wait()
        for _ in range(2500):
            shared.update(SEED_DT, torque)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    single = RigidBodySimulator(SEED_INERTIA)
    for _ in range(10000):
        single.update(SEED_DT, torque)
    assert shared.state == single.state
