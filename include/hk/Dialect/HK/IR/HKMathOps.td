//===- HKMathOps.td - compare, select, iota, integer ops ---*- tablegen -*-===//
//
// Element-by-element ops beyond float arithmetic: comparisons and the masks
// (i1 tiles) they make, selection, index tiles, integer arithmetic and bit
// reinterpretation. Included by HKOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef HK_MATH_OPS_TD
#define HK_MATH_OPS_TD

include "mlir/Dialect/Arith/IR/ArithBase.td"

//===----------------------------------------------------------------------===//
// Compare and select
//===----------------------------------------------------------------------===//

class HK_CompareOp<string mnemonic, Attr predicate, string doc>
    : HK_Op<mnemonic, [Pure, HK_SameLayout,
                       DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = doc;
  let arguments = (ins predicate:$predicate, HK_AnyRegister:$lhs,
                       AnyTypeOf<[HK_AnyRegister, AnyFloat,
                                  AnySignlessInteger]>:$rhs);
  let results = (outs HK_AnyRegister:$result);
  let assemblyFormat = [{
    $predicate `,` $lhs `,` $rhs attr-dict `:`
    custom<BinaryTypes>(type($lhs), type($rhs))
  }];
  let hasVerifier = 1;
}

def HK_CmpFOp : HK_CompareOp<"cmpf", Arith_CmpFPredicateAttr,
                             "compare float elements into a mask"> {
  let description = [{
    Compares two float register tiles (or vectors) of one type, or a tile and
    a scalar of its element type, element by element, with a predicate of
    `arith.cmpf`: ordered ones (`oeq`, `one`, `olt`, `ole`, `ogt`, `oge`,
    `ord`) are false when either operand is NaN, unordered ones (`ueq`,
    `une`, `ult`, `ule`, `ugt`, `uge`, `uno`) true. The result is a mask:
    an `i1` tile of the same shape and layout.

    ```mlir
    %m = hk.cmpf ogt, %x, %zero : !hk.rt<16x64xf32, row>, f32
    ```
  }];
}

def HK_CmpIOp : HK_CompareOp<"cmpi", Arith_CmpIPredicateAttr,
                             "compare integer elements into a mask"> {
  let description = [{
    Compares two i32 register tiles (or vectors), or a tile and an `i32`
    scalar, element by element: `eq`, `ne`, signed `slt`, `sle`, `sgt`,
    `sge` and unsigned `ult`, `ule`, `ugt`, `uge`. The result is an `i1`
    tile of the same shape and layout.

    ```mlir
    %diag = hk.cmpi eq, %rows, %cols : !hk.rt<16x16xi32, row>
    ```
  }];
}

