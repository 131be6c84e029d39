"""--json reports are strict JSON: missing statistics are null, numpy values plain numbers."""

import json
import math
from pathlib import Path

import numpy as np

from gamesolve.json_report import dumps, number


def test_non_finite_numbers_are_null_and_numpy_values_and_paths_plain():
    text = dumps({"se": math.nan, "big": math.inf, "x": np.float32(1.5), "n": np.int64(3), "v": np.array([1.0, np.nan]),
                  "path": Path("/tmp/a"), "nested": [(math.nan,)]})  # fmt: skip
    assert json.loads(text) == {"se": None, "big": None, "x": 1.5, "n": 3, "v": [1.0, None], "path": "/tmp/a",
                                "nested": [[None]]}  # fmt: skip


def test_a_missing_number_is_n_a_at_the_specs_width():
    assert number(math.nan, ">10.2f") == "       n/a"
    assert number(2.5, ">+8.1f") == "    +2.5"
    assert number(math.nan, ".1f") == "n/a"
