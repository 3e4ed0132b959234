//===- DeviceModel.cpp - The device table, every figure with its source ---===//
//
// Sources, cited by these short names beside each figure:
//
//  [CDNA3-WP]  AMD, "AMD CDNA 3 Architecture" white paper (2023): XCDs, CUs
//              per XCD, the 4 MB 16-way L2 of 16 channels at 128 B/clk per
//              XCD, the 256 MB Infinity Cache at 17.2 TB/s peak, 64 KB LDS.
//  [CDNA4-WP]  AMD, "AMD CDNA 4 Architecture" white paper (2025): 32 CUs per
//              XCD on MI350X/MI355X, 160 KB LDS with 256 B/clk reads, the
//              unchanged 4 MB L2 per XCD and 256 MB Infinity Cache.
//  [MI300X-DS] [MI325X-DS] [MI350X-DS] [MI355X-DS]  AMD product data sheets:
//              peak engine clock, compute units, HBM peak bandwidth (5.3,
//              6.0, 8.0, 8.0 TB/s) and the dense matrix peaks the MFMA
//              cycles below reproduce (MI300X/MI325X bf16 1307.4 TFLOP/s;
//              MI355X bf16 2.5 PFLOP/s, fp8 5.0, fp6/fp4 10.0).
//  [MIC]       AMD Matrix Instruction Calculator, CDNA3 tables ("Execution
//              cycles"), as recorded in the oracles (mfma/gfx942/*.json,
//              field `cycles`; unittests/Timing checks this table against
//              them).
//  [LLVM-SCHED] LLVM 22, llvm/lib/Target/AMDGPU/SISchedule.td and the MFMA
//              definitions of VOP3PInstructions.td: passes per MFMA (the
//              XDL resource's release cycles, `llvm-mca -mcpu=gfx950
//              --instruction-info` prints them as RThroughput), 4 cycles
//              per pass; the transcendental write latency (WriteTrans32,
//              4 issue cycles). unittests/Timing checks the dense peaks
//              the MFMA cycles imply against the data sheets.
//  [GCN-WP]    AMD, "AMD Graphics Core Next Architecture" white paper
//              (2012), "Compute Unit": the sequencer visits each of the 4
//              SIMDs once every 4 cycles and issues up to one instruction
//              per type (vector ALU, scalar ALU/memory, vector memory, LDS,
//              branch, export/GDS) from different waves; a 16-lane SIMD runs
//              a wave64 VALU instruction over 4 cycles; transcendentals at
//              quarter rate. CDNA keeps this compute unit ([CDNA3-WP],
//              "Compute Unit").
//  [ROCPROF]   AMD, ROCm Compute Profiler (rocprofiler-compute): the
//              vector L1 serves one cache-line access per clock
//              ("vL1D Cache BW" in the speed-of-light configurations
//              src/rocprof_compute_soc/analysis_configs/<arch>/
//              0200_system-speed-of-light.yaml: peak sclk x 64 B x CUs
//              on gfx90a, sclk x 128 B x CUs on gfx942 and gfx950), and
//              the line is 128 B on MI300 and 64 B before it
//              (docs/conceptual/vector-l1-cache.rst). GCN's vector L1 (64
//              B lines) delivered 64 B/clk ([GCN-WP]).
//  [ISA]       AMD, "AMD Instinct MI300 ISA Reference Guide" (CDNA3) and
//              the CDNA4 one: s_sleep in units of 64 clocks; 8 waves per
//              SIMD; 512 unified VGPRs per lane (arch + AGPR).
//  [LLVM-BASE] LLVM 22, llvm/lib/Target/AMDGPU/Utils/AMDGPUBaseInfo.cpp:
//              VGPR allocation granule 8 and 512 per lane (gfx90a+), 800
//              SGPRs per SIMD in granules of 16 (gfx9), at most 16
//              workgroups of more than one wave per CU (barrier resources).
//  [STREAM]    Microsoft Azure ND MI300X v5 benchmark results (AI benchmarking
//              guide, "HBM Bandwidth"): a STREAM copy reaches 4.11 TB/s of
//              MI300X's 5.3 TB/s peak, 78%.
//  [MAF]       AMD, "Measuring Max-Achievable FLOPs - Part 2", ROCm blog
//              (2025), Table 1: hipBLASLt GEMMs (M=4096, N=4864 or 3648,
//              K=32896) and the median engine clock during them, MI300X
//              (750 W): f16 654 TFLOP/s at 1115 MHz, bf16 708 at 1207, fp8
//              1273 at 1230; MI325X (1000 W): f16 794 at 1354, bf16 843 at
//              1447, fp8 1519 at 1464. ("The power management system
//              reduces the clock speed when running dense tensor-core
//              logic".) The blog's footnote gives MI300X fp8 as 1223.6 at
//              1273 MHz; the table's figures are the ones used here.
//  [DRAM-WQ]   How DRAM controllers order writes behind reads, as two
//              public simulators model them: GPGPU-Sim 4 (gpu-sim.cc,
//              `-dram_write_queue_size`, default 32:28:16: a write queue
//              of 32 requests per memory channel, drained from 28 down to
//              16) and Ramulator 2 (the generic DRAM controller's
//              set_write_mode: writes wait in their own buffer and go out
//              when no read is waiting or the buffer is 80% full).
//
// Figures no public document gives (latencies, the L1 and scalar-cache
// geometry, launch and barrier overheads) are marked "assumption" with the
// reasoning behind the value. They are the first thing to revisit against
// measured times.
//
//===----------------------------------------------------------------------===//

