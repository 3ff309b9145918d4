"""Hostile-input cases for ``hostile_campaign.py``: damaged files of every scene importer and a
results database with one unreadable page in the middle (the cases the importer fuzzing in
``tests/hardening/test_fuzz_importers.py`` found). Each case runs through the campaign's
``case(name, argv, expect=..., check=...)``."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol


class Campaign(Protocol):
    """What the cases need of ``hostile_campaign.Campaign``."""

    root: Path

    def case(self, name: str, argv: list[str], *, expect: str = "reject",
             check: Callable[[], bool] | None = None, writes: tuple[str, ...] = ()) -> None: ...


def realdata(rel: str) -> Path | None:
    """A file of the shared real-data folder (``$NAVBENCH_REALDATA``, else ``shared/realdata`` in a
    folder above this script), or None when it is not there (its cases are then skipped)."""
    import os

    roots = [Path(os.environ["NAVBENCH_REALDATA"])] if "NAVBENCH_REALDATA" in os.environ else []
    roots += [p / "shared" / "realdata" for p in Path(__file__).resolve().parents]
    found = next((r / rel for r in roots if (r / rel).is_file()), None)
    if found is None:
        print(f"   (skipped: no realdata/{rel})")
    return found


def _glb_box(path: Path, extents: tuple[float, float, float], rgb: tuple[int, int, int] | None = None,
             first_index: int | None = None) -> None:
    """A box GLB (trimesh); ``first_index`` rewrites its first triangle index (uint32)."""
    import struct

    import numpy as np
    import trimesh

    b = trimesh.creation.box(extents=extents)
    if rgb is not None:
        b.visual.vertex_colors = np.tile([*rgb, 255], (len(b.vertices), 1))
    trimesh.Scene([b]).export(path)
    if first_index is not None:
        raw = bytearray(path.read_bytes())
        n = struct.unpack("<I", raw[12:16])[0]
        doc = json.loads(raw[20:20 + n])
        acc = doc["accessors"][doc["meshes"][0]["primitives"][0]["indices"]]
        at = 20 + n + 8 + doc["bufferViews"][acc["bufferView"]].get("byteOffset", 0) + acc.get("byteOffset", 0)
        raw[at:at + 4] = struct.pack("<I", first_index)
        path.write_bytes(bytes(raw))


def _habitat_case(c: Campaign, name: str, edit: Callable[[Path], None], expect: str = "reject") -> None:
    root = c.root / "imp_habitat" / name / "data"
    for d in ("objects", "stages", "scenes"):
        (root / d).mkdir(parents=True)
    _glb_box(root / "objects" / "table.glb", (1.0, 0.5, 0.2))
    (root / "objects" / "table.object_config.json").write_text(json.dumps({"render_asset": "table.glb"}))
    _glb_box(root / "stages" / "room.glb", (6.0, 3.0, 6.0))
    (root / "stages" / "room.stage_config.json").write_text(json.dumps({"render_asset": "room.glb"}))
    (root / "d.scene_dataset_config.json").write_text(json.dumps({
        "objects": {"paths": {".json": ["objects"]}}, "stages": {"paths": {".json": ["stages"]}},
        "scene_instances": {"paths": {".json": ["scenes"]}}}))
    (root / "scenes" / "apt.scene_instance.json").write_text(json.dumps({
        "stage_instance": {"template_name": "room"},
        "object_instances": [{"template_name": "table", "translation": [1.0, 0.0, -1.0]}]}))
    (root / "scenes" / "apt.semantic_config.json").write_text(json.dumps({"region_annotations": [
        {"name": "k", "label": "kitchen", "poly_loop": [[-2, 0, 2], [2, 0, 2], [2, 0, -2], [-2, 0, -2]],
         "floor_height": 0.0}]}))
    edit(root)
    c.case(f"import habitat {name}", ["scenes", "import", str(root / "d.scene_dataset_config.json"),
                                      "--scene", "apt", "-o", str(c.root / "o" / f"h_{name}.json")], expect=expect)


def _jedit(rel: str, fn: Callable[[Any], Any]) -> Callable[[Path], None]:
    def edit(root: Path) -> None:
        d = json.loads((root / rel).read_text())
        fn(d)
        (root / rel).write_text(json.dumps(d))
    return edit


def _no_floor_height(d: dict[str, Any]) -> None:
    r = d["region_annotations"][0]
    del r["floor_height"]
    for q in r["poly_loop"]:
        q[1] = 1.0


def _npy_bad_header(p: Path) -> None:
    import zipfile

    h = b"{'descr': '|O', 'fortran_order': False, 'shape': (" + b"'" * 3  # unterminated string
    h += b" " * ((64 - (10 + len(h) + 1) % 64) % 64) + b"\n"
    with zipfile.ZipFile(p, "w") as z:  # a valid CRC: numpy itself parses the header
        z.writestr("output.npy", b"\x93NUMPY\x01\x00" + len(h).to_bytes(2, "little") + h + b"\x80\x02N.")


def importer_cases(c: Campaign) -> None:
    """Damaged files of every scene importer (the cases the importer fuzzing found)."""
    import struct

    import numpy as np

    inst, sem, ds = "scenes/apt.scene_instance.json", "scenes/apt.semantic_config.json", "d.scene_dataset_config.json"
    _habitat_case(c, "ok", lambda r: None, expect="accept")
    _habitat_case(c, "uniform_scale_str", _jedit(inst, lambda d: d["object_instances"][0].__setitem__("uniform_scale", "x")))
    _habitat_case(c, "stage_up_str", _jedit("stages/room.stage_config.json", lambda d: d.__setitem__("up", [0, 0, "z"])))
    _habitat_case(c, "absolute_search_dir", _jedit(ds, lambda d: d["scene_instances"]["paths"].__setitem__(".json", ["/"])))
    _habitat_case(c, "objects_not_object", _jedit(ds, lambda d: d.__setitem__("objects", True)))
    _habitat_case(c, "region_no_floor_height", _jedit(sem, _no_floor_height), expect="accept")
    _habitat_case(c, "stage_face_index_768", lambda r: _glb_box(r / "stages" / "room.glb", (6.0, 3.0, 6.0), None, 768))

    def gibson(name: str, write: Callable[[Path], None], expect: str = "reject") -> None:
        p = c.root / "imp_gibson" / name / "3DSceneGraph_G.npz"
        p.parent.mkdir(parents=True)
        write(p)
        c.case(f"import gibson {name}", ["scenes", "import", str(p), "-o", str(c.root / "o" / f"g_{name}.json")],
               expect=expect)

    def graph(**room: Any) -> dict[str, Any]:
        r = {"id": 1, "scene_category": "kitchen", "location": np.array([2.0, 2.0, 1.5]),
             "size": np.array([4.0, 4.0, 3.0]), **room}
        return {"building": {"name": "G"}, "room": {1: r}, "object": {}}

    def method99(p: Path) -> None:
        np.savez(p, output=graph())
        raw = bytearray(p.read_bytes())
        j = raw.index(b"PK\x01\x02")
        raw[j + 10:j + 12] = struct.pack("<H", 99)
        p.write_bytes(bytes(raw))

    gibson("ok", lambda p: np.savez(p, output=graph()), expect="accept")
    gibson("npy_header_tokenerror", _npy_bad_header)
    gibson("zip_method_99", method99)
    gibson("label_bytes_not_utf8", lambda p: np.savez(p, output=graph(scene_category=b"k\xffk")), expect="accept")
    gibson("location_strings", lambda p: np.savez(p, output=graph(location=np.array(["1", "2", "3"]))))

    hm = c.root / "imp_hm3d"
    hm.mkdir()
    (hm / "abc.semantic.txt").write_text('HM3D Semantic Annotations\n1,FF0010,"toilet",0\n')
    _glb_box(hm / "abc.semantic.glb", (0.4, 0.6, 0.8), (255, 0, 16), 256)
    c.case("import hm3d semantic glb face index 256", ["scenes", "import", str(hm / "abc.semantic.txt"),
                                                       "-o", str(c.root / "o" / "hm3d.json")])
    house = realdata("procthor/house_0.json")
    if house is not None:
        doc = json.loads(house.read_text())
        doc["doors"] = True
        p = c.root / "imp_procthor" / "house_doors.json"
        p.parent.mkdir()
        p.write_text(json.dumps(doc))
        c.case("import procthor doors=true", ["scenes", "import", str(p), "--asset-fallback",
                                              "-o", str(c.root / "o" / "procthor.json")])


def repair_cases(c: Campaign) -> None:
    """A results database with one damaged page in the middle: repair keeps the rows behind it."""
    import numpy as np

    from navbench.eval import EpisodeResult, ResultsDB

    run = c.root / "runs_bad" / "middle_page"
    db = run / "results.sqlite"
    with ResultsDB(db) as w:
        rid = w.get_or_create_run("agent", "h", {}, 0, "v")
        for i in range(80):
            w.add_episode(rid, EpisodeResult(str(i), "s", "success", {"spl": 0.5}, None, 0.1, 1.0,
                                             {"pos": np.zeros((200, 3))}, {"note": "n" * 300}))
    con = sqlite3.connect(db)
    leaves = [r[0] for r in con.execute(
        "SELECT pageno FROM dbstat WHERE name = 'episodes' AND pagetype = 'leaf' ORDER BY path")]
    size = con.execute("PRAGMA page_size").fetchone()[0]
    con.close()
    raw = bytearray(db.read_bytes())
    at = (leaves[len(leaves) // 2] - 1) * size
    raw[at:at + size] = b"\xa5" * size
    db.write_bytes(bytes(raw))

    def kept_last() -> bool:
        with ResultsDB(db, create=False) as r:
            return "79" in r.finished_episode_ids(r.resolve_run(None))
    c.case("results db middle page: results repair", ["results", "repair", str(run)], expect="accept",
           check=kept_last, writes=(str(run),))


def _deep(n: int) -> str:
    return "[" * n + "]" * n


def limit_cases(c: Campaign) -> None:
    """Deep nesting and 400–5,000-digit integers in every JSON-reading importer (the README's
    limits: nesting ≤ 64, integers ≤ 30 digits), and oversized ids in HM3D / MP3D / Gibson."""
    import numpy as np

    inst, sem, ds = "scenes/apt.scene_instance.json", "scenes/apt.semantic_config.json", "d.scene_dataset_config.json"

    def text_edit(rel: str, fn: Callable[[str], str]) -> Callable[[Path], None]:
        def edit(root: Path) -> None:
            (root / rel).write_text(fn((root / rel).read_text()))
        return edit

    for rel, tag in ((inst, "instance"), (sem, "semantic"), (ds, "dataset"), ("objects/table.object_config.json", "object"),
                     ("stages/room.stage_config.json", "stage")):
        _habitat_case(c, f"{tag}_deep_5000", text_edit(rel, lambda t: t[:-1] + ', "x": ' + _deep(5000) + "}"))
        _habitat_case(c, f"{tag}_deep_100", text_edit(rel, lambda t: t[:-1] + ', "x": ' + _deep(100) + "}"))
        for digits in (400, 5000):
            _habitat_case(c, f"{tag}_int_{digits}", text_edit(rel, lambda t, n=digits: t[:-1] + ', "x": ' + "9" * n + "}"))
    _habitat_case(c, "translation_int_5000",
                  text_edit(inst, lambda t: t.replace('"translation": [1.0', '"translation": [' + "9" * 5000, 1)))

    house = realdata("procthor/house_0.json")
    if house is not None:
        text = house.read_text().strip()
        folder = c.root / "imp_procthor_limits"
        folder.mkdir()
        variants = {
            "deep_5000": text[:-1] + ', "x": ' + _deep(5000) + "}",
            "deep_100": text[:-1] + ', "x": ' + _deep(100) + "}",
            "int_400": text[:-1] + ', "x": ' + "9" * 400 + "}",
            "int_5000": text[:-1] + ', "x": ' + "9" * 5000 + "}",
            "coordinate_int_5000": re.sub(r'"x": -?[0-9.]+', '"x": ' + "9" * 5000, text, count=1),
        }
        for name, t in variants.items():
            p = folder / f"house_{name}.json"
            p.write_text(t)
            c.case(f"import procthor {name}", ["scenes", "import", str(p), "--asset-fallback",
                                               "-o", str(c.root / "o" / f"pt_{name}.json")])
            pl = folder / f"houses_{name}.jsonl"
            pl.write_text(t.replace("\n", " ") + "\n")
            c.case(f"import procthor jsonl {name}", ["scenes", "import", str(pl), "--asset-fallback",
                                                     "-o", str(c.root / "o" / f"ptl_{name}.json")])
        for name, t in (("deep_5000", "{\"x\": " + _deep(5000) + "}"), ("int_5000", "[" + "9" * 5000 + "]")):
            a = folder / f"assets_{name}.json"
            a.write_text(t)
            c.case(f"import procthor assets {name}", ["scenes", "import", str(house), "--assets", str(a),
                                                      "-o", str(c.root / "o" / f"pta_{name}.json")])

    hm = c.root / "imp_hm3d_limits"
    hm.mkdir()
    _glb_box(hm / "abc.semantic.glb", (0.4, 0.6, 0.8), (255, 0, 16))
    for name, line in (("id_5000_digits", "9" * 5000 + ',FF0010,"toilet",0'),
                       ("region_5000_digits", '1,FF0010,"toilet",' + "9" * 5000),
                       ("id_400_digits", "9" * 400 + ',FF0010,"toilet",0')):
        (hm / "abc.semantic.txt").write_text(f"HM3D Semantic Annotations\n{line}\n")
        c.case(f"import hm3d {name}", ["scenes", "import", str(hm / "abc.semantic.txt"), "--semantic-mesh",
                                       str(hm / "abc.semantic.glb"), "-o", str(c.root / "o" / f"hm_{name}.json")])

    mp = c.root / "imp_mp3d_limits"
    mp.mkdir()
    (mp / "big.house").write_text("ASCII 1.1\nH name label 0 0 0 0 0 " + "9" * 5000 + " 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n")
    c.case("import mp3d header int 5000 digits", ["scenes", "import", str(mp / "big.house"),
                                                  "-o", str(c.root / "o" / "mp_big.json")])

    def gibson(name: str, out: dict[str, object]) -> None:
        p = c.root / "imp_gibson_limits" / name / "3DSceneGraph_G.npz"
        p.parent.mkdir(parents=True)
        np.savez(p, output=out)
        c.case(f"import gibson {name}", ["scenes", "import", str(p), "-o", str(c.root / "o" / f"gl_{name}.json")])

    deep: object = []
    for _ in range(300):  # deeper than the 64 levels of the JSON limit; pickle itself recurses
        deep = [deep]
    room = {"id": 1, "scene_category": "kitchen", "location": np.array([2.0, 2.0, 1.5]),
            "size": np.array([4.0, 4.0, 3.0])}
    gibson("room_deep_300", {"building": {"name": "G"}, "room": {1: {**room, "extra": deep}}, "object": {}})
    gibson("room_key_5001_digits", {"building": {"name": "G"}, "room": {10 ** 5000: room}, "object": {}})
    gibson("room_floor_5001_digits", {"building": {"name": "G"}, "room": {1: {**room, "floor_number": 10 ** 5000}},
                                      "object": {}})
    gibson("object_parent_5001_digits", {"building": {"name": "G"}, "room": {1: room}, "object": {
        1: {"class_": "chair", "location": np.array([2.0, 2.0, 0.5]), "size": np.array([0.5, 0.5, 1.0]),
            "parent_room": 10 ** 5000}}})
