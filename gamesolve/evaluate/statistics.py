"""Win-rate statistics for matches: mean, standard error and a one-tailed p-value.

No scipy at run time: the p-value uses the normal approximation to the t statistic
(``math.erfc``), which is what the number of duplicate sets in a real match warrants
(hundreds or more). With fewer than ~30 sets treat the p-value as a rough guide.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs


@attrs.frozen
class WinRate:
    """Mean of independent samples (one per duplicate set), its standard error and p-value."""

    mean: float
    stderr: float
    p_value: float
    samples: int


def one_tailed_p_value(mean: float, stderr: float) -> float:
    """P(a mean at least this large | the true mean is 0): ``0.5 * erfc(t / sqrt 2)``, ``t = mean / SE``.

    A small p-value says the mean is significantly above zero; a p-value near 1 says it is
    significantly below. Zero standard error gives 0 or 1 (or 0.5 for a mean of exactly 0).
    """
    if not stderr > 0 or not math.isfinite(stderr):
        return 0.5 if mean == 0 else (0.0 if mean > 0 else 1.0)
    return 0.5 * math.erfc(mean / stderr / math.sqrt(2.0))


def win_rate(samples: Sequence[float]) -> WinRate:
    """Mean, standard error (sample standard deviation / sqrt(n)) and one-tailed p-value."""
    n = len(samples)
    if n == 0:
        return WinRate(0.0, math.nan, math.nan, 0)
    mean = math.fsum(samples) / n
    if n < 2:
        return WinRate(mean, math.nan, math.nan, n)
    var = math.fsum((x - mean) ** 2 for x in samples) / (n - 1)
    se = math.sqrt(var / n)
    return WinRate(mean, se, one_tailed_p_value(mean, se), n)
