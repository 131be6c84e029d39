"""``gamesolve abstraction ...``: build card abstractions and report their quality.

:func:`abstraction_group` returns the click group; ``commands.py`` adds it to the root CLI.
Other NLTH modules may add commands to the same group (e.g. ``info`` for the action
abstraction) with :func:`abstraction_group().add_command <click.Group.add_command>`.
"""

from __future__ import annotations

import resource
import time

import click

from gamesolve import json_report

from .presets import PRESETS, ROUND_NAMES

_GROUP: click.Group | None = None


def _preset_option(f):
    return click.option(
        "--preset",
        "preset_name",
        type=click.Choice(sorted(PRESETS)),
        default="tiny",
        show_default=True,
        help="card abstraction preset (bucket counts and fitting sizes)",
    )(f)


def _cache_option(f):
    return click.option(
        "--cache-dir",
        type=click.Path(file_okay=False),
        default=None,
        help="cache root (default $GAMESOLVE_CACHE_DIR or ~/.cache/gamesolve); tables go to <root>/abstraction/<hash>/",
    )(f)


def _quality_table(ab) -> "rich.table.Table":  # noqa: F821
    from rich.table import Table

    q = ab.quality
    table = Table(
        title=f"card abstraction {ab.attrs['hash']} (buckets {'/'.join(map(str, ab.num_buckets))})",
        caption="eq. std: mean within-bucket std of equity; EMD: mean EMD to the bucket centroid "
        "(turn: on the fit sample); pct: an equity-percentile abstraction of the same size",
    )
    for col in ("round", "buckets", "hands", "eq. std", "pct eq. std", "EMD", "pct EMD"):
        table.add_column(col, justify="right")

    def f(x):
        return "" if x is None else f"{x:.4f}"

    for name in ROUND_NAMES:
        r = q.get(name, {})
        emd = r.get("emd")
        pemd = r.get("percentile_emd", r.get("percentile_emd_fit_sample"))
        if name == "turn":  # the percentile baseline's EMD is measured on the fit sample
            emd, pemd = r.get("emd_fit_sample"), r.get("percentile_emd_fit_sample")
        table.add_row(
            name,
            str(r.get("buckets", "")),
            f"{r.get('hands', 0):,}",
            "lossless" if r.get("lossless") else f(r.get("equity_std")),
            f(r.get("percentile_equity_std")),
            f(emd),
            f(pemd),
        )
    return table


def abstraction_group() -> click.Group:
    """The ``abstraction`` click group (one instance per process, so others can add to it)."""
    global _GROUP
    if _GROUP is not None:
        return _GROUP

    @click.group("abstraction")
    def group():
        """NLTH abstractions: card buckets (build, quality)."""

    @group.command("build")
    @_preset_option
    @_cache_option
    @click.option("--threads", type=click.IntRange(1), default=None, help="numba threads (default: all cores)")
    @click.option("--force", is_flag=True, help="rebuild even if the cache holds these tables")
    @click.option("--ray", "ray_address", is_flag=False, flag_value="local", default=None, metavar="[ADDRESS|local]",
                  help="compute the turn and flop hands on a Ray cluster's workers (docs/distributed.md); the same tables")
    @click.option("--workers", type=click.IntRange(1, 4096), default=2, help="Ray workers (with --ray)")
    @click.option("--json", "as_json", is_flag=True, help="print one JSON object as the last line")
    @click.option("--quiet", is_flag=True, help="no progress bars")
    def build(preset_name, cache_dir, threads, force, ray_address, workers, as_json, quiet):
        """Build the card abstraction of a preset (or reuse the cached one)."""
        from gamesolve.progress import BarProgress

        if ray_address is not None:
            from gamesolve.errors import InputError, UserError
            from gamesolve.ray_cluster import require_ray

            try:
                require_ray()
            except UserError as exc:
                raise InputError(str(exc)) from None

        from .cache import abstraction_path
        from .card_abstraction import _cached, build_card_abstraction
        from .presets import preset

        params = preset(preset_name)
        path = abstraction_path(params, cache_dir)
        cached = _cached(path) and not force
        t0 = time.perf_counter()
        with BarProgress(quiet=quiet or as_json) as progress:
            ab = build_card_abstraction(params, cache_dir=cache_dir, threads=threads, progress=progress, force=force,
                                        ray=ray_address, workers=workers)  # fmt: skip
        seconds = time.perf_counter() - t0
        peak_gb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
        result = {
            "preset": preset_name,
            "path": str(ab.path),
            "hash": ab.attrs["hash"],
            "cached": cached,
            "seconds": round(seconds, 2),
            "build_seconds": round(float(ab.attrs["build_seconds"]), 2),
            "peak_rss_gb": round(peak_gb, 3),
            "num_buckets": list(ab.num_buckets),
            "quality": ab.quality,
        }
        if as_json:
            click.echo(json_report.dumps(result))
        else:
            from rich.console import Console

            what = "reused" if cached else "built"
            click.echo(f"{what} {ab.path} in {seconds:.1f} s (build took {ab.attrs['build_seconds']:.1f} s, peak RSS {peak_gb:.2f} GB)")
            Console().print(_quality_table(ab))

    @group.command("quality")
    @_preset_option
    @_cache_option
    @click.option("--build", "build_missing", is_flag=True, help="build the tables if they are not cached")
    @click.option("--json", "as_json", is_flag=True, help="print one JSON object as the last line")
    def quality(preset_name, cache_dir, build_missing, as_json):
        """Abstraction quality per round, against an equity-percentile abstraction.

        equity std: mean within-bucket standard deviation of equity vs a random hand;
        EMD error: mean earth mover's distance from a hand's next-round bucket histogram to
        its cluster centroid (flop: over all hands; turn: over the k-means fit sample).
        """
        from gamesolve.progress import BarProgress

        from .cache import abstraction_path
        from .card_abstraction import build_card_abstraction, load_card_abstraction
        from .presets import preset

        params = preset(preset_name)
        path = abstraction_path(params, cache_dir)
        if path.exists():
            ab = load_card_abstraction(path)
        elif build_missing:
            with BarProgress(quiet=as_json) as progress:
                ab = build_card_abstraction(params, cache_dir=cache_dir, progress=progress)
        else:
            from gamesolve.errors import InputError

            raise InputError(
                f"the {preset_name!r} card abstraction is not built (no {path}); "
                f"run `gamesolve abstraction build --preset {preset_name}` or pass --build"
            )
        if as_json:
            click.echo(json_report.dumps({"preset": preset_name, "hash": ab.attrs["hash"], "quality": ab.quality}))
        else:
            from rich.console import Console

            Console().print(_quality_table(ab))

    _GROUP = group
    return group


if __name__ == "__main__":  # python -m gamesolve_nlth.abstraction.cli build --preset tiny
    abstraction_group()(prog_name="gamesolve abstraction")
