"""The appearance of a Scene: object meshes, materials and textures, signs and lights.

Separate from collision geometry (``scene/`` and ``sim/``): physics stays simple, pictures get
rich. Seeded and cached; used by the simulator's sensors and by exports.
"""
