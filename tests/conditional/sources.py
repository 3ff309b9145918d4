"""Scenes from every source for the instruction checks: procedural houses, the real ProcTHOR
house, and Gibson 3D Scene Graph files built here (pickled with protocol 2, as real files are,
with repeated bedrooms / bathrooms / corridors as in real Gibson scans)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from navbench.rng import derive
from navbench.scene import Scene
from navbench.scene.procgen.indoor import generate_house
from navbench.scene.sources import import_scene
from tests.sources.test_gibson import save_npz_protocol2

PROCTHOR = Path("/work/shared/realdata/procthor")
#: COCO-style classes of Gibson 3DSG objects, per room category.
_GIBSON_OBJECTS = {
    "bedroom": ("bed", "chair", "clock", "book", "laptop", "potted_plant", "tv", "vase"),
    "bathroom": ("toilet", "sink", "bottle", "cup", "hair_drier", "toothbrush"),
    "corridor": ("potted_plant", "chair", "clock", "vase", "bench"),
    "living_room": ("couch", "tv", "chair", "potted_plant", "book", "remote", "vase", "clock"),
    "kitchen": ("oven", "sink", "refrigerator", "microwave", "cup", "bowl", "bottle", "dining_table"),
}
_GIBSON_ROOMS = ("bedroom", "bedroom", "bedroom", "bathroom", "bathroom", "corridor", "corridor",
                 "living_room", "kitchen")


def houses(n: int) -> list[Scene]:
    """Procedural houses with seeds 0..n-1."""
    return [generate_house(seed) for seed in range(n)]


def procthor() -> Scene:
    """The real ProcTHOR-10K house (labels and sizes from its asset database)."""
    return import_scene(PROCTHOR / "house_0.json", "procthor",
                        assets=PROCTHOR / "asset-database.json")


def gibson_graph(seed: int) -> dict:
    """A 3DSG ``output`` dict: rooms in a row (5 m apart, Z up), 4–9 objects each."""
    rng = derive(seed, "gibson-graph")
    rooms, objects = {}, {}
    oid = 1
    for k, cat in enumerate(_GIBSON_ROOMS):
        rid = k + 1
        cx = 5.0 * k
        rooms[rid] = {"id": rid, "scene_category": cat, "location": np.array([cx, 2.0, 1.5]),
                      "size": np.array([4.0, 4.0, 3.0]), "floor_number": "A"}
        vocab = _GIBSON_OBJECTS[cat]
        for _ in range(int(rng.integers(4, 10))):
            cls = str(vocab[int(rng.integers(len(vocab)))])
            size = rng.uniform(0.2, 1.2, 3)
            z = float(size[2] / 2 + rng.choice([0.0, rng.uniform(0.3, 1.2)]))
            objects[oid] = {"id": oid, "class_": cls, "parent_room": rid, "size": size,
                            "location": np.array([cx + rng.uniform(-1.7, 1.7),
                                                  2.0 + rng.uniform(-1.7, 1.7), z])}
            oid += 1
    return {"building": {"name": f"GibsonLike{seed}", "function": "residential", "num_floors": 1},
            "room": rooms, "object": objects, "camera": {}, "panorama": {}}


def gibson(tmp: Path, n: int) -> list[Scene]:
    """``n`` Gibson-format scenes written as protocol-2 ``.npz`` files and imported back."""
    out = []
    for seed in range(n):
        p = save_npz_protocol2(tmp / f"3DSceneGraph_GibsonLike{seed}.npz", output=gibson_graph(seed))
        out.append(import_scene(p, "gibson"))
    return out
