"""Episode BEV maps: the view holds what the episode uses, the legend stays off the map,
labels never overlap, and the same inputs give the same PNG."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np

from navbench.report.bev_layout import map_layout
from navbench.report.figures import BevEpisode, bev_figure, bev_map
from navbench.scene import Box, Room, SceneObject, Surface
from navbench.scene.model import Scene
from tests.conftest import two_room_scene

# the two-room fixture spans x in [0, 8], z in [-4, 0]; its exit arrow reaches x = 9.3
FAR = Room("r2", "office", ((20.0, 10.0), (24.0, 10.0), (24.0, 6.0), (20.0, 6.0)), 0.0, 2.7)
TRAJ = np.array([[1.0, 0, -3.0], [2.0, 0, -2.5], [3.0, 0, -1.0]])


def _episode(scene: Scene) -> BevEpisode:
    return BevEpisode(scene, "e1", np.array([1.0, 0, -3.0]), np.array([[3.0, 0, -1.0]]),
                      branch_goals=np.array([[2.0, 0, -3.5]]), reference_path=TRAJ[[0, 2]],
                      trajectories={"agent": TRAJ}, outcomes={"agent": "correct"})


def test_indoor_view_holds_a_far_room_the_episode_never_visits() -> None:
    scene = dataclasses.replace(two_room_scene(), rooms=(*two_room_scene().rooms, FAR))
    fig = bev_figure(_episode(scene), margin=1.0)
    ax = fig.axes[0]
    # rooms and walls span x in [0, 24], z in [-4, 10]; plus the 1 m margin
    assert ax.get_xlim() == (-1.0, 25.0)
    assert ax.get_ylim() == (11.0, -5.0)  # inverted: north (-Z) up
    fig.canvas.draw()
    box = ax.get_window_extent()
    assert abs(box.width / box.height - 26.0 / 16.0) < 0.01  # equal aspect fills the axes


def test_hybrid_view_is_cropped_to_the_building_the_episode_is_in() -> None:
    """A 200 m hybrid scene: the view holds r0 (the path) and r1 (behind r0's door), not the
    far room r2 (no door to them) nor the whole ground."""
    base = two_room_scene()
    ground = Surface("g", "sidewalk", ((-100.0, -100.0), (100.0, -100.0), (100.0, 100.0), (-100.0, 100.0)))
    upper = Box("u0", "building", (2.0, 4.0, -2.0), (4.0, 2.6, 4.0), label="building")
    scene = dataclasses.replace(base, kind="hybrid", rooms=(*base.rooms, FAR),
                                surfaces=(ground,), boxes=(*base.boxes, upper))
    fig = bev_figure(_episode(scene), margin=1.0)
    ax = fig.axes[0]
    assert ax.get_xlim() == (-1.0, 9.0)  # rooms r0 + r1: x in [0, 8]
    assert ax.get_ylim() == (1.0, -5.0)  # z in [-4, 0]
    building = (0x7A / 255, 0x65 / 255, 0x52 / 255)
    drawn = [c for c in ax.collections if len(c.get_facecolor())
             and np.allclose(c.get_facecolor()[0][:3], building)]
    assert not drawn  # the storey over r0 is left out: the room shows


def test_legend_stays_off_the_map_and_inside_the_figure() -> None:
    """Beside a wide and a tall map, and below the map when the names are too long."""
    tall = dataclasses.replace(two_room_scene(), rooms=(*two_room_scene().rooms, Room("r3", "hall", ((0.0, 20.0), (1.0, 20.0), (1.0, 19.0), (0.0, 19.0)), 0.0, 2.7)))
    for scene, name in ((two_room_scene(), "agent"), (tall, "agent"), (two_room_scene(), "x" * 120)):
        runs = {f"{name}-{k}": TRAJ + np.array([0.1 * k, 0, 0]) for k in range(8)}
        ep = dataclasses.replace(_episode(scene), trajectories=runs, outcomes={})
        fig = bev_figure(ep)
        fig.canvas.draw()
        leg = fig.legends[0].get_window_extent()
        ax = fig.axes[0].get_window_extent()
        assert not leg.overlaps(ax)
        assert (leg.x0 >= ax.x1) == (name == "agent")  # beside, else below
        assert fig.bbox.x0 <= leg.x0 and leg.x1 <= fig.bbox.x1 and fig.bbox.y0 <= leg.y0
        assert leg.y1 <= fig.bbox.y1


def test_labels_do_not_overlap_and_rooms_come_first() -> None:
    """Two objects on the same spot: the larger one is named there, the other beside it with a
    leader line; room names are drawn, but not one wider than its (0.2 m) room."""
    base = two_room_scene()
    crowd = (SceneObject("c0", "chair", (2.0, 0.4, -3.0), "r0", size=(0.5, 0.8, 0.5)),
             SceneObject("c1", "desk", (2.0, 0.4, -3.0), "r0", size=(1.2, 0.8, 0.6)))
    closet = Room("r9", "closet", ((9.0, -1.0), (9.2, -1.0), (9.2, -1.2), (9.0, -1.2)), 0.0, 2.7)
    scene = dataclasses.replace(base, objects=(*base.objects, *crowd), rooms=(*base.rooms, closet))
    fig = bev_figure(_episode(scene))
    ax = fig.axes[0]
    texts = {t.get_text(): t for t in ax.texts}
    assert {"kitchen\nr0", "living room\nr1", "desk", "exit"} <= set(texts)
    assert "closet\nr9" not in texts
    assert tuple(texts["desk"].get_position()) == (2.0, -3.0)
    assert tuple(texts["chair"].get_position()) != (2.0, -3.0)
    assert [ln.get_xydata()[0].tolist() for ln in ax.lines if ln.get_gid() == "c0"] == [[2.0, -3.0]]
    boxes = [t.get_window_extent() for t in ax.texts]
    assert not any(a.overlaps(b) for a, b in itertools.combinations(boxes, 2))


def test_bev_map_png_is_deterministic() -> None:
    ep = _episode(two_room_scene())
    assert bev_map(ep).png == bev_map(ep).png


def test_map_layout_by_hand() -> None:
    # 10 m x 5 m at min(8 / 10, 7 / 5) = 0.8 in/m: an 8 x 4 in map
    lay = map_layout(((0.0, 0.0), (10.0, 5.0)), (2.0, 1.0))
    assert lay.beside  # 0.8 + 8 + 0.25 + 2 + 0.2 = 11.25 in <= 12 in
    assert np.allclose(lay.size, (11.25, 5.1))  # height 0.5 + 4 + 0.6
    assert np.allclose(lay.axes, (0.8 / 11.25, 0.6 / 5.1, 8 / 11.25, 4 / 5.1))
    assert np.allclose(lay.legend_at, (9.05 / 11.25, 4.6 / 5.1))
    lay = map_layout(((0.0, 0.0), (10.0, 5.0)), (4.0, 1.0))
    assert not lay.beside  # 13.25 in beside: below instead
    assert np.allclose(lay.size, (9.0, 6.35))  # 0.5 + 4 + 0.6 + 1 + 0.25
    assert np.allclose(lay.axes, (0.8 / 9, 1.85 / 6.35, 8 / 9, 4 / 6.35))
