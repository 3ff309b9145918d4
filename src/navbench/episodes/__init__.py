"""Episodes: the format-neutral :class:`Episode` record and VLN-CE/habitat-lab R2R files."""

from navbench.episodes.model import Episode, Goal
from navbench.episodes.vlnce import (
    build_vocab,
    episode_from_dict,
    episode_to_dict,
    read_gt,
    read_r2r,
    tokenize,
    write_gt,
    write_r2r,
)

__all__ = [
    "Episode",
    "Goal",
    "build_vocab",
    "episode_from_dict",
    "episode_to_dict",
    "read_gt",
    "read_r2r",
    "tokenize",
    "write_gt",
    "write_r2r",
]
