//===- HostHeader.cpp - A C/C++ header per code object --------------------===//

#include "hk/Runtime/HostHeader.h"

#include "hk/Runtime/CodeObject.h"
#include "hk/Support/ChipInfo.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace hk;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

bool hk::isCIdentifier(llvm::StringRef name) {
  static const llvm::StringSet<> keywords = {"alignas",
                                             "alignof",
                                             "and",
                                             "asm",
                                             "auto",
                                             "bool",
                                             "break",
                                             "case",
                                             "catch",
                                             "char",
                                             "class",
                                             "const",
                                             "constexpr",
                                             "continue",
                                             "default",
                                             "delete",
                                             "do",
                                             "double",
                                             "else",
                                             "enum",
                                             "explicit",
                                             "export",
                                             "extern",
                                             "false",
                                             "float",
                                             "for",
                                             "friend",
                                             "goto",
                                             "if",
                                             "inline",
                                             "int",
                                             "long",
                                             "mutable",
                                             "namespace",
                                             "new",
                                             "noexcept",
                                             "not",
                                             "nullptr",
                                             "operator",
                                             "or",
                                             "private",
                                             "protected",
                                             "public",
                                             "register",
                                             "restrict",
                                             "return",
                                             "short",
                                             "signed",
                                             "sizeof",
                                             "static",
                                             "struct",
                                             "switch",
                                             "template",
                                             "this",
                                             "throw",
                                             "true",
                                             "try",
                                             "typedef",
                                             "typeid",
                                             "typename",
                                             "union",
                                             "unsigned",
                                             "using",
                                             "virtual",
                                             "void",
                                             "volatile",
                                             "while",
                                             "xor",
                                             "_Bool",
                                             "_Complex",
                                             "_Alignas",
                                             "_Alignof",
                                             "_Atomic",
                                             "_Generic",
                                             "_Noreturn",
                                             "_Static_assert",
                                             "_Thread_local",
                                             "static_assert",
                                             "thread_local",
                                             "decltype",
                                             "char16_t",
                                             "char32_t",
                                             "wchar_t",
                                             "concept",
                                             "requires",
                                             "co_await",
                                             "co_return",
                                             "co_yield",
                                             "const_cast",
                                             "dynamic_cast",
                                             "reinterpret_cast",
                                             "static_cast",
                                             "char8_t",
                                             "consteval",
                                             "constinit"};
  if (name.empty() || llvm::isDigit(name.front()))
    return false;
  if (!llvm::all_of(name, [](char c) { return llvm::isAlnum(c) || c == '_'; }))
    return false;
  return !keywords.contains(name);
}

std::string hk::toCIdentifier(llvm::StringRef text) {
  std::string name;
  for (char c : text)
    name += llvm::isAlnum(c) || c == '_' ? c : '_';
  if (!isCIdentifier(name))
    name = "_" + name;
  return name;
}