#include "hk/Timing/DeviceModel.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <string>

using namespace hk;
using namespace hk::timing;

// MFMA cycles on CDNA3: [MIC] for every instruction the calculator covers
// (the oracle files), the same figure as [LLVM-SCHED] passes x 4 for all of
// them; [LLVM-SCHED] for the rest (4x4 and multi-block shapes, xf32, i8).
static const MfmaTiming gfx942Mfma[] = {
    {"v_mfma_f32_32x32x1_2b_f32", 64},   {"v_mfma_f32_16x16x1_4b_f32", 32},
    {"v_mfma_f32_4x4x1_16b_f32", 8},     {"v_mfma_f32_32x32x2_f32", 64},
    {"v_mfma_f32_16x16x4_f32", 32},      {"v_mfma_f32_32x32x4_2b_f16", 64},
    {"v_mfma_f32_16x16x4_4b_f16", 32},   {"v_mfma_f32_4x4x4_16b_f16", 8},
    {"v_mfma_f32_32x32x8_f16", 32},      {"v_mfma_f32_16x16x16_f16", 16},
    {"v_mfma_f32_32x32x4_2b_bf16", 64},  {"v_mfma_f32_16x16x4_4b_bf16", 32},
    {"v_mfma_f32_4x4x4_16b_bf16", 8},    {"v_mfma_f32_32x32x8_bf16", 32},
    {"v_mfma_f32_16x16x16_bf16", 16},    {"v_mfma_i32_32x32x4_2b_i8", 64},
    {"v_mfma_i32_16x16x4_4b_i8", 32},    {"v_mfma_i32_4x4x4_16b_i8", 8},
    {"v_mfma_i32_32x32x16_i8", 32},      {"v_mfma_i32_16x16x32_i8", 16},
    {"v_mfma_f32_16x16x32_fp8_fp8", 16}, {"v_mfma_f32_16x16x32_fp8_bf8", 16},
    {"v_mfma_f32_16x16x32_bf8_fp8", 16}, {"v_mfma_f32_16x16x32_bf8_bf8", 16},
    {"v_mfma_f32_32x32x16_fp8_fp8", 32}, {"v_mfma_f32_32x32x16_fp8_bf8", 32},
    {"v_mfma_f32_32x32x16_bf8_fp8", 32}, {"v_mfma_f32_32x32x16_bf8_bf8", 32},
    {"v_mfma_f64_16x16x4_f64", 32},      {"v_mfma_f64_4x4x4_4b_f64", 16},
    {"v_mfma_f32_32x32x4_xf32", 32},     {"v_mfma_f32_16x16x8_xf32", 16},
};

