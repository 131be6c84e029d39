"""Pseudo-harmonic action translation (Ganzfried & Sandholm 2013)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamesolve_nlth.betting.translation import pseudo_harmonic, threshold, translate


def test_maps_the_endpoints_to_themselves():
    assert pseudo_harmonic(0.5, 1.0, 0.5) == 1.0 and pseudo_harmonic(0.5, 1.0, 1.0) == 0.0


@pytest.mark.parametrize(
    "a, b, x, expected",
    [
        (0.0, 1.0, 0.5, 1 / 3),  # (1 - x) / (1 + x)
        (0.5, 1.0, 0.75, 3 / 7),  # 0.25 * 1.5 / (0.5 * 1.75)
        (1.0, 2.0, 1.5, 0.4),  # 0.5 * 2 / (1 * 2.5)
        (0.25, 1.0, 0.5, 5 / 9),  # 0.5 * 1.25 / (0.75 * 1.5)
    ],
)
def test_formula_values(a, b, x, expected):
    assert pseudo_harmonic(a, b, x) == pytest.approx(expected)


@given(st.floats(0.01, 5), st.floats(0.01, 5), st.floats(0, 1), st.floats(0, 1))
def test_monotone_decreasing_between_the_sizes(a, width, u, v):
    b = a + width
    x, y = sorted((a + u * width, a + v * width))
    assert pseudo_harmonic(a, b, x) >= pseudo_harmonic(a, b, y)


@given(st.floats(0.01, 5), st.floats(0.01, 5))
def test_deterministic_switch_point_is_where_f_is_one_half(a, width):
    b = a + width
    assert pseudo_harmonic(a, b, threshold(a, b)) == pytest.approx(0.5)


def test_deterministic_mode_picks_the_nearer_size_by_the_formula():
    sizes = [0.5, 1.0, 2.0]
    assert translate(0.70, sizes) == 0  # f = 0.25*... > 1/2: maps down
    assert translate(0.80, sizes) == 1  # threshold(0.5, 1) = 2/3.5 = 0.714...
    assert translate(0.1, sizes) == 0 and translate(5.0, sizes) == 2 and translate(1.0, sizes) == 1


def test_randomised_mode_matches_the_probability():
    rng = np.random.default_rng(0)
    picks = [translate(0.75, [0.5, 1.0], rng) for _ in range(20_000)]
    assert picks.count(0) / len(picks) == pytest.approx(3 / 7, abs=0.015)
