"""A software prefetch for kernels: ``prefetch(array, i)`` asks the processor to bring the cache
line of ``array[i]`` in (LLVM's ``llvm.prefetch``, read, high locality) and goes on at once.

For traversals whose next loads are known a few steps ahead (Issue #38: hold'em's MCCFR spent
most of its time waiting on loads one after another). A prefetch never faults; ``i`` is not
checked and takes no negative-index wraparound.
"""

from __future__ import annotations

from numba import types
from numba.core import cgutils
from numba.core.cgutils import ir  # llvmlite's IR builder, as numba's own code generation uses it (kernels import numba only)
from numba.extending import intrinsic


@intrinsic
def prefetch(typingctx, array, index):
    """Prefetch the cache line of ``array[index]`` (a 1-D array, an integer index)."""
    if not isinstance(array, types.Array) or array.ndim != 1 or not isinstance(index, types.Integer):
        return None
    sig = types.void(array, index)

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]], wraparound=False)
        i8p, i32 = ir.IntType(8).as_pointer(), ir.IntType(32)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]), "llvm.prefetch.p0i8")
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])  # read, high locality, data
        return context.get_dummy_value()

    return sig, codegen
