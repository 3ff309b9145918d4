"""Frames → GIF / MP4 / PNG folder (imageio; MP4 needs the ``ffmpeg`` program or imageio-ffmpeg)."""

from __future__ import annotations

import functools
import shutil
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from navbench.errors import ConfigError, MissingDependencyError
from navbench.io import atomic_write_with


def depth_to_rgb(depth: np.ndarray, max_depth: float = 10.0) -> np.ndarray:
    """Grey-scale visualisation of metric depth (near = bright, 0 / far = black), uint8 (H,W,3)."""
    d = np.clip(np.asarray(depth, float) / max_depth, 0.0, 1.0)
    v = np.where(np.asarray(depth) > 0, (1.0 - d) * 255.0, 0.0).astype(np.uint8)
    return np.repeat(v[..., None], 3, axis=2)


def check_output(path: str | Path) -> None:
    """Raise before any work if ``path`` cannot be written (bad suffix, MP4 without ffmpeg)."""
    import importlib.util

    suffix = Path(path).suffix.lower()
    if suffix not in ("", ".gif", ".mp4"):
        raise ConfigError(f"{path}: output must end in .gif or .mp4, or be a folder (no suffix)")
    if suffix == ".mp4" and importlib.util.find_spec("imageio_ffmpeg") is None \
            and shutil.which("ffmpeg") is None:
        raise MissingDependencyError(
            f"{path}: writing MP4 needs ffmpeg (`apt-get install ffmpeg` or "
            "`pip install imageio-ffmpeg`); write a .gif or a frame folder instead")


def _write_png(tmp: Path, frame: np.ndarray) -> None:
    import imageio.v2 as imageio

    imageio.imwrite(tmp, frame, format="png")


def write_video(frames: Sequence[np.ndarray], path: str | Path, fps: float = 10.0) -> Path:
    """Write uint8 (H,W,3) frames to ``.gif``, ``.mp4`` or, for a path without suffix, a folder
    of ``frame_00000.png`` files. Files are written atomically."""
    import imageio.v2 as imageio

    path = Path(path)
    if not frames:
        raise ConfigError("no frames to write")
    suffix = path.suffix.lower()
    if suffix == "":
        path.mkdir(parents=True, exist_ok=True)
        for i, f in enumerate(frames):
            atomic_write_with(path / f"frame_{i:05d}.png",
                              functools.partial(_write_png, frame=f))
        return path
    if suffix == ".gif":
        atomic_write_with(path, lambda tmp: imageio.mimsave(
            tmp, list(frames), format="gif", duration=1000.0 / fps, loop=0))
        return path
    if suffix == ".mp4":
        import importlib.util

        if importlib.util.find_spec("imageio_ffmpeg") is None and shutil.which("ffmpeg") is None:
            raise MissingDependencyError(
                f"{path}: writing MP4 needs ffmpeg (`apt-get install ffmpeg` or "
                "`pip install imageio-ffmpeg`); write a .gif or a frame folder instead")
        if importlib.util.find_spec("imageio_ffmpeg") is not None:
            atomic_write_with(path, lambda tmp: imageio.mimsave(tmp, list(frames), fps=fps,
                                                                format="FFMPEG"))
        else:
            _ffmpeg_pipe(frames, path, fps)
        return path
    raise ConfigError(f"{path}: output must end in .gif or .mp4, or be a folder (no suffix)")


def _ffmpeg_pipe(frames: Sequence[np.ndarray], path: Path, fps: float) -> None:
    import subprocess

    h, w = frames[0].shape[:2]

    def run(tmp: Path) -> None:
        cmd = ["ffmpeg", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24",
               "-s", f"{w}x{h}", "-r", str(fps), "-i", "-", "-pix_fmt", "yuv420p",
               "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-f", "mp4", str(tmp)]
        data = b"".join(np.ascontiguousarray(f, np.uint8).tobytes() for f in frames)
        subprocess.run(cmd, input=data, check=True)

    atomic_write_with(path, run)
