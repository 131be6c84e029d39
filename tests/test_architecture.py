"""The layering of docs/architecture.md, checked on every module's imports.

Imports are read with ``ast`` by tests/import_rules.py: module-level *and* function-local
``import`` / ``from ... import`` statements (a function-local import is still a dependency),
relative imports resolved. Where a rule is broken today for a reason, the breach is listed
below with that reason, so that only a new one fails; an entry that no longer happens must
leave its list.
"""

import re
from pathlib import Path

import pytest

from tests import import_rules as R

ROOT = Path(__file__).resolve().parents[1]
ARCHITECTURE = ROOT / "docs" / "architecture.md"


@pytest.fixture(scope="module")
def tree() -> R.ImportGraph:
    return R.ImportGraph(R.read_tree(ROOT))


def layers_of_the_document(text: str) -> dict[str, set[str] | None]:
    """docs/architecture.md's table: core folder (or top-level module) -> what it may import
    (None: anything)."""

    def node(path: str) -> str:
        path = path.removesuffix("/").removesuffix(".py")
        return R.CORE if path == "__init__" else f"{R.CORE}.{path.replace('/', '.')}"

    rows = []
    for line in text.split("## The layers", 1)[1].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and "`" in cells[0]:
            rows.append(([node(p) for p in re.findall(r"`([^`]+)`", cells[0])], cells[0].startswith("basics"), cells[2]))
    basics = {n for members, is_basics, _ in rows if is_basics for n in members}
    layers: dict[str, set[str] | None] = {}
    for members, _, may in rows:
        allowed = None if may == "anything" else {node(p) for p in re.findall(r"`([^`]+)`", may)}
        if allowed is not None and re.search(r"\bbasics\b", may):
            allowed |= basics
        for member in members:
            layers[member] = allowed
    return layers


# -- today's known breaches, each with its reason ------------------------------------------

COMMAND_LINE_EXCEPTIONS = {
    # Exact (module, import) pairs: each names what it imports, so a module that stops
    # importing one of them must leave the list (test_every_listed_exception_still_happens).
    # InputError is the click exception every command raises (exit status 2); plugins import
    # it from gamesolve.errors, so it stays there until commands and plugins take it elsewhere.
    ("gamesolve.errors", "click"),
    # Command groups that live beside their feature, not in gamesolve/commands/ (issue #35,
    # item 3 moved the core's own commands there): the hold'em plugin's `abstraction`, `acpc` (typed option values too), `nlth info`
    # (beside the betting tree it counts), `evaluate` and `spot` commands.
    ("gamesolve_nlth.abstraction.cli", "click"),
    ("gamesolve_nlth.acpc.cli", "click"),
    ("gamesolve_nlth.acpc.cli", "gamesolve.cli_params"),
    ("gamesolve_nlth.betting.info", "click"),
    ("gamesolve_nlth.evaluate.cli", "click"),
    ("gamesolve_nlth.spot.cli", "click"),
}

PLUGIN_MODULE_CYCLES = {
    # A game's factored_contract() method (the State contract's way to offer a contract)
    # returns the plugin's contract, which builds the game's own states: the method imports
    # the contract module inside the function, the contract imports the game.
    frozenset({"gamesolve_kuhn.contract", "gamesolve_kuhn.game"}),
    frozenset({"gamesolve_leduc.contract", "gamesolve_leduc.game"}),
    frozenset({"gamesolve_liars_dice.contract", "gamesolve_liars_dice.game"}),
}

PLUGIN_FOLDER_CYCLES = {
    # betting/info.py (the `nlth info` command) reads the blueprint presets and memory
    # estimate, which are built from the betting tree.
    frozenset({"gamesolve_nlth.betting", "gamesolve_nlth.blueprint"}),
    # agents/blueprint.py buckets hands with evaluate/hands.py; evaluate/rest_of_street.py
    # (inside a function) plays the agents' check/call rest of a street.
    frozenset({"gamesolve_nlth.agents", "gamesolve_nlth.evaluate"}),
}


# -- the tree follows the rules ------------------------------------------------------------


def test_every_folder_of_the_core_imports_only_what_the_architecture_document_allows(tree):
    assert R.layer_breaches(tree, layers_of_the_document(ARCHITECTURE.read_text())) == set()


def test_the_architecture_document_has_a_line_for_every_folder_and_top_level_module_of_the_core(tree):
    nodes = {R.node_of(m) for m in tree.modules if R.in_core(m)}
    assert nodes - set(layers_of_the_document(ARCHITECTURE.read_text())) == set()