namespace {

/// The C type of one element of a view's element type; `raw` when C has no
/// such type and the element's bits stand for it.
struct CElement {
  llvm::StringRef type;
  bool raw = false;
};

CElement cElementOf(llvm::StringRef elementType) {
  if (elementType == "f32")
    return {"float"};
  if (elementType == "f64")
    return {"double"};
  if (elementType == "f16")
    return {"uint16_t", true};
  if (elementType == "bf16")
    return {"uint16_t", true};
  if (elementType.starts_with("f8"))
    return {"uint8_t", true};
  if (elementType == "i8")
    return {"int8_t"};
  if (elementType == "i16")
    return {"int16_t"};
  if (elementType == "i32")
    return {"int32_t"};
  if (elementType == "i64")
    return {"int64_t"};
  return {"void"};
}

/// "!hk.gl<?x?xbf16>" for a view parameter, "i32"/"f32" for a scalar.
std::string describeParam(const KernelParam &param) {
  if (param.kind == KernelParam::I32)
    return "i32";
  if (param.kind == KernelParam::F32)
    return "f32";
  std::string text = "!hk.gl<";
  for (int64_t size : param.shape)
    text += (size < 0 ? std::string("?") : std::to_string(size)) + "x";
  return text + param.elementType + ">";
}

/// Checks the names the header will declare for one kernel.
llvm::Error checkNames(const KernelSignature &kernel,
                       llvm::ArrayRef<AbiField> fields,
                       llvm::StringSet<> &globalNames) {
  if (!isCIdentifier(kernel.name))
    return makeError("kernel '" + kernel.name +
                     "' is not a C identifier; rename it to use "
                     "--emit=header");
  for (llvm::StringRef suffix : {"_args", "_block_size", "_grid", "_launch"})
    if (!globalNames.insert(kernel.name + suffix.str()).second)
      return makeError("kernel '" + kernel.name + "' would declare '" +
                       kernel.name + suffix + "' twice");
  llvm::StringSet<> fieldNames;
  for (const AbiField &field : fields) {
    if (!isCIdentifier(field.name))
      return makeError("kernel '" + kernel.name + "' argument '" + field.name +
                       "' is not a C identifier; rename it to use "
                       "--emit=header");
    if (!fieldNames.insert(field.name).second)
      return makeError("kernel '" + kernel.name +
                       "' has two arguments named '" + field.name + "'");
  }
  return llvm::Error::success();
}

/// Checks that the code object's metadata lists exactly `fields` (names,
/// offsets and sizes) as `kernel`'s explicit arguments.
llvm::Error checkMetadata(const KernelSignature &kernel,
                          llvm::ArrayRef<AbiField> fields,
                          const CodeObject &object) {
  const KernelInfo *info = object.findKernel(kernel.name);
  if (!info)
    return makeError("the code object has no kernel '" + kernel.name + "'");
  std::vector<const KernelArg *> args = info->explicitArgs();
  if (args.size() != fields.size())
    return makeError("kernel '" + kernel.name + "': the code object lists " +
                     llvm::Twine(args.size()) + " arguments, the signature " +
                     llvm::Twine(fields.size()));
  for (auto [arg, field] : llvm::zip(args, fields))
    if (arg->name != field.name || arg->offset != field.offset ||
        arg->size != field.bytes)
      return makeError("kernel '" + kernel.name + "': the code object has '" +
                       arg->name + "' (" + llvm::Twine(arg->size) +
                       " bytes) at offset " + llvm::Twine(arg->offset) +
                       " where the signature has '" + field.name + "' (" +
                       llvm::Twine(field.bytes) + " bytes) at " +
                       llvm::Twine(field.offset));
  return llvm::Error::success();
}

void emitPrologue(llvm::raw_ostream &os, llvm::StringRef prefix,
                  llvm::StringRef guard, const CodeObject &object,
                  llvm::ArrayRef<KernelSignature> kernels,
                  const HostHeaderOptions &options) {
  std::string example = kernels.empty() ? "kernel" : kernels[0].name;
  os << "/* " << prefix << ": hk kernels";
  if (!options.source.empty())
    os << " of " << options.source;
  os << " for " << object.getChip().name << " (" << object.getChip().products
     << "),\n"
     << " * written by hk-translate --emit=header. Do not edit.\n"
     << " *\n"
     << " * Kernels:";
  for (const KernelSignature &kernel : kernels)
    os << " " << kernel.name;
  os << (kernels.empty() ? " none" : "") << ".\n"
     << " *\n"
     << " *   hipModule_t module;\n"
     << " *   " << prefix << "_load(&module);\n"
     << " *   " << example << "_args args = {...};  // device pointers, "
     << "sizes, strides, scalars\n"
     << " *   " << example << "_launch(module, " << example
     << "_grid(&args), &args, stream);\n"
     << " *\n"
     << " * Every function returns HIP's error code. The code object runs on "
     << object.getChip().name << " only:\n"
     << " * compare hipDeviceProp_t::gcnArchName with " << prefix
     << "_chip().\n"
     << " */\n"
     << "#ifndef " << guard << "\n#define " << guard << "\n\n"
     << "#include <hip/hip_runtime_api.h>\n"
     << "#include <stddef.h>\n#include <stdint.h>\n\n"
     << "#ifndef HK_HEADER_STATIC_ASSERT\n"
     << "#ifdef __cplusplus\n"
     << "#define HK_HEADER_STATIC_ASSERT(condition, message) "
        "static_assert(condition, message)\n"
     << "#else\n"
     << "#define HK_HEADER_STATIC_ASSERT(condition, message) "
        "_Static_assert(condition, message)\n"
     << "#endif\n#endif\n\n"
     << "#ifndef HK_HEADER_ALIGNED_8\n"
     << "#ifdef __cplusplus\n#define HK_HEADER_ALIGNED_8 alignas(8)\n"
     << "#else\n#define HK_HEADER_ALIGNED_8 _Alignas(8)\n#endif\n#endif\n\n";
}

void emitCodeObject(llvm::raw_ostream &os, llvm::StringRef prefix,
                    llvm::StringRef hsaco, const CodeObject &object) {
  os << "/* The chip the code object is for. */\n"
     << "static inline const char *" << prefix << "_chip(void) { return \""
     << object.getChip().name << "\"; }\n\n"
     << "/* The code object (" << object.getTarget() << ", code object v"
     << object.getCodeObjectVersion() << "), " << hsaco.size() << " bytes. */\n"
     << "static inline size_t " << prefix << "_code_object_size(void) { return "
     << hsaco.size() << "u; }\n"
     << "static inline const unsigned char *" << prefix
     << "_code_object(void) {\n"
     << "  HK_HEADER_ALIGNED_8 static const unsigned char bytes["
     << hsaco.size() << "] = {";
  for (size_t i = 0; i < hsaco.size(); ++i) {
    os << (i % 16 == 0 ? "\n      " : " ")
       << llvm::format("0x%02x", unsigned(uint8_t(hsaco[i])));
    if (i + 1 < hsaco.size())
      os << ",";
  }
  os << "};\n  return bytes;\n}\n\n"
     << "/* Loads the code object (hipModuleLoadData). */\n"
     << "static inline hipError_t " << prefix
     << "_load(hipModule_t *module) {\n"
     << "  return hipModuleLoadData(module, " << prefix
     << "_code_object());\n}\n\n"
     << "/* Blocks of `extent` elements covering `size` elements; at least "
        "one. */\n"
     << "static inline uint32_t " << prefix
     << "_blocks(int64_t size, int64_t extent) {\n"
     << "  int64_t blocks = size > 0 ? (size + extent - 1) / extent : 1;\n"
     << "  return (uint32_t)blocks;\n}\n\n";
}

void emitKernel(llvm::raw_ostream &os, llvm::StringRef prefix,
                const KernelSignature &kernel,
                llvm::ArrayRef<AbiField> fields) {
  const std::string &name = kernel.name;
  os << "/* " << name << "(";
  for (auto [i, param] : llvm::enumerate(kernel.params))
    os << (i ? ", " : "") << getParamName(kernel, i) << ": "
       << describeParam(param);
  os << "), " << kernel.waves << " waves. */\n"
     << "typedef struct " << name << "_args {\n";
  for (const AbiField &field : fields) {
    const KernelParam &param = kernel.params[field.param];
    std::string paramName = getParamName(kernel, field.param);
    switch (field.kind) {
    case AbiField::Pointer: {
      CElement element = cElementOf(param.elementType);
      os << "  " << element.type << " *" << field.name
         << "; /* device pointer to " << param.elementType << " elements"
         << (element.raw ? " (their bits)" : "") << " */\n";
      break;
    }
    case AbiField::Size:
      os << "  int32_t " << field.name << "; /* size of " << paramName
         << "'s dimension " << field.dim << " */\n";
      break;
    case AbiField::Stride:
      os << "  int32_t " << field.name << "; /* elements between " << paramName
         << "'s consecutive indices of dimension " << field.dim << " */\n";
      break;
    case AbiField::Scalar:
      os << "  " << (param.kind == KernelParam::F32 ? "float" : "int32_t")
         << " " << field.name << ";\n";
      break;
    }
  }
  os << "} " << name << "_args;\n";
  // Offsets from the code object's metadata (checkMetadata compared them):
  // a compiler that lays the struct out differently stops here.
  for (const AbiField &field : fields)
    os << "HK_HEADER_STATIC_ASSERT(offsetof(" << name << "_args, " << field.name
       << ") == " << field.offset << ", \"" << name << "_args." << field.name
       << " must sit at kernarg offset " << field.offset << "\");\n";
  os << "\n/* Work-items per block (" << kernel.waves << " waves of 64). */\n"
     << "static inline unsigned " << name << "_block_size(void) { return "
     << kernel.blockSize() << "u; }\n\n";

  if (kernel.grid) {
    os << "/* The grid covering every output element:";
    static const char axes[] = "xyz";
    for (unsigned axis = 0; axis < 3; ++axis) {
      os << " " << axes[axis] << " = ";
      const std::vector<GridExtent> &rules = (*kernel.grid)[axis];
      if (rules.empty())
        os << "1";
      for (auto [i, rule] : llvm::enumerate(rules))
        os << (i ? " max " : "") << "ceil(" << getParamName(kernel, rule.param)
           << " dim " << rule.dim << " / " << rule.extent << ")";
      os << (axis < 2 ? ";" : ". */\n");
    }
    os << "static inline dim3 " << name << "_grid(const " << name
       << "_args *args) {\n"
       << "  dim3 grid = {1u, 1u, 1u};\n";
    bool readsArgs = false;
    for (unsigned axis = 0; axis < 3; ++axis)
      for (auto [i, rule] : llvm::enumerate((*kernel.grid)[axis])) {
        const KernelParam &param = kernel.params[rule.param];
        bool isStatic = param.shape[rule.dim] >= 0;
        readsArgs |= !isStatic;
        std::string size = isStatic
                               ? std::to_string(param.shape[rule.dim])
                               : "args->" + getParamName(kernel, rule.param) +
                                     "_size" + std::to_string(rule.dim);
        std::string blocks = (prefix + "_blocks(" + size + ", " +
                              std::to_string(rule.extent) + ")")
                                 .str();
        std::string target = std::string("grid.") + axes[axis];
        if (i == 0)
          os << "  " << target << " = " << blocks << ";\n";
        else
          os << "  if (" << blocks << " > " << target << ")\n    " << target
             << " = " << blocks << ";\n";
      }
    if (!readsArgs)
      os << "  (void)args;\n";
    os << "  return grid;\n}\n\n";
  }

  os << "/* Launches " << name << " on `grid` blocks of " << name
     << "_block_size() work-items. */\n"
     << "static inline hipError_t " << name
     << "_launch(hipModule_t module, dim3 grid, const " << name
     << "_args *args, hipStream_t stream) {\n"
     << "  hipFunction_t function;\n"
     << "  hipError_t error = hipModuleGetFunction(&function, module, \""
     << name << "\");\n"
     << "  if (error != hipSuccess)\n    return error;\n"
     << "  " << name << "_args kernargs = *args;\n"
     << "  size_t size = sizeof kernargs;\n"
     << "  void *config[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &kernargs,\n"
     << "                    HIP_LAUNCH_PARAM_BUFFER_SIZE, &size, "
        "HIP_LAUNCH_PARAM_END};\n"
     << "  return hipModuleLaunchKernel(function, grid.x, grid.y, grid.z, "
     << kernel.blockSize() << "u, 1u, 1u, 0u,\n"
     << "                               stream, NULL, config);\n}\n\n";
}

} // namespace

