"""Hostile-input cases for ``hostile_campaign.py``: results databases with row-level damage
(one row of invalid metrics or extra JSON, an undecodable trajectory blob, invalid run settings),
a zeroed 100-byte file header, a deleted ``runs`` row, and a healthy database.

Each case damages a copy of a 13-episode run, then runs ``results export`` (``report`` for a
damaged trajectory; must fail with the repair advice), ``results repair``, ``results export`` and ``report`` (must work and keep every
readable row) and ``results repair`` again (must leave the repaired file untouched).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

N_EPISODES = 13


class Campaign(Protocol):
    """What the cases need of ``hostile_campaign.Campaign``."""

    root: Path

    def case(self, name: str, argv: list[str], *, expect: str = "reject",
             check: Callable[[], bool] | None = None, writes: tuple[str, ...] = ()) -> None: ...


def thirteen_episode_run(src: Path, dst: Path) -> Path:
    """A run folder with :data:`N_EPISODES` episodes ``"0"``..``"12"``, copies of the episodes
    (rows and trajectories) of the run in ``src``."""
    from dataclasses import replace

    from navbench.eval import ResultsDB

    with ResultsDB(src, create=False) as r:
        run = r.runs()[0]
        results = r.results(run["run_id"])
        trajs = {e.episode_id: r.trajectory(run["run_id"], e.episode_id) for e in results}
    with ResultsDB(dst) as w:
        rid = w.get_or_create_run(run["agent"], run["dataset_hash"], run["settings"], run["seed"],
                                  run["code_version"])
        for i in range(N_EPISODES):
            e = results[i % len(results)]
            w.add_episode(rid, replace(e, episode_id=str(i), trajectory=trajs[e.episode_id]))
    return dst


def _sql(*statements: str) -> Callable[[Path], None]:
    def damage(db: Path) -> None:
        con = sqlite3.connect(db)
        with con:
            for s in statements:
                con.execute(s)
        con.close()
    return damage


def _zero_header(db: Path) -> None:
    raw = bytearray(db.read_bytes())
    raw[:100] = bytes(100)
    db.write_bytes(bytes(raw))


#: damage → episode ids an export must still hold afterwards (quarantined rows left out).
DAMAGE: dict[str, tuple[Callable[[Path], None], set[str]]] = {
    "invalid metrics JSON": (_sql("UPDATE episodes SET metrics='{\"spl\": 0.5,' WHERE episode_id='3'"),
                             {str(i) for i in range(N_EPISODES)} - {"3"}),
    "invalid extra JSON": (_sql("UPDATE episodes SET extra='[[[' WHERE episode_id='4'"),
                           {str(i) for i in range(N_EPISODES)} - {"4"}),
    "undecodable trajectory": (_sql("UPDATE trajectories SET blob=x'deadbeef00' WHERE episode_id='5'"),
                               {str(i) for i in range(N_EPISODES)}),
    "invalid run settings": (_sql("UPDATE runs SET settings='{\"task\": '"), {str(i) for i in range(N_EPISODES)}),
    "zeroed header": (_zero_header, {str(i) for i in range(N_EPISODES)}),
    "deleted runs row": (_sql("DELETE FROM runs"), {str(i) for i in range(N_EPISODES)}),
}


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def repair_damage_cases(c: Campaign, base_run: Path) -> None:
    """Row-level damage, a zeroed header and a deleted run row: repair makes export and report
    work again and loses no readable row; a second repair leaves the file alone."""
    base = thirteen_episode_run(base_run, c.root / "runs_repair" / "base")
    for name, (damage, keep) in DAMAGE.items():
        run = c.root / "runs_repair" / name.replace(" ", "_")
        shutil.copytree(base, run)
        damage(run / "results.sqlite")
        out = c.root / "o" / "repair" / name.replace(" ", "_")
        if name == "undecodable trajectory":  # export reads no trajectory; report draws them
            c.case(f"repair {name}: report before repair", ["report", str(run), "-o", str(out / "before")])
        else:
            c.case(f"repair {name}: export before repair", ["results", "export", str(run), "-f", "json",
                                                           "-o", str(out / "before.json")])
        c.case(f"repair {name}: results repair", ["results", "repair", str(run)], expect="accept",
               writes=(str(run),))

        def exported(o: Path = out, k: set[str] = keep) -> bool:
            doc = json.loads((o / "after.json").read_text())
            return {e["episode_id"] for e in doc["episodes"]} == k
        c.case(f"repair {name}: export after repair", ["results", "export", str(run), "-f", "json",
                                                      "-o", str(out / "after.json")],
               expect="accept", check=exported)
        c.case(f"repair {name}: report after repair", ["report", str(run), "-o", str(out / "report")],
               expect="accept")
        before = _digest(run / "results.sqlite")
        backups = sorted(p.name for p in run.iterdir())

        def untouched(r: Path = run, d: str = before, b: list[str] = backups) -> bool:
            return _digest(r / "results.sqlite") == d and sorted(p.name for p in r.iterdir()) == b
        c.case(f"repair {name}: second repair leaves it", ["results", "repair", str(run)], expect="accept",
               check=untouched, writes=(str(run),))
    run = c.root / "runs_repair" / "healthy"
    shutil.copytree(base, run)
    before = _digest(run / "results.sqlite")

    def healthy_untouched() -> bool:
        return _digest(run / "results.sqlite") == before and not any(
            p.name.startswith("results.sqlite.corrupt") for p in run.iterdir())
    c.case("repair healthy database: untouched", ["results", "repair", str(run)], expect="accept",
           check=healthy_untouched, writes=(str(run),))
