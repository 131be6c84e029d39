"""`gamesolve bench cfr`: gamesolve and open-spiel timed in alternating rounds, medians reported."""

import statistics

import pytest

from gamesolve.bench import bench_cfr
from gamesolve_kuhn import KuhnGame

pyspiel = pytest.importorskip("pyspiel")
pytestmark = pytest.mark.oracle


def test_bench_alternates_rounds_and_reports_the_median_ratio(host):
    result = bench_cfr(KuhnGame(2), iterations=60, rounds=3, pm=host.pm)
    assert result["rounds"] == 3 and len(result["speedup_by_round"]) == 3
    assert result["speedup"] == statistics.median(result["speedup_by_round"])
    # Both gamesolve solvers run exactly the iterations asked (their exploitability is taken there).
    assert result["gamesolve_iterations"] == 60 and result["vcfr_iterations"] == 60
    assert result["openspiel_iterations"] >= 1 + 3 * 2
    assert result["gamesolve_exploitability"] < 0.01 and result["vcfr_exploitability"] < 0.01