// MFMA cycles on CDNA4: [LLVM-SCHED] passes x 4. CDNA4 doubles the 16-bit
// rate only through its new shapes (16x16x32, 32x32x16), halves f64, and
// keeps the CDNA3 fp8 shapes at the 16-bit rate. The scaled f8f6f4 entries
// are their fp8 rate (LLVM's fp8/bf8 operand variants: 8 and 16 passes);
// fp6/fp4 operands take half (mfmaCycles), which is what MI355X's peaks say
// ([MI355X-DS]: fp8 5.0, fp6/fp4 10.0 PFLOP/s dense).
static const MfmaTiming gfx950Mfma[] = {
    {"v_mfma_f32_32x32x1_2b_f32", 64},
    {"v_mfma_f32_16x16x1_4b_f32", 32},
    {"v_mfma_f32_4x4x1_16b_f32", 8},
    {"v_mfma_f32_32x32x2_f32", 64},
    {"v_mfma_f32_16x16x4_f32", 32},
    {"v_mfma_f32_32x32x4_2b_f16", 64},
    {"v_mfma_f32_16x16x4_4b_f16", 32},
    {"v_mfma_f32_4x4x4_16b_f16", 8},
    {"v_mfma_f32_32x32x8_f16", 32},
    {"v_mfma_f32_16x16x16_f16", 16},
    {"v_mfma_f32_32x32x4_2b_bf16", 64},
    {"v_mfma_f32_16x16x4_4b_bf16", 32},
    {"v_mfma_f32_4x4x4_16b_bf16", 8},
    {"v_mfma_f32_32x32x8_bf16", 32},
    {"v_mfma_f32_16x16x16_bf16", 16},
    {"v_mfma_i32_32x32x4_2b_i8", 64},
    {"v_mfma_i32_16x16x4_4b_i8", 32},
    {"v_mfma_i32_4x4x4_16b_i8", 8},
    {"v_mfma_i32_32x32x16_i8", 32},
    {"v_mfma_i32_16x16x32_i8", 16},
    {"v_mfma_f32_16x16x32_fp8_fp8", 16},
    {"v_mfma_f32_16x16x32_fp8_bf8", 16},
    {"v_mfma_f32_16x16x32_bf8_fp8", 16},
    {"v_mfma_f32_16x16x32_bf8_bf8", 16},
    {"v_mfma_f32_32x32x16_fp8_fp8", 32},
    {"v_mfma_f32_32x32x16_fp8_bf8", 32},
    {"v_mfma_f32_32x32x16_bf8_fp8", 32},
    {"v_mfma_f32_32x32x16_bf8_bf8", 32},
    {"v_mfma_f64_16x16x4_f64", 64},
    {"v_mfma_f64_4x4x4_4b_f64", 16},
    {"v_mfma_f32_16x16x32_f16", 16},
    {"v_mfma_f32_32x32x16_f16", 32},
    {"v_mfma_f32_16x16x32_bf16", 16},
    {"v_mfma_f32_32x32x16_bf16", 32},
    {"v_mfma_i32_16x16x64_i8", 16},
    {"v_mfma_i32_32x32x32_i8", 32},
    {"v_mfma_scale_f32_16x16x128_f8f6f4", 32},
    {"v_mfma_scale_f32_32x32x64_f8f6f4", 64},
};

