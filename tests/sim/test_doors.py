"""Door-aware execution: path straightening by hand, the follower's align waypoints, and Spot
crossing a door narrower than its diagonal without contact (MuJoCo, hand-built scene)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from navbench.scene import Box, Scene
from navbench.scene.model import Portal
from navbench.sim import SPOT, TURTLEBOT, SimSettings, Simulator
from navbench.sim.actions import WaypointAction
from navbench.sim.controller import WaypointFollower, body_to_world
from navbench.sim.doors import (
    Door,
    align_start,
    align_through_doors,
    align_tight_bends,
    scene_doors,
)

# A door at the origin in a wall along X; passage from +Z into -Z (yaw 0: normal (0, -1)).
DOOR = Door(0.0, 0.0, 0.0, -1.0, 0.9)


def xz(wps: list[tuple[float, float, float]]) -> list[float]:
    """Flat (x0, z0, x1, z1, ...) of waypoints (for pytest.approx)."""
    return [v for w in wps for v in w[:2]]


def test_crossing_is_replaced_by_two_align_points_on_the_normal():
    path = [(0.05, 0.1, math.nan), (0.1, -0.1, math.nan), (2.0, -2.0, math.nan)]
    wps, flags = align_through_doors((-2.0, 2.0), path, [DOOR], half_length=0.55, margin=0.2)
    # L = 0.55 + 0.2: (0, 0.75) and (0, -0.75), heading -Z (yaw 0); the goal is kept.
    assert xz(wps) == pytest.approx([0.0, 0.75, 0.0, -0.75, 2.0, -2.0])
    assert wps[0][2] == pytest.approx(0.0) and wps[1][2] == pytest.approx(0.0)
    assert flags == [True, True, False]
    # the other way round: heading +Z (yaw π), align points swapped
    back = [(0.1, 0.1, math.nan), (-2.0, 2.0, math.nan)]
    wps, flags = align_through_doors((2.0, -2.0), back, [DOOR], half_length=0.55, margin=0.2)
    assert xz(wps) == pytest.approx([0.0, -0.75, 0.0, 0.75, -2.0, 2.0])
    assert abs(wps[0][2]) == pytest.approx(math.pi)


def test_paths_beside_the_door_or_blocked_align_points_are_kept():
    # crossing the wall line 0.6 m from the centre of a 0.9 m door: not through it
    path = [(0.6, -2.0, math.nan)]
    assert align_through_doors((0.6, 2.0), path, [DOOR], 0.55) == (path, [False])
    # the first L (0.75) is blocked, the second (0.55 + 0.125) is free
    wps, _ = align_through_doors((0.0, 2.0), path, [DOOR], 0.55, 0.2,
                                 free=lambda x, z, yaw, y: abs(abs(z) - 0.75) > 0.01)
    assert xz(wps[:2]) == pytest.approx([0.0, 0.675, 0.0, -0.675])
    # nowhere free: unchanged
    assert align_through_doors((0.0, 2.0), path, [DOOR], 0.55, free=lambda x, z, yaw, y: False)[0] == path


def test_a_path_re_sent_inside_the_door_zone_goes_on_not_back():
    # the robot stands 0.3 m before the door plane, 0.1 m off the normal line
    wps, flags = align_through_doors((0.1, 0.3), [(2.0, -2.0, math.nan)], [DOOR], 0.55)
    assert xz(wps) == pytest.approx([0.0, 0.3, 0.0, -0.75, 2.0, -2.0])
    assert flags == [True, True, False]


def test_a_goal_just_past_the_door_is_approached_straight_to_its_depth():
    wps, flags = align_through_doors((0.0, 2.0), [(0.3, -0.5, math.nan)], [DOOR], 0.55)
    assert xz(wps) == pytest.approx([0.0, 0.75, 0.0, -0.5, 0.3, -0.5])
    assert flags == [True, True, False]


def test_scene_doors_filters_by_width():
    p = (Portal("a", "door", ("r0", "r1"), (1.0, 0.0, 2.0), 0.9, 2.1, math.pi / 2),
         Portal("b", "opening", ("r1", "r2"), (0.0, 0.0, 0.0), 2.0))
    doors = scene_doors(Scene("s", "indoor", "test", portals=p), max_width=1.6)
    assert len(doors) == 1
    assert (doors[0].x, doors[0].z, doors[0].width) == (1.0, 2.0, 0.9)
    assert (doors[0].nx, doors[0].nz) == pytest.approx((-1.0, 0.0))  # yaw +90° faces -X


def test_follower_turns_in_place_on_align_points_and_holds_the_door_heading():
    """Perfect kinematic base: it stops on the first align point, turns to the normal, and
    drives the straight segment with its heading within the align tolerance of the normal."""
    f = WaypointFollower()
    wps, flags = align_through_doors((-2.0, 2.0), [(2.0, -2.0, math.nan)], [DOOR], 0.55)
    f.set_path(wps, start=(-2.0, 2.0), align=flags)
    x, z, yaw, dt = -2.0, 2.0, math.radians(-45.0), 0.02
    on_segment, min_gap = [], math.inf
    for _ in range(3000):
        vx, vy, w = f.command(x, z, yaw, dt)
        dx, dz = body_to_world(vx, vy, yaw)
        x, z, yaw = x + dx * dt, z + dz * dt, yaw + w * dt
        min_gap = min(min_gap, math.hypot(x, z - 0.75))
        if abs(z) < 0.7:  # between the align points: inside or next to the door
            on_segment.append((abs(x), abs(math.remainder(yaw, 2 * math.pi))))
        if f.reached:
            break
    assert f.reached and math.hypot(x - 2.0, z + 2.0) < 0.03
    assert min_gap < 0.05  # it drove onto the align point
    assert on_segment and max(a for a, _ in on_segment) < 0.06
    assert max(b for _, b in on_segment) < math.radians(4.0) + 0.02


def test_align_flags_must_match_the_waypoints():
    with pytest.raises(ValueError, match="align"):
        WaypointFollower().set_path([(0.0, 1.0, math.nan)], align=[True, False])


FLOOR = Box("floor", "floor", (0.0, -0.05, 0.0), (20.0, 0.1, 20.0), label="floor")


def door_scene(width: float = 0.9, wall: float = 0.15) -> Scene:
    """Two rooms split by a wall along X at z = 0 with a ``width`` door at x = 0 (portal yaw 0:
    from +Z into -Z); a back wall whose face is at z = -3.5."""
    half = width / 2.0 + 4.5
    boxes = (FLOOR,
             Box("wa", "wall", (-half, 1.0, 0.0), (9.0, 2.0, wall), label="wall", ref="wa"),
             Box("wb", "wall", (half, 1.0, 0.0), (9.0, 2.0, wall), label="wall", ref="wb"),
             Box("bk", "wall", (0.0, 1.0, -3.6), (20.0, 2.0, 0.2), label="wall", ref="bk"))
    return Scene("door", "indoor", "test", boxes=boxes,
                 portals=(Portal("d", "door", ("A", "B"), (0.0, 0.0, 0.0), width, 2.1, 0.0),))


# Shortest paths of a 0.4 m disc (the planning clearance of Spot) through the 0.9 m door,
# from a navmesh of door_scene(): they cross it diagonally and bend at the jambs.
DISC_PATHS = [
    [(0.0, 2.5), (0.05, -0.07), (0.08, -0.22), (0.18, -0.37), (0.28, -0.43), (0.43, -0.47),
     (3.0, -0.8)],
    [(-1.0, 2.5), (-0.06, 0.18), (-0.05, -0.07), (-0.08, -0.22), (-0.18, -0.37), (-0.8, -0.8)],
    [(1.5, 2.5), (0.12, 0.31), (0.06, 0.18), (-0.08, -0.22), (-0.18, -0.37), (-0.28, -0.43),
     (-0.43, -0.47), (-3.0, -0.8)],
]


def _follow(sim: Simulator, path: list[tuple[float, float]]) -> dict[str, np.ndarray]:
    (x0, z0), (x1, z1) = path[0], path[1]
    sim.reset_to((x0, 0.0, z0), math.atan2(-(x1 - x0), -(z1 - z0)))
    sim.step(WaypointAction.of(path[1:]))
    while not sim.follower.reached and sim.time < 40.0 and sim.label is None:
        sim.step(WaypointAction((), append=True))
    assert sim.follower.reached and sim.label is None
    return sim.records()


def test_spot_crosses_a_door_narrower_than_its_diagonal_without_contact():
    assert 0.9 < SPOT.diagonal == pytest.approx(math.hypot(0.5, 1.1))
    scene = door_scene()
    aligned = Simulator(scene, SPOT)
    plain = Simulator(scene, SPOT, SimSettings(align_doors=False))
    touched = 0
    for path in DISC_PATHS:
        rec = _follow(aligned, path)
        assert not rec["collision"].any()
        assert rec["obstacle_distance"].min() > 0.1  # 0.2 m nominal each side of the body
        assert math.hypot(rec["position"][-1][0] - path[-1][0],
                          rec["position"][-1][2] - path[-1][1]) < 0.05
        touched += bool(_follow(plain, path)["collision"].any())
    assert touched == len(DISC_PATHS)  # facing the lookahead target, the body hits a jamb


def test_footprint_pose_check_by_hand():
    """Spot's footprint 0.5 x 1.1 m (+ 0.03 m each side) against a wall whose face is at
    z = -0.9: facing it (yaw 0) the front reaches z - 0.58, turned 90° only z - 0.28."""
    wall = Box("w", "wall", (0.0, 1.0, -1.0), (2.0, 2.0, 0.2), label="wall", ref="w")
    sim = Simulator(Scene("w", "indoor", "test", boxes=(FLOOR, wall)), SPOT)
    assert sim.footprint.pose_free(0.0, 0.0, 0.0) and not sim.footprint.pose_free(0.0, -0.35, 0.0)
    assert sim.footprint.pose_free(0.0, -0.35, math.pi / 2) and not sim.footprint.pose_free(0.0, -0.65, math.pi / 2)
    # level with the wall, beside its end (x = 1): the half width + 0.03 is 0.28 m
    assert sim.footprint.pose_free(1.29, -1.0, 0.0) and not sim.footprint.pose_free(1.27, -1.0, 0.0)
    # on a floor 2 m up the wall is below the body; a floor 1.5 m down, above its hull top
    assert sim.footprint.pose_free(0.0, -1.0, 0.0, 2.0) and sim.footprint.pose_free(0.0, -1.0, 0.0, -1.5)
    # restricted to a path far from the wall (its box is 1.5 m + radius 0.6 + 0.1 away): no
    # obstacle left; near the wall the same answers as the full check
    assert len(sim.footprint.near([(0.0, 2.0), (0.0, 3.0)])._c) == 0
    near = sim.footprint.near([(0.0, -0.35)])
    assert not near.pose_free(0.0, -0.35, 0.0) and near.pose_free(0.0, -0.35, math.pi / 2)


def test_round_bodies_are_not_realigned():
    assert TURTLEBOT.round and not scene_doors(door_scene(), 0.0)
    sim = Simulator(door_scene(), TURTLEBOT)
    assert sim._doors == []
    assert not _follow(sim, DISC_PATHS[0])["collision"].any()


def test_tight_bends_become_align_points_only_where_turning_in_place_is_free():
    # start (0, 0) → V (0, -2) → (2, -2): heading -Z (yaw 0) then +X (yaw -90°), a right turn
    path = [(0.0, -2.0, math.nan), (2.0, -2.0, math.nan)]

    def at_v(x: float, z: float) -> bool:
        return math.hypot(x, z + 2.0) < 1e-9

    def facing(yaw: float, target: float) -> bool:
        return abs(math.remainder(yaw - target, 2 * math.pi)) < 0.3

    # a wall on the left (facing -X touches): tight, and the right turn 0 → -90° is free
    left = lambda x, z, yaw, y: not (at_v(x, z) and facing(yaw, math.pi / 2))  # noqa: E731
    assert align_tight_bends((0.0, 0.0), path, [False, False], left, 0.0) == [True, False]
    # open space: no stop
    assert align_tight_bends((0.0, 0.0), path, [False, False], lambda *a: True, 0.0) == \
        [False, False]
    # the turn itself touches (facing south-east): left as it is
    mid = lambda x, z, yaw, y: not (at_v(x, z) and facing(yaw, -math.pi / 4))  # noqa: E731
    assert align_tight_bends((0.0, 0.0), path, [False, False], mid, 0.0) == [False, False]
    # a 5° bend is not a bend
    gentle = [(0.0, -2.0, math.nan), (0.17, -4.0, math.nan)]
    assert align_tight_bends((0.0, 0.0), gentle, [False, False], left, 0.0) == [False, False]


def test_a_bend_is_aligned_where_the_approach_to_its_open_vertex_is_tight():
    """The follower starts turning within its 0.3 m lookahead of a vertex: a wall touching the
    body (facing -X) 0.3 m before V makes the bend tight although every heading on V is free."""
    path = [(0.0, -2.0, math.nan), (2.0, -2.0, math.nan)]

    def before_v(x: float, z: float, yaw: float, y: float) -> bool:
        near = math.hypot(x, z + 1.7) < 1e-6
        return not (near and abs(math.remainder(yaw - math.pi / 2, 2 * math.pi)) < 0.3)

    assert all(before_v(0.0, -2.0, math.radians(15 * k), 0.0) for k in range(24))  # V is open
    assert align_tight_bends((0.0, 0.0), path, [False, False], before_v, 0.0) == [True, False]
    # beyond the 0.5 m reach (1.2 m before V) it is not the bend's business
    far = lambda x, z, yaw, y: not (math.hypot(x, z + 0.8) < 1e-6)  # noqa: E731
    assert align_tight_bends((0.0, 0.0), path, [False, False], far, 0.0) == [False, False]


def test_start_turns_in_place_where_the_first_half_metre_is_tight():
    """Facing +Z (yaw π) with the path going -Z: an obstacle touching the body 0.3 m along the
    path puts an align waypoint on the start (turn first, then drive); open space, a small
    heading error or a turn that itself touches leave the path as it is."""
    path = [(0.0, -2.0, math.nan)]

    def ahead(x: float, z: float, yaw: float, y: float) -> bool:
        return not (math.hypot(x, z + 0.3) < 1e-6 and abs(math.remainder(yaw, math.pi)) > 0.5)

    wps, flags = align_start((0.0, 0.0), math.pi, path, [False], ahead, 0.0)
    assert flags == [True, False]
    assert wps[0][:2] == (0.0, 0.0) and wps[0][2] == pytest.approx(0.0)  # yaw of -Z travel
    assert wps[1][:2] == (0.0, -2.0)
    assert align_start((0.0, 0.0), math.pi, path, [False], lambda *a: True, 0.0) == \
        (path, [False])
    assert align_start((0.0, 0.0), 0.05, path, [False], ahead, 0.0) == (path, [False])
    # the turn from π to 0 passes ±π/2 (either way): blocked where the body stands sideways
    side = lambda x, z, yaw, y: abs(math.remainder(yaw, math.pi)) < 1.2  # noqa: E731
    assert align_start((0.0, 0.0), math.pi, path, [False], side, 0.0) == (path, [False])


def test_spot_turns_before_driving_off_a_start_next_to_furniture():
    """Spot facing away from its path (+Z, the path goes -Z), 0.65 m (its end clearance) from a
    table's corner at (0.62, -0.2): turning while driving, it sweeps its rear corner into the
    table (align off); turning in place on the start first, it touches nothing."""
    table = Box("t", "furniture", (1.12, 0.4, -0.95), (1.0, 0.8, 1.5), label="table", ref="t")
    scene = Scene("s", "indoor", "test", boxes=(FLOOR, table))
    assert math.hypot(0.62, 0.2) == pytest.approx(0.65, abs=0.002)
    for align, touches in ((True, False), (False, True)):
        sim = Simulator(scene, SPOT, SimSettings(align_doors=align))
        sim.reset_to((0.0, 0.0, 0.0), math.pi)
        sim.step(WaypointAction.of([(0.0, -1.0), (0.0, -3.0)]))
        while not sim.follower.reached and sim.time < 20.0 and sim.label is None:
            sim.step(WaypointAction((), append=True))
        rec = sim.records()
        assert sim.follower.reached and bool(rec["collision"].any()) is touches


def test_braking_caps_speed_by_the_known_traction():
    """v ≤ sqrt(2 a d) to the next stop: 1 m before an align waypoint with a = 0.1 m/s² the
    command is sqrt(0.2) = 0.447 m/s (the PID alone asks 2.5 · 0.3 m lookahead + I ≈ 0.8)."""
    f = WaypointFollower()
    f.set_path([(0.0, -1.0, 0.0), (0.0, -5.0, math.nan)], start=(0.0, 2.0), align=[True, False])
    free = [math.hypot(*f.command(0.0, 0.0, 0.0, 0.02)[:2]) for _ in range(50)]
    assert min(free[1:]) > 0.75
    f.brake_accel = 0.1
    assert math.hypot(*f.command(0.0, 0.0, 0.0, 0.02)[:2]) == pytest.approx(math.sqrt(0.2))
    f.brake_accel = 0.02  # 0.2 m/s from 1 m
    assert math.hypot(*f.command(0.0, 0.0, 0.0, 0.02)[:2]) == pytest.approx(0.2)


def test_spot_stops_on_the_goal_on_low_friction():
    """μ × 0.1 (floor 0.08): braking from the follower's cruise takes ~0.4 m; with the known
    traction it stops on the waypoint instead of sliding past it (closed-form v²/(2 μ g))."""
    sim = Simulator(Scene("f", "indoor", "test", boxes=(FLOOR,)), SPOT,
                    SimSettings(friction_scale=0.1))
    sim.reset_to((0.0, 0.0, 0.0), 0.0)
    sim.step(WaypointAction.of([(0.0, -6.0)]))
    past = 0.0
    while not sim.follower.reached and sim.time < 60.0:
        sim.step(WaypointAction((), append=True))
        past = max(past, -6.0 - float(sim.pose()[2]))
    assert sim.follower.reached and past < 0.1


def _segment_distance(p: tuple[float, float], a: tuple[float, float],
                      b: tuple[float, float]) -> float:
    pa, ba = np.subtract(p, a), np.subtract(b, a)
    t = float(np.clip(pa @ ba / max(float(ba @ ba), 1e-12), 0.0, 1.0))
    return float(np.linalg.norm(pa - t * ba))


def test_a_path_re_sent_every_step_still_crosses_without_contact():
    """A replanning agent: every agent step sends the rest of the path (the waypoints after the
    nearest segment) as a new, non-appended action."""
    path = DISC_PATHS[0]
    sim = Simulator(door_scene(), SPOT)
    sim.reset_to((path[0][0], 0.0, path[0][1]), 0.0)
    info: dict = {"reached": False}
    while sim.time < 40.0 and not info["reached"]:
        x, _, z, _ = sim.pose()
        seg = [_segment_distance((x, z), a, b) for a, b in itertools.pairwise(path)]
        _, _, info = sim.step(WaypointAction.of(path[int(np.argmin(seg)) + 1:]))
    assert info["reached"] and not sim.records()["collision"].any()


def _pose_free_numpy(fp, x: float, z: float, yaw: float, y: float) -> bool:
    """The separating-axis footprint test in vector form over all band boxes at once (the
    former implementation of FootprintCheck.pose_free)."""
    from navbench.sim.doors import FOOTPRINT_SLACK

    band = (fp._lo_y < y + fp._top) & (fp._hi_y > y + 0.03)
    if not band.any():
        return True
    hw, hl = fp.half_width + FOOTPRINT_SLACK, fp.half_length + FOOTPRINT_SLACK
    ux, uz = -math.sin(yaw), -math.cos(yaw)
    vx, vz = -uz, ux
    d = fp._c[band] - (x, z)
    hx, hz = fp._h[band, 0], fp._h[band, 1]
    hit = np.abs(d[:, 0]) < hx + hl * abs(ux) + hw * abs(vx)
    hit &= np.abs(d[:, 1]) < hz + hl * abs(uz) + hw * abs(vz)
    hit &= np.abs(d[:, 0] * ux + d[:, 1] * uz) < hl + hx * abs(ux) + hz * abs(uz)
    hit &= np.abs(d[:, 0] * vx + d[:, 1] * vz) < hw + hx * abs(vx) + hz * abs(vz)
    return not bool(hit.any())


def _house_queries(seed: int, n: int = 400):
    """``n`` random footprint queries in a 4-room house: (check, x, z, yaw, y), the check
    being the whole-scene footprint or one narrowed to the query point (every other query)."""
    from navbench.scene.procgen.indoor import generate_house

    sim = Simulator(generate_house(0, n_rooms=4), SPOT)
    rng = np.random.default_rng(seed)
    rooms = sim.scene.rooms
    for i in range(n):
        cx, cz = rooms[i % len(rooms)].centroid
        x, z = float(cx + rng.uniform(-2.5, 2.5)), float(cz + rng.uniform(-2.5, 2.5))
        yaw, y = float(rng.uniform(-math.pi, math.pi)), float(rng.choice([0.0, 0.0, 1.5]))
        yield (sim.footprint.near([(x, z)], pad=0.5) if i % 2 else sim.footprint), x, z, yaw, y


def test_pose_free_equals_the_vector_form_in_a_house():
    results = []
    for fp, x, z, yaw, y in _house_queries(5):
        got = fp.pose_free(x, z, yaw, y)
        assert got == _pose_free_numpy(fp, x, z, yaw, y)
        results.append(got)
    assert 50 < sum(results) < 350  # both free and blocked poses were tested


def _disc_free_numpy(fp, x: float, z: float, y: float) -> bool:
    """No band box within the circumscribed radius + 0.05 m, over all boxes at once (the
    former implementation of FootprintCheck.disc_free)."""
    band = (fp._lo_y < y + fp._top) & (fp._hi_y > y + 0.03)
    gap = np.maximum(np.abs(fp._c[band] - (x, z)) - fp._h[band], 0.0)
    return bool(((gap**2).sum(axis=1) >= (fp.radius + 0.05) ** 2).all())


def test_disc_free_equals_the_vector_form_in_a_house():
    results = []
    for fp, x, z, _, y in _house_queries(6):
        got = fp.disc_free(x, z, y)
        assert got == _disc_free_numpy(fp, x, z, y)
        results.append(got)
    assert 20 < sum(results) < 380  # both open and cluttered points were tested
