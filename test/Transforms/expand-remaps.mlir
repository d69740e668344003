// RUN: hk-opt %s --hk-expand-remaps | FileCheck %s

// The remaps become index arithmetic with HipKittens' formulas; no hk op is
// left. (expand-remaps-exec.mlir runs them against HK's code.)

// CHECK-LABEL: func.func @xcd
// CHECK-SAME: (%[[ID:.*]]: index, %[[N:.*]]: index)
// CHECK-DAG: %[[BLOCK:.*]] = arith.constant 512 : index
// CHECK-DAG: %[[X:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[C:.*]] = arith.constant 64 : index
// limit = (count / (xcds*chunk)) * (xcds*chunk)
// CHECK: %[[FULL:.*]] = arith.divui %[[N]], %[[BLOCK]]
// CHECK: %[[LIMIT:.*]] = arith.muli %[[FULL]], %[[BLOCK]]
// new = (id / 512) * 512 + (id % 8) * 64 + (id / 8) % 64
// CHECK: %[[B0:.*]] = arith.divui %[[ID]], %[[BLOCK]]
// CHECK: %[[BASE:.*]] = arith.muli %[[B0]], %[[BLOCK]]
// CHECK: %[[XCD:.*]] = arith.remui %[[ID]], %[[X]]
// CHECK: %[[LOCAL:.*]] = arith.divui %[[ID]], %[[X]]
// CHECK: %[[POS:.*]] = arith.remui %[[LOCAL]], %[[C]]
// CHECK: %[[OFF:.*]] = arith.muli %[[XCD]], %[[C]]
// CHECK: %[[S:.*]] = arith.addi %[[BASE]], %[[OFF]]
// CHECK: %[[NEW:.*]] = arith.addi %[[S]], %[[POS]]
// ids from the limit on stay as they are
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[ID]], %[[LIMIT]]
// CHECK: %[[R:.*]] = arith.select %[[IN]], %[[NEW]], %[[ID]]
// CHECK: return %[[R]]
// CHECK-NOT: hk.
func.func @xcd(%id: index, %n: index) -> index {
  %r = hk.xcd_remap %id, %n xcds = 8, chunk = 64
  return %r : index
}

// CHECK-LABEL: func.func @group
// CHECK-SAME: (%[[ID:.*]]: index, %[[ROWS:.*]]: index, %[[COLS:.*]]: index)
// CHECK: %[[G:.*]] = arith.constant 4 : index
// CHECK: %[[PER:.*]] = arith.muli %[[G]], %[[COLS]]
// CHECK: %[[GID:.*]] = arith.divui %[[ID]], %[[PER]]
// CHECK: %[[FIRST:.*]] = arith.muli %[[GID]], %[[G]]
// the last group holds rows - first rows; at least 1 past the grid
// CHECK: %[[LEFT:.*]] = arith.subi %[[ROWS]], %[[FIRST]]
// CHECK: %[[MIN:.*]] = arith.minsi %[[LEFT]], %[[G]]
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: %[[SIZE:.*]] = arith.maxsi %[[MIN]], %[[ONE]]
// CHECK: %[[IN:.*]] = arith.remui %[[ID]], %[[PER]]
// CHECK: %[[RR:.*]] = arith.remui %[[IN]], %[[SIZE]]
// CHECK: %[[ROW:.*]] = arith.addi %[[FIRST]], %[[RR]]
// CHECK: %[[COL:.*]] = arith.divui %[[IN]], %[[SIZE]]
// CHECK: return %[[ROW]], %[[COL]]
func.func @group(%id: index, %rows: index, %cols: index) -> (index, index) {
  %row, %col = hk.group_remap %id, %rows, %cols group = 4
  return %row, %col : index, index
}

// Inside a kernel, fed by the block id as HK's GEMM does.
// CHECK-LABEL: hk.kernel @gemm_ids
// CHECK: %[[BX:.*]] = hk.block_id x
// CHECK: %[[NX:.*]] = hk.num_blocks x
// CHECK: arith.cmpi ult, %[[BX]]
// CHECK: %[[WG:.*]] = arith.select
// CHECK: arith.divui %[[WG]]
// CHECK-NOT: hk.xcd_remap
// CHECK-NOT: hk.group_remap
// CHECK: hk.return
hk.kernel @gemm_ids(%m: index, %n: index) attributes {
    waves = 8 : i32, grid = #hk.grid<[] -> (64)>} {
  %bx = hk.block_id x
  %nx = hk.num_blocks x
  %wg = hk.xcd_remap %bx, %nx xcds = 8, chunk = 64
  %row, %col = hk.group_remap %wg, %m, %n group = 8
  hk.return
}
