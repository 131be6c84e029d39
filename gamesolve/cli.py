"""The ``gamesolve`` command line: one click group and its global options; the core's
commands (gamesolve/commands/, one module per command) and the plugins' are added through
the ``gamesolve_register_commands`` hook."""

from __future__ import annotations

import functools
import signal
import sys
from pathlib import Path

import click
import pluggy

from gamesolve import __version__, commands, hookspecs
from gamesolve.commands.support import emit, make_game, one_line, summary_lines
from gamesolve.errors import EXIT_STATUS, InputError, UserError, is_no_space
from gamesolve.game.explicit_tree import CompileError
from gamesolve.game.spec import ParameterError
from gamesolve.plugins import HOST_KEY, PluginHost, local_plugin_paths, make_plugin_manager
from gamesolve.registry import RegistryError

# InputError lives in gamesolve.errors; re-exported for older plugins. emit, make_game (the
# open-spiel commands) and summary_lines live in gamesolve.commands.support; re-exported for
# their importers here.
__all__ = ["InputError", "cli", "emit", "make_game", "summary_lines"]


@functools.lru_cache(maxsize=8)
def plugin_host(plugins_dirs: tuple[str, ...] = ()) -> PluginHost:
    """The plugin host for this process (built once per set of local plugin folders)."""
    host = make_plugin_manager(plugins_dirs=plugins_dirs, warn=False)
    for name, message in host.failures:
        click.echo(f"warning: plugin {name!r} skipped: {message}", err=True)
    return host


def host_from(ctx: click.Context) -> PluginHost:
    """The plugin host for the ``--plugins-dir`` folders of ``ctx``'s command line (commands
    reach it through ``ctx.meta[HOST_KEY]``, which the group sets to this)."""
    root = ctx.find_root()
    dirs = tuple(str(p) for p in (root.params.get("plugins_dir") or ()))
    return plugin_host(dirs)


class GamesolveGroup(click.Group):
    """Adds plugin commands lazily and prints usage errors as one line with exit status 2."""

    _plugin_commands_added: set[tuple[str, ...]] = set()

    def _add_plugin_commands(self, ctx: click.Context) -> None:
        dirs = tuple(str(p) for p in (ctx.params.get("plugins_dir") or ()))
        if dirs in self._plugin_commands_added:
            return
        self._plugin_commands_added.add(dirs)
        plugin_host(dirs).pm.hook.gamesolve_register_commands(cli=self)

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._add_plugin_commands(ctx)
        return super().list_commands(ctx)

    def get_command(self, ctx: click.Context, cmd_name: str):
        command = super().get_command(ctx, cmd_name)
        if command is None:
            self._add_plugin_commands(ctx)
            command = super().get_command(ctx, cmd_name)
        return command

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        if hasattr(signal, "SIGXFSZ") and signal.getsignal(signal.SIGXFSZ) == signal.SIG_DFL:
            # A file-size limit (ulimit -f) then fails the write (EFBIG: a one-line error, the
            # last checkpoint intact) instead of killing the process mid-write.
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except getattr(click.exceptions, "NoArgsIsHelpError", ()) as exc:  # `gamesolve store`: its help
            click.echo(exc.format_message())
            sys.exit(0)
        except click.UsageError as exc:
            click.echo(f"Error: {one_line(exc.format_message())}", err=True)  # click may wrap ("Choose from:\n\t...")
            sys.exit(EXIT_STATUS)
        except click.ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
        except (click.exceptions.Abort, KeyboardInterrupt):
            click.echo("Aborted.", err=True)
            sys.exit(130)
        except (UserError, RegistryError, ParameterError, CompileError) as exc:
            # raised outside a command's own handling (a plugin command, a late store check)
            click.echo(f"Error: {one_line(exc)}", err=True)
            sys.exit(EXIT_STATUS)
        except OSError as exc:
            if is_no_space(exc):
                click.echo("Error: no space left on the device (or over the file-size limit)", err=True)
            else:
                click.echo(f"Error: {exc.strerror or exc}{f': {exc.filename}' if exc.filename else ''}", err=True)
            sys.exit(EXIT_STATUS)
        sys.exit(rv if isinstance(rv, int) else 0)


@click.group(cls=GamesolveGroup, context_settings={"show_default": True})
@click.version_option(__version__, prog_name="gamesolve")
@click.option(
    "--plugins-dir",
    multiple=True,
    type=click.Path(path_type=Path),
    help="Load a plugin file or folder without installing it (repeatable; also $GAMESOLVE_PLUGINS_DIR).",
)
@click.pass_context
def cli(ctx, plugins_dir):
    """Solve and play imperfect-information games with the CFR family."""
    for path in local_plugin_paths(plugins_dir):
        if not path.exists():
            raise InputError(f"no plugin file or folder at {path}")
    # Commands, the core's and the plugins', reach the plugin host through the context, not by
    # importing this module.
    ctx.meta[HOST_KEY] = lambda: host_from(ctx)


def _add_core_commands(group: click.Group) -> None:
    """The core's commands (gamesolve/commands/), added through the hook plugins add theirs
    with. They are added once, when this module is imported, before any plugin is loaded: a
    --plugins-dir that does not exist is then reported by the group in one line rather than
    by a plugin host that failed to build, and ``gamesolve plugins`` lists the plugins only."""
    pm = pluggy.PluginManager(hookspecs.PROJECT_NAME)
    pm.add_hookspecs(hookspecs)
    pm.register(commands, name="gamesolve.commands")
    pm.hook.gamesolve_register_commands(cli=group)


_add_core_commands(cli)

if __name__ == "__main__":  # python -m gamesolve.cli
    cli()
