"""navbench sim replay DATASET EPISODE_ID: the oracle follows the episode and a GIF is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from navbench.cli import main
from navbench.episodes.dataset import DatasetSettings, build_dataset
from navbench.scene.procgen.indoor import generate_house


def test_replay_a_dataset_episode(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    build_dataset([generate_house(3, 3)], tmp_path / "ds", tasks=["conditional"], split="eval=1.0",
                  seed=0, settings=DatasetSettings(episodes_per_scene=2))
    out = tmp_path / "run.gif"
    with pytest.raises(SystemExit) as e:
        main(["sim", "replay", str(tmp_path / "ds"), "0", "-o", str(out), "--width", "64",
              "--height", "48", "--max-time", "60"])
    assert e.value.code == 0
    text = capsys.readouterr().out
    assert "label success" in text  # the oracle reaches the goal it was built for
    assert out.read_bytes()[:6] in (b"GIF87a", b"GIF89a")
    with pytest.raises(SystemExit) as e:  # an unknown episode is a clear error, exit 2
        main(["sim", "replay", str(tmp_path / "ds"), "99", "-o", str(tmp_path / "x.gif")])
    assert e.value.code == 2 and "no episode '99'" in capsys.readouterr().err
