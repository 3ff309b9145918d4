"""Random synthetic indoor scenes for sampler tests (rooms of labelled objects)."""

from __future__ import annotations

from navbench.rng import derive
from navbench.scene import Room, Scene, SceneObject

ROOMS = ("kitchen", "living room", "bedroom", "bathroom", "office", "dining room", "hallway")
LABELS = (
    "chair", "table", "lamp", "sofa", "bed", "sink", "stool", "dishwasher", "coffee table",
    "shelf", "plant", "television", "armchair", "oven", "toilet", "desk", "box", "mirror",
    "umbrella stand", "cabinet",
)


def random_scene(seed: int, n_rooms: int | None = None) -> Scene:
    """3–6 rooms in a row (4 m × 4 m each), 4–10 objects per room with mixed extent data.

    Labels repeat inside rooms (so qualifiers are needed); sometimes two rooms share the label
    "bedroom" (neither is then referable). Extents: 70% size + yaw, 10% explicit AABB, 15%
    radius only, 5% centre only.
    """
    rng = derive(seed, "synthetic-scene")
    nr = int(n_rooms or rng.integers(3, 7))
    labels = list(rng.choice(ROOMS, size=nr, replace=False))
    if nr >= 4 and rng.random() < 0.3:
        labels[-1] = "bedroom" if labels[0] != "bedroom" else labels[1]
        labels[0] = "bedroom"
    rooms, objects = [], []
    for r in range(nr):
        x0 = 4.0 * r
        rooms.append(Room(f"r{r}", str(labels[r]),
                          ((x0, 0.0), (x0 + 4, 0.0), (x0 + 4, -4.0), (x0, -4.0))))
        vocab = rng.choice(LABELS, size=int(rng.integers(3, 7)), replace=False)
        for k in range(int(rng.integers(4, 11))):
            lab = str(vocab[int(rng.integers(len(vocab)))])
            sx, sy, sz = (float(v) for v in rng.uniform(0.2, 1.2, 3))
            y = float(rng.choice([sy / 2, sy / 2 + rng.uniform(0.3, 1.5)]))
            c = (x0 + float(rng.uniform(0.3, 3.7)), y, -float(rng.uniform(0.3, 3.7)))
            u = rng.random()
            oid = f"o{r}_{k}"
            if u < 0.7:
                o = SceneObject(oid, lab, c, f"r{r}", size=(sx, sy, sz), yaw=float(rng.uniform(-3, 3)))
            elif u < 0.8:
                o = SceneObject(oid, lab, c, f"r{r}", aabb=(
                    (c[0] - sx / 2, c[1] - sy / 2, c[2] - sz / 2),
                    (c[0] + sx / 2, c[1] + sy / 2, c[2] + sz / 2)))
            elif u < 0.95:
                o = SceneObject(oid, lab, c, f"r{r}", radius=float(rng.uniform(0.1, 0.6)))
            else:
                o = SceneObject(oid, lab, c, f"r{r}")
            objects.append(o)
    return Scene(f"synth{seed}", "indoor", "synthetic", tuple(rooms), tuple(objects))


def random_scenes(n: int, seed: int = 0) -> list[Scene]:
    """``n`` scenes with seeds ``seed .. seed + n - 1``."""
    return [random_scene(seed + i) for i in range(n)]


__all__ = ["random_scene", "random_scenes"]