llvm::Expected<std::string>
hk::emitHostHeader(llvm::ArrayRef<KernelSignature> kernels,
                   llvm::StringRef hsaco, const HostHeaderOptions &options) {
  if (!isCIdentifier(options.prefix))
    return makeError("header prefix '" + options.prefix +
                     "' is not a C identifier");
  llvm::Expected<CodeObject> object = CodeObject::parse(hsaco);
  if (!object)
    return object.takeError();

  llvm::StringSet<> globalNames;
  std::vector<std::vector<AbiField>> fields;
  for (const KernelSignature &kernel : kernels) {
    fields.push_back(getAbiFields(kernel));
    if (llvm::Error error = checkNames(kernel, fields.back(), globalNames))
      return std::move(error);
    if (llvm::Error error = checkMetadata(kernel, fields.back(), *object))
      return std::move(error);
  }

  std::string text;
  llvm::raw_string_ostream os(text);
  std::string guard = llvm::StringRef(options.prefix).upper() + "_HK_H";
  emitPrologue(os, options.prefix, guard, *object, kernels, options);
  emitCodeObject(os, options.prefix, hsaco, *object);
  for (auto [kernel, kernelFields] : llvm::zip(kernels, fields))
    emitKernel(os, options.prefix, kernel, kernelFields);
  os << "#endif /* " << guard << " */\n";
  return text;
}
