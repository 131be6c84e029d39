"""The solvers' numba kernels: plain functions over arrays and the typed bundles
(namedtuples of arrays and scalars) they take. No attrs records, no click, no driver: a
kernel module imports numpy, numba, the basics and the compiled forms of ``game/`` only
(tests/test_architecture.py). The drivers that own the tables and run the kernels are
in :mod:`gamesolve.solve`."""
