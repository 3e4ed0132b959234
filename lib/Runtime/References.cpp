//===- References.cpp - CPU references of the example kernels -------------===//

#include "hk/Runtime/References.h"

#include <cmath>
#include <limits>

using namespace hk;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Relative error of rounding a result to `out`: none for f32 outputs
/// (the f32 arithmetic terms cover them), one rounding otherwise.
static double outputRoundoff(const ElementType &out) {
  return out.name == "f32" ? 0 : out.unitRoundoff();
}

/// The output-rounding term of a tolerance rule, in words.
static std::string outputRule(const ElementType &out) {
  if (out.name == "f32")
    return "f32 output: ";
  return out.name + " output: 2^-" +
         std::to_string(-std::ilogb(outputRoundoff(out))) + "*|ref| + ";
}

static llvm::Error expectRank(const HostArray &array, size_t rank,
                              llvm::StringRef what) {
  if (array.getSizes().size() != rank)
    return makeError(what + " must have " + llvm::Twine(rank) +
                     " dimensions, got " +
                     llvm::Twine(array.getSizes().size()));
  return llvm::Error::success();
}

/// The smallest f32 subnormal: results that round to zero in f32.
static constexpr double kTiny = std::numeric_limits<float>::denorm_min();

llvm::Expected<Reference> hk::gemmReference(const HostArray &a,
                                            const HostArray &b, bool transposeB,
                                            const ElementType &out) {
  if (llvm::Error error = expectRank(a, 2, "A"))
    return std::move(error);
  if (llvm::Error error = expectRank(b, 2, "B"))
    return std::move(error);
  int64_t m = a.getSizes()[0], k = a.getSizes()[1];
  int64_t bk = b.getSizes()[transposeB ? 1 : 0];
  int64_t n = b.getSizes()[transposeB ? 0 : 1];
  if (bk != k)
    return makeError("A is " + llvm::Twine(m) + " x " + llvm::Twine(k) +
                     " but B has " + llvm::Twine(bk) + " along K");
  std::vector<double> av = a.getValues(), bv = b.getValues();
  // The bound covers f32 accumulation in any order (|error| <= K 2^-23
  // sum|a b|) and one rounding to the output type.
  Reference ref;
  ref.values.resize(m * n);
  ref.bounds.resize(m * n);
  double gamma = double(k) * std::ldexp(1.0, -23);
  double uOut = outputRoundoff(out);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0, magnitude = 0;
      for (int64_t kk = 0; kk < k; ++kk) {
        double p =
            av[i * k + kk] * (transposeB ? bv[j * k + kk] : bv[kk * n + j]);
        sum += p;
        magnitude += std::fabs(p);
      }
      ref.values[i * n + j] = sum;
      ref.bounds[i * n + j] =
          uOut * std::fabs(sum) + (1 + uOut) * gamma * magnitude + kTiny;
    }
  ref.rule = outputRule(out) + "K*2^-23*sum|a*b| (f32 accumulation)";
  return ref;
}

llvm::Expected<Reference>
hk::scaleAddReference(const HostArray &x, const HostArray &b, float alpha) {
  if (x.getNumElements() != b.getNumElements())
    return makeError("x and b differ in size");
  std::vector<double> xv = x.getValues(), bv = b.getValues();
  // Two f32 roundings at most (or one fused).
  Reference ref;
  for (size_t i = 0; i < xv.size(); ++i) {
    double ax = double(alpha) * xv[i];
    ref.values.push_back(ax + bv[i]);
    ref.bounds.push_back(
        std::ldexp(1.0, -23) * (std::fabs(ax) + std::fabs(bv[i])) + kTiny);
  }
  ref.rule = "f32: 2^-23*(|alpha*x| + |b|) (two roundings)";
  return ref;
}

llvm::Expected<Reference> hk::normReference(const HostArray &x,
                                            const HostArray &gamma,
                                            const HostArray *beta, float eps,
                                            const ElementType &out) {
  if (llvm::Error error = expectRank(x, 2, "x"))
    return std::move(error);
  int64_t m = x.getSizes()[0], n = x.getSizes()[1];
  if (gamma.getNumElements() != n || (beta && beta->getNumElements() != n))
    return makeError("gamma and beta must have one element per column of x");
  bool rms = !beta;
  std::vector<double> xv = x.getValues(), g = gamma.getValues();
  std::vector<double> bias = beta ? beta->getValues() : std::vector<double>(n);
  // Error model for f32 arithmetic (u = 2^-24): sums of N terms in any
  // order are within gamma = N*u relatively of the sum of magnitudes; the
  // mean is off by gamma*mean|x| + u*|mean|; the (centred) sum of squares
  // relatively by gamma + 4u, so rsqrt of it by half that plus 2^-23 for
  // rsqrt and 2u for adding eps; the final multiplies and adds cost 4u of
  // the magnitudes involved; a narrow output adds one rounding of |ref|.
  double u = std::ldexp(1.0, -24), gammaN = double(n) * u;
  double uOut = outputRoundoff(out);
  Reference ref;
  ref.values.resize(m * n);
  ref.bounds.resize(m * n);
  for (int64_t i = 0; i < m; ++i) {
    const double *row = xv.data() + i * n;
    double sum = 0, magnitude = 0;
    for (int64_t j = 0; j < n; ++j) {
      sum += row[j];
      magnitude += std::fabs(row[j]);
    }
    double mean = rms ? 0 : sum / double(n);
    double meanError =
        rms ? 0 : gammaN * magnitude / double(n) + u * std::fabs(mean);
    double squares = 0;
    for (int64_t j = 0; j < n; ++j)
      squares += (row[j] - mean) * (row[j] - mean);
    double scale = 1.0 / std::sqrt(squares / double(n) + double(eps));
    double scaleError = (gammaN + 4 * u) / 2 + std::ldexp(1.0, -23) + 2 * u;
    for (int64_t j = 0; j < n; ++j) {
      double z = (row[j] - mean) * scale;
      double want = z * g[j] + bias[j];
      ref.values[i * n + j] = want;
      ref.bounds[i * n + j] =
          uOut * std::fabs(want) +
          (1 + uOut) * (std::fabs(g[j]) *
                            (scale * meanError + std::fabs(z) * scaleError) +
                        4 * u * (std::fabs(z * g[j]) + std::fabs(bias[j]))) +
          kTiny;
    }
  }
  ref.rule = outputRule(out) +
             "f32 statistics over N terms (N*2^-24 relative) and 4 roundings";
  return ref;
}

