"""The import graph of a set of modules, read with ``ast``, and the layering rules of
docs/architecture.md checked over it (tests/test_architecture.py applies them to the tree).

Which imports count: every ``import`` and ``from ... import`` statement wherever it stands -
at module level, inside functions and methods, under ``if TYPE_CHECKING:``, in ``try``
blocks. A function-local import is still a dependency: it runs when the function does, and
a cycle hidden in a function is still a cycle. Relative imports are resolved against the
importing module's package. ``from package import name`` imports the module
``package.name`` when that is one of the modules read, else ``package``; an import names
one module, not the packages above it whose ``__init__`` Python also runs. Imports of
modules that were not read (numpy, click, ...) keep the name as written.

The checker works on ``(module name, source)`` pairs, so it can be tried on modules that
exist nowhere on disk (tests/test_architecture.py does).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

CORE = "gamesolve"
PLUGIN_PACKAGES = ("gamesolve_kuhn", "gamesolve_leduc", "gamesolve_liars_dice", "gamesolve_nlth")


@dataclass(frozen=True)
class Import:
    importer: str
    imported: str
    line: int

    def __str__(self) -> str:
        return f"{self.importer} imports {self.imported} (line {self.line})"


class ImportGraph:
    """The modules of ``modules`` (``(dotted name, source)`` pairs; a package is named without
    ``__init__``) and every import they make."""

    def __init__(self, modules: Iterable[tuple[str, str]]):
        sources = dict(modules)
        self.modules = frozenset(sources)
        self.packages = frozenset(n for n in self.modules if any(m.startswith(n + ".") for m in self.modules))
        self.imports: list[Import] = []
        self.compiling: set[str] = set()  # modules that compile numba functions of their own
        for name, source in sorted(sources.items()):
            self.imports.extend(self._read(name, source))

    def _resolve(self, dotted: str) -> str:
        """The module read that ``dotted`` names (the longest prefix that is one), else itself."""
        parts = dotted.split(".")
        for end in range(len(parts), 0, -1):
            if ".".join(parts[:end]) in self.modules:
                return ".".join(parts[:end])
        return dotted

    def _read(self, name: str, source: str) -> list[Import]:
        package = name if name in self.packages else name.rpartition(".")[0]
        found = []
        for node in statements(ast.parse(source)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(map(_is_numba_decorator, node.decorator_list)):
                self.compiling.add(name)
            if isinstance(node, ast.Import):
                found += [Import(name, self._resolve(alias.name), node.lineno) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    parts = package.split(".")
                    base = ".".join(parts[: len(parts) - (node.level - 1)])
                    module = f"{base}.{node.module}" if node.module else base
                else:
                    module = node.module
                for alias in node.names:
                    full = f"{module}.{alias.name}"
                    found.append(Import(name, full if full in self.modules else self._resolve(module), node.lineno))
        return [i for i in found if i.imported != name]

    def edges(self) -> dict[str, set[str]]:
        """Module -> the modules read that it imports."""
        out: dict[str, set[str]] = {m: set() for m in self.modules}
        for i in self.imports:
            if i.imported in self.modules:
                out[i.importer].add(i.imported)
        return out


def statements(tree: ast.Module):
    """Every statement of ``tree``, nested ones included (function and class bodies, branches,
    loops, ``try`` handlers, ``match`` cases). Imports and function definitions are statements,
    so this finds all of them without visiting the expressions, most of a tree's nodes (a fifth
    of ``ast.walk``'s time: the test reads the whole tree on every run)."""
    stack = list(reversed(tree.body))
    while stack:
        node = stack.pop()
        yield node
        nested = [getattr(node, f, ()) for f in ("body", "orelse", "finalbody")]
        nested += [part.body for f in ("handlers", "cases") for part in getattr(node, f, ())]
        for body in reversed(nested):
            if isinstance(body, list):  # (a lambda's body is an expression, but lambdas are not statements)
                stack.extend(reversed(body))


NUMBA_DECORATORS = frozenset({"njit", "jit", "vectorize", "guvectorize", "cfunc", "stencil"})


def _is_numba_decorator(node: ast.expr) -> bool:
    """``@njit``, ``@njit(cache=True)``, ``@numba.njit(...)`` and the like."""
    if isinstance(node, ast.Call):
        node = node.func
    name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
    return name in NUMBA_DECORATORS


def read_tree(root: Path) -> list[tuple[str, str]]:
    """``(module name, source)`` of every module of the core (``root/gamesolve``) and of the
    plugins (``root/plugins/*/gamesolve_*``)."""
    folders = [root / CORE] + sorted(p for p in (root / "plugins").glob("*/gamesolve_*") if p.is_dir())
    out = []
    for folder in folders:
        for path in sorted(folder.rglob("*.py")):
            parts = path.relative_to(folder.parent).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out.append((".".join(parts), path.read_text()))
    return out


# -- where a module sits -------------------------------------------------------------------


def within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def in_core(module: str) -> bool:
    return within(module, CORE)


def in_plugin(module: str) -> bool:
    return any(within(module, p) for p in PLUGIN_PACKAGES)


TOP_LEVEL_COMMAND_LINE = frozenset({f"{CORE}.cli", f"{CORE}.cli_params"})
"""The ``gamesolve`` command and its typed option values: with the core's commands
(:data:`COMMANDS`), the only modules that import click or each other freely. Any other
module that does is reported, front ends below it included (a plugin's ``acpc/cli.py``): the tests list those by name."""

COMMANDS = f"{CORE}.commands"
"""The core's commands, one module per command, and the helpers they share: the top layer,
with the group in ``gamesolve.cli`` that adds them."""