def test_the_core_imports_no_plugin(tree):
    assert R.core_imports_of_plugins(tree) == set()


def test_the_stores_never_import_a_solver(tree):
    assert R.store_imports_of_solvers(tree) == set()


def test_numba_kernel_modules_import_neither_click_nor_the_command_line(tree):
    assert R.kernel_imports_of_the_command_line(tree) == set()


def basics_of_the_document(text: str) -> set[str]:
    """The modules of the table's basics line."""
    line = next(line for line in text.split("## The layers", 1)[1].splitlines() if line.strip().startswith("| basics:"))
    return {f"{R.CORE}.{p.removesuffix('.py')}" if p != "__init__.py" else R.CORE
            for p in re.findall(r"`([^`]+)`", line.split("|")[1])}  # fmt: skip


def test_the_kernel_folder_imports_only_numpy_numba_the_basics_and_the_game_layer(tree):
    allowed = basics_of_the_document(ARCHITECTURE.read_text()) | {f"{R.CORE}.game"}
    assert R.kernel_folder_imports_beyond_arrays(tree, allowed) == set()


def test_the_solvers_never_import_the_distribution_package(tree):
    """(The table says so too; this names the rule the MCCFR solver's trainer interface is for.)"""
    assert {(i.importer, i.imported) for i in tree.imports
            if R.within(i.importer, f"{R.CORE}.solve") and R.within(i.imported, f"{R.CORE}.distribute")} == set()  # fmt: skip


def test_only_the_top_level_command_line_imports_click_or_gamesolve_cli(tree):
    assert R.command_line_imports_below_the_top_level(tree) - COMMAND_LINE_EXCEPTIONS == set()


def test_no_two_folders_of_the_core_import_each_other(tree):
    assert R.folder_cycles(tree, R.CORE) == set()


def test_no_two_modules_of_the_core_import_each_other(tree):
    assert R.module_cycles(tree, R.CORE) == set()


@pytest.mark.parametrize("plugin", R.PLUGIN_PACKAGES)
def test_no_two_modules_of_a_plugin_import_each_other_but_the_listed_ones(tree, plugin):
    assert R.module_cycles(tree, plugin) - PLUGIN_MODULE_CYCLES == set()


@pytest.mark.parametrize("plugin", R.PLUGIN_PACKAGES)
def test_no_two_folders_of_a_plugin_import_each_other_but_the_listed_ones(tree, plugin):
    """(A plugin's top-level modules count as folders of their own, so its listed module
    cycles are folder cycles too.)"""
    assert R.folder_cycles(tree, plugin) - PLUGIN_FOLDER_CYCLES - PLUGIN_MODULE_CYCLES == set()


def test_every_listed_exception_still_happens(tree):
    """A breach fixed leaves its list, so that it cannot come back unnoticed."""
    breaches = R.command_line_imports_below_the_top_level(tree)
    module_cycles = set().union(*(R.module_cycles(tree, p) for p in R.PLUGIN_PACKAGES))
    folder_cycles = set().union(*(R.folder_cycles(tree, p) for p in R.PLUGIN_PACKAGES))
    assert (COMMAND_LINE_EXCEPTIONS - breaches, PLUGIN_MODULE_CYCLES - module_cycles, PLUGIN_FOLDER_CYCLES - folder_cycles) == (set(), set(), set())


# -- the checker finds what it should (modules that exist nowhere on disk) -----------------


def graph(*modules: tuple[str, str]) -> R.ImportGraph:
    return R.ImportGraph(modules)


def test_the_checker_reports_a_store_that_imports_a_solver():
    g = graph(("gamesolve.store.bad", "from gamesolve.solve.mccfr import run\n"), ("gamesolve.solve.mccfr", ""))
    assert R.store_imports_of_solvers(g) == {("gamesolve.store.bad", "gamesolve.solve.mccfr")}


def test_the_checker_resolves_relative_imports():
    g = graph(("gamesolve.store.bad", "from ..solve import mccfr\n"), ("gamesolve.solve.mccfr", ""), ("gamesolve.solve", ""))
    assert R.store_imports_of_solvers(g) == {("gamesolve.store.bad", "gamesolve.solve.mccfr")}


def test_the_checker_resolves_relative_imports_in_a_package_init():
    g = graph(("gamesolve.store", "from .bad import x\n"), ("gamesolve.store.bad", "from ..solve.mccfr import y\n"),
              ("gamesolve.solve.mccfr", ""))  # fmt: skip
    assert {(i.importer, i.imported) for i in g.imports} == {
        ("gamesolve.store", "gamesolve.store.bad"), ("gamesolve.store.bad", "gamesolve.solve.mccfr")}  # fmt: skip


