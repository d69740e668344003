//===- HKAtomicOps.td - scalar atomics on global memory -----*- tablegen -*-===//
//
// Atomics on one element of global memory, made once per wave, whose old
// value every lane of the wave receives: a counter that hands out work
// items or counts finished workgroups. Included from HKOps.td.
//===----------------------------------------------------------------------===//

#ifndef HK_ATOMIC_OPS_TD
#define HK_ATOMIC_OPS_TD

def HK_FetchAddOp : HK_Op<"fetch_add"> {
  let summary = "adds an i32 to one element of global memory once per wave and returns the old value";
  let description = [{
    Adds `value` to the element of `dest` at `indices` with one atomic
    integer add per wave (made by the wave's first active lane, not by each
    lane) and returns the element's value before the add to every lane of
    the wave: waves that add 1 to a counter zeroed before the launch
    receive 0, 1, 2, ..., each value once. `value` and `indices` are the
    first active lane's (they are meant to be the same in every lane).

    Every wave makes its own add, so the waves of one workgroup receive
    different values: the result is uniform over the wave, not over the
    workgroup, and `hk-verify-barriers` refuses a loop or branch holding a
    barrier that it bounds. A workgroup that needs one value for all its
    waves has one wave add and hands the value on itself.

    `dest` is an `i32` memref in global memory (the default memory space),
    indexed by one index per dimension; an index outside it is undefined
    behaviour, as for `memref.load`. The add is an LLVM `atomicrmw add`
    (acquire-release, system scope): `global_atomic_add ... sc0 sc1` (sc0:
    the old value returned) between the `buffer_wbl2` and `buffer_inv`
    that the chip's memory model asks for around it.
    ```mlir
    %one = arith.constant 1 : i32
    %t = hk.fetch_add %one, %counter[%c0] : memref<?xi32>
    ```
  }];
  let arguments = (ins I32:$value,
    Arg<HK_Global, "", [MemRead, MemWrite]>:$dest, Variadic<Index>:$indices);
  let results = (outs I32:$old);
  let assemblyFormat = [{
    $value `,` $dest `[` $indices `]` attr-dict `:` type($dest)
  }];
  let hasVerifier = 1;
}

#endif // HK_ATOMIC_OPS_TD
