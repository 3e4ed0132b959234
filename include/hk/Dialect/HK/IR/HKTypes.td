//===- HKTypes.td - hk types -------------------------------*- tablegen -*-===//

#ifndef HK_TYPES_TD
#define HK_TYPES_TD

include "hk/Dialect/HK/IR/HKAttrs.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class HK_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<HK_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def HK_RegisterTileType : HK_Type<"RegisterTile", "rt"> {
  let summary = "a 2-D tile distributed over the 64 lanes of a wave";
  let description = [{
    `!hk.rt<RxCxT>` or `!hk.rt<RxCxT, layout>` where `layout` is `row`,
    `col` or an `#hk.mfma` operand layout. A tile without a layout gets one
    from `hk-mfma-layout`. Dimensions are multiples of the layout's base
    block (16 for `row`/`col`).

    ```mlir
    !hk.rt<32x64xbf16, row>
    !hk.rt<32x32xf32, #hk.mfma<acc, 32x32x8>>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType,
                        "::mlir::Attribute":$layout);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let builders = [
    TypeBuilderWithInferredContext<(ins "::llvm::ArrayRef<int64_t>":$shape,
        "::mlir::Type":$elementType,
        CArg<"::mlir::Attribute", "{}">:$layout), [{
      return $_get(elementType.getContext(), shape, elementType, layout);
    }]>
  ];
  let extraClassDeclaration = [{
    int64_t getRows() const { return getShape()[0]; }
    int64_t getCols() const { return getShape()[1]; }
    int64_t getNumElements() const { return getRows() * getCols(); }
    RegisterTileType withLayout(::mlir::Attribute layout) const {
      return get(getContext(), getShape(), getElementType(), layout);
    }
    RegisterTileType withElementType(::mlir::Type type) const {
      return get(getContext(), getShape(), type, getLayout());
    }
  }];
}

def HK_RegisterVectorType : HK_Type<"RegisterVector", "rv"> {
  let summary = "a vector of per-row or per-column values held by a wave";
  let description = [{
    `!hk.rv<NxT>` or `!hk.rv<NxT, #hk.vec<rows|cols, tile-layout>>`: row
    statistics (max, sum) and other per-row or per-column data. Without a
    layout, `hk-mfma-layout` aligns it with the tiles it meets.
  }];
  let parameters = (ins "int64_t":$length, "::mlir::Type":$elementType,
                        "::mlir::Attribute":$layout);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    RegisterVectorType withLayout(::mlir::Attribute layout) const {
      return get(getContext(), getLength(), getElementType(), layout);
    }
  }];
}

def HK_SharedTileType : HK_Type<"SharedTile", "st"> {
  let summary = "a 2-D tile in LDS, shared by the waves of a block";
  let description = [{
    `!hk.st<RxCxT>` or `!hk.st<RxCxT, #hk.swizzle<...>>`. A tile without a
    swizzle gets one from `hk-lds-layout`.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType,
                        "::mlir::Attribute":$swizzle);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRows() const { return getShape()[0]; }
    int64_t getCols() const { return getShape()[1]; }
    /// Bytes of LDS the tile occupies.
    int64_t getSizeInBytes() const;
    SharedTileType withSwizzle(::mlir::Attribute swizzle) const {
      return get(getContext(), getShape(), getElementType(), swizzle);
    }
  }];
}

def HK_SharedVectorType : HK_Type<"SharedVector", "sv"> {
  let summary = "a vector in LDS";
  let parameters = (ins "int64_t":$length, "::mlir::Type":$elementType);
  let assemblyFormat = "`<` custom<VectorShape>($length, $elementType) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getSizeInBytes() const;
  }];
}

def HK_GlobalViewType : HK_Type<"GlobalView", "gl"> {
  let summary = "a view of a tensor in global memory";
  let description = [{
    `!hk.gl<?x?xbf16>`: a row-major tensor of rank 1 to 4 with static or
    runtime (`?`) sizes, passed to a kernel as a pointer followed by 32-bit
    sizes and strides (see the kernel ABI in the README). Tiles are addressed
    in units of the tile shape along the last two dimensions.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getShape().size(); }
    int64_t getNumDynamicDims() const;
  }];
}

def HK_TokenType : HK_Type<"Token", "token"> {
  let summary = "completion token of an asynchronous load";
}

def HK_AnyRegister : AnyTypeOf<[HK_RegisterTileType, HK_RegisterVectorType],
    "register tile or vector">;
def HK_AnyShared : AnyTypeOf<[HK_SharedTileType, HK_SharedVectorType],
    "shared tile or vector">;

#endif // HK_TYPES_TD
