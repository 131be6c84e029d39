"""The plugin system: registration, clashes, broken plugins, local plugin folders."""

import importlib.metadata
import types

import pytest

import gamesolve_kuhn.plugin
from gamesolve import hookimpl
from gamesolve.game import GameSpec
from gamesolve.plugins import PLUGINS_DIR_ENV, PluginLoadWarning, describe_plugins, make_plugin_manager
from gamesolve.registry import RegistryError
from gamesolve_kuhn import KuhnGame


def plugin_registering(name):
    module = types.ModuleType(f"fake_{name}")

    @hookimpl
    def gamesolve_register_games(register):
        register(GameSpec(name=name, factory=KuhnGame))

    module.gamesolve_register_games = gamesolve_register_games
    return module


def test_directly_registered_plugins_fill_the_game_registry(host):
    assert host.games.names() == ["kuhn", "leduc"]
    assert host.games.owner("kuhn") == "gamesolve_kuhn.plugin"


def test_core_solvers_are_registered_as_a_builtin_plugin(host):
    assert {"cfr", "cfr+", "lcfr", "dcfr"} <= set(host.solvers.names())


def test_two_plugins_registering_one_name_is_an_error():
    with pytest.raises(RegistryError, match="registered twice"):
        make_plugin_manager(strict=True, entry_points=False, plugins=[gamesolve_kuhn.plugin, plugin_registering("kuhn")])


def test_unknown_game_lists_the_choices(host):
    with pytest.raises(RegistryError, match="choose from: kuhn, leduc"):
        host.games.get("chess")


class BrokenEntryPoint:
    name = "broken"
    group = "gamesolve"

    def load(self):
        raise ImportError("this plugin is broken")


def fake_entry_points(monkeypatch, *eps):
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group=None: list(eps) if group == "gamesolve" else [])


def test_broken_entry_point_is_reported_and_skipped(monkeypatch):
    fake_entry_points(monkeypatch, BrokenEntryPoint())
    with pytest.warns(PluginLoadWarning, match="broken"):
        host = make_plugin_manager(plugins=[gamesolve_kuhn.plugin])
    assert host.games.names() == ["kuhn"]
    assert host.failures[0][0] == "broken"


def test_strict_mode_raises_on_a_broken_plugin(monkeypatch):
    fake_entry_points(monkeypatch, BrokenEntryPoint())
    with pytest.raises(ImportError, match="broken"):
        make_plugin_manager(strict=True)


def test_misspelt_hookimpl_fails_in_strict_mode():
    module = types.ModuleType("typo")

    @hookimpl
    def gamesolve_register_gmaes(register):
        pass

    module.gamesolve_register_gmaes = gamesolve_register_gmaes
    with pytest.raises(Exception, match="gamesolve_register_gmaes"):
        make_plugin_manager(strict=True, entry_points=False, plugins=[module])


def test_plugin_whose_register_hook_raises_is_skipped_alone():
    module = types.ModuleType("explodes")

    @hookimpl
    def gamesolve_register_games(register):
        raise RuntimeError("boom")

    module.gamesolve_register_games = gamesolve_register_games
    with pytest.warns(PluginLoadWarning, match="boom"):
        host = make_plugin_manager(entry_points=False, plugins=[module, gamesolve_kuhn.plugin])
    assert host.games.names() == ["kuhn"]


def test_local_plugin_file_loads_without_installation(example_plugin_path):
    host = make_plugin_manager(strict=True, entry_points=False, plugins_dirs=[example_plugin_path])
    assert "biased-rps" in host.games


def test_local_plugin_folder_from_environment_variable(monkeypatch, example_plugin_path):
    monkeypatch.setenv(PLUGINS_DIR_ENV, str(example_plugin_path.parent))
    host = make_plugin_manager(strict=True, entry_points=False)
    assert "biased-rps" in host.games


def test_describe_plugins_lists_each_plugins_hooks(host):
    rows = dict(describe_plugins(host))
    assert rows["gamesolve_kuhn.plugin"] == ["gamesolve_compile_game", "gamesolve_play_view", "gamesolve_register_games"]
