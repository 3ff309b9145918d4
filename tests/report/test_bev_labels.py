"""Object labels on the bird's-eye view: objects standing on furniture keep their label (moved
off with a leader line where crowded), labels never overlap, the objects an instruction refers
to are always labelled, and ``scene show --instruction`` labels them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import navbench.cli.scenes  # noqa: F401  (registers ``scene show``)
from navbench.cli._app import app
from navbench.errors import ConfigError
from navbench.report.bev import render_scene_figure
from navbench.report.bev_labels import referenced_objects
from navbench.scene import Room, Scene, SceneObject, save
from navbench.tasks.conditional import Go, If, ObjectRef, Presence, Qualifier, Relation, parse
from tests.conditional.test_cli import run


def _house(n_cups: int = 0) -> Scene:
    """A living room (x 0..4, z -4..0) with a tv on a tv stand and a speaker beside it on the
    stand, a kitchen (x 4..8) with a microwave and ``n_cups`` cups on a 1.2 m counter, and a
    second living room holding a desk (for room hints)."""
    rooms = (Room("r0", "living room", ((0, 0), (4, 0), (4, -4), (0, -4))),
             Room("r1", "kitchen", ((4, 0), (8, 0), (8, -4), (4, -4))),
             Room("r2", "living room", ((8, 0), (12, 0), (12, -4), (8, -4))))
    objs = [
        SceneObject("stand", "tv stand", (1.0, 0.25, -2.0), "r0", size=(1.2, 0.5, 0.4)),
        SceneObject("tv", "tv", (1.0, 0.8, -2.0), "r0", size=(1.0, 0.6, 0.1), parent_id="stand"),
        SceneObject("spk", "speaker", (1.45, 0.7, -2.0), "r0", size=(0.2, 0.3, 0.2), parent_id="stand"),
        SceneObject("sofa", "sofa", (3.0, 0.4, -3.0), "r0", size=(1.8, 0.8, 0.8)),
        SceneObject("counter", "counter", (6.0, 0.45, -1.0), "r1", size=(1.2, 0.9, 0.6)),
        SceneObject("mw", "microwave", (5.7, 1.05, -1.0), "r1", size=(0.5, 0.3, 0.4), parent_id="counter"),
        SceneObject("desk", "desk", (10.0, 0.4, -2.0), "r2", size=(1.2, 0.8, 0.6)),
        SceneObject("lamp2", "lamp", (10.3, 0.9, -2.0), "r2", size=(0.2, 0.3, 0.2), parent_id="desk"),
    ]
    objs += [SceneObject(f"cup{k}", "cup", (5.5 + 0.05 * k, 0.95, -1.1), "r1", size=(0.08, 0.1, 0.08),
                         parent_id="counter") for k in range(n_cups)]
    return Scene("h", "indoor", "handmade", rooms, tuple(objs))


def _texts(fig: object) -> dict[str, object]:
    return {t.get_gid(): t for t in fig.axes[0].texts if t.get_gid()}  # type: ignore[attr-defined]


def _boxes(fig: object) -> list[np.ndarray]:
    fig.canvas.draw()  # type: ignore[attr-defined]
    r = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    out = []
    for t in fig.axes[0].texts:  # type: ignore[attr-defined]
        b = t.get_window_extent(r)
        out.append(np.array([b.x0, b.y0, b.x1, b.y1]))
    return out


def _overlaps(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3])


def test_stacked_objects_keep_their_labels_without_overlaps() -> None:
    scene = _house()
    fig = render_scene_figure(scene, size=5.0, dpi=100)
    texts = _texts(fig)
    assert set(texts) == {o.id for o in scene.objects}  # the tv, speaker, microwave, lamp too
    assert {texts[o.id].get_text() for o in scene.objects} == {o.label for o in scene.objects}  # type: ignore[attr-defined]
    boxes = _boxes(fig)
    assert not any(_overlaps(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    # the tv and its stand share a centre: one label stays there, the other is moved off it and
    # joined to the object's centre by a leader line
    lines = {ln.get_gid(): ln for ln in fig.axes[0].lines if ln.get_gid()}
    moved = [i for i in ("tv", "stand") if i in lines]
    assert len(moved) == 1
    xs, zs = lines[moved[0]].get_data()
    assert (xs[0], zs[0]) == (1.0, -2.0)  # the line starts at the object's centre (x, z)
    assert tuple(texts[moved[0]].get_position()) != (1.0, -2.0)  # type: ignore[attr-defined]


def test_crowded_counter_keeps_stacked_labels() -> None:
    scene = _house(n_cups=6)
    texts = _texts(render_scene_figure(scene, size=5.0, dpi=100))
    stacked = {o.id for o in scene.objects if o.parent_id is not None}
    assert stacked <= set(texts)


def test_referenced_objects_are_always_labelled_in_bold() -> None:
    scene = _house(n_cups=25)  # too crowded for every label at 3 in x 60 dpi
    refs = {"cup7", "mw", "tv"}
    fig = render_scene_figure(scene, size=3.0, dpi=60, referenced=refs)
    texts = _texts(fig)
    assert refs <= set(texts)
    assert {texts[i].get_fontweight() for i in refs} == {"bold"}  # type: ignore[attr-defined]
    assert len(texts) < len(scene.objects)  # the others only where they fit


def test_referenced_objects_of_programs() -> None:
    scene = _house()
    lr = ObjectRef("tv", "living room", room_hint=None)
    prog = If(Presence("microwave", "kitchen"),
              Go(ObjectRef("speaker", "living room", Qualifier("east of", "tv"))),
              Go(ObjectRef("sofa", "living room", object_id="sofa")))
    # read from text: every speaker / tv in every living room; the sofa by its id
    assert referenced_objects(scene, prog) == {"mw", "spk", "tv", "sofa"}
    hinted = Go(ObjectRef("lamp", "living room", room_hint="with the desk"))
    assert referenced_objects(scene, hinted) == {"lamp2"}
    rel = If(Relation(lr, "near", ObjectRef("sofa", "living room")), Go(lr),
             Go(ObjectRef("desk", "living room")))
    assert referenced_objects(scene, rel) == {"tv", "sofa", "desk"}
    absent = If(Presence("oven", "kitchen"), Go(lr), Go(lr))  # a false condition names nothing
    assert referenced_objects(scene, absent) == {"tv"}
    with pytest.raises(ConfigError, match="oven in the kitchen"):
        referenced_objects(scene, Go(ObjectRef("oven", "kitchen")))
    text = "Is there a microwave in the kitchen? If yes, walk to it. If no, go to the tv there."
    with pytest.raises(ConfigError, match="tv in the kitchen"):  # "there": the kitchen has no tv
        referenced_objects(scene, parse(text))
    text = "Is there a microwave in the kitchen? If yes, walk to it. If no, go to the sofa in the living room."
    assert referenced_objects(scene, parse(text)) == {"mw", "sofa"}


def test_scene_show_instruction(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = save(_house(n_cups=3), tmp_path / "scene.json")
    r = CliRunner().invoke(app, ["scene", "show", str(src), "-o", str(tmp_path / "a.png"), "--dpi", "40",
                                 "--size", "4", "--instruction",
                                 "If you can see a microwave in the kitchen, go to it; otherwise the tv in the living room."])
    assert r.exit_code == 0, r.output
    assert "2 referenced objects labelled" in r.output and (tmp_path / "a.png").stat().st_size > 1000
    for bad, why in (("Go to the oven in the kitchen.", "'oven' is not"),
                     ("Go to the sofa in the kitchen.", "sofa in the kitchen: scene h has no")):
        assert run(["scene", "show", str(src), "--instruction", bad]) == 2
        assert why in capsys.readouterr().err