llvm::Expected<Reference>
hk::attentionReference(const HostArray &q, const HostArray &k,
                       const HostArray &v, bool causal, const ElementType &out,
                       bool roundedSum) {
  for (auto [array, name] : {std::pair{&q, "Q"}, {&k, "K"}, {&v, "V"}})
    if (llvm::Error error = expectRank(*array, 3, name))
      return std::move(error);
  int64_t heads = q.getSizes()[0], nq = q.getSizes()[1], d = q.getSizes()[2];
  int64_t kvHeads = k.getSizes()[0], nk = k.getSizes()[1];
  if (k.getSizes() != v.getSizes() || k.getSizes()[2] != d)
    return makeError("K and V must both be KVH x Nk x d with Q's d");
  if (kvHeads < 1 || heads % kvHeads != 0)
    return makeError(llvm::Twine(heads) +
                     " query heads do not split into groups over " +
                     llvm::Twine(kvHeads) + " KV heads");
  int64_t group = heads / kvHeads;
  std::vector<double> qv = q.getValues(), kv = k.getValues(),
                      vv = v.getValues();
  auto at = [&](const std::vector<double> &values, int64_t row, int64_t c) {
    return values[row * d + c];
  };
  // Error model, per output row: the scores carry f32 dot-product error
  // (d*2^-24*sum|q k|) that exp2 turns into a relative error of the
  // weights (times ln 2, plus 2^-22 for exp2 and per rescale); P is rounded
  // to bf16 before P V (2^-8 of sum p|v|); sums over Nk keys in f32 add
  // Nk*2^-24; a narrow output one rounding. Normalised by the sum of the
  // rounded P' = P(1 + e) instead, the weights P'/sum(P') are off by
  // (e_j - mean(e)) / (1 + mean(e)): at most 2^-7 / (1 - 2^-8).
  double u = std::ldexp(1.0, -24);
  double uOut = outputRoundoff(out);
  double uP = std::ldexp(1.0, -8);
  if (roundedSum)
    uP = 2 * uP / (1 - uP);
  double scale = 1.0 / std::sqrt(double(d));
  Reference ref;
  ref.values.resize(heads * nq * d);
  ref.bounds.resize(heads * nq * d);
  std::vector<double> s(nk), p(nk);
  for (int64_t h = 0; h < heads; ++h)
    for (int64_t i = 0; i < nq; ++i) {
      int64_t qi = h * nq + i, kvRow = h / group * nk;
      int64_t keys = causal ? std::min(nk, i + 1) : nk;
      double maxScore = -INFINITY, scoreError = 0, maxV = 0;
      for (int64_t j = 0; j < keys; ++j) {
        double dot = 0, magnitude = 0;
        for (int64_t c = 0; c < d; ++c) {
          dot += at(qv, qi, c) * at(kv, kvRow + j, c);
          magnitude += std::fabs(at(qv, qi, c) * at(kv, kvRow + j, c));
        }
        s[j] = dot * scale;
        maxScore = std::max(maxScore, s[j]);
        scoreError = std::max(scoreError, scale * (double(d) * u * magnitude +
                                                   u * std::fabs(dot)) +
                                              u * std::fabs(s[j]));
      }
      double sum = 0;
      for (int64_t j = 0; j < keys; ++j) {
        p[j] = std::exp(s[j] - maxScore);
        sum += p[j];
      }
      double tiles = double((std::max<int64_t>(keys, 1) + 63) / 64);
      double weightError = 2 * scoreError + std::ldexp(1.0, -22) * (1 + tiles);
      for (int64_t c = 0; c < d; ++c) {
        double acc = 0, magnitude = 0;
        for (int64_t j = 0; j < keys; ++j) {
          double vj = at(vv, kvRow + j, c);
          acc += p[j] * vj;
          magnitude += p[j] * std::fabs(vj);
          maxV = std::max(maxV, std::fabs(vj));
        }
        double want = keys ? acc / sum : 0;
        double spread = keys ? magnitude / sum : 0;
        ref.values[qi * d + c] = want;
        ref.bounds[qi * d + c] =
            uOut * std::fabs(want) +
            (1 + uOut) * (uP * spread + 2 * weightError * maxV +
                          2 * double(keys) * u * spread) +
            kTiny;
      }
    }
  ref.rule = outputRule(out) +
             (roundedSum ? "2^-7*sum(p|v|)/l (P in bf16, l its sum)"
                         : "2^-8*sum(p|v|)/l (P in bf16)") +
             " + f32 score and sum error";
  return ref;
}
