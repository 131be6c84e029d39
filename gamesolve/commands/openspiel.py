"""``gamesolve export --format openspiel`` and ``gamesolve import --format openspiel``: a
stored policy of an ``openspiel:`` game as open-spiel's tabular-policy table, and back."""

from __future__ import annotations

from pathlib import Path

import click

from gamesolve.errors import InputError, StoreError, UserError

FORMATS = ("openspiel",)


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())


def _game_of(ctx, name: str, params: dict):
    from gamesolve.commands.support import host_from, make_game
    from gamesolve.openspiel import PREFIX

    if not str(name).startswith(PREFIX):
        raise InputError(f"--format openspiel is for openspiel: games (their information sets are open-spiel's); "
                         f"this policy is for {name}")  # fmt: skip
    params = {k: str(v) for k, v in (params or {}).items()}
    players = params.pop("players", None)
    return make_game(host_from(ctx), name, int(players) if players is not None else None, params)[1]


@click.command("export")
@click.option("--store", "store_path", required=True, type=click.Path(path_type=Path),
              help="Policy store (`gamesolve solve --game openspiel:NAME --out PATH`).")
@click.option("--format", "fmt", required=True, type=click.Choice(FORMATS), help="openspiel: open-spiel's TabularPolicy table, as JSON.")
@click.option("--policy", type=click.Choice(["average", "current"]), default="average", help="Which stored policy to write.")
@click.option("--out", required=True, type=click.Path(path_type=Path), help="The file to write (JSON).")
@click.option("--force", is_flag=True, help="Replace --out if it is a policy file written before.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object as the last line of stdout.")
@click.pass_context
def export_command(ctx, store_path, fmt, policy, out, force, as_json):
    """Write a stored policy for another program. openspiel: {information state: [[action,
    probability], ...]} under "policy", with the game; in Python,
    pyspiel.TabularPolicy(json.load(f)["policy"]) is the policy (docs/interop.md)."""
    from gamesolve.commands.support import emit
    from gamesolve.openspiel.policy import policy_table, write_table
    from gamesolve.store.outputs import check_output_file
    from gamesolve.store.policy_store import read_policy

    try:
        store = read_policy(store_path)
        check_output_file(out, "--out", folder=False, force=force, replaceable=_policy_file)
    except StoreError as exc:
        raise InputError(_one_line(exc)) from None
    game = _game_of(ctx, store.game, store.params)
    source = store.average_policy if policy == "average" else store.current_policy
    if source is None:
        raise InputError(f"{store_path} has no {policy} policy")
    table = policy_table(store, source)
    meta = {"policy_kind": policy, "algo": store.attrs.get("algo"), "iterations": store.attrs.get("iterations")}
    write_table(out, game, table, meta)
    emit({"out": str(out), "format": fmt, "game": game.name, "infosets": len(table), **meta}, as_json,
         [f"wrote the {policy} policy of {game.describe()} ({len(table):,} information states) to {out}"])  # fmt: skip


@click.command("import")
@click.argument("source", type=click.Path(path_type=Path))
@click.option("--format", "fmt", required=True, type=click.Choice(FORMATS), help="openspiel: a TabularPolicy table as JSON.")
@click.option("--game", "game_name", default=None, help="The openspiel: game, for a bare table (a file `gamesolve export` wrote names its own).")
@click.option("--out", required=True, type=click.Path(path_type=Path), help="The policy store to write.")
@click.option("--force", is_flag=True, help="Replace --out if it is a policy store.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object as the last line of stdout.")
@click.pass_context
def import_command(ctx, source, fmt, game_name, out, force, as_json):
    """Read an open-spiel tabular policy into a policy store (for `gamesolve exploitability`,
    matches and search)."""
    from gamesolve.commands.support import emit
    from gamesolve.game.compile import compiled_tree
    from gamesolve.game.names import parse_game_text
    from gamesolve.openspiel.policy import from_tabular_policy, load_table
    from gamesolve.store.outputs import claim_store, release_store
    from gamesolve.store.policy_store import FORMAT, write_policy

    try:
        document = load_table(source)
    except UserError as exc:
        raise InputError(_one_line(exc)) from None
    if game_name is None and document["game"] is None:
        raise InputError(f"{source} is a bare table: give --game openspiel:NAME")
    if game_name is not None:
        name, params = parse_game_text(game_name)
    else:
        name, params = document["game"], document["params"]
    game = _game_of(ctx, name, params)
    try:
        tree = compiled_tree(game)
        slots = from_tabular_policy(document["policy"], tree)
        lock = claim_store(out, FORMAT, force=force)
    except (UserError, ValueError) as exc:
        raise InputError(_one_line(exc)) from None
    try:
        write_policy(out, tree, slots, algo="imported", source=str(source), iterations=0, seconds=0.0)
    finally:
        release_store(lock)
    emit({"store": str(out), "game": game.name, "infosets": tree.num_infosets}, as_json,
         [f"wrote {out}: {game.describe()}, {tree.num_infosets:,} information sets from {source}"])  # fmt: skip


def _policy_file(path: Path) -> bool:
    """Whether ``path`` is a policy file ``export`` wrote (so --force may replace it)."""
    from gamesolve.openspiel.policy import FILE_FORMAT

    try:
        return FILE_FORMAT in path.read_text(encoding="utf-8", errors="replace")[:200]
    except OSError:
        return False
