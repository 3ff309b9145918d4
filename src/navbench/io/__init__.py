"""Reading and writing files safely, shared by every stage of navbench.

One module per responsibility:

- :mod:`navbench.io.atomic`: atomic writes of files and folders;
- :mod:`navbench.io.jsondoc`: the one JSON reading path (size, nesting and integer limits) and
  the canonical JSON writers;
- :mod:`navbench.io.tomldoc`: TOML configuration files within the same limits;
- :mod:`navbench.io.arrays`: numpy ``.npy`` / ``.npz`` reads with a fixed schema, never pickles;
- :mod:`navbench.io.images`: image sizes from the file header and the pixel budget checked before
  any image is decoded.

The names below are re-exported so that ``from navbench.io import read_json`` keeps working.
"""

from navbench.io.arrays import ARRAY_READ_ERRORS, MAX_ARRAY_ITEMS, ArraySpec, read_npz
from navbench.io.atomic import atomic_write_bytes, atomic_write_text, atomic_write_with, publish_dir
from navbench.io.images import DEFAULT_MAX_PIXELS, image_size, max_pixels, over_budget
from navbench.io.jsondoc import (
    MAX_INT_DIGITS,
    MAX_JSON_BYTES,
    MAX_JSON_DEPTH,
    JSONLimitError,
    check_json_depth,
    describe_read_error,
    dumps_json,
    is_plain_json,
    loads_json,
    read_json,
    write_json,
    write_json_gz,
)
from navbench.io.tomldoc import MAX_TOML_BYTES, TOMLLimitError, loads_toml, read_toml

__all__ = [
    "ARRAY_READ_ERRORS", "DEFAULT_MAX_PIXELS", "MAX_ARRAY_ITEMS", "MAX_INT_DIGITS", "MAX_JSON_BYTES",
    "MAX_JSON_DEPTH", "MAX_TOML_BYTES", "ArraySpec", "JSONLimitError", "TOMLLimitError",
    "atomic_write_bytes", "atomic_write_text", "atomic_write_with", "check_json_depth",
    "describe_read_error", "dumps_json", "image_size", "is_plain_json", "loads_json", "loads_toml",
    "max_pixels",
    "over_budget", "publish_dir", "read_json", "read_npz", "read_toml", "write_json", "write_json_gz",
]
