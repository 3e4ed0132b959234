//===- MathToAMDGPU.cpp - Activations and transcendental functions --------===//
//
// tanh, sigmoid, silu, erf, the two GELUs, sin, cos and rsqrt, built from
// the chips' transcendental instructions (v_exp_f32, v_rcp_f32, v_rsq_f32,
// v_sin_f32, v_cos_f32) and short polynomials, branch-free: every lane
// computes the pieces of each range and selects. The error bounds the ops
// document come from evaluating these formulas in f32 with 1-ULP
// instructions; the polynomial coefficients were fitted (weighted least
// squares towards minimax, in double) for this file.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <cmath>

using namespace mlir;
using namespace hk;
using namespace hk::lowering;

namespace {

constexpr double kLog2E = 1.4426950408889634;

/// tanh(x) = x + x^3 P(x^2) for |x| < kTanhSmall; P highest degree first.
constexpr double kTanhSmall = 0.625;
constexpr float kTanhP[] = {-0.006096928846091032f, 0.020997347310185432f,
                            -0.05385095253586769f, 0.13332770764827728f,
                            -0.333333283662796f};
/// erf(t) = t + t P(t^2) for 0 <= t < 1.
constexpr float kErfP[] = {7.889109110692516e-05f, -0.0008020838140510023f,
                           0.005189535208046436f,  -0.026854444295167923f,
                           0.11283600330352783f,   -0.3761262595653534f,
                           0.12837916612625122f};
/// erfc(t) = 2^Q(t) for 1 <= t < kErfLarge; erf(t) rounds to 1 beyond.
constexpr double kErfLarge = 4.0;
constexpr float kErfcQ[] = {
    2.308066314071766e-06f, -6.535164720844477e-05f, 0.0008514859946444631f,
    -0.006820625625550747f, 0.037982627749443054f,   -0.15856629610061646f,
    -0.9118025898933411f,   -1.6304181814193726f,    0.0004198745882604271f};

/// Builds f32 vector arithmetic of one shape.
struct MathBuilder {
  OpBuilder &b;
  Location loc;
  VectorType type;

  Value c(double value) const {
    return arith::ConstantOp::create(
        b, loc, type,
        DenseElementsAttr::get(type, b.getF32FloatAttr(value).getValue()));
  }
  Value add(Value x, Value y) const {
    return arith::AddFOp::create(b, loc, x, y);
  }
  Value sub(Value x, Value y) const {
    return arith::SubFOp::create(b, loc, x, y);
  }
  Value mul(Value x, Value y) const {
    return arith::MulFOp::create(b, loc, x, y);
  }
  Value fma(Value x, Value y, Value z) const {
    return math::FmaOp::create(b, loc, x, y, z);
  }
  Value abs(Value x) const { return math::AbsFOp::create(b, loc, x); }
  Value floor(Value x) const { return math::FloorOp::create(b, loc, x); }
  Value copySign(Value magnitude, Value sign) const {
    return math::CopySignOp::create(b, loc, magnitude, sign);
  }
  Value cmp(arith::CmpFPredicate predicate, Value x, Value y) const {
    return arith::CmpFOp::create(b, loc, predicate, x, y);
  }
  Value select(Value condition, Value x, Value y) const {
    return arith::SelectOp::create(b, loc, condition, x, y);
  }
  /// Horner's rule with fused multiply-adds.
  Value poly(ArrayRef<float> coefficients, Value z) const {
    Value acc = c(coefficients.front());
    for (float coefficient : coefficients.drop_front())
      acc = fma(acc, z, c(coefficient));
    return acc;
  }

