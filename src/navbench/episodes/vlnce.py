"""VLN-CE / habitat-lab R2R episode files and their ``_gt`` companions (SPEC §4).

Layout written by :func:`write_r2r` (gzip JSON, mtime 0, byte-reproducible)::

    {"episodes": [{"episode_id", "trajectory_id", "scene_id", "start_position",
                   "start_rotation", "goals": [{"position", "radius"}],
                   "instruction": {"instruction_text", "instruction_tokens"},
                   "reference_path", "info": {"geodesic_distance", ...}}],
     "instruction_vocab": {"word_list": [...]}}

Only those keys appear at the top level of an episode (habitat builds attrs classes with
``Cls(**dict)`` and rejects unknown keys); everything else goes into ``info``. Goal extras
(``object_id``, ``size``) go to ``info["navbench"]["goals"]`` and ``object_category`` to
``info["navbench"]["object_category"]``; :func:`read_r2r` moves them back.

Episode ids: an id made of ASCII digits without a leading zero (``"0"``, ``"17"``) is written
as a JSON int, as VLN-CE does; any other id is written as a string. Reading gives ``str``.
"""

from __future__ import annotations

import copy
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from navbench.episodes.model import Episode, Goal, check_episode
from navbench.errors import EpisodeFormatError
from navbench.geometry import quat4, vec3
from navbench.io import JSONLimitError, read_json, write_json_gz
from navbench.jsontypes import JSON, JSONMapping, JSONObject

PAD, UNK, EOS = "<PAD>", "<UNK>", "<EOS>"
_SPLIT = re.compile(r"([^\w-]+)")
EPISODE_KEYS = (
    "episode_id", "trajectory_id", "scene_id", "start_position", "start_rotation",
    "goals", "instruction", "reference_path", "info",
)
ACTIONS = {0: "STOP", 1: "MOVE_FORWARD", 2: "TURN_LEFT", 3: "TURN_RIGHT"}


def tokenize(text: str) -> list[str]:
    """habitat-lab's instruction tokenizer: lower case, split ``'s``, drop ``,`` and ``?``."""
    s = text.lower().replace("'s", " 's")
    for r in (",", "?"):
        s = s.replace(r, "")
    return [t.strip() for t in _SPLIT.split(s) if t.strip()]


def build_vocab(texts: Iterable[str]) -> list[str]:
    """Word list ``[<PAD>, <UNK>, <EOS>, sorted words...]`` (index 0 pads)."""
    words = sorted({t for text in texts for t in tokenize(text)} - {PAD, UNK, EOS})
    return [PAD, UNK, EOS, *words]


def episode_id_to_json(episode_id: str) -> int | str:
    """The id as written: int for canonical non-negative integers, else the string."""
    s = str(episode_id)
    if s.isascii() and s.isdigit() and str(int(s)) == s:
        return int(s)
    return s


def _num_list(v: JSON, n: int | None, file: str, where: str) -> list[float]:
    ok = isinstance(v, (list, tuple)) and (n is None or len(v) == n)
    if ok:
        try:
            out = [float(x) for x in v]
        except (TypeError, ValueError):
            ok = False
        else:
            if all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v) and all(
                math.isfinite(x) for x in out
            ):
                return out
            ok = False
    raise EpisodeFormatError(file, where, f"a list of {n or 'N'} finite numbers", v)


