"""Solvers: numba kernels over compiled forms, and the specs that register them."""

from gamesolve.solve.spec import SolveRequest, SolverSpec

__all__ = ["SolveRequest", "SolverSpec"]
