"""Blueprint presets: an action abstraction, a card abstraction and MCCFR schedules.

Schedules follow the paper's proportions (discount every 10 minutes for the first 400,
pruning after 200, snapshots every 200 minutes after 800, of an 8-day run), shrunk to the
length of the run each preset is meant for.
"""

from __future__ import annotations

import attrs

from gamesolve_nlth.abstraction.presets import PRESETS as CARD_PRESETS
from gamesolve_nlth.abstraction.presets import CardAbstractionParams

# The Pluribus supplement: "There are a total of 664,845,654 action sequences in the blueprint
# action abstraction. However, only 413,507,309 of them were ever encountered during training."
PAPER_ACTION_SEQUENCES = 664_845_654
PAPER_REACHED_SEQUENCES = 413_507_309

# The card abstraction of each blueprint preset is the card preset of the same name, so
# `gamesolve abstraction build --preset P` builds what `gamesolve solve --preset P` needs.


@attrs.frozen
class BlueprintPreset:
    name: str
    actions: str  # action abstraction preset
    cards: CardAbstractionParams
    minutes: float  # default training time
    mccfr: dict  # MCCFR option defaults
    description: str = ""
    # Fraction of the later rounds' action sequences a run reaches (lazy allocation; the
    # memory estimate, blueprint/memory.py): 1 = all, an upper bound.
    reached: float = 1.0


PRESETS: dict[str, BlueprintPreset] = {
    "tiny": BlueprintPreset(
        "tiny",
        actions="tiny",
        cards=CARD_PRESETS["tiny"],
        # A minute and a half: the tree without open limps (234,455 nodes) raises AA, KK, QQ
        # and AKs first in from every seat after 7.2 M iterations of one thread; with the
        # kernels compiled while the card abstraction is built (gamesolve/solve/warm.py) two
        # threads make about 14 M in 90 s, what 2 minutes made when they compiled inside them
        # (docs/blueprint.md).
        minutes=1.5,
        # A run of minutes: Linear CFR's discount throughout (the paper stops at 400 of 11,520
        # minutes), and the first round's average from exact UPDATE-STRATEGY passes every
        # 50,000 iterations (22 ms each): the paper's sampled pass every 10,000 gave AA under
        # the gun two or three samples in 3 minutes (docs/blueprint.md). Pruning's threshold
        # and floor are the paper's shrunk 100x, as its times are: regrets of a 3-minute run
        # reach tens of millions, never the paper's -300,000,000 (15% fewer processor seconds
        # per iteration by 4M iterations, docs/benchmarks.md).
        mccfr={
            "discount_interval": "5s",
            "lcfr_threshold": "off",
            "prune_threshold": "30s",
            "strategy_interval": "50000",
            "strategy_update": "exact",
            "snapshot_interval": "15s",
            "snapshot_start": "60s",
            "prune_below": "-3000000",
            "regret_floor": "-3100000",
        },
        description="minutes on a laptop: pot-size bets, 16 buckets per postflop round",
    ),
    "small": BlueprintPreset(
        "small",
        actions="small",
        cards=CARD_PRESETS["small"],
        minutes=60.0,
        mccfr={
            "discount_interval": "1min",
            "lcfr_threshold": "20min",
            "prune_threshold": "10min",
            "strategy_interval": "10000",
            "snapshot_interval": "5min",
            "snapshot_start": "20min",
        },
        description="an hour on 2 cores: two open sizes, 200 buckets per postflop round",
    ),
    "pluribus": BlueprintPreset(
        "pluribus",
        actions="pluribus",
        cards=CARD_PRESETS["pluribus"],
        minutes=8 * 24 * 60.0,
        mccfr={
            "discount_interval": "10min",
            "lcfr_threshold": "400min",
            "prune_threshold": "200min",
            "strategy_interval": "10000",
            "snapshot_interval": "200min",
            "snapshot_start": "800min",
        },
        description="the paper's abstraction and schedules (8 days on 64 cores; too large for this machine)",
        reached=PAPER_REACHED_SEQUENCES / PAPER_ACTION_SEQUENCES,
    ),
}


def blueprint_preset(name: str) -> BlueprintPreset:
    try:
        return PRESETS[name]
    except KeyError:
        raise ValueError(f"unknown nlth preset {name!r} (choose from {', '.join(PRESETS)})") from None