  // The chips' instructions, one lane element at a time.
  Value exp2(Value x) const {
    return mapElements(b, loc, x, [&](Value s) -> Value {
      return ROCDL::ROCDLExp2::create(b, loc, s.getType(), s);
    });
  }
  Value rcp(Value x) const {
    return mapElements(b, loc, x, [&](Value s) -> Value {
      return ROCDL::ROCDLRcp::create(b, loc, s.getType(), s);
    });
  }
  Value rsq(Value x) const {
    return mapElements(b, loc, x, [&](Value s) -> Value {
      return LLVM::CallIntrinsicOp::create(b, loc, s.getType(),
                                           b.getStringAttr("llvm.amdgcn.rsq"),
                                           ValueRange{s})
          .getResult(0);
    });
  }
  /// sin or cos of `revolutions` turns (v_sin_f32 / v_cos_f32).
  Value turn(Value revolutions, bool cosine) const {
    return mapElements(b, loc, revolutions, [&](Value s) -> Value {
      if (cosine)
        return ROCDL::ROCDLCos::create(b, loc, s.getType(), s);
      return ROCDL::ROCDLSin::create(b, loc, s.getType(), s);
    });
  }
};

using Predicate = arith::CmpFPredicate;

/// 1 / (1 + e^-x), as 1/(1+t) or t/(1+t) with t = e^-|x| <= 1: a negative
/// x keeps the relative accuracy of the tiny result. NaN reaches t.
Value sigmoid(const MathBuilder &m, Value x) {
  Value t = m.exp2(m.mul(m.abs(x), m.c(-kLog2E)));
  Value s = m.rcp(m.add(m.c(1.0), t));
  return m.select(m.cmp(Predicate::OGE, x, m.c(0.0)), s, m.mul(t, s));
}

Value silu(const MathBuilder &m, Value x) { return m.mul(x, sigmoid(m, x)); }

Value tanh(const MathBuilder &m, Value x) {
  Value a = m.abs(x);
  Value z = m.mul(x, x);
  Value small = m.fma(m.mul(x, z), m.poly(kTanhP, z), x);
  Value t = m.exp2(m.mul(a, m.c(-2.0 * kLog2E)));
  Value large =
      m.copySign(m.mul(m.sub(m.c(1.0), t), m.rcp(m.add(m.c(1.0), t))), x);
  // NaN fails the compare and takes the large branch, where it stays NaN.
  return m.select(m.cmp(Predicate::OLT, a, m.c(kTanhSmall)), small, large);
}

/// erf(t) and erfc(t) for t >= 0 (or NaN, which both keep).
std::pair<Value, Value> erfPieces(const MathBuilder &m, Value t) {
  Value small = m.fma(t, m.poly(kErfP, m.mul(t, t)), t);
  Value tail = m.exp2(m.poly(kErfcQ, t));
  Value isLarge = m.cmp(Predicate::OGE, t, m.c(kErfLarge));
  Value isMiddle = m.cmp(Predicate::OGE, t, m.c(1.0));
  Value erf = m.select(isLarge, m.c(1.0),
                       m.select(isMiddle, m.sub(m.c(1.0), tail), small));
  Value erfc = m.select(isLarge, m.c(0.0),
                        m.select(isMiddle, tail, m.sub(m.c(1.0), small)));
  return {erf, erfc};
}

Value erf(const MathBuilder &m, Value x) {
  return m.copySign(erfPieces(m, m.abs(x)).first, x);
}

/// x/2 (1 + erf(x/sqrt 2)); for negative x the sum is erfc(|x|/sqrt 2).
Value gelu(const MathBuilder &m, Value x) {
  auto [erfT, erfcT] = erfPieces(m, m.mul(m.abs(x), m.c(M_SQRT1_2)));
  Value weight = m.select(m.cmp(Predicate::OGE, x, m.c(0.0)),
                          m.add(m.c(1.0), erfT), erfcT);
  return m.mul(m.mul(x, m.c(0.5)), weight);
}

/// x/2 (1 + tanh(v/2)) = x sigmoid(v), v = 2 sqrt(2/pi) (x + 0.044715 x^3).
Value geluTanh(const MathBuilder &m, Value x) {
  double k = 2.0 * std::sqrt(2.0 / M_PI);
  Value v = m.mul(x, m.fma(m.mul(x, x), m.c(k * 0.044715), m.c(k)));
  return m.mul(x, sigmoid(m, v));
}

/// x / 2pi in revolutions, its product's rounding error kept in a second
/// term (the constant split in two f32 parts), the whole turns dropped.
Value sinCos(const MathBuilder &m, Value x, bool cosine) {
  double inverse = 1.0 / (2.0 * M_PI);
  float hiConstant = float(inverse);
  double loConstant = inverse - double(hiConstant);
  Value hi = m.mul(x, m.c(hiConstant));
  Value lo =
      m.fma(x, m.c(loConstant), m.fma(x, m.c(hiConstant), m.sub(m.c(0.0), hi)));
  Value fraction = m.sub(hi, m.floor(hi));
  return m.turn(m.add(fraction, lo), cosine);
}

Value sin(const MathBuilder &m, Value x) { return sinCos(m, x, false); }
Value cos(const MathBuilder &m, Value x) { return sinCos(m, x, true); }

/// v_rsq_f32 flushes tiny inputs; they are scaled by 2^24 first and the
/// result by 2^12.
Value rsqrt(const MathBuilder &m, Value x) {
  Value tiny = m.cmp(Predicate::OLT, x, m.c(std::ldexp(1.0, -126)));
  Value scaled = m.select(tiny, m.mul(x, m.c(std::ldexp(1.0, 24))), x);
  Value r = m.rsq(scaled);
  return m.select(tiny, m.mul(r, m.c(std::ldexp(1.0, 12))), r);
}

/// Computes in f32 and rounds once to a narrow element type.
template <typename SourceOp, Value (*fn)(const MathBuilder &, Value)>
struct MathLowering : public OpConversionPattern<SourceOp> {
  using OpConversionPattern<SourceOp>::OpConversionPattern;
  using OpAdaptor = typename SourceOp::Adaptor;

  LogicalResult
  matchAndRewrite(SourceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<VectorType>(adaptor.getSource().getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "operand not lowered");
    Location loc = op.getLoc();
    MathBuilder m{rewriter, loc,
                  VectorType::get(type.getShape(), rewriter.getF32Type())};
    Value x = convertElements(rewriter, loc, adaptor.getSource(),
                              rewriter.getF32Type());
    rewriter.replaceOp(
        op, convertElements(rewriter, loc, fn(m, x), type.getElementType()));
    return success();
  }
};

} // namespace

void lowering::populateMathPatterns(HKTypeConverter &converter,
                                    RewritePatternSet &patterns) {
  patterns.add<MathLowering<TanhOp, tanh>, MathLowering<SigmoidOp, sigmoid>,
               MathLowering<SiluOp, silu>, MathLowering<ErfOp, erf>,
               MathLowering<GeluOp, gelu>, MathLowering<GeluTanhOp, geluTanh>,
               MathLowering<SinOp, sin>, MathLowering<CosOp, cos>,
               MathLowering<RsqrtOp, rsqrt>>(converter, patterns.getContext());
}
