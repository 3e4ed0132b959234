// hk-translate produces code objects whose notes name the chip, at code
// object version 5 by default, linked in process.
// RUN: hk-opt %s --hk-pipeline=chip=gfx942 | hk-translate -o %t.gfx942.hsaco
// RUN: llvm-readelf --notes --file-header %t.gfx942.hsaco | FileCheck %s --check-prefix=GFX942
// RUN: hk-opt %s --hk-pipeline=chip=gfx950 | hk-translate -o %t.gfx950.hsaco
// RUN: llvm-readelf --notes --file-header %t.gfx950.hsaco | FileCheck %s --check-prefix=GFX950
// RUN: hk-opt %s --hk-pipeline=chip=gfx950 | hk-translate --code-object-version=6 -o %t.v6.hsaco
// RUN: llvm-readelf --file-header %t.v6.hsaco | FileCheck %s --check-prefix=V6
// RUN: hk-opt %s --hk-pipeline=chip=gfx942 | hk-translate --features=+sramecc,-xnack -o %t.feat.hsaco
// RUN: llvm-readelf --notes %t.feat.hsaco | FileCheck %s --check-prefix=FEATURES

// GFX942: ABI Version: 3
// GFX942: Type: DYN (Shared object file)
// GFX942: Machine: EM_AMDGPU
// GFX942: Flags: {{.*}}gfx942
// GFX942: .name: scale
// GFX942: amdhsa.target: amdgcn-amd-amdhsa--gfx942

// GFX950: ABI Version: 3
// GFX950: Flags: {{.*}}gfx950
// GFX950: amdhsa.target: amdgcn-amd-amdhsa--gfx950

// V6: ABI Version: 4

// FEATURES: amdhsa.target: 'amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-'

hk.kernel @scale(%x: !hk.gl<?x?xf32>, %s: f32) waves(1) {
  %c0 = arith.constant 0 : index
  %t = hk.load %x[%c0, %c0] : !hk.gl<?x?xf32> -> !hk.rt<16x16xf32, row>
  %u = hk.mul %t, %s : !hk.rt<16x16xf32, row>, f32
  hk.store %u, %x[%c0, %c0] : !hk.rt<16x16xf32, row> -> !hk.gl<?x?xf32>
  hk.return
}
