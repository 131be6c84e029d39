"""NLTH card abstraction: lossless preflop, potential-aware EMD buckets on the flop and turn,
equity buckets on the river; cached as zarr. See docs/abstraction.md.

>>> from gamesolve_nlth.abstraction import build_card_abstraction, preset
>>> ab = build_card_abstraction(preset("tiny"))          # doctest: +SKIP
>>> ab.bucket(3, parse_cards("AsKd Qh7c2s3d4h"))          # doctest: +SKIP
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .card_abstraction import CardAbstraction

# Names are imported on first use (PEP 562): ``gamesolve abstraction`` registers its commands
# from ``.presets`` on every ``gamesolve`` command, and importing ``.card_abstraction`` here
# built the hand evaluator's tables (compiling its kernels) for every command (issue 36).
_SOURCES = {
    "abstraction_path": ".cache",
    "cache_root": ".cache",
    "CardAbstraction": ".card_abstraction",
    "build_card_abstraction": ".card_abstraction",
    "load_card_abstraction": ".card_abstraction",
    "load_river_equity": ".card_abstraction",
    "percentile_buckets": ".card_abstraction",
    "within_bucket_std": ".card_abstraction",
    "FlopBuckets": ".per_flop",
    "buckets_for_flop": ".per_flop",
    "CANONICAL_COUNTS": ".presets",
    "PRESETS": ".presets",
    "CardAbstractionParams": ".presets",
    "preset": ".presets",
}


def __getattr__(name: str):
    if name not in _SOURCES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_SOURCES[name], __name__), name)
    globals()[name] = value
    return value


def quality_report(ab: CardAbstraction) -> dict:
    """Per-round quality figures measured when ``ab`` was built (see ``quality`` command)."""
    return dict(ab.quality)


__all__ = [
    "CANONICAL_COUNTS",
    "PRESETS",
    "CardAbstraction",
    "CardAbstractionParams",
    "FlopBuckets",
    "abstraction_path",
    "build_card_abstraction",
    "buckets_for_flop",
    "cache_root",
    "load_card_abstraction",
    "load_river_equity",
    "percentile_buckets",
    "preset",
    "quality_report",
    "within_bucket_std",
]
