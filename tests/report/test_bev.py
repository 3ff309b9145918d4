"""Bird's-eye-view drawing: picture size, content and axes convention."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
from typer.testing import CliRunner

import navbench.cli.scenes  # noqa: F401  (registers ``scene show``)
from navbench.cli._app import app
from navbench.report.bev import draw_scene, save_scene_png
from navbench.scene import save
from tests.conftest import two_room_scene


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_save_scene_png_has_requested_pixel_size_and_content(tmp_path: Path) -> None:
    p = save_scene_png(two_room_scene(), tmp_path / "s.png", dpi=50, size=6.0)
    assert _png_size(p) == (300, 300)
    import matplotlib.image as mpimg

    img = mpimg.imread(p)[..., :3]
    assert img.std() > 0.05  # not blank
    dark = (img.max(axis=2) < 0.3).mean()  # wall pixels (#333333)
    assert dark > 0.001
    assert not list(tmp_path.glob(".*tmp*"))  # atomic write leaves no temp files


def test_axes_are_east_right_north_up(tmp_path: Path) -> None:
    from matplotlib.figure import Figure

    ax = Figure().add_subplot(1, 1, 1)
    draw_scene(ax, two_room_scene(), margin=0.5)
    x0, x1 = ax.get_xlim()
    z_bottom, z_top = ax.get_ylim()
    assert (x0, x1) == (-0.5, 8.5)  # rooms span x in [0, 8]; east to the right
    assert (z_bottom, z_top) == (0.5, -4.5)  # z in [-4, 0], inverted: north (-Z) on top
    assert ax.get_aspect() == 1.0


def test_scene_show_cli(tmp_path: Path) -> None:
    src = save(two_room_scene(), tmp_path / "scene.json")
    r = CliRunner().invoke(app, ["scene", "show", str(src), "-o", str(tmp_path / "out.png"),
                                 "--dpi", "40", "--size", "5"])
    assert r.exit_code == 0, r.output
    assert _png_size(tmp_path / "out.png") == (200, 200)
    r = CliRunner().invoke(app, ["scene", "show", str(src)])  # default: next to the scene
    assert r.exit_code == 0 and (tmp_path / "scene.png").stat().st_size > 1000
    assert _png_size(tmp_path / "scene.png") == (1000, 1000)  # defaults: 10 in x 100 dpi


def test_pixels_show_the_walls_and_rooms_where_they_are() -> None:
    """Colours read back at hand-picked world points of the two-room fixture."""
    from navbench.report.bev import render_scene_figure

    fig = render_scene_figure(two_room_scene(), size=6.0, dpi=100, labels=False)
    fig.canvas.draw()
    img = np.asarray(fig.canvas.buffer_rgba())[:, :, :3]
    ax = fig.axes[0]

    def colour(x: float, z: float) -> tuple[int, ...]:
        px, py = ax.transData.transform((x, z))
        return tuple(int(v) for v in img[img.shape[0] - round(float(py)), round(float(px))])

    assert colour(4.0, -0.5) == (0x33, 0x33, 0x33)  # wall w0 (x = 4, z in [-1.5, 0])
    assert colour(4.0, -3.5) == (0x33, 0x33, 0x33)  # wall w1 (z in [-4, -2.5])
    assert colour(3.0, -3.0) == (0xFB, 0xD3, 0xC0)  # open kitchen floor (room r0)
    assert colour(4.0, -2.0) != (0x33, 0x33, 0x33)  # the door gap is not a wall
