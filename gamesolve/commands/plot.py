"""``gamesolve plot INPUT... --out FILE.png|FILE.html``: figures of solves and matches."""

from __future__ import annotations

from pathlib import Path

import click

from gamesolve.cli_params import POSITIVE_FLOAT
from gamesolve.errors import InputError
from gamesolve.plugins import HOST_KEY

KINDS = ("auto", "exploitability", "training", "match", "strategy")


@click.command("plot")
@click.argument("inputs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--out", "out", required=True, type=click.Path(path_type=Path),
              help="FILE.png (matplotlib: the plot extra) or FILE.html (one self-contained file: inline SVG, no network).")
@click.option("--kind", type=click.Choice(KINDS), default="auto", show_default=True,
              help="exploitability: stores of exactly solved games; training: any solve's store; match: "
                   "`match --json` output files; strategy: a blueprint (nlth: the preflop chart). auto: match "
                   "for files, exploitability for stores that recorded it, else training.")
@click.option("--openspiel", "openspiel_algo", type=click.Choice(("cfr", "cfr+", "mccfr")), default=None,
              help="Add open-spiel's curve for the stores' game (exploitability figures; needs open-spiel).")
@click.option("--openspiel-seconds", type=POSITIVE_FLOAT, default=60.0, show_default=True,
              help="Solver-time budget of the open-spiel run.")
@click.option("--title", default=None, help="Figure title.")
@click.pass_context
def plot_command(ctx, inputs, out, kind, openspiel_algo, openspiel_seconds, title):
    """Plot training curves (exploitability vs time and iterations, or hold'em training
    progress) of solve stores, match results with confidence intervals, or a blueprint's
    strategy chart."""
    from gamesolve.plot import sources as S

    suffix = out.suffix.lower()
    if suffix not in (".png", ".html"):
        raise InputError(f"--out must end in .png or .html, got {out.name!r}")
    if suffix == ".png":
        _require_matplotlib()
    for path in inputs:
        if not path.exists():
            raise InputError(f"no such file or store: {path}")
    if kind == "auto":
        kind = "match" if all(p.is_file() for p in inputs) else None
    try:
        if kind == "match":
            figure = S.match_figure([(S.nice_label(p), S.read_match_json(p)) for p in inputs])
        elif kind == "strategy":
            figure = _strategy_figure(ctx.meta[HOST_KEY](), inputs)
        else:
            if any(p.is_file() for p in inputs):
                raise InputError("mix of files and stores: plot match results (files) and stores separately")
            stores = S.load_series(list(inputs))
            if kind is None:
                kind = "exploitability" if all(S.has_exploitability(s) for _, s in stores) else "training"
            if kind == "exploitability":
                extra = _openspiel(stores, openspiel_algo, openspiel_seconds) if openspiel_algo else []
                figure = S.exploitability_figure(stores, extra)
            else:
                if openspiel_algo:
                    raise InputError("--openspiel adds a curve to exploitability figures only")
                figure = S.training_figure(stores)
    except (S.PlotError, ValueError) as exc:
        raise InputError(str(exc)) from None
    if title:
        figure.title = title
    if suffix == ".png":
        from gamesolve.plot.render_png import render_png

        render_png(figure, out)
    else:
        from gamesolve.plot.render_html import render_html

        render_html(figure, out)
    click.echo(f"wrote {out} ({kind}: {len(figure.panels)} panel{'s' if len(figure.panels) != 1 else ''})")


def _require_matplotlib() -> None:
    """PNG needs matplotlib, an optional dependency (``.[plot]``: it adds about 17 s and 100 MB
    to an install, and README command 1 needs neither); checked before any figure is made."""
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        raise InputError("a PNG needs matplotlib, which is not installed: pip install -e '.[plot]' "
                         "(or write --out FILE.html, which needs nothing more)")


def _strategy_figure(host, inputs):
    if len(inputs) != 1:
        raise InputError("a strategy chart takes one store")
    figure = host.pm.hook.gamesolve_strategy_chart(path=inputs[0])
    if figure is None:
        raise InputError(f"no plugin draws a strategy chart for {inputs[0]} (nlth blueprints: the preflop chart)")
    return figure


def _openspiel(stores, algo: str, seconds: float):
    from gamesolve.plot.openspiel_curve import openspiel_curve
    from gamesolve.progress import BarProgress

    games = {(s["attrs"].get("game"), int(s["attrs"].get("params", {}).get("players", 2))) for _, s in stores}
    if len(games) != 1:
        raise InputError(f"--openspiel needs stores of one game, got {sorted(games)}")
    (game, players), = games
    iterations = int(max(s["iteration"][-1] for _, s in stores))
    with BarProgress() as progress:
        progress.note(f"open-spiel {algo} on {game} ({players} players): up to {iterations:,} iterations or {seconds:g} s")
        try:
            curve = openspiel_curve(game, players, algo, iterations, seconds, progress=progress)
        except ImportError:
            raise InputError("--openspiel needs open-spiel: pip install open-spiel") from None
    return [(f"open-spiel {algo}", curve)]
