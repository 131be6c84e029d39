"""JSON reports (``--json``) as strict JSON: a statistic that does not exist (the standard
error of one sample, NaN in Python) is ``null``, not the ``NaN`` token that Python's json
writes and every other JSON parser (jq, JavaScript's JSON.parse) rejects; numpy scalars and
arrays are plain numbers and lists, paths strings."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any


def plain(value: Any) -> Any:
    """``value`` with non-finite floats as None and numpy values and paths as JSON types."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, Path):
        return str(value)
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):  # numpy scalars and arrays
        return plain(value.tolist())
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def dumps(value: Any, **kwargs: Any) -> str:
    """Strict JSON text of ``value`` (see the module docstring); ``kwargs`` go to :func:`json.dumps`."""
    return json.dumps(plain(value), allow_nan=False, **kwargs)


def number(value: float, spec: str, missing: str = "n/a") -> str:
    """``value`` formatted by ``spec`` (``"+12.2f"``, ``">10.2f"``), or ``missing`` right-aligned
    to the spec's width when it does not exist (NaN: e.g. the standard error of one deal)."""
    if value is not None and math.isfinite(value):
        return format(value, spec)
    width = re.match(r"[<>^=]?[+\- ]?0?(\d*)", spec).group(1)
    return missing.rjust(int(width or 0))