// The clock through a dense GEMM, from one [MAF] measurement: the kind,
// the median clock and TFLOP/s hipBLASLt reached, the data sheet's peak of
// the kind and the peak clock it assumes.
static DenseClock measured(llvm::StringRef kind, double mhz, double tflops,
                           double peakTflops, double peakMhz) {
  double fraction = mhz / peakMhz;
  return {kind, fraction, tflops / (peakTflops * fraction)};
}

// [MAF], with the peaks of [MI300X-DS] and [MI325X-DS] (16-bit 1307.4,
// fp8 2614.9 TFLOP/s at 2100 MHz).
static const DenseClock mi300xClocks[] = {
    measured("f16", 1115, 654, 1307.4, 2100),
    measured("bf16", 1207, 708, 1307.4, 2100),
    measured("fp8", 1230, 1273, 2614.9, 2100),
};
static const DenseClock mi325xClocks[] = {
    measured("f16", 1354, 794, 1307.4, 2100),
    measured("bf16", 1447, 843, 1307.4, 2100),
    measured("fp8", 1464, 1519, 2614.9, 2100),
};
// MI350X and MI355X: assumption. AMD has published no clock under load
// for CDNA4, so they take MI325X's fractions of the peak clock (the
// highest-power CDNA3 part measured): bf16 GEMMs at 1516 and 1654 MHz.
// The first figures to replace with a measurement.

// clang-format off: one figure and its source per line.
// The compute-unit figures CDNA3 and CDNA4 share.
#define HK_CDNA_COMPUTE_UNIT                                                   \
  /*issueCadence=*/4,        /* [GCN-WP] */                                   \
      /*valuCycles=*/4,      /* [GCN-WP]: 64 lanes on 16 */                   \
      /*transCycles=*/16,    /* [GCN-WP]: quarter rate */                     \
      /*transLatency=*/16,   /* [LLVM-SCHED]: WriteTrans32, 4 issues */       \
      /*saluLatency=*/1,     /* [GCN-WP]: one cycle per scalar op */          \
      /*branchTakenPenalty=*/8, /* assumption: instruction buffer refill */   \
      /*barrierLatency=*/16, /* assumption: the barrier's round trip */       \
      /*sleepUnitCycles=*/64,       /* [ISA]: s_sleep */                      \
      /*workgroupLaunchCycles=*/200, /* assumption: wave state setup */       \
      /*maxWavesPerSimd=*/8,         /* [ISA] */                              \
      /*maxWorkgroupsPerCu=*/16,     /* [LLVM-BASE] */                        \
      /*vgprsPerSimdLane=*/512,      /* [ISA] */                              \
      /*vgprGranule=*/8,             /* [LLVM-BASE] */                        \
      /*sgprsPerSimd=*/800,          /* [LLVM-BASE] */                        \
      /*sgprGranule=*/16             /* [LLVM-BASE] */

// The memory figures CDNA3 and CDNA4 share ([CDNA4-WP] keeps CDNA3's L1,
// L2 and Infinity Cache organisation).
#define HK_CDNA_CACHES                                                         \
  /*ldsLatency=*/64,         /* assumption: LDS round trip, in the range  */  \
                             /* pointer-chasing studies of CDNA report    */  \
      /*vmemAddressCycles=*/4, /* assumption: 16 lanes' addresses a cycle */  \
      /*l1BytesPerCycle=*/128, /* [ROCPROF]: a 128 B line per clock */         \
      /*l1=*/{32 * 1024, 128, 4, 120},                                        \
      /* 32 KB, 128 B lines ([CDNA3-WP]); 4 ways and 120 cycles to a hit: */  \
      /* assumption (GCN's L1 was 4-way; ~120 cycles is what pointer    */    \
      /* chasing on CDNA reports) */                                          \
      /*l2=*/{4 * 1024 * 1024, 128, 16, 250},                                 \
      /* [CDNA3-WP]; 250 cycles to a hit: assumption (about twice L1) */      \
      /*l2Channels=*/16, /*l2BytesPerCyclePerChannel=*/128 /* [CDNA3-WP] */
