//===- MieAttrs.cpp - #mie.target and #mie.epilogue -----------------------===//

#include "dialects/mie/IR/MieOps.h"
#include "mie/Target/UKernelRegistry.h"
#include "runtime/include/mie/mie_ukernel_abi.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::mie;

#include "dialects/mie/IR/MieEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/mie/IR/MieAttrs.cpp.inc"

void MieDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/mie/IR/MieAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// TargetAttr
//===----------------------------------------------------------------------===//

/// Oldest SM version ptxas 13 generates code for.
static constexpr unsigned kMinSmVersion = 75;

/// Parses "sm_<N>" with an optional arch-specific suffix ("sm_90a", "sm_100f").
static std::optional<unsigned> parseSmVersion(StringRef arch) {
  if (!arch.consume_front("sm_"))
    return std::nullopt;
  if (arch.ends_with("a") || arch.ends_with("f"))
    arch = arch.drop_back();
  unsigned version;
  if (arch.empty() || !llvm::all_of(arch, llvm::isDigit) || arch.getAsInteger(10, version))
    return std::nullopt;
  return version;
}

std::optional<unsigned> TargetAttr::getSmVersion() const {
  if (getKind() != TargetKind::cuda)
    return std::nullopt;
  return parseSmVersion(getArch());
}

LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError, TargetKind kind,
                                 StringRef arch, StringRef features) {
  switch (kind) {
  case TargetKind::cpu:
    if (arch == "x86-64" || arch == "aarch64")
      return success();
    return emitError() << "expects a cpu arch of \"x86-64\" or \"aarch64\", got \"" << arch << "\"";
  case TargetKind::cuda: {
    std::optional<unsigned> version = parseSmVersion(arch);
    if (!version)
      return emitError() << "expects a cuda arch of the form \"sm_<N>\", got \"" << arch << "\"";
    if (*version < kMinSmVersion)
      return emitError() << "expects a cuda arch of sm_" << kMinSmVersion
                         << " or newer (the oldest ptxas 13 supports), got \"" << arch << "\"";
    return success();
  }
  }
  llvm_unreachable("unknown target kind");
}

//===----------------------------------------------------------------------===//
// EpilogueAttr
//===----------------------------------------------------------------------===//

bool EpilogueAttr::isIdentity() const {
  return !getBias() && !getResidual() && getActivation() == Activation::none && !getClampMin();
}

std::optional<std::pair<double, double>> EpilogueAttr::getClamp() const {
  if (!getClampMin() || !getClampMax())
    return std::nullopt;
  return std::make_pair(getClampMin().getValueAsDouble(), getClampMax().getValueAsDouble());
}

LogicalResult EpilogueAttr::verify(function_ref<InFlightDiagnostic()> emitError, bool, bool,
                                   Activation, FloatAttr clampMin, FloatAttr clampMax) {
  if (!clampMin && !clampMax)
    return success();
  if (!clampMin || !clampMax)
    return emitError() << "expects both clamp bounds or neither, got only the "
                       << (clampMin ? "lower" : "upper") << " one";
  double lo = clampMin.getValueAsDouble(), hi = clampMax.getValueAsDouble();
  if (!(lo <= hi))
    return emitError() << "expects clamp min <= max, got [" << lo << ", " << hi << "]";
  return success();
}

// The format lists the parts that are present, in any order on input and in application order on
// output: `<bias, residual, activation = relu, clamp = [0.0, 6.0]>`.
Attribute EpilogueAttr::parse(AsmParser &parser, Type) {
  SMLoc start = parser.getCurrentLocation();
  if (parser.parseLess())
    return {};
  bool bias = false, residual = false;
  Activation activation = Activation::none;
  std::optional<std::pair<double, double>> clamp;
  llvm::StringSet<> seen;
  if (failed(parser.parseOptionalGreater())) {
    do {
      SMLoc loc = parser.getCurrentLocation();
      StringRef key;
      if (parser.parseKeyword(&key))
        return {};
      if (!seen.insert(key).second) {
        parser.emitError(loc) << "duplicate '" << key << "' in #mie.epilogue";
        return {};
      }
      if (key == "bias") {
        bias = true;
      } else if (key == "residual") {
        residual = true;
      } else if (key == "activation") {
        SMLoc nameLoc;
        StringRef name;
        if (parser.parseEqual())
          return {};
        nameLoc = parser.getCurrentLocation();
        if (parser.parseKeyword(&name))
          return {};
        std::optional<Activation> parsed = symbolizeActivation(name);
        if (!parsed) {
          parser.emitError(nameLoc) << "unknown activation '" << name << "'";
          return {};
        }
        activation = *parsed;
      } else if (key == "clamp") {
        double lo, hi;
        if (parser.parseEqual() || parser.parseLSquare() || parser.parseFloat(lo) ||
            parser.parseComma() || parser.parseFloat(hi) || parser.parseRSquare())
          return {};
        clamp = std::make_pair(lo, hi);
      } else {
        parser.emitError(loc) << "expects 'bias', 'residual', 'activation' or 'clamp' in "
                                 "#mie.epilogue, got '"
                              << key << "'";
        return {};
      }
    } while (succeeded(parser.parseOptionalComma()));
    if (parser.parseGreater())
      return {};
  }
  return parser.getChecked<EpilogueAttr>(start, parser.getContext(), bias, residual, activation,
                                         clamp);
}

