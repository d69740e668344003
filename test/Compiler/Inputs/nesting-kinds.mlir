// Three levels at most outside strings and comments: {{{{ (((( <<<< [[[[
func.func @f(%a: memref<4xf32>) -> (i32) attributes {s = "{{{{ (((( \" [[[[", m = affine_set<(d0) : (d0 - 1 >= 0)>} {
  %c = arith.constant 0 : i32
  return %c : i32
}
// The fourth level: its `<`.
func.func @g(%a: memref<tensor<vector<4xf32>>>)