// clang-format on

static const DeviceModel deviceTable[] = {
    {
        "MI300X",
        "gfx942",
        /*clockMHz=*/2100, /* [MI300X-DS] */
        /*xcds=*/8,
        /*cusPerXcd=*/38, /* [CDNA3-WP], 304 CUs [MI300X-DS] */
        HK_CDNA_COMPUTE_UNIT,
        /*ldsBytesPerCu=*/64 * 1024, /* [CDNA3-WP] */
        HK_CDNA_CACHES,
        /*mall=*/{256ull * 1024 * 1024, 128, 16, 500},
        /* 256 MB [CDNA3-WP]; 128 B lines, 16 ways, 500 cycles: assumption */
        /*mallTBps=*/17.2, /* [CDNA3-WP] */
        /*scalarCache=*/{16 * 1024, 64, 4, 40},
        /* assumption: 16 KB of 64 B lines, 40 cycles (GCN's scalar cache) */
        /*hbmTBps=*/5.3,        /* [MI300X-DS] */
        /*hbmEfficiency=*/0.78, /* [STREAM] */
        /*hbmLatency=*/1000,    /* assumption: ~480 ns, twice the MALL */
        /*hbmWriteQueueBytes=*/16 * 32 * 128,
        /* [DRAM-WQ]: 32 line-sized writes in each of the XCD's 16 HBM  */
        /* channels (an eighth of 8 stacks [MI300X-DS] of the 16 channels */
        /* an HBM3 stack has)                                             */
        gfx942Mfma,
        mi300xClocks,
    },
    {
        "MI325X",
        "gfx942",
        /*clockMHz=*/2100, /* [MI325X-DS] */
        /*xcds=*/8,
        /*cusPerXcd=*/38, /* 304 CUs [MI325X-DS] */
        HK_CDNA_COMPUTE_UNIT,
        /*ldsBytesPerCu=*/64 * 1024,
        HK_CDNA_CACHES,
        /*mall=*/{256ull * 1024 * 1024, 128, 16, 500},
        /*mallTBps=*/17.2,
        /*scalarCache=*/{16 * 1024, 64, 4, 40},
        /*hbmTBps=*/6.0,        /* [MI325X-DS]: HBM3E */
        /*hbmEfficiency=*/0.78, /* [STREAM], assumed to carry to HBM3E */
        /*hbmLatency=*/1000,
        /*hbmWriteQueueBytes=*/16 * 32 * 128,
        gfx942Mfma,
        mi325xClocks,
    },
    {
        "MI350X",
        "gfx950",
        /*clockMHz=*/2200, /* [MI350X-DS] */
        /*xcds=*/8,
        /*cusPerXcd=*/32, /* 256 CUs [MI350X-DS], [CDNA4-WP] */
        HK_CDNA_COMPUTE_UNIT,
        /*ldsBytesPerCu=*/160 * 1024, /* [CDNA4-WP] */
        HK_CDNA_CACHES,
        /*mall=*/{256ull * 1024 * 1024, 128, 16, 500},
        /*mallTBps=*/18.0,
        /* assumption: CDNA3's 17.2 TB/s per clock (8 KB/clk), at 2.2 GHz */
        /*scalarCache=*/{16 * 1024, 64, 4, 40},
        /*hbmTBps=*/8.0, /* [MI350X-DS] */
        /*hbmEfficiency=*/0.78,
        /*hbmLatency=*/1000,
        /*hbmWriteQueueBytes=*/16 * 32 * 128,
        gfx950Mfma,
        mi325xClocks, /* assumption: see mi325xClocks */
    },
    {
        "MI355X",
        "gfx950",
        /*clockMHz=*/2400, /* [MI355X-DS] */
        /*xcds=*/8,
        /*cusPerXcd=*/32, /* 256 CUs [MI355X-DS] */
        HK_CDNA_COMPUTE_UNIT,
        /*ldsBytesPerCu=*/160 * 1024,
        HK_CDNA_CACHES,
        /*mall=*/{256ull * 1024 * 1024, 128, 16, 500},
        /*mallTBps=*/19.7, /* assumption: 8 KB/clk as on CDNA3, 2.4 GHz */
        /*scalarCache=*/{16 * 1024, 64, 4, 40},
        /*hbmTBps=*/8.0, /* [MI355X-DS] */
        /*hbmEfficiency=*/0.78,
        /*hbmLatency=*/1000,
        /*hbmWriteQueueBytes=*/16 * 32 * 128,
        gfx950Mfma,
        mi325xClocks, /* assumption: see mi325xClocks */
    },
};