def is_top_level_command_line(module: str) -> bool:
    """``gamesolve.cli``, ``gamesolve.cli_params`` or a module of ``gamesolve.commands``."""
    return module in TOP_LEVEL_COMMAND_LINE or within(module, COMMANDS)


def is_command_line(imported: str) -> bool:
    """click, or the core's command line (``gamesolve.cli``, ``gamesolve.cli_params``, ...,
    and the commands in ``gamesolve.commands``)."""
    return (within(imported, "click") or within(imported, COMMANDS)
            or (imported.startswith(f"{CORE}.cli") and "." not in imported[len(CORE) + 1 :]))  # fmt: skip


def kernel_modules(graph: ImportGraph) -> set[str]:
    """Modules of numba kernels: those named ``*_kernels`` and every module that imports numba
    and compiles functions of its own (``@njit``, ``@numba.jit(...)``, ...); a command that
    only sets numba's thread count is no kernel module."""
    named = {m for m in graph.modules if m.rpartition(".")[2].endswith("_kernels")}
    numba = {i.importer for i in graph.imports if within(i.imported, "numba")}
    return named | (numba & graph.compiling)


def node_of(module: str) -> str:
    """The folder a module counts in for folder cycles: its package for a module inside a
    sub-folder (``gamesolve.solve.mccfr`` -> ``gamesolve.solve``), the module itself at the
    top of a distribution (``gamesolve.cli``, ``gamesolve.errors``): the top level holds both
    the command line and the basics everything imports, which are different layers."""
    parts = module.split(".")
    return ".".join(parts[:2])


# -- the rules: each returns the imports (or cycles) that break it ----------------------------


def core_imports_of_plugins(graph: ImportGraph) -> set[tuple[str, str]]:
    """The core names no plugin: games reach it through hooks and registries."""
    return {(i.importer, i.imported) for i in graph.imports
            if in_core(i.importer) and any(within(i.imported, p) for p in PLUGIN_PACKAGES)}  # fmt: skip


def store_imports_of_solvers(graph: ImportGraph) -> set[tuple[str, str]]:
    """Stores hold what solvers write; they never import a solver."""
    return {(i.importer, i.imported) for i in graph.imports
            if within(i.importer, f"{CORE}.store") and within(i.imported, f"{CORE}.solve")}  # fmt: skip


def kernel_imports_of_the_command_line(graph: ImportGraph) -> set[tuple[str, str]]:
    """numba kernel modules import neither click nor the core's command line."""
    kernels = kernel_modules(graph)
    return {(i.importer, i.imported) for i in graph.imports if i.importer in kernels and is_command_line(i.imported)}


KERNELS = f"{CORE}.solve.kernels"
KERNEL_LIBRARIES = frozenset({"numpy", "numba"})  # beside the standard library


def kernel_folder_imports_beyond_arrays(graph: ImportGraph, core_allowed: set[str]) -> set[tuple[str, str]]:
    """The solvers' kernel folder (``gamesolve/solve/kernels/``) is numba only: its modules
    import numpy, numba and the standard library, and of the core only ``core_allowed``
    (folders or modules: the basics and ``game/``) and their own folder; no driver of
    ``solve/``, no attrs, no click."""
    out = set()
    for i in graph.imports:
        if not within(i.importer, KERNELS):
            continue
        top = i.imported.split(".")[0]
        if top == CORE:
            ok = within(i.imported, KERNELS) or any(within(i.imported, c) for c in core_allowed)
        else:
            ok = top in KERNEL_LIBRARIES or top in sys.stdlib_module_names
        if not ok:
            out.add((i.importer, i.imported))
    return out


def command_line_imports_below_the_top_level(graph: ImportGraph) -> set[tuple[str, str]]:
    """Only the top-level command line (:func:`is_top_level_command_line`) imports click,
    ``gamesolve.cli*`` or ``gamesolve.commands``; library code raises :mod:`gamesolve.errors`
    and takes plain values."""
    return {(i.importer, i.imported) for i in graph.imports
            if (in_core(i.importer) or in_plugin(i.importer)) and not is_top_level_command_line(i.importer)
            and is_command_line(i.imported)}  # fmt: skip


def cycles(edges: dict[str, set[str]]) -> set[frozenset[str]]:
    """The strongly connected components of more than one node (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[frozenset[str]] = set()
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.add(top)
                    if top == node:
                        break
                if len(component) > 1:
                    found.add(frozenset(component))
    return found


def module_cycles(graph: ImportGraph, package: str) -> set[frozenset[str]]:
    """Modules of ``package`` that import each other, directly or round a loop."""
    edges = {m: {t for t in ts if within(t, package)} for m, ts in graph.edges().items() if within(m, package)}
    return cycles(edges)


def folder_cycles(graph: ImportGraph, package: str) -> set[frozenset[str]]:
    """Folders of ``package`` (see :func:`node_of`) that import each other."""
    edges: dict[str, set[str]] = {}
    for module, targets in graph.edges().items():
        if within(module, package):
            edges.setdefault(node_of(module), set()).update(
                node_of(t) for t in targets if within(t, package) and node_of(t) != node_of(module))
    return cycles(edges)


def layer_breaches(graph: ImportGraph, layers: dict[str, set[str] | None]) -> set[tuple[str, str]]:
    """Imports between core folders that ``layers`` (folder -> the folders it may import;
    None: any) does not allow; a folder may always import itself. A folder without an entry
    is reported by its first import of another folder."""
    out = set()
    for i in graph.imports:
        if not (in_core(i.importer) and in_core(i.imported) and i.imported in graph.modules):
            continue
        source, target = node_of(i.importer), node_of(i.imported)
        if source == target:
            continue
        allowed = layers.get(source, set())
        if allowed is not None and target not in allowed:
            out.add((i.importer, i.imported))
    return out
