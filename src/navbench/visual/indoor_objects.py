"""Indoor object meshes by category: :data:`INDOOR_BUILDERS` (all 76 catalogue categories) and
:func:`build_indoor`, which falls back for unknown labels (ProcTHOR, habitat, MP3D imports) to a
builder chosen by keyword in the label, then by the box's shape — it never fails.

Builders take the object's box size ``(w, h, d)`` (m, local frame: footprint centred, bottom
at y = 0, front +Z) and a seeded generator, and return parts inside that box.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from navbench.visual import indoor_electronics as el
from navbench.visual import indoor_fixtures as fx
from navbench.visual import indoor_furniture as fu
from navbench.visual import indoor_small as sm
from navbench.visual import indoor_storage as st
from navbench.visual.compose import slab
from navbench.visual.mesh import Part

Builder = Callable[[tuple[float, float, float], np.random.Generator], list[Part]]

#: Category label → mesh builder (every label of ``scene.procgen.catalog.CATALOG``).
INDOOR_BUILDERS: dict[str, Builder] = {
    "bed": fu.bed, "nightstand": st.nightstand, "wardrobe": st.wardrobe, "dresser": st.dresser,
    "laundry basket": fx.laundry_basket, "sofa": fu.sofa, "armchair": fu.armchair,
    "coffee table": fu.coffee_table, "side table": fu.table, "tv stand": st.tv_stand,
    "bookshelf": st.bookshelf, "floor lamp": fx.lamp, "plant": fx.plant, "piano": fx.piano,
    "cabinet": st.cabinet, "ottoman": fu.ottoman, "dining table": fu.table, "chair": fu.chair,
    "sideboard": st.sideboard, "counter": st.counter, "fridge": fx.fridge, "oven": fx.oven,
    "dishwasher": fx.dishwasher, "kitchen island": st.kitchen_island, "stool": fu.stool,
    "trash can": fx.trash_can, "washing machine": fx.washing_machine, "toilet": fx.toilet,
    "sink": fx.sink, "bathtub": fx.bathtub, "shower": fx.shower, "towel rack": fx.towel_rack,
    "desk": fu.desk, "office chair": fu.office_chair, "filing cabinet": st.filing_cabinet,
    "shoe rack": st.shoe_rack, "coat rack": fu.coat_rack, "console table": fu.table,
    "bench": fu.bench, "pillow": sm.pillow, "lamp": fx.lamp, "alarm clock": el.alarm_clock,
    "book": sm.book, "tissue box": sm.tissue_box, "picture frame": sm.picture_frame, "vase": sm.vase,
    "jewelry box": sm.jewelry_box, "remote control": el.remote_control, "mug": sm.mug,
    "candle": sm.candle, "potted plant": sm.potted_plant, "tv": el.tv, "speaker": el.speaker,
    "game console": el.game_console, "fruit bowl": sm.fruit_bowl, "plate": sm.plate,
    "microwave": sm.microwave, "toaster": sm.toaster, "coffee machine": sm.coffee_machine,
    "kettle": sm.kettle, "kitchen sink": fx.kitchen_sink, "cutting board": sm.cutting_board,
    "pot": sm.pot, "laundry detergent": sm.laundry_detergent, "soap dispenser": sm.soap_dispenser,
    "cup": sm.cup, "monitor": el.monitor, "keyboard": el.keyboard, "laptop": el.laptop,
    "printer": el.printer,
}

#: Keywords of foreign labels → a builder (first match wins; checked in order).
_KEYWORDS: tuple[tuple[str, str], ...] = (
    ("office chair", "office chair"), ("armchair", "armchair"), ("couch", "sofa"), ("sofa", "sofa"),
    ("chair", "chair"), ("stool", "stool"), ("bench", "bench"), ("ottoman", "ottoman"),
    ("bed", "bed"), ("pillow", "pillow"), ("cushion", "pillow"), ("dining", "dining table"),
    ("coffee table", "coffee table"), ("desk", "desk"), ("table", "side table"),
    ("counter", "counter"), ("island", "kitchen island"), ("fridge", "fridge"),
    ("refrigerator", "fridge"), ("oven", "oven"), ("stove", "oven"), ("dishwasher", "dishwasher"),
    ("washer", "washing machine"), ("dryer", "washing machine"), ("microwave", "microwave"),
    ("toilet", "toilet"), ("bathtub", "bathtub"), ("tub", "bathtub"), ("shower", "shower"),
    ("sink", "sink"), ("towel", "towel rack"), ("wardrobe", "wardrobe"), ("closet", "wardrobe"),
    ("dresser", "dresser"), ("drawer", "dresser"), ("nightstand", "nightstand"),
    ("shelf", "bookshelf"), ("shelving", "bookshelf"), ("bookcase", "bookshelf"),
    ("cabinet", "cabinet"), ("cupboard", "cabinet"), ("sideboard", "sideboard"),
    ("floor lamp", "floor lamp"), ("lamp", "lamp"), ("light", "lamp"), ("plant", "plant"),
    ("flower", "vase"), ("vase", "vase"), ("tv", "tv"), ("television", "tv"), ("monitor", "monitor"),
    ("screen", "monitor"), ("computer", "monitor"), ("laptop", "laptop"), ("keyboard", "keyboard"),
    ("printer", "printer"), ("speaker", "speaker"), ("piano", "piano"), ("book", "book"),
    ("picture", "picture frame"), ("painting", "picture frame"), ("frame", "picture frame"),
    ("mirror", "picture frame"), ("clock", "alarm clock"), ("mug", "mug"), ("cup", "cup"),
    ("bowl", "fruit bowl"), ("plate", "plate"), ("pot", "pot"), ("pan", "pot"), ("kettle", "kettle"),
    ("toaster", "toaster"), ("coffee", "coffee machine"), ("candle", "candle"), ("bin", "trash can"),
    ("trash", "trash can"), ("garbage", "trash can"), ("basket", "laundry basket"),
    ("box", "tissue box"), ("bottle", "soap dispenser"), ("remote", "remote control"),
    ("rack", "coat rack"),
)


def _generic(size: tuple[float, float, float], rng: np.random.Generator) -> list[Part]:
    """A bevelled block (unknown objects): a body on a darker base, a lighter top."""
    w, h, d = size
    c = fu.pick(rng, ((0.95, 0.95, 0.93), (0.2, 0.22, 0.25), (0.55, 0.65, 0.7), (0.62, 0.42, 0.25)))
    body = fu.tinted("plastic", c)
    base = min(0.04, 0.1 * h)
    return [slab(-w / 2 + 0.01 * w, w / 2 - 0.01 * w, 0, base, -d / 2 + 0.01 * d, d / 2 - 0.01 * d, "plastic_dark"),
            slab(-w / 2, w / 2, base, h * 0.97, -d / 2, d / 2, body),
            slab(-w / 2 + 0.02 * w, w / 2 - 0.02 * w, h * 0.97, h, -d / 2 + 0.02 * d, d / 2 - 0.02 * d,
                 fu.tinted("plastic", tuple(min(1.0, v * 1.2) for v in c)))]


def builder_for(label: str, size: tuple[float, float, float]) -> tuple[str, Builder]:
    """The builder of a label: exact, else by keyword, else by the box's shape; with its key."""
    key = label.strip().lower().replace("_", " ")
    if key in INDOOR_BUILDERS:
        return key, INDOOR_BUILDERS[key]
    for word, target in _KEYWORDS:
        if word in key:
            return target, INDOOR_BUILDERS[target]
    w, h, d = size
    if h > 1.4 and max(w, d) > 0.6:
        return "wardrobe", INDOOR_BUILDERS["wardrobe"]
    if h < 0.25 * max(w, d) and max(w, d) > 0.6:
        return "coffee table", INDOOR_BUILDERS["coffee table"]
    return "generic", _generic


def build_indoor(label: str, size: tuple[float, float, float], rng: np.random.Generator) -> list[Part]:
    """Parts of an indoor object of ``label`` sized to its box ``(w, h, d)`` (m); never fails."""
    s = tuple(max(float(v), 0.02) for v in size)
    _, fn = builder_for(label, s)  # type: ignore[arg-type]
    return fn(s, rng)  # type: ignore[arg-type]
