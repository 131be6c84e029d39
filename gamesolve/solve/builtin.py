"""The core's own solvers, registered through the plugin hooks like any plugin's."""

from gamesolve.hookspecs import hookimpl
from gamesolve.solve.mccfr_solver import mccfr_solver_specs
from gamesolve.solve.tabular import tabular_solver_specs
from gamesolve.solve.vcfr import vcfr_solver_spec


@hookimpl
def gamesolve_register_solvers(register):
    for spec in tabular_solver_specs() + [vcfr_solver_spec()] + mccfr_solver_specs():
        register(spec)