/// Prints a clamp bound as the shortest decimal that reads back exactly ("6.0", "-0.5", "1.0e+30"),
/// always with a '.', which the MLIR lexer needs to read a float literal.
static void printBound(AsmPrinter &printer, const APFloat &value) {
  if (!value.isFinite()) {
    printer.printFloat(value);
    return;
  }
  double number = value.convertToDouble();
  std::string text;
  for (int precision = 1; precision <= 17; ++precision) {
    text.clear();
    llvm::raw_string_ostream(text) << llvm::format("%.*g", precision, number);
    if (std::strtod(text.c_str(), nullptr) == number)
      break;
  }
  if (text.find('.') == std::string::npos)
    text.insert(std::min(text.find('e'), text.size()), ".0");
  printer << text;
}

void EpilogueAttr::print(AsmPrinter &printer) const {
  llvm::ListSeparator sep;
  printer << '<';
  if (getBias())
    printer << StringRef(sep) << "bias";
  if (getResidual())
    printer << StringRef(sep) << "residual";
  if (getActivation() != Activation::none)
    printer << StringRef(sep) << "activation = " << stringifyActivation(getActivation());
  if (getClampMin() && getClampMax()) {
    printer << StringRef(sep) << "clamp = [";
    printBound(printer, getClampMin().getValue());
    printer << ", ";
    printBound(printer, getClampMax().getValue());
    printer << ']';
  }
  printer << '>';
}

//===----------------------------------------------------------------------===//
// TilingAttr
//===----------------------------------------------------------------------===//

LogicalResult TilingAttr::verify(function_ref<InFlightDiagnostic()> emitError, StringRef isa,
                                 int64_t mr, int64_t nr, int64_t kc, int64_t mc, int64_t nc, bool) {
  if (isa != "avx512" && isa != "avx2" && isa != "neon" && isa != "amx" && isa != "neon_f16")
    return emitError() << "unknown microkernel ISA '" << isa
                       << "' (known: avx512, avx2, neon, amx, neon_f16)";
  if (isa == "amx" && (mr != MIE_UK_BF16_AMX_TILE || nr != MIE_UK_BF16_AMX_TILE ||
                       kc % MIE_UK_BF16_AMX_TILE != 0))
    return emitError() << "expects mr = nr = " << MIE_UK_BF16_AMX_TILE << " and kc a multiple of "
                       << MIE_UK_BF16_AMX_TILE << " for the AMX tile, got mr = " << mr
                       << ", nr = " << nr << ", kc = " << kc;
  if (mr < 1 || nr < 1 || kc < 1 || mc < 1 || nc < 1)
    return emitError() << "expects positive tile and block sizes, got mr = " << mr
                       << ", nr = " << nr << ", kc = " << kc << ", mc = " << mc << ", nc = " << nc;
  if (mc % mr != 0 || nc % nr != 0)
    return emitError() << "expects mc (" << mc << ") to be a multiple of mr (" << mr << ") and nc ("
                       << nc << ") a multiple of nr (" << nr << ")";
  return success();
}

std::string TilingAttr::getTileSymbol() const {
  if (getIsa() == "amx") // f32 C; the bf16 product's tile is BF16GemmAmxBF16C
    return ukernelSymbol(UKernel::BF16GemmAmx);
  // The f16 tiles of AArch64 (f16_gemm_neon.cpp): the NEON f32 tiles' shapes on f16 panels, f32
  // sums over all of K (kc covers K: the op verifiers check it), one rounding at the store.
  if (getIsa() == "neon_f16")
    return ukernelSymbol(UKernel::F16Gemm, "neon", getMr(), getNr());
  return ukernelSymbol(UKernel::F32Gemm, getIsa(), getMr(), getNr());
}
