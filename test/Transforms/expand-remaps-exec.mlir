// Runs the expanded remaps on the host. First a few grids checked by hand,
// then Inputs/remap_reference.py sweeps many grids (tails included) and
// compares every result with HipKittens' own formulas.

// RUN: hk-opt %s --hk-expand-remaps --convert-scf-to-cf \
// RUN:   --convert-vector-to-llvm --convert-arith-to-llvm --convert-cf-to-llvm \
// RUN:   --convert-func-to-llvm --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s

// RUN: python3 %S/Inputs/remap_reference.py emit \
// RUN: | hk-opt --hk-expand-remaps --convert-scf-to-cf \
// RUN:   --convert-vector-to-llvm --convert-arith-to-llvm --convert-cf-to-llvm \
// RUN:   --convert-func-to-llvm --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so \
// RUN: | python3 %S/Inputs/remap_reference.py check - \
// RUN: | FileCheck %s --check-prefix=SWEEP

// SWEEP: checked 22800 xcd_remap grids and 11840 group_remap grids: 0 errors

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c9 = arith.constant 9 : index
  %c10 = arith.constant 10 : index

  // 10 workgroups on 2 XCDs in chunks of 2: one full block of 4 ids on each
  // side of the remap ([0, 8)), ids 8 and 9 are the tail and stay.
  // XCD 0 runs ids 0, 2, 4, 6 and gets tiles 0, 1, 4, 5.
  // CHECK: 0, 2, 1, 3, 4, 6, 5, 7, 8, 9
  scf.for %id = %c0 to %c10 step %c1 {
    %new = hk.xcd_remap %id, %c10 xcds = 2, chunk = 2
    vector.print %new : index punctuation <comma>
  }
  vector.print punctuation <newline>

  // A 3x2 tile grid in groups of 2 rows: ids 0-3 walk rows 0-1 column by
  // column, ids 4-5 the last group of one row. Ids 6-8 are past the grid:
  // 6 and 7 land in columns 2 and 3, 8 in row 4 (a group that starts past
  // the rows).
  // CHECK-NEXT: 0, 0, 1, 0, 0, 1, 1, 1, 2, 0, 2, 1, 2, 2, 2, 3, 4, 0
  scf.for %id = %c0 to %c9 step %c1 {
    %row, %col = hk.group_remap %id, %c3, %c2 group = 2
    vector.print %row : index punctuation <comma>
    vector.print %col : index punctuation <comma>
  }
  vector.print punctuation <newline>
  return
}
