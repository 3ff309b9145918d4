"""Procedural scene generators (the embedded default scene source).

- :mod:`navbench.scene.procgen.indoor`: furnished one-storey houses
  (``generate_house(seed, n_rooms, settings)``), built from :mod:`.layout` (footprint, room
  partition, room types), :mod:`.openings` (doors, entrance, walls), :mod:`.catalog` (object
  categories with real sizes) and :mod:`.furnish` (placement).
"""
