"""Linear ratings from pairwise win rates (gamesolve.evaluate.ratings): exact data give the
ratings back, noisy data give them back within their intervals at the stated rate, and data
that cannot be put on one scale are refused or flagged."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from gamesolve.evaluate.ratings import Pairing, fit_ratings

TRUE = {"fold": -900.0, "call": -400.0, "random": -600.0, "tag": 300.0, "bp": 700.0, "search": 900.0}


def centred(values):
    mean = np.mean(list(values.values()))
    return {k: v - mean for k, v in values.items()}


def all_pairs(noise=None, se=50.0, rng=None):
    out = []
    for a, b in itertools.combinations(TRUE, 2):
        y = TRUE[a] - TRUE[b] + (0.0 if noise is None else rng.normal(0.0, se))
        out.append(Pairing(a, b, y, se))
    return out


def test_exact_win_rates_give_the_ratings_back_summing_to_zero():
    fit = fit_ratings(all_pairs(), agents=list(TRUE))
    expected = centred(TRUE)
    assert np.allclose(fit.rating, [expected[a] for a in TRUE])
    assert abs(fit.rating.sum()) < 1e-9 and fit.chi2 < 1e-12 and fit.dof == 15 - 5
    assert fit.ranked() == ["search", "bp", "tag", "call", "random", "fold"]


def test_noisy_win_rates_fall_within_the_95_percent_intervals_about_95_percent_of_the_time():
    rng = np.random.default_rng(7)
    expected = centred(TRUE)
    inside = total = 0
    for _ in range(400):
        fit = fit_ratings(all_pairs(noise=True, rng=rng), agents=list(TRUE))
        for agent in TRUE:
            lo, hi = fit.interval(agent)
            inside += lo <= expected[agent] <= hi
            total += 1
    assert 0.93 <= inside / total <= 0.97


def test_in_a_round_robin_a_rating_is_the_mean_win_rate_against_the_others():
    # The ACPC's total bankroll: precise pairings (small win rates, like fold's) weigh no more.
    rng = np.random.default_rng(3)
    results = [Pairing(a, b, rng.normal(0.0, 500.0), float(rng.choice([1.0, 1000.0]))) for a, b in itertools.combinations(TRUE, 2)]
    fit = fit_ratings(results, agents=list(TRUE))
    won = {a: [] for a in TRUE}
    for p in results:
        won[p.a].append(p.win_rate)
        won[p.b].append(-p.win_rate)
    bankroll = np.array([np.sum(won[a]) / len(TRUE) for a in TRUE])
    assert np.allclose(fit.rating, bankroll)


def test_two_measurements_of_one_pairing_count_alike_and_their_disagreement_shows():
    fit = fit_ratings([Pairing("a", "b", 100.0, 10.0), Pairing("a", "b", 300.0, 100.0)])
    assert abs((fit.rating[0] - fit.rating[1]) - 200.0) < 1e-9
    assert fit.chi2 > 100.0  # 100 from the first measurement in its 10-mbb standard error


def test_intransitive_results_show_in_the_chi_square():
    cycle = [Pairing("rock", "scissors", 500.0, 20.0), Pairing("scissors", "paper", 500.0, 20.0),
             Pairing("paper", "rock", 500.0, 20.0)]  # fmt: skip
    fit = fit_ratings(cycle)
    assert np.allclose(fit.rating, 0.0) and fit.chi2 > 100 * fit.dof


def test_agents_with_no_match_between_their_groups_are_refused():
    with pytest.raises(ValueError, match="2 groups"):
        fit_ratings([Pairing("a", "b", 1.0, 1.0), Pairing("c", "d", 1.0, 1.0)])


def test_a_pairing_without_a_positive_standard_error_is_refused():
    with pytest.raises(ValueError, match="standard error"):
        fit_ratings([Pairing("a", "b", 1.0, 0.0)])