def HK_SelectOp : HK_Op<"select", [Pure, HK_SameLayout,
    AllTypesMatch<["true_value", "false_value", "result"]>]> {
  let summary = "choose elements of two tiles by a mask";
  let description = [{
    Element `i` of the result is `true_value[i]` where `condition[i]` holds
    and `false_value[i]` elsewhere. The condition is an `i1` tile (or
    vector) of the same shape, usually made by `hk.cmpf` or `hk.cmpi`.

    ```mlir
    %y = hk.select %m, %x, %zeros
        : !hk.rt<16x64xi1, row>, !hk.rt<16x64xf32, row>
    ```
  }];
  let arguments = (ins HK_AnyRegister:$condition, HK_AnyRegister:$true_value,
                       HK_AnyRegister:$false_value);
  let results = (outs HK_AnyRegister:$result);
  let assemblyFormat = [{
    $condition `,` $true_value `,` $false_value attr-dict `:`
    qualified(type($condition)) `,` qualified(type($result))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Index tiles
//===----------------------------------------------------------------------===//

def HK_IotaOp : HK_Op<"iota", [Pure]> {
  let summary = "a tile of row or column indices, or a vector of indices";
  let description = [{
    `hk.iota rows` gives every element of a register tile its row index in
    the tile, `hk.iota cols` its column index; on a register vector (no
    keyword) element `i` is `i`. Element types `i32` and `f32` (exact).
    Add a tile's origin to get matrix coordinates.

    ```mlir
    %r = hk.iota rows : !hk.rt<16x64xi32, row>
    %c = hk.iota cols : !hk.rt<16x64xi32, row>
    %i = hk.iota : !hk.rv<64xi32>
    ```
  }];
  let arguments = (ins OptionalAttr<HK_Axis>:$axis);
  let results = (outs HK_AnyRegister:$result);
  let assemblyFormat = "($axis^)? attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Integer and mask arithmetic
//===----------------------------------------------------------------------===//

class HK_IntegerBinaryOp<string mnemonic, string doc, string what>
    : HK_BinaryOp<mnemonic, doc> {
  let description = [{
    Element by element on }] # what # [{; the right-hand side is a tile
    or vector of the same type, or a scalar of the element type:
    `%y = hk.}] # mnemonic # [{ %x, %s : !hk.rt<16x16xi32, row>, i32`.
  }];
}

def HK_AndOp : HK_IntegerBinaryOp<"and", "elementwise bitwise and",
                                  "i32 tiles or masks (i1)">;
def HK_OrOp : HK_IntegerBinaryOp<"or", "elementwise bitwise or",
                                 "i32 tiles or masks (i1)">;
def HK_XorOp : HK_IntegerBinaryOp<"xor", "elementwise bitwise exclusive or",
                                  "i32 tiles or masks (i1)">;
def HK_ShlOp : HK_IntegerBinaryOp<"shl", "elementwise shift left",
    "i32 tiles; the shift count is taken modulo 32, as the chips do">;
def HK_ShrSOp : HK_IntegerBinaryOp<"shrs",
    "elementwise arithmetic shift right",
    "i32 tiles (the sign bit fills); the count is taken modulo 32">;
def HK_ShrUOp : HK_IntegerBinaryOp<"shru", "elementwise logical shift right",
    "i32 tiles (zeros fill); the count is taken modulo 32">;
def HK_UMaxOp : HK_IntegerBinaryOp<"umax", "elementwise unsigned maximum",
                                   "i32 tiles read as unsigned">;
def HK_UMinOp : HK_IntegerBinaryOp<"umin", "elementwise unsigned minimum",
                                   "i32 tiles read as unsigned">;

//===----------------------------------------------------------------------===//
// Bits
//===----------------------------------------------------------------------===//

def HK_BitcastOp : HK_Op<"bitcast", [Pure, HK_SameLayout]> {
  let summary = "reinterpret the bits of every element";
  let description = [{
    Keeps every element's bits and reads them as another element type of
    the same width (f32 and i32): `hk.bitcast` of 16.0 is 1098907648.
    `hk.convert` converts values instead.

    ```mlir
    %b = hk.bitcast %x : !hk.rt<16x64xf32, row> -> !hk.rt<16x64xi32, row>
    ```
  }];
  let arguments = (ins HK_AnyRegister:$source);
  let results = (outs HK_AnyRegister:$result);
  let assemblyFormat = [{
    $source attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Activations and other transcendental functions
//===----------------------------------------------------------------------===//

// The bounds below hold for f32 results of the emitted code, taking each
// of the chips' v_exp_f32, v_rcp_f32 and v_rsq_f32 as 1 ULP (AMD's CDNA3
// ISA guide); the emulator computes them correctly rounded and the tests
// check the bounds there. Narrow floats compute in f32 and round once more
// (2^-8 |y| for bf16, 2^-11 |y| for f16). Results below 2^-126 may flush
// to zero.
class HK_MathOp<string mnemonic, string doc, string extraDoc>
    : HK_UnaryOp<mnemonic, doc, extraDoc>;

def HK_TanhOp : HK_MathOp<"tanh", "elementwise hyperbolic tangent", [{
    Odd polynomial below |x| = 0.625, `(1 - t) / (1 + t)` with
    `t = exp(-2|x|)` (v_exp_f32, v_rcp_f32) above.
    Error: `|err| <= 2^-21 |tanh(x)|`.
  }]>;
def HK_SigmoidOp : HK_MathOp<"sigmoid", "elementwise logistic sigmoid", [{
    `1 / (1 + t)` with `t = exp(-|x|)`, or `t / (1 + t)` for negative x
    (v_exp_f32, v_rcp_f32), so that tiny results keep their relative
    accuracy. Error: `|err| <= (6 + 2|x|) 2^-24 sigmoid(x)` (the `|x|` term
    is the rounding of the exponent `-|x| log2(e)`, whose error `exp`
    multiplies).
  }]>;
def HK_SiluOp : HK_MathOp<"silu", "elementwise x * sigmoid(x)", [{
    Error: `|err| <= (7 + 2|x|) 2^-24 |silu(x)|`; below x = -87 the
    sigmoid may flush to zero and so the result.
  }]>;
def HK_ErfOp : HK_MathOp<"erf", "elementwise error function", [{
    Odd polynomial below |x| = 1, `1 - 2^q(|x|)` with a polynomial `q`
    fitted to `log2 erfc` up to |x| = 4 (v_exp_f32), 1 beyond.
    Error: `|err| <= 2^-22 |erf(x)|`.
  }]>;
def HK_GeluOp : HK_MathOp<"gelu", "elementwise GELU, exact (erf) form", [{
    `x/2 (1 + erf(x / sqrt(2)))`, with `1 + erf(-t)` computed as
    `erfc(t)` (no cancellation for negative x) from the pieces of `hk.erf`.
    Error: `|err| <= (4 + 2 x^2) 2^-24 |gelu(x)| + 2^-24` (results below
    2^-24 in magnitude, x < -5.6, are 0).
  }]>;
def HK_GeluTanhOp : HK_MathOp<"gelu_tanh",
    "elementwise GELU, tanh approximation", [{
    `x/2 (1 + tanh(v/2))` with `v = 2 sqrt(2/pi) (x + 0.044715 x^3)`,
    computed as `x sigmoid(v)` (the same function, without cancellation).
    Error against that formula: `|err| <= (8 + 5|v|) 2^-24 |y|` (the
    sigmoid's bound at `v`, plus the rounding of `v`, which the sigmoid
    passes on multiplied by at most `|v|`).
  }]>;
def HK_SinOp : HK_MathOp<"sin", "elementwise sine", [{
    Reduces x to revolutions (`x / 2pi`, with the product's rounding error
    carried separately, so large arguments keep their accuracy) and uses
    v_sin_f32. Error: `|err| <= 2^-21` absolute, plus v_sin_f32's own error,
    which AMD does not publish.
  }]>;
def HK_CosOp : HK_MathOp<"cos", "elementwise cosine", [{
    As `hk.sin`, with v_cos_f32. Error: `|err| <= 2^-21` absolute, plus
    v_cos_f32's own error.
  }]>;

#endif // HK_MATH_OPS_TD
