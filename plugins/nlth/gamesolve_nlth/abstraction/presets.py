"""Parameters of a card abstraction and the named presets.

The preflop round is always lossless (169 classes). ``*_sample`` is the number of canonical
hands k-means is *fitted* on (0 = all of them); every canonical hand is then assigned to its
nearest centroid.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, replace

# Bump when the algorithm changes so old cache folders are not reused.
ALGORITHM_VERSION = 1

#: canonical hands per round with the whole board as one set: (2,), (2,3), (2,4), (2,5)
CANONICAL_COUNTS = (169, 1_286_792, 13_960_050, 123_156_254)
ROUND_NAMES = ("preflop", "flop", "turn", "river")


@dataclass(frozen=True)
class CardAbstractionParams:
    """Everything that determines the tables (and hence the cache key)."""

    flop_buckets: int = 200
    turn_buckets: int = 200
    river_buckets: int = 200
    flop_sample: int = 50_000
    turn_sample: int = 200_000
    iters: int = 20
    tol: float = 1e-3
    seed: int = 0

    def __post_init__(self):
        for name in ("flop_buckets", "turn_buckets", "river_buckets"):
            v = getattr(self, name)
            if not 2 <= v <= 65535:
                raise ValueError(f"{name} must be in 2..65535, not {v}")
        if self.river_buckets > 1981:
            raise ValueError("river_buckets must be at most 1981 (distinct river equities)")
        for name in ("flop_sample", "turn_sample"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be >= 0 (0 = every canonical hand)")
        if self.iters < 1:
            raise ValueError("iters must be >= 1")

    @property
    def buckets(self) -> tuple[int, int, int, int]:
        return (169, self.flop_buckets, self.turn_buckets, self.river_buckets)

    def to_dict(self) -> dict:
        return asdict(self)

    def key(self) -> str:
        """Cache key: a hash of the parameters and the algorithm version."""
        blob = json.dumps({"params": self.to_dict(), "algorithm": ALGORITHM_VERSION}, sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    def with_(self, **changes) -> CardAbstractionParams:
        return replace(self, **changes)


PRESETS: dict[str, CardAbstractionParams] = {
    # ~1 minute on 2 cores: every canonical hand gets exact features; only the bucket counts
    # are small and k-means is fitted on subsamples.
    "tiny": CardAbstractionParams(
        flop_buckets=16, turn_buckets=16, river_buckets=16, flop_sample=20_000, turn_sample=50_000, iters=15
    ),
    # The blueprint's bucket counts (200 per postflop round), fitted on subsamples.
    "small": CardAbstractionParams(
        flop_buckets=200, turn_buckets=200, river_buckets=200, flop_sample=200_000, turn_sample=1_000_000, iters=20
    ),
    # The shape the papers describe, fitted on every canonical hand (see docs/abstraction.md for
    # the time and memory estimate).
    "pluribus": CardAbstractionParams(
        flop_buckets=200, turn_buckets=200, river_buckets=200, flop_sample=0, turn_sample=0, iters=30
    ),
}


def preset(name: str) -> CardAbstractionParams:
    try:
        return PRESETS[name]
    except KeyError:
        raise ValueError(f"unknown card abstraction preset {name!r}; choose from {', '.join(PRESETS)}") from None
