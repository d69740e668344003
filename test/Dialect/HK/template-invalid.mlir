// RUN: hk-opt %s -split-input-file -verify-diagnostics

// A template's declaration (hk.params, hk.constraints) is checked whenever
// the module is verified, not only when an instance is made
// (include/hk/Dialect/HK/Template.h, verifyTemplate). Verified after
// parsing, the text is gone: errors are located at the module that carries
// the attributes, and name the parameter or the constraint.

// A well-formed template verifies.
module attributes {hk.params = {
    R = {values = [16, 32, 64], default = 32, doc = "rows per wave"},
    W = {min = 1, max = 8, default = 4},
    OP = {values = ["mulf", "addf"], default = "mulf"}},
  hk.constraints = ["R * W <= 256", "OP == \"mulf\" || W <= 4"]} {
}

// -----

// expected-error @+1 {{'hk.params' must be a non-empty dictionary}}
module attributes {hk.params = {}} {
}

// -----

// expected-error @+1 {{'hk.params' must be a non-empty dictionary}}
module attributes {hk.params = [1, 2]} {
}

// -----

// expected-error @+1 {{parameter 'R' must be declared by a dictionary}}
module attributes {hk.params = {R = 32}} {
}

// -----

// expected-error @+1 {{parameter 'B-M': a name is a letter or _ followed by letters, digits and _}}
module attributes {hk.params = {"B-M" = {values = [1, 2], default = 1}}} {
}

// -----

// expected-error @+1 {{parameter 'R': unknown key 'step' (values, min, max, default, doc)}}
module attributes {hk.params = {R = {values = [1, 2], default = 1, step = 1}}} {
}

// -----

// expected-error @+1 {{parameter 'R' has both 'values' and a range}}
module attributes {hk.params = {R = {values = [1, 2], min = 1, max = 2, default = 1}}} {
}

// -----

// expected-error @+1 {{parameter 'R': 'values' must be an array}}
module attributes {hk.params = {R = {values = 4, default = 4}}} {
}

// -----

// expected-error @+1 {{parameter 'R': 'values' is empty}}
module attributes {hk.params = {R = {values = [], default = 4}}} {
}

// -----

// Types: integers or keywords, not both, not booleans or floats.
// expected-error @+1 {{parameter 'R': 'values' must be all integers or all strings}}
module attributes {hk.params = {R = {values = [1, "two"], default = 1}}} {
}

// -----

// expected-error @+1 {{parameter 'R': 'values' must be all integers or all strings}}
module attributes {hk.params = {R = {values = [true, false], default = true}}} {
}

// -----

// expected-error @+1 {{parameter 'R': 'values' must be all integers or all strings}}
module attributes {hk.params = {R = {values = [1.5], default = 1.5}}} {
}

// -----

// expected-error @+1 {{parameter 'R': value 2 listed twice}}
module attributes {hk.params = {R = {values = [1, 2, 2], default = 1}}} {
}

// -----

// expected-error @+1 {{parameter 'OP': the keyword '' is empty or holds a quote}}
module attributes {hk.params = {OP = {values = ["mulf", ""], default = "mulf"}}} {
}

// -----

// A range: integer bounds, in order.
// expected-error @+1 {{parameter 'W' needs 'values' or integer 'min' and 'max'}}
module attributes {hk.params = {W = {min = 1, default = 1}}} {
}

// -----

// expected-error @+1 {{parameter 'W' needs 'values' or integer 'min' and 'max'}}
module attributes {hk.params = {W = {min = 1, max = "eight", default = 1}}} {
}

// -----

// expected-error @+1 {{parameter 'W': 'min' is above 'max'}}
module attributes {hk.params = {W = {min = 8, max = 1, default = 4}}} {
}

// -----

// The default: present, of the values' kind, among them.
// expected-error @+1 {{parameter 'R' needs a 'default' of its values' kind}}
module attributes {hk.params = {R = {values = [16, 32]}}} {
}

// -----

// expected-error @+1 {{parameter 'R' needs a 'default' of its values' kind}}
module attributes {hk.params = {R = {values = [16, 32], default = "16"}}} {
}

// -----

// expected-error @+1 {{parameter 'R': default 48 is not one of 16, 32}}
module attributes {hk.params = {R = {values = [16, 32], default = 48}}} {
}

// -----

// expected-error @+1 {{parameter 'W': default 9 is outside 1 to 8}}
module attributes {hk.params = {W = {min = 1, max = 8, default = 9}}} {
}

// -----

// expected-error @+1 {{parameter 'R': 'doc' must be a string}}
module attributes {hk.params = {R = {values = [16, 32], default = 16, doc = 3}}} {
}

// -----

// Unique names: MLIR's dictionaries already refuse a repeated key.
// expected-error @+2 {{duplicate key 'R' in dictionary attribute}}
module attributes {hk.params = {R = {values = [16], default = 16},
                                R = {values = [32], default = 32}}} {
}

// -----

// Constraints: strings, beside hk.params, expressions that parse, of
// declared parameters, true at the defaults.
// expected-error @+1 {{'hk.constraints' without 'hk.params'}}
module attributes {hk.constraints = ["1 < 2"]} {
}

// -----

// expected-error @+1 {{'hk.constraints' must be an array of strings}}
module attributes {hk.params = {R = {values = [16, 32], default = 16}},
                   hk.constraints = [1]} {
}

// -----

// expected-error @+1 {{in 'R * <= 64': unexpected '<= 64'}}
module attributes {hk.params = {R = {values = [16, 32], default = 16}},
                   hk.constraints = ["R * <= 64"]} {
}

// -----

// expected-error @+1 {{in 'R * Q <= 64': 'Q' is not a parameter}}
module attributes {hk.params = {R = {values = [16, 32], default = 16}},
                   hk.constraints = ["R * Q <= 64"]} {
}

// -----

// An undeclared name is refused even where it cannot change the result.
// expected-error @+1 {{in 'R <= 64 || Q == 1': 'Q' is not a parameter}}
module attributes {hk.params = {R = {values = [16, 32], default = 16}},
                   hk.constraints = ["R <= 64 || Q == 1"]} {
}

// -----

// expected-error @+1 {{constraint 'OP' gives a keyword, not a truth value}}
module attributes {hk.params = {OP = {values = ["mulf", "addf"], default = "mulf"}},
                   hk.constraints = ["OP"]} {
}

// -----

// The default instance must satisfy every constraint.
// expected-error @+1 {{constraint 'R * W <= 256' fails for the defaults R=64, W=8}}
module attributes {hk.params = {R = {values = [16, 32, 64], default = 64},
                                W = {min = 1, max = 8, default = 8}},
                   hk.constraints = ["R * W <= 256"]} {
}

// -----

// The declaration belongs on a module.
module {
  // expected-error @+1 {{'func.func' op attribute 'hk.params' belongs on a builtin.module}}
  func.func @f() attributes {hk.params = {R = {values = [16], default = 16}}} {
    return
  }
}