#undef HK_CDNA_COMPUTE_UNIT
#undef HK_CDNA_CACHES

unsigned DeviceModel::mfmaCycles(const MfmaInstr &instr, unsigned cbsz,
                                 unsigned blgp) const {
  for (const MfmaTiming &t : mfmaTimings) {
    if (t.mnemonic != instr.mnemonic)
      continue;
    // fp6 and fp4 (formats 2-4) on both operands: twice the fp8 rate.
    if (instr.scaled && cbsz >= 2 && blgp >= 2)
      return t.cycles / 2;
    return t.cycles;
  }
  return 0;
}

double DeviceModel::peakFlops(const MfmaInstr &instr, unsigned cbsz,
                              unsigned blgp) const {
  unsigned cycles = mfmaCycles(instr, cbsz, blgp);
  if (!cycles)
    return 0;
  double perSimdPerCycle = double(instr.flops()) / cycles;
  return perSimdPerCycle * chip().simdsPerCU * computeUnits() * clockHz();
}

double DeviceModel::sustainedClockMHz(llvm::StringRef kind,
                                      double utilization) const {
  // bf8 and the scaled fp6/fp4 forms share the 8-bit figure.
  if (kind == "bf8" || kind == "fp6/fp4")
    kind = "fp8";
  const DenseClock *row = nullptr;
  for (const DenseClock &c : denseClocks)
    if (c.kind == kind || (!row && c.kind == "bf16"))
      row = &c;
  if (!row)
    return clockMHz;
  double load = std::clamp(utilization / row->pipeUtilization, 0.0, 1.0);
  return clockMHz * (1 - load * (1 - row->clockFraction));
}

static double engineHz(const DeviceModel &d, double engineClockMHz) {
  return engineClockMHz > 0 ? engineClockMHz * 1e6 : d.clockHz();
}

double DeviceModel::hbmBytesPerCyclePerXcd(double engineClockMHz) const {
  return hbmTBps * 1e12 * hbmEfficiency / xcds /
         engineHz(*this, engineClockMHz);
}

double DeviceModel::mallBytesPerCyclePerXcd(double engineClockMHz) const {
  return mallTBps * 1e12 / xcds / engineHz(*this, engineClockMHz);
}

double DeviceModel::memorySideCycles(double cycles,
                                     double engineClockMHz) const {
  return cycles * engineHz(*this, engineClockMHz) / clockHz();
}

llvm::ArrayRef<DeviceModel> DeviceModel::all() { return deviceTable; }

const DeviceModel *DeviceModel::lookup(llvm::StringRef name) {
  for (const DeviceModel &d : deviceTable)
    if (d.name.equals_insensitive(name))
      return &d;
  return nullptr;
}

const DeviceModel &DeviceModel::defaultFor(const ChipInfo &chip) {
  return *lookup(chip.name == "gfx942" ? "MI300X" : "MI355X");
}

std::string DeviceModel::knownNames() {
  std::string names;
  for (const DeviceModel &d : deviceTable) {
    if (!names.empty())
      names += ", ";
    names += d.name.lower();
  }
  return names;
}
