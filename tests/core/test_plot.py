"""`gamesolve plot` renders every kind of figure to PNG and to one self-contained HTML file."""

from __future__ import annotations


import pytest
from click.testing import CliRunner

from gamesolve.cli import cli
from gamesolve.plot.figures import Bar, BarPanel, Figure, GridPanel, LinePanel, Series
from gamesolve.plot.render_html import render_html
from gamesolve.plot.render_png import render_png
from gamesolve.plot.sources import match_figure
from tests.command_output import last_json


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture(scope="module")
def stores(tmp_path_factory):
    root = tmp_path_factory.mktemp("stores")
    for algo, extra in (("cfr+", ["--iterations", "200"]), ("dcfr", ["--iterations", "200"]),
                        ("mccfr-p", ["--iterations", "200000"])):  # fmt: skip
        result = run("solve", "--game", "kuhn", "--algo", algo, *extra, "--out", root / algo, "--json")
        assert result.exit_code == 0, result.output
    return root


def assert_png(path):
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000


def assert_html(path, *words):
    text = path.read_text()
    assert text.startswith("<!DOCTYPE html>") and "<svg" in text and "<script>" in text
    assert "http://" not in text.replace("http://www.w3.org/2000/svg", "") and "https://" not in text  # no CDN
    for word in words:
        assert word in text


def test_exploitability_of_several_stores_with_open_spiels_curve(stores, tmp_path):
    pytest.importorskip("pyspiel")
    out = tmp_path / "ex.png"
    result = run("plot", stores / "cfr+", stores / "dcfr", stores / "mccfr-p", "--openspiel", "cfr+",
                 "--openspiel-seconds", "2", "--out", out)
    assert result.exit_code == 0, result.output
    assert "exploitability: 2 panels" in result.output
    assert_png(out)
    html = tmp_path / "ex.html"
    assert run("plot", stores / "cfr+", stores / "mccfr-p", "--out", html).exit_code == 0
    assert_html(html, "against iterations", "cfr+ (cfr+)", "mccfr-p (mccfr-p)")


def test_training_curves(stores, tmp_path):
    for name in ("tr.png", "tr.html"):
        result = run("plot", stores / "mccfr-p", "--kind", "training", "--out", tmp_path / name)
        assert result.exit_code == 0, result.output
    assert_png(tmp_path / "tr.png")
    assert_html(tmp_path / "tr.html", "infoset-actions", "resident memory")


def test_match_results_with_confidence_intervals(stores, tmp_path):
    files = []
    for seed in (1, 2):
        result = run("match", "--game", "kuhn", "--agents", f"policy:store={stores / 'cfr+'},policy:store={stores / 'dcfr'}",
                     "--hands", "200", "--seed", seed, "--aivat", "--json")
        assert result.exit_code == 0, result.output
        path = tmp_path / f"match-{seed}.json"
        path.write_text(result.output)  # the JSON object is the last line
        files.append(path)
    assert run("plot", *files, "--out", tmp_path / "m.png").exit_code == 0
    assert_png(tmp_path / "m.png")
    assert run("plot", *files, "--out", tmp_path / "m.html").exit_code == 0
    assert_html(tmp_path / "m.html", "AIVAT match-1", "raw match-2")
    figure = match_figure([("m", last_json(files[0].read_text()))])
    bars = figure.panels[0].bars
    assert {b.label for b in bars} == {"raw", "AIVAT"} and all(b.low < b.value < b.high for b in bars)


def test_grid_panels_render_to_both_formats(tmp_path):
    values = [[(r * 13 + c) / 168 for c in range(13)] for r in range(13)]
    text = [[f"{v * 100:.0f}" for v in row] for row in values]
    figure = Figure("grid", [GridPanel("p", list("AKQJT98765432"), list("AKQJT98765432"), values, text, text)])
    render_png(figure, tmp_path / "g.png")
    render_html(figure, tmp_path / "g.html")
    assert_png(tmp_path / "g.png")
    assert_html(tmp_path / "g.html", "<rect")


def test_renderers_accept_empty_and_awkward_data(tmp_path):
    figure = Figure("edge cases", [
        LinePanel("no points", "x", "y", [Series("empty", [], [])], xlog=True, ylog=True),
        LinePanel("nan and zero", "x", "y", [Series("s", [0, 1, 2], [float("nan"), 0.0, 1.0])], xlog=True, ylog=True),
        BarPanel("negative", "mbb/g", [Bar("a", "raw", -5.0, -9.0, -1.0), Bar("b", "raw", 3.0, 1.0, 5.0)]),
    ])  # fmt: skip
    render_png(figure, tmp_path / "e.png")
    render_html(figure, tmp_path / "e.html")
    assert_png(tmp_path / "e.png")


def test_bad_input_is_one_line_and_exit_status_2(stores, tmp_path):
    for args, message in (
        ((stores / "cfr+", "--out", tmp_path / "x.svg"), "must end in .png or .html"),
        ((tmp_path / "missing", "--out", tmp_path / "x.png"), "no such file or store"),
        ((stores / "mccfr-p", "--kind", "training", "--openspiel", "cfr", "--out", tmp_path / "x.png"), "exploitability figures only"),
        ((stores, "--out", tmp_path / "x.png"), "no training metrics"),
        ((stores / "cfr+", "--kind", "strategy", "--out", tmp_path / "x.png"), "no plugin draws a strategy chart"),
    ):
        (tmp_path / "junk.txt").write_text("not json")
        result = CliRunner().invoke(cli, ["plot", *map(str, args)])
        assert result.exit_code == 2, result.output
        assert message in result.output and "Traceback" not in result.output
    result = CliRunner().invoke(cli, ["plot", str(tmp_path / "junk.txt"), "--out", str(tmp_path / "x.png")])
    assert result.exit_code == 2 and "not the output of `gamesolve match --json`" in result.output


def test_a_png_without_matplotlib_names_the_extra_and_html_still_works(stores, tmp_path, monkeypatch):
    """matplotlib is the optional `plot` extra (README command 1 installs without it)."""
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if it were not installed
    result = CliRunner().invoke(cli, ["plot", str(stores / "cfr+"), "--out", str(tmp_path / "x.png")])
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "needs matplotlib" in result.output and ".[plot]" in result.output
    assert not (tmp_path / "x.png").exists()
    assert run("plot", stores / "cfr+", "--out", tmp_path / "x.html").exit_code == 0
    assert_html(tmp_path / "x.html")