def episode_to_dict(
    ep: Episode, word_index: Mapping[str, int] | None = None, *, pad_to: int | None = 200
) -> JSONObject:
    """One episode as an R2R dict; tokens index ``word_index`` (unknown → ``<UNK>``)."""
    info = copy.deepcopy(dict(ep.info))
    extra_instruction = info.pop("instruction", None)
    if math.isinf(ep.geodesic_distance):
        raise EpisodeFormatError(
            "<memory>", f"episode {ep.episode_id}.geodesic_distance",
            "a finite length (unreachable goals are rejected at generation)", ep.geodesic_distance,
        )
    if not math.isnan(ep.geodesic_distance):
        info["geodesic_distance"] = ep.geodesic_distance
    nb = dict(info.get("navbench", {}))
    if any(g.object_id is not None or g.size is not None for g in ep.goals):
        nb["goals"] = [
            {"object_id": g.object_id, "size": None if g.size is None else list(g.size)}
            for g in ep.goals
        ]
    if ep.object_category is not None:
        nb["object_category"] = ep.object_category
    if nb:
        info["navbench"] = nb
    d: JSONObject = {
        "episode_id": episode_id_to_json(ep.episode_id),
        "trajectory_id": ep.trajectory_id,
        "scene_id": ep.scene_id,
        "start_position": list(ep.start_position),
        "start_rotation": list(ep.start_rotation),
        "goals": [{"position": list(g.position), "radius": g.radius} for g in ep.goals],
    }
    if ep.instruction_text is None:
        raise EpisodeFormatError(
            "<memory>", f"episode {ep.episode_id}.instruction_text",
            "an instruction string for an R2R episode", None,
        )
    instr: JSONObject = {"instruction_text": ep.instruction_text}
    if word_index is not None:
        unk = word_index[UNK]
        toks = [word_index.get(t, unk) for t in tokenize(ep.instruction_text)]
        if pad_to is not None:
            toks = (toks + [0] * pad_to)[:pad_to]
        instr["instruction_tokens"] = toks
    if isinstance(extra_instruction, dict):
        instr.update({k: v for k, v in extra_instruction.items() if k not in instr})
    d["instruction"] = instr
    d["reference_path"] = [list(p) for p in ep.reference_path]
    d["info"] = info
    return d


def write_r2r(
    path: str | Path,
    episodes: Sequence[Episode],
    *,
    vocab: Sequence[str] | None = None,
    pad_to: int | None = 200,
) -> Path:
    """Write ``{split}.json.gz`` in the VLN-CE R2R layout (atomic, byte-reproducible).

    Args:
        path: output file, conventionally ``…/{split}/{split}.json.gz``.
        episodes: episodes with ``instruction_text`` set; ids must be unique.
        vocab: word list to index tokens with; built from the instructions when ``None``
            (``<PAD>``=0, ``<UNK>``=1, ``<EOS>``=2, then the sorted words).
        pad_to: pad/truncate ``instruction_tokens`` to this length with 0 (VLN-CE uses 200);
            ``None`` keeps the natural length.
    """
    seen: set[str] = set()
    for i, ep in enumerate(episodes):
        if ep.episode_id in seen:
            raise EpisodeFormatError(path, f"episodes[{i}].episode_id", "a unique id", ep.episode_id)
        seen.add(ep.episode_id)
    words = list(vocab) if vocab is not None else build_vocab(
        e.instruction_text for e in episodes if e.instruction_text is not None
    )
    if UNK not in words:
        raise EpisodeFormatError(path, "instruction_vocab.word_list", f"a list containing {UNK}")
    index = {w: i for i, w in enumerate(words)}
    data = {
        "episodes": [episode_to_dict(e, index, pad_to=pad_to) for e in episodes],
        "instruction_vocab": {"word_list": words},
    }
    return write_json_gz(path, data)


