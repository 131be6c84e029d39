"""Solvers: the drivers (trainers, solver specs, schedules, stop handling, checkpoints) that
run the numba kernels of :mod:`gamesolve.solve.kernels` over compiled forms, and the specs
that register them. Training on a Ray cluster is :mod:`gamesolve.distribute`'s, above this
package, through the interface of :mod:`gamesolve.solve.trainer`."""

from gamesolve.solve.spec import SolveRequest, SolverSpec

__all__ = ["SolveRequest", "SolverSpec"]