def test_the_checker_counts_imports_inside_functions():
    g = graph(("gamesolve.solve.loop", "def run():\n    import click\n    click.echo('x')\n"))
    assert R.command_line_imports_below_the_top_level(g) == {("gamesolve.solve.loop", "click")}


def test_the_checker_counts_imports_in_every_kind_of_block():
    source = """
from typing import TYPE_CHECKING
if TYPE_CHECKING:
    import m1
class C:
    import m2
    def f(self):
        with open("x"):
            for _ in ():
                while True:
                    import m3
        try:
            import m4
        except ImportError:
            import m5
        else:
            import m6
        finally:
            import m7
        match self:
            case 1:
                import m8
async def g():
    async with x:
        import m9
"""
    g = graph(("gamesolve.solve.loop", source))
    assert {i.imported for i in g.imports} == {"typing"} | {f"m{k}" for k in range(1, 10)}


def test_the_checker_reports_library_code_that_imports_the_command_line():
    g = graph(("gamesolve.search.agent", "from gamesolve.cli_params import parse_boolean\n"),
              ("gamesolve_nlth.spot.solve", "from gamesolve.cli import InputError\n"))  # fmt: skip
    assert R.command_line_imports_below_the_top_level(g) == {
        ("gamesolve.search.agent", "gamesolve.cli_params"), ("gamesolve_nlth.spot.solve", "gamesolve.cli")}  # fmt: skip


def test_the_checker_lets_only_the_top_level_command_line_import_click():
    g = graph(("gamesolve.cli", "import click\nfrom gamesolve.cli_params import SEED\nfrom gamesolve.plot.cli import plot\n"),
              ("gamesolve.cli_params", "import click\n"),
              ("gamesolve.plot.cli", "import click\nfrom gamesolve.cli_params import SEED\n"),
              ("gamesolve_nlth.acpc.cli", "import click.testing\nfrom gamesolve.cli import cli\n"))  # fmt: skip
    assert R.command_line_imports_below_the_top_level(g) == {
        ("gamesolve.plot.cli", "click"), ("gamesolve.plot.cli", "gamesolve.cli_params"),
        ("gamesolve_nlth.acpc.cli", "click.testing"), ("gamesolve_nlth.acpc.cli", "gamesolve.cli")}  # fmt: skip


def test_the_checker_lets_the_commands_import_click_and_nothing_below_import_them():
    g = graph(("gamesolve.cli", "import click\nfrom gamesolve import commands\n"),
              ("gamesolve.commands", "from gamesolve.hookspecs import hookimpl\n"),
              ("gamesolve.commands.solve", "import click\nfrom gamesolve.cli_params import SEED\nfrom gamesolve.commands.support import emit\n"),
              ("gamesolve.commands.support", "import click\nfrom gamesolve.plugins import HOST_KEY\n"),
              ("gamesolve.evaluate.match", "from gamesolve.commands.support import one_line\n"),
              ("gamesolve_nlth.spot.cli", "from gamesolve.commands.solve import summary_lines\n"))  # fmt: skip
    assert R.command_line_imports_below_the_top_level(g) == {
        ("gamesolve.evaluate.match", "gamesolve.commands.support"), ("gamesolve_nlth.spot.cli", "gamesolve.commands.solve")}  # fmt: skip


def test_the_checker_reports_a_kernel_module_that_imports_click():
    g = graph(("gamesolve.solve.fast_kernels", "import click\n"),
              ("gamesolve.game.walks", "from numba import njit\nfrom click import echo\n@njit(cache=True)\ndef f(x):\n    return x\n"),
              ("gamesolve.game.threads_cli", "import numba\nimport click\nnumba.set_num_threads(2)\n"))  # fmt: skip
    assert R.kernel_imports_of_the_command_line(g) == {("gamesolve.solve.fast_kernels", "click"), ("gamesolve.game.walks", "click")}


def test_the_checker_reports_the_core_importing_a_plugin():
    g = graph(("gamesolve.game.poker", "def f():\n    from gamesolve_nlth.engine import deal\n"))
    assert R.core_imports_of_plugins(g) == {("gamesolve.game.poker", "gamesolve_nlth.engine")}