def episode_from_dict(
    d: JSON, file: str, where: str, *, extra_keys: Sequence[str] = ()
) -> Episode:
    """Validate one R2R episode dict and build an :class:`Episode` (inverse of
    :func:`episode_to_dict`); ``extra_keys`` are tolerated top-level keys (kept in ``info``)."""
    if not isinstance(d, dict):
        raise EpisodeFormatError(file, where, "an object", type(d).__name__)
    allowed = set(EPISODE_KEYS) | set(extra_keys)
    for k in d:
        if k not in allowed:
            raise EpisodeFormatError(file, f"{where}.{k}", f"no such key (allowed: {sorted(allowed)}); extras belong in 'info'")
    for k in ("episode_id", "scene_id", "start_position", "start_rotation", "goals"):
        if k not in d:
            raise EpisodeFormatError(file, f"{where}.{k}", "a required key")
    eid = d["episode_id"]
    if isinstance(eid, bool) or not isinstance(eid, (int, str)) or eid == "":
        raise EpisodeFormatError(file, f"{where}.episode_id", "an int or non-empty string", eid)
    if not isinstance(d["scene_id"], str) or not d["scene_id"]:
        raise EpisodeFormatError(file, f"{where}.scene_id", "a non-empty string", d["scene_id"])
    start = _num_list(d["start_position"], 3, file, f"{where}.start_position")
    rot = _num_list(d["start_rotation"], 4, file, f"{where}.start_rotation")
    info = d.get("info", {})
    if not isinstance(info, dict):
        raise EpisodeFormatError(file, f"{where}.info", "an object", info)
    info = copy.deepcopy(info)
    for k in extra_keys:
        if k in d:
            info[k] = copy.deepcopy(d[k])
    nb = info.get("navbench")
    if nb is not None and not isinstance(nb, dict):
        raise EpisodeFormatError(file, f"{where}.info.navbench", "an object", nb)
    nb = dict(nb or {})
    goal_extra = nb.pop("goals", None)
    category = nb.pop("object_category", None)
    if nb:
        info["navbench"] = nb
    else:
        info.pop("navbench", None)
    goals_raw = d["goals"]
    if not isinstance(goals_raw, list):
        raise EpisodeFormatError(file, f"{where}.goals", "a list of {position, radius}", goals_raw)
    if goal_extra is not None and (
        not isinstance(goal_extra, list) or len(goal_extra) != len(goals_raw)
    ):
        raise EpisodeFormatError(file, f"{where}.info.navbench.goals", f"a list of {len(goals_raw)} objects", goal_extra)
    goals = []
    for j, g in enumerate(goals_raw):
        gw = f"{where}.goals[{j}]"
        if not isinstance(g, dict) or "position" not in g:
            raise EpisodeFormatError(file, gw, "an object with 'position'", g)
        unknown = sorted(set(g) - {"position", "radius"})
        if unknown:  # habitat-lab builds NavigationGoal(**goal): any other key fails there
            raise EpisodeFormatError(file, f"{gw}.{unknown[0]}", "no such key (a goal has position and "
                                     "radius; extras belong in info.navbench.goals)")
        pos = _num_list(g["position"], 3, file, f"{gw}.position")
        radius = g.get("radius")
        if radius is not None and (isinstance(radius, bool) or not isinstance(radius, (int, float))):
            raise EpisodeFormatError(file, f"{gw}.radius", "a number or null", radius)
        ex = goal_extra[j] if goal_extra is not None else {}
        if not isinstance(ex, dict):
            raise EpisodeFormatError(file, f"{where}.info.navbench.goals[{j}]", "an object", ex)
        size = ex.get("size")
        if size is not None:
            size = _num_list(size, 3, file, f"{where}.info.navbench.goals[{j}].size")
        goals.append(Goal(vec3(pos), radius, ex.get("object_id"), None if size is None else vec3(size)))
    instr = d.get("instruction")
    text = None
    if instr is not None:
        if not isinstance(instr, dict) or not isinstance(instr.get("instruction_text"), str):
            raise EpisodeFormatError(file, f"{where}.instruction", "an object with a string 'instruction_text'", instr)
        text = instr["instruction_text"]
        rest = {k: v for k, v in instr.items() if k not in ("instruction_text", "instruction_tokens")}
        if rest:
            info["instruction"] = rest
    ref = d.get("reference_path", [])
    if not isinstance(ref, list):
        raise EpisodeFormatError(file, f"{where}.reference_path", "a list of [x, y, z]", ref)
    refp = [vec3(_num_list(p, 3, file, f"{where}.reference_path[{j}]")) for j, p in enumerate(ref)]
    geo = info.pop("geodesic_distance", math.nan)
    if isinstance(geo, bool) or not isinstance(geo, (int, float)) or geo < 0:
        raise EpisodeFormatError(file, f"{where}.info.geodesic_distance", "a non-negative number", geo)
    tid = d.get("trajectory_id", 0)
    if isinstance(tid, bool) or not isinstance(tid, int):
        raise EpisodeFormatError(file, f"{where}.trajectory_id", "an int", tid)
    return check_episode(Episode(
        episode_id=str(eid), scene_id=d["scene_id"], start_position=vec3(start),
        start_rotation=quat4(rot), goals=tuple(goals), instruction_text=text,
        reference_path=tuple(refp), geodesic_distance=float(geo), trajectory_id=tid,
        object_category=category, info=info,
    ), file, where)


