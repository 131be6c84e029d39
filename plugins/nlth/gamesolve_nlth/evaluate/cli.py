"""``gamesolve abstraction equity``: build the exact heads-up preflop equity table once."""

from __future__ import annotations

import time

import click


@click.command("equity")
@click.option("--cache-dir", type=click.Path(file_okay=False), default=None,
              help="cache root (default $GAMESOLVE_CACHE_DIR or ~/.cache/gamesolve)")
@click.option("--threads", type=click.IntRange(1), default=None, help="numba threads (default: all cores)")
@click.option("--force", is_flag=True, help="rebuild even if the cache holds the table")
def equity_command(cache_dir, threads, force):
    """Exact heads-up preflop equity of every hole-card pair against every other (47,008
    matchups over all 1.7 M boards; about 10 CPU minutes, once). AIVAT's preflop
    corrections and local best response's preflop win probability use it."""
    import numba

    from gamesolve.progress import BarProgress
    from gamesolve_nlth.evaluate.preflop import build_preflop_table, preflop_table, save_table, table_path

    path = table_path(cache_dir)
    if preflop_table(cache_dir) is not None and not force:
        click.echo(f"preflop equity table already built: {path}")
        return
    if threads:
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    started = time.perf_counter()
    with BarProgress() as progress:
        table = build_preflop_table(progress)
    save_table(table, cache_dir)
    click.echo(f"preflop equity table: {path} ({time.perf_counter() - started:.0f} s)")
