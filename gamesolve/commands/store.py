"""``gamesolve store check``: a store's files verified against its manifests."""

from __future__ import annotations

from pathlib import Path

import click

from gamesolve import json_report
from gamesolve.commands.support import mb, one_line
from gamesolve.errors import InputError, StoreError


@click.group()
def store():
    """Check gamesolve stores (policy stores, MCCFR checkpoints, blueprints, cached tables)."""


@store.command("check")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--quick", is_flag=True, help="Check sizes and metadata only, not every file's digest.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object as the last line of stdout.")
def store_check(path, quick, as_json):
    """Verify every file of the store at PATH against its manifests (SHA-256 digests).

    Lists each problem (a missing, truncated, altered or unexpected file; a damaged
    checkpoint marker) and exits with status 2 if there is any, 0 if the store is sound."""
    from gamesolve.store.integrity import check_store, require_store
    from gamesolve.store.outputs import describe, store_format

    try:
        require_store(path, "store")
    except StoreError as exc:
        raise InputError(one_line(exc)) from None
    index, problems = check_store(path, deep=not quick, fresh=True)
    fmt = store_format(path)
    kind = describe(fmt) if fmt else (index.root.name if not index.files else "gamesolve store")
    report = {"path": str(path), "kind": kind, "files": len(index.files), "bytes": index.total_bytes,
              "manifests": len(index.sealed), "digests_checked": not quick, "problems": problems}  # fmt: skip
    if as_json:
        click.echo(json_report.dumps(report))
    else:
        for problem in problems:
            click.echo(f"problem: {problem}")
        if not problems:
            how = "sizes and metadata checked" if quick else "every SHA-256 digest checked"
            click.echo(f"ok: {path} ({kind}): {len(index.files):,} files, {mb(index.total_bytes)}, "
                       f"{len(index.sealed):,} manifests; {how}")  # fmt: skip
    if problems:
        more = f" (and {len(problems) - 1:,} more)" if len(problems) > 1 else ""
        raise InputError(f"{path} is damaged: {problems[0]}{more}")
