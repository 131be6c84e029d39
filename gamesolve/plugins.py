"""The plugin manager factory: built-ins, entry points and local plugin folders.

A broken plugin is reported and skipped (``strict=False``); tests use ``strict=True`` so
that a misspelt hookimpl or an import error fails loudly.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import sys
import warnings
from collections.abc import Iterable
from pathlib import Path

import attrs
import pluggy

from gamesolve import hookspecs
from gamesolve.registry import Registry

ENTRY_POINT_GROUP = "gamesolve"
PLUGINS_DIR_ENV = "GAMESOLVE_PLUGINS_DIR"
"""Environment variable: ``os.pathsep``-separated plugin files or folders to load."""

HOST_KEY = "gamesolve.host"
"""In a command of the ``gamesolve`` line, ``click.get_current_context().meta[HOST_KEY]()`` is
the plugin host: plugin commands reach it this way, without importing the command line."""

DEFAULT_PLUGINS = ("gamesolve.solve.builtin", "gamesolve.search.player", "gamesolve.openspiel.plugin")
"""Modules of the core registered as plugins like any other."""


class PluginLoadWarning(UserWarning):
    """A plugin failed to load and was skipped."""


@attrs.define
class Registries:
    """Everything the plugins registered."""

    games: Registry = attrs.field(factory=lambda: Registry("game"))
    solvers: Registry = attrs.field(factory=lambda: Registry("solver"))
    agents: Registry = attrs.field(factory=lambda: Registry("agent"))


@attrs.define
class PluginHost:
    """A plugin manager plus what its plugins registered, and what failed to load."""

    pm: pluggy.PluginManager
    registries: Registries
    failures: list[tuple[str, str]]

    @property
    def games(self) -> Registry:
        return self.registries.games

    @property
    def solvers(self) -> Registry:
        return self.registries.solvers

    @property
    def agents(self) -> Registry:
        return self.registries.agents

    def game_spec(self, name: str):
        """The game registered as ``name``, else one a plugin resolves by name
        (``gamesolve_resolve_game``: ``openspiel:NAME``); a :class:`RegistryError` listing the
        registered games if neither knows it."""
        if name in self.games:
            return self.games.get(name)
        spec = self.pm.hook.gamesolve_resolve_game(name=name)
        return spec if spec is not None else self.games.get(name)

    def game(self, text: str, players: int | None = None, params: dict[str, str] | None = None):
        """``(spec, game)`` for a game as users write it: ``NAME`` or ``NAME(KEY=VALUE,...)``
        (:mod:`gamesolve.game.names`), with ``players`` and more ``params`` (strings). Anything
        wrong (an unknown game, a bad or repeated parameter) is one :class:`UserError` line."""
        from gamesolve.errors import UserError
        from gamesolve.game.names import with_params
        from gamesolve.game.spec import ParameterError

        name, params = with_params(text, dict(params or {}))
        try:
            spec = self.game_spec(name)
            return spec, spec.create(players, **params)
        except (LookupError, TypeError, ValueError) as exc:  # unknown names, bad values, factories refusing
            message = " ".join(str(exc).split())
            named = isinstance(exc, (LookupError, UserError, ParameterError))  # messages that name the game already
            raise UserError(message if named else f"{name}: {message}") from None


def _fail(failures: list, name: str, exc: BaseException, strict: bool) -> None:
    if strict:
        raise exc
    failures.append((name, f"{type(exc).__name__}: {exc}"))


def _load_local(path: Path):
    """Import a plugin file (``x.py``) or package folder (with ``__init__.py``)."""
    path = path.resolve()
    if path.is_dir() and not (path / "__init__.py").exists():
        return [m for p in sorted(path.glob("*.py")) if not p.name.startswith("_") for m in _load_local(p)]
    init = path / "__init__.py" if path.is_dir() else path
    if not init.exists():
        raise FileNotFoundError(f"no plugin file or folder at {path}")
    name = f"gamesolve_local_{path.stem}"
    spec = importlib.util.spec_from_file_location(
        name, init, submodule_search_locations=[str(path)] if path.is_dir() else None
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return [module]


def local_plugin_paths(plugins_dirs: Iterable[str | os.PathLike] = ()) -> list[Path]:
    """Paths from the arguments followed by those in :data:`PLUGINS_DIR_ENV`."""
    paths = [Path(p) for p in plugins_dirs]
    env = os.environ.get(PLUGINS_DIR_ENV, "")
    paths += [Path(p) for p in env.split(os.pathsep) if p]
    return paths


def make_plugin_manager(
    *,
    strict: bool = False,
    entry_points: bool = True,
    plugins: Iterable[object] = (),
    plugins_dirs: Iterable[str | os.PathLike] = (),
    warn: bool = True,
) -> PluginHost:
    """Build a plugin manager, load plugins and fill the registries.

    :param strict: raise on the first broken plugin instead of reporting and skipping it.
    :param entry_points: load installed plugins from the ``gamesolve`` entry-point group.
    :param plugins: extra plugin objects or modules to register directly (tests use this).
    :param plugins_dirs: local plugin files or folders to import without installing them;
        :data:`PLUGINS_DIR_ENV` adds more.
    :param warn: issue a :class:`PluginLoadWarning` for each plugin skipped (the CLI prints
        its own one-line messages instead).
    """
    pm = pluggy.PluginManager(hookspecs.PROJECT_NAME)
    pm.add_hookspecs(hookspecs)
    failures: list[tuple[str, str]] = []

    def add(plugin: object, name: str) -> None:
        if pm.is_registered(plugin) or pm.has_plugin(name):
            return
        try:
            pm.register(plugin, name=name)
        except Exception as exc:  # a malformed plugin must not take the host down
            _fail(failures, name, exc, strict)

    for module_name in DEFAULT_PLUGINS:
        add(importlib.import_module(module_name), module_name)
    if entry_points:
        for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
            try:
                plugin = ep.load()
            except Exception as exc:
                _fail(failures, ep.name, exc, strict)
                continue
            add(plugin, ep.name)
    for plugin in plugins:
        add(plugin, getattr(plugin, "__name__", None) or type(plugin).__name__)
    for path in local_plugin_paths(plugins_dirs):
        try:
            modules = _load_local(path)
        except Exception as exc:
            _fail(failures, str(path), exc, strict)
            continue
        for module in modules:
            add(module, f"local:{path.name}:{module.__name__}")
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        if strict:
            raise
        failures.append(("check_pending", str(exc)))

    registries = Registries()
    for hook_name, registry in (
        ("gamesolve_register_games", registries.games),
        ("gamesolve_register_solvers", registries.solvers),
        ("gamesolve_register_agents", registries.agents),
    ):
        _fill(pm, hook_name, registry, failures, strict)
    if warn:
        for name, message in failures:
            warnings.warn(f"gamesolve plugin {name!r} skipped: {message}", PluginLoadWarning, stacklevel=2)
    return PluginHost(pm=pm, registries=registries, failures=failures)


def _fill(pm: pluggy.PluginManager, hook_name: str, registry: Registry, failures, strict: bool) -> None:
    """Call one register hook plugin by plugin, so a broken one is skipped alone."""
    caller = getattr(pm.hook, hook_name)
    for impl in caller.get_hookimpls():
        owner = pm.get_name(impl.plugin) or "?"
        try:
            impl.function(register=lambda item, _o=owner: registry.register(item, _o))
        except Exception as exc:
            _fail(failures, owner, exc, strict)


def rebuild_game(name: str, params: dict[str, str], plugins_dirs: tuple[str, ...] = ()):
    """The plugin host and the game ``name`` with ``params`` (strings, ``players`` among
    them), rebuilt in another process (a Ray worker, a solve's warm-ahead child) from the
    plugins installed where it runs."""
    host = make_plugin_manager(plugins_dirs=plugins_dirs, warn=False)
    params = dict(params)
    players = params.pop("players", None)
    return host, host.games.get(name).create(None if players is None else int(players), **params)


def describe_plugins(host: PluginHost) -> list[tuple[str, list[str]]]:
    """``(plugin name, hooks it implements)`` for every registered plugin."""
    rows = []
    for name, plugin in sorted(host.pm.list_name_plugin(), key=lambda x: x[0]):
        hooks = sorted(h.name for h in host.pm.get_hookcallers(plugin) or [])
        rows.append((name, hooks))
    return rows
