"""``gamesolve plugins``: the loaded plugins and the hooks each implements."""

from __future__ import annotations

import click

from gamesolve.commands.support import emit, host_from
from gamesolve.plugins import describe_plugins


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def plugins(ctx, as_json):
    """List loaded plugins and the hooks each implements (and any that failed to load)."""
    host = host_from(ctx)
    rows = describe_plugins(host)
    lines = [f"{name}: {', '.join(hooks) or '-'}" for name, hooks in rows]
    lines += [f"FAILED {name}: {why}" for name, why in host.failures]
    emit({"plugins": [{"name": n, "hooks": h} for n, h in rows], "failures": host.failures}, as_json, lines)
