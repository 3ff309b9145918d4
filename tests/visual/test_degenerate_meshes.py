"""A visual mesh whose triangles collapse in float32 (a shadow sliver of a generated city) is left
out of the MuJoCo model instead of failing its compile; the others are kept."""

from __future__ import annotations

import mujoco
import numpy as np
import pytest

from navbench.sim.appearance import add_appearance, mesh_area, quiet_attach
from navbench.visual.build import SceneVisuals
from navbench.visual.materials import Material
from navbench.visual.mesh import Part


def _part(v: list[list[float]]) -> Part:
    return Part(np.array(v, float), np.array([[0, 1, 2]], np.int32), np.zeros((3, 2)), "grey")


def test_a_float32_sliver_is_left_out_and_the_model_compiles() -> None:
    # the demo city's shadow m302: two vertices 5e-7 m apart at z = 95.4 m, one float32 value
    sliver = _part([[-34.0545968, 0.013, 100.0], [-40.5893975, 0.013, 95.4256390],
                    [-40.5893975, 0.013, 95.4256395]])
    tri = _part([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    assert mesh_area(sliver.vertices, sliver.faces) == 0.0
    assert abs(mesh_area(tri.vertices, tri.faces) - 0.5) < 1e-12  # half of a unit square
    vis = SceneVisuals(outdoor=False)
    vis.materials["grey"] = Material((0.5, 0.5, 0.5, 1.0))
    vis.add(sliver, ref=None, label="shadow", kind="shadow", layer="shadow")
    vis.add(tri, ref="o1", label="rug", kind="object", layer="object")
    spec = mujoco.MjSpec()
    out = add_appearance(spec, vis, {})
    with quiet_attach():
        model = spec.compile()
    assert [o[0] for o in out] == ["vis:1"]
    assert model.nmesh == 1 and mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_GEOM, "vis:1") >= 0
    assert mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_GEOM, "vis:0") == -1

    bare = mujoco.MjSpec()  # the check is needed: MuJoCo refuses the sliver on its own
    mesh = bare.add_mesh()
    mesh.name = "m"
    mesh.uservert = np.vstack([sliver.vertices, sliver.vertices[:1]]).ravel().tolist()
    mesh.userface = [0, 1, 2]
    g = bare.worldbody.add_geom()
    g.type, g.meshname, g.contype, g.conaffinity = mujoco.mjtGeom.mjGEOM_MESH, "m", 0, 0
    with pytest.raises(ValueError, match="surface area is too small"):
        bare.compile()