def test_the_checker_reports_folders_that_import_each_other_round_a_loop():
    g = graph(("gamesolve.a.x", "from gamesolve.b.y import f\n"), ("gamesolve.b.y", "from gamesolve.c import z\n"),
              ("gamesolve.c.z", "def g():\n    from gamesolve.a import x\n"))  # fmt: skip
    assert R.folder_cycles(g, "gamesolve") == {frozenset({"gamesolve.a", "gamesolve.b", "gamesolve.c"})}
    assert R.module_cycles(g, "gamesolve") == {frozenset({"gamesolve.a.x", "gamesolve.b.y", "gamesolve.c.z"})}


def test_the_checker_counts_each_top_level_module_as_its_own_folder():
    g = graph(("gamesolve.cli", "from gamesolve.plot.cli import plot\n"), ("gamesolve.plot.cli", "from gamesolve.errors import E\n"),
              ("gamesolve.errors", ""))  # fmt: skip
    assert R.folder_cycles(g, "gamesolve") == set()


def test_the_checker_reports_a_kernel_that_imports_a_driver_attrs_or_click():
    g = graph(("gamesolve.solve.kernels.fast", "import math\nimport numpy as np\nfrom numba import njit\nimport attrs\n"
               "from gamesolve.rng import mix\nfrom gamesolve.game.factored import CHANCE\nfrom gamesolve.solve.mccfr import T\n"
               "from gamesolve.solve.kernels.other import f\nimport click\n"),
              ("gamesolve.solve.mccfr", ""), ("gamesolve.solve.kernels.other", ""), ("gamesolve.rng", ""), ("gamesolve.game.factored", ""))  # fmt: skip
    assert R.kernel_folder_imports_beyond_arrays(g, {"gamesolve.rng", "gamesolve.game"}) == {
        ("gamesolve.solve.kernels.fast", "attrs"), ("gamesolve.solve.kernels.fast", "gamesolve.solve.mccfr"),
        ("gamesolve.solve.kernels.fast", "click")}  # fmt: skip


def test_the_checker_reports_an_import_the_layers_do_not_allow():
    layers = layers_of_the_document(
        "## The layers\n\n| folder | holds | may import |\n|---|---|---|\n"
        "| basics: `errors.py` | errors | basics |\n| `game/` | games | basics |\n| `store/` | stores | basics, `game/` |\n"
        "| `cli.py` | the command | anything |\n")  # fmt: skip
    g = graph(("gamesolve.game.state", "from gamesolve.store.zarr_io import w\nfrom gamesolve.errors import E\n"),
              ("gamesolve.store.zarr_io", "from gamesolve.game.state import S\n"), ("gamesolve.errors", ""),
              ("gamesolve.cli", "from gamesolve.store.zarr_io import w\n"))  # fmt: skip
    assert R.layer_breaches(g, layers) == {("gamesolve.game.state", "gamesolve.store.zarr_io")}


def test_the_checker_reports_forbidden_imports_of_modules_written_to_disk(tmp_path):
    """The whole path the tree takes (files read by read_tree, then the rules), on a small
    tree written to ``tmp_path`` with one forbidden import of each kind."""
    files = {
        "gamesolve/__init__.py": "",
        "gamesolve/cli.py": "import click\nfrom gamesolve.store import zarr_io\n",
        "gamesolve/store/__init__.py": "",
        "gamesolve/store/zarr_io.py": "def load():\n    from ..solve.mccfr import run\n",
        "gamesolve/solve/__init__.py": "",
        "gamesolve/solve/mccfr.py": "from gamesolve.store import zarr_io\nimport gamesolve_kuhn.game\n",
        "gamesolve/solve/fast_kernels.py": "from click import echo\n",
        "plugins/kuhn/gamesolve_kuhn/__init__.py": "",
        "plugins/kuhn/gamesolve_kuhn/game.py": "from gamesolve.cli import cli\n",
    }
    for name, source in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(source)
    g = R.ImportGraph(R.read_tree(tmp_path))
    assert R.store_imports_of_solvers(g) == {("gamesolve.store.zarr_io", "gamesolve.solve.mccfr")}
    assert R.core_imports_of_plugins(g) == {("gamesolve.solve.mccfr", "gamesolve_kuhn.game")}
    assert R.kernel_imports_of_the_command_line(g) == {("gamesolve.solve.fast_kernels", "click")}
    assert R.command_line_imports_below_the_top_level(g) == {
        ("gamesolve.solve.fast_kernels", "click"), ("gamesolve_kuhn.game", "gamesolve.cli")}  # fmt: skip
    assert R.folder_cycles(g, R.CORE) == {frozenset({"gamesolve.store", "gamesolve.solve"})}
