"""Exports of scenes to other tools' formats (habitat-sim scene datasets with textured GLBs)."""