def _read(path: str | Path) -> JSON:
    """Parsed (gzip) JSON of an episode file; read errors become :class:`EpisodeFormatError`."""
    try:
        return read_json(path)
    except FileNotFoundError as e:
        raise EpisodeFormatError(str(path), "<file>", "an existing file") from e
    except JSONLimitError as e:  # its text says what was expected ("strict JSON (no NaN)")
        raise EpisodeFormatError(str(path), "<file>", str(e)) from e
    except (OSError, ValueError) as e:
        raise EpisodeFormatError(str(path), "<file>", "gzip/UTF-8 JSON", str(e)) from e


def read_r2r(path: str | Path) -> list[Episode]:
    """Read and validate a VLN-CE R2R ``{split}.json.gz`` (or plain ``.json``) file.

    Raises :class:`~navbench.errors.EpisodeFormatError` naming the file and the JSON path of
    the first problem (e.g. ``episodes[3].start_rotation``).
    """
    file = str(path)
    data = _read(path)
    if not isinstance(data, dict) or not isinstance(data.get("episodes"), list):
        raise EpisodeFormatError(file, "episodes", "a top-level object with an 'episodes' list")
    vocab = data.get("instruction_vocab")
    if not isinstance(vocab, dict) or not isinstance(vocab.get("word_list"), list):
        raise EpisodeFormatError(file, "instruction_vocab.word_list", "a list of words (mandatory for VLN-CE)")
    eps = [episode_from_dict(d, file, f"episodes[{i}]") for i, d in enumerate(data["episodes"])]
    seen: set[str] = set()
    for i, e in enumerate(eps):
        if e.episode_id in seen:
            raise EpisodeFormatError(file, f"episodes[{i}].episode_id", "a unique id", e.episode_id)
        seen.add(e.episode_id)
    return eps


def write_gt(path: str | Path, gt: Mapping[str, JSONMapping]) -> Path:
    """Write ``{split}_gt.json.gz``: ``{str(id): {"locations", "actions", "forward_steps"}}``.

    Actions: 0 STOP, 1 MOVE_FORWARD (0.25 m), 2 TURN_LEFT, 3 TURN_RIGHT (15°).
    """
    out: JSONObject = {}
    for eid in sorted(gt, key=lambda k: (len(str(k)), str(k))):
        rec = gt[eid]
        _check_gt(rec, str(path), str(eid))
        out[str(eid)] = {
            "locations": [[float(x) for x in p] for p in rec["locations"]],
            "actions": [int(a) for a in rec["actions"]],
            "forward_steps": int(rec["forward_steps"]),
        }
    return write_json_gz(path, out)


def _check_gt(rec: JSON, file: str, eid: str) -> None:
    if not isinstance(rec, Mapping):
        raise EpisodeFormatError(file, eid, "an object with locations, actions, forward_steps", rec)
    for k in ("locations", "actions", "forward_steps"):
        if k not in rec:
            raise EpisodeFormatError(file, f"{eid}.{k}", "a required key")
    if not isinstance(rec["locations"], (list, tuple)):
        raise EpisodeFormatError(file, f"{eid}.locations", "a list of [x, y, z]", rec["locations"])
    for j, p in enumerate(rec["locations"]):
        _num_list(list(p) if isinstance(p, tuple) else p, 3, file, f"{eid}.locations[{j}]")
    acts = rec["actions"]
    if not isinstance(acts, (list, tuple)) or any(
        isinstance(a, bool) or not isinstance(a, int) or a not in ACTIONS for a in acts
    ):
        raise EpisodeFormatError(file, f"{eid}.actions", "a list of ints in {0, 1, 2, 3}", acts)
    fs = rec["forward_steps"]
    if isinstance(fs, bool) or not isinstance(fs, int) or fs < 0:
        raise EpisodeFormatError(file, f"{eid}.forward_steps", "a non-negative int", fs)


def read_gt(path: str | Path) -> dict[str, JSONObject]:
    """Read and validate a ``{split}_gt.json.gz`` file; keys are ``str`` episode ids."""
    file = str(path)
    data = _read(path)
    if not isinstance(data, dict):
        raise EpisodeFormatError(file, "<root>", "an object keyed by episode id", type(data).__name__)
    for eid, rec in data.items():
        _check_gt(rec, file, str(eid))
    return {str(k): dict(v) for k, v in data.items()}
