//===- Passes.td - hk dialect passes -----------------------*- tablegen -*-===//

#ifndef HK_DIALECT_HK_TRANSFORMS_PASSES_TD
#define HK_DIALECT_HK_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def HKTarget : Pass<"hk-target", "mlir::ModuleOp"> {
  let summary = "Name the chip a module is compiled for";
  let description = [{
    Sets `hk.target = #hk.target<"chip">` on the module so that verifiers
    and later passes check and use the chip's facts. A module that already
    names a different chip is an error; one that names the same chip is left
    alone.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "Target chip: gfx942 or gfx950">,
  ];
  let dependentDialects = ["::hk::HKDialect"];
}

#endif // HK_DIALECT_HK_TRANSFORMS_PASSES_TD
