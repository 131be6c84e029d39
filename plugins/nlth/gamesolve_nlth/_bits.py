"""Bit intrinsics for numba kernels: population count and count-trailing-zeros.

numba exposes no popcount; these map to LLVM's ``ctpop``/``cttz``, i.e. single POPCNT/TZCNT
instructions on x86-64, and inline into callers (so they work inside ``cache=True`` kernels).
Arguments are int64; pass ``np.int64(x)`` if in doubt.
"""

from __future__ import annotations

from llvmlite import ir
from numba.core import types
from numba.extending import intrinsic


@intrinsic
def popcount64(typingctx, x):
    """Number of set bits of an int64."""
    if not isinstance(x, types.Integer):
        return None
    sig = types.int64(x)

    def codegen(context, builder, signature, args):
        (val,) = args
        val = context.cast(builder, val, x, types.int64)
        return builder.ctpop(val)

    return sig, codegen


@intrinsic
def ctz64(typingctx, x):
    """Index of the lowest set bit of a non-zero int64 (undefined for 0)."""
    if not isinstance(x, types.Integer):
        return None
    sig = types.int64(x)

    def codegen(context, builder, signature, args):
        (val,) = args
        val = context.cast(builder, val, x, types.int64)
        return builder.cttz(val, ir.Constant(ir.IntType(1), 1))

    return sig, codegen
