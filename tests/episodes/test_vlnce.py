"""R2R / VLN-CE episode files: layout, round trip, reproducible bytes, validation errors."""

from __future__ import annotations

import gzip
import json
import math

import pytest

from navbench.episodes import Episode, Goal, read_gt, read_r2r, tokenize, write_gt, write_r2r
from navbench.errors import EpisodeFormatError


def _episodes() -> list[Episode]:
    return [
        Episode(
            "12", "data/scenes/two_rooms.glb", (1.0, 0.0, -1.0), (0.0, 0.7071, 0.0, 0.7071),
            (Goal((6.0, 0.0, -3.5), 3.0, "o2", (2.0, 0.8, 0.8)), Goal((7.5, 0.0, -0.5), 3.0)),
            "Walk to the chair, then stop.", ((1.0, 0.0, -1.0), (6.0, 0.0, -3.5)), 5.59,
            trajectory_id=4, object_category="sofa",
            info={"navbench": {"task": "conditional", "depth": 2}, "note": "x"},
        ),
        Episode("ep-7", "s.glb", (0, 0, 0), (0, 0, 0, 1), (Goal((1, 0, 0), None),), "Go.", (), math.nan),
        Episode("007", "s.glb", (0, 0, 0), (0, 0, 0, 1), (Goal((1, 0, 0), 0.5),), "go", (), 1.0),
    ]


def test_round_trip_and_layout(tmp_path):
    p = tmp_path / "val" / "val.json.gz"
    eps = _episodes()
    write_r2r(p, eps)
    assert read_r2r(p) == eps
    raw = json.loads(gzip.decompress(p.read_bytes()))
    assert set(raw) == {"episodes", "instruction_vocab"}
    e0, e1, e2 = raw["episodes"]
    # all-digit canonical ids become ints; others stay strings
    assert e0["episode_id"] == 12 and e1["episode_id"] == "ep-7" and e2["episode_id"] == "007"
    assert set(e0) == {"episode_id", "trajectory_id", "scene_id", "start_position", "start_rotation",
                       "goals", "instruction", "reference_path", "info"}
    assert e0["goals"] == [{"position": [6.0, 0.0, -3.5], "radius": 3.0},
                           {"position": [7.5, 0.0, -0.5], "radius": 3.0}]
    assert e0["info"]["geodesic_distance"] == 5.59
    assert e0["info"]["navbench"]["goals"][0] == {"object_id": "o2", "size": [2.0, 0.8, 0.8]}
    assert e0["info"]["navbench"]["object_category"] == "sofa"
    assert "geodesic_distance" not in e1["info"]  # unknown L is omitted, never NaN
    # vocab: <PAD> <UNK> <EOS>, then sorted words of all instructions
    words = raw["instruction_vocab"]["word_list"]
    assert words == ["<PAD>", "<UNK>", "<EOS>", ".", "chair", "go", "stop", "the", "then", "to", "walk"]
    toks = e0["instruction"]["instruction_tokens"]
    assert len(toks) == 200 and toks[:8] == [10, 9, 7, 4, 8, 6, 3, 0]


def test_bytes_reproducible(tmp_path):
    a, b = tmp_path / "a.json.gz", tmp_path / "b.json.gz"
    write_r2r(a, _episodes())
    write_r2r(b, _episodes())
    assert a.read_bytes() == b.read_bytes()


def test_tokenize_like_habitat():
    # habitat-lab: lower, " 's", drop "," and "?", split on runs of [^\w-] keeping them
    assert tokenize("Go to the kitchen's table, then stop?") == [
        "go", "to", "the", "kitchen", "'", "s", "table", "then", "stop"]


def test_reads_vlnce_style_file_with_instruction_extras(tmp_path):
    doc = {"episodes": [{
        "episode_id": 3, "trajectory_id": 9, "scene_id": "mp3d/x/x.glb",
        "start_position": [1, 2, 3], "start_rotation": [0, 0, 0, 1],
        "goals": [{"position": [4, 5, 6], "radius": 3.0}],
        "instruction": {"instruction_text": "hi", "instruction_id": 77, "language": "en-US"},
        "reference_path": [[1, 2, 3], [4, 5, 6]], "info": {"geodesic_distance": 4.2}}],
        "instruction_vocab": {"word_list": []}}
    p = tmp_path / "rxr.json.gz"
    p.write_bytes(gzip.compress(json.dumps(doc).encode()))
    (ep,) = read_r2r(p)
    assert ep.episode_id == "3" and ep.trajectory_id == 9 and ep.geodesic_distance == 4.2
    assert ep.info == {"instruction": {"instruction_id": 77, "language": "en-US"}}
    assert ep.reference_path == ((1.0, 2.0, 3.0), (4.0, 5.0, 6.0))


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (lambda d: d["episodes"][1].__setitem__("start_rotation", [0, 0, 1]), "episodes[1].start_rotation"),
        (lambda d: d["episodes"][0].__setitem__("object_category", "bed"), "episodes[0].object_category"),
        (lambda d: d["episodes"][2]["goals"][0].__setitem__("position", [1, "a", 2]), "episodes[2].goals[0].position"),
        (lambda d: d.pop("instruction_vocab"), "instruction_vocab.word_list"),
        (lambda d: d["episodes"][1].__setitem__("episode_id", 12), "episodes[1].episode_id"),
    ],
)
def test_validation_names_field(tmp_path, mutate, field):
    p = tmp_path / "val.json.gz"
    write_r2r(p, _episodes())
    d = json.loads(gzip.decompress(p.read_bytes()))
    mutate(d)
    p.write_bytes(gzip.compress(json.dumps(d).encode()))
    with pytest.raises(EpisodeFormatError) as ei:
        read_r2r(p)
    assert ei.value.field == field and str(p) in str(ei.value)


def test_writer_rejects_unreachable_and_duplicates(tmp_path):
    bad = Episode("1", "s", (0, 0, 0), (0, 0, 0, 1), (Goal((1, 0, 0)),), "go", (), math.inf)
    with pytest.raises(EpisodeFormatError):
        write_r2r(tmp_path / "x.json.gz", [bad])
    e = _episodes()[1]
    with pytest.raises(EpisodeFormatError, match="unique"):
        write_r2r(tmp_path / "x.json.gz", [e, e])
    assert not (tmp_path / "x.json.gz").exists()


def test_gt_round_trip_and_validation(tmp_path):
    gt = {"12": {"locations": [[0, 0, 0], [0, 0, -0.25]], "actions": [1, 0], "forward_steps": 1},
          "3": {"locations": [[1, 0, 1]], "actions": [2, 0], "forward_steps": 0}}
    p = tmp_path / "val_gt.json.gz"
    write_gt(p, gt)
    back = read_gt(p)
    assert back["12"] == {"locations": [[0.0, 0.0, 0.0], [0.0, 0.0, -0.25]], "actions": [1, 0], "forward_steps": 1}
    assert list(back) == ["3", "12"]
    with pytest.raises(EpisodeFormatError) as ei:
        write_gt(p, {"1": {"locations": [], "actions": [7], "forward_steps": 0}})
    assert ei.value.field == "1.actions"
