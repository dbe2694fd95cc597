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
                                 int64_t mr, int64_t nr, int64_t kc, int64_t mc, int64_t nc, bool,
                                 int64_t fewRowsMr) {
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
  if (fewRowsMr != 0 && (fewRowsMr < 1 || fewRowsMr == mr || isa == "amx"))
    return emitError() << "expects few_rows_mr to be a row count other than mr (" << mr
                       << ") on an f32 tile family, got " << fewRowsMr << " on '" << isa << "'";
  return success();
}

TilingAttr TilingAttr::getFewRowsTiling() const {
  if (!getFewRowsMr())
    return {};
  return TilingAttr::get(getContext(), getIsa(), getFewRowsMr(), getNr(), getKc(),
                         getMc() / getMr() * getFewRowsMr(), getNc(), getSharedPanels());
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

//===----------------------------------------------------------------------===//
// UKernelAttr
//===----------------------------------------------------------------------===//

bool UKernelAttr::isTiledFamily(UKernelFamily family) {
  switch (family) {
  case UKernelFamily::gemm:
  case UKernelFamily::conv_gemm:
  case UKernelFamily::conv_direct:
  case UKernelFamily::conv_pixel_rows:
  case UKernelFamily::winograd_2x2:
  case UKernelFamily::winograd_4x4:
    return true;
  case UKernelFamily::depthwise:
  case UKernelFamily::max_pool:
  case UKernelFamily::attention:
    return false;
  }
  llvm_unreachable("unknown microkernel family");
}

int64_t UKernelAttr::getWinogradTile() const {
  switch (getFamily()) {
  case UKernelFamily::winograd_2x2:
    return 2;
  case UKernelFamily::winograd_4x4:
    return 4;
  default:
    return 0;
  }
}

/// The registry kernel whose presence for an ISA means the family runs there: the one kernel
/// every lowering of the family calls (for the tiled ones, their register tiles).
static UKernel familyKernel(UKernelFamily family, StringRef isa) {
  switch (family) {
  case UKernelFamily::gemm:
  case UKernelFamily::conv_gemm:
  case UKernelFamily::conv_pixel_rows:
    return isa == "amx"        ? UKernel::BF16GemmAmx
           : isa == "neon_f16" ? UKernel::F16Gemm
                               : UKernel::F32Gemm;
  case UKernelFamily::conv_direct:
    return UKernel::F32ConvDirectNchw;
  case UKernelFamily::winograd_2x2:
    return UKernel::F32WinogradInput2x2;
  case UKernelFamily::winograd_4x4:
    return UKernel::F32WinogradInput4x4;
  case UKernelFamily::depthwise:
    return UKernel::F32DwconvNchw;
  case UKernelFamily::max_pool:
    return UKernel::F32MaxpoolNchw;
  case UKernelFamily::attention:
    return UKernel::F32Attention;
  }
  llvm_unreachable("unknown microkernel family");
}

/// Whether some unit of the registry defines `kernel` for the microkernel ISA `isa` (any of the
/// ISA's register tiles for a kernel with one per tile).
static bool hasKernelForIsa(UKernel kernel, StringRef isa) {
  // The reduced-precision tilings name the f32 ISA whose units hold their kernels.
  StringRef unitIsa = isa == "amx" ? "avx512" : isa == "neon_f16" ? "neon" : isa;
  if (getUKernelInfo(kernel).form != UKernelForm::Tile)
    return isRegisteredUKernel(ukernelSymbol(kernel, unitIsa));
  return llvm::any_of(getF32GemmTiles(unitIsa), [&](const UKernelTile &t) {
    return isRegisteredUKernel(ukernelSymbol(kernel, unitIsa, t.mr, t.nr));
  });
}

std::string UKernelAttr::getTileSymbol() const {
  TilingAttr t = getTiling();
  if (!t)
    return {};
  if (getFamily() == UKernelFamily::conv_direct)
    return ukernelSymbol(UKernel::F32ConvDirectNchw, getIsa(), t.getMr(), t.getNr());
  return t.getTileSymbol();
}

LogicalResult UKernelAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  UKernelFamily family, StringRef isa, TilingAttr tiling) {
  StringRef name = stringifyUKernelFamily(family);
  if (isTiledFamily(family) != static_cast<bool>(tiling))
    return emitError() << "expects " << (tiling ? "no tiling" : "a tiling (mr, nr, kc, mc, nc)")
                       << " for the " << name << " family";
  if (tiling && tiling.getIsa() != isa)
    return emitError() << "expects the tiling's ISA '" << tiling.getIsa() << "' to be '" << isa
                       << "'";
  // The reduced-precision tilings serve the row products and the implicit GEMM only (the other
  // convolution kernels are f32).
  if ((isa == "amx" || isa == "neon_f16") && family != UKernelFamily::gemm &&
      family != UKernelFamily::conv_gemm)
    return emitError() << "expects an f32 ISA for the " << name << " family, got '" << isa << "'";
  // A second tile for few rows: the row products' lowering picks between the two per run.
  if (tiling && tiling.getFewRowsMr() && (family != UKernelFamily::gemm || isa == "neon_f16"))
    return emitError() << "expects few_rows_mr only on the gemm family's f32 tiles, got the "
                       << name << " family on '" << isa << "'";
  // The register tile itself is checked where its symbol is emitted (mie-lower-library-kernels).
  if (!hasKernelForIsa(familyKernel(family, isa), isa))
    return emitError() << "expects an ISA with the " << name
                       << " kernels of the registry (runtime/include/mie/mie_ukernels.def), got '"
                       << isa << "'";
  return success();
}

// `<family, "isa">`, or `<family, "isa", mr = 8, nr = 48, kc = 256, mc = 64, nc = 192
// [, shared_panels = true]>` for the tiled families: #mie.tiling's fields after the ISA.
Attribute UKernelAttr::parse(AsmParser &parser, Type) {
  SMLoc start = parser.getCurrentLocation();
  StringRef familyName;
  std::string isa;
  if (parser.parseLess() || parser.parseKeyword(&familyName) || parser.parseComma() ||
      parser.parseString(&isa))
    return {};
  std::optional<UKernelFamily> family = symbolizeUKernelFamily(familyName);
  if (!family) {
    parser.emitError(start) << "unknown microkernel family '" << familyName << "'";
    return {};
  }
  TilingAttr tiling;
  if (succeeded(parser.parseOptionalComma())) {
    int64_t mr, nr, kc, mc, nc;
    bool shared = false;
    auto field = [&](StringRef key, int64_t &value) {
      return failure(parser.parseKeyword(key) || parser.parseEqual() || parser.parseInteger(value));
    };
    if (failed(field("mr", mr)) || parser.parseComma() || failed(field("nr", nr)) ||
        parser.parseComma() || failed(field("kc", kc)) || parser.parseComma() ||
        failed(field("mc", mc)) || parser.parseComma() || failed(field("nc", nc)))
      return {};
    // Then, each optional: `shared_panels = true|false`, `few_rows_mr = N`.
    int64_t fewRowsMr = 0;
    while (succeeded(parser.parseOptionalComma())) {
      StringRef key;
      if (parser.parseKeyword(&key) || parser.parseEqual())
        return {};
      if (key == "few_rows_mr") {
        if (parser.parseInteger(fewRowsMr))
          return {};
        continue;
      }
      StringRef value;
      if (key != "shared_panels" || parser.parseKeyword(&value) ||
          (value != "true" && value != "false")) {
        parser.emitError(parser.getCurrentLocation(),
                         "expects shared_panels = true or false, or few_rows_mr = N");
        return {};
      }
      shared = value == "true";
    }
    tiling = parser.getChecked<TilingAttr>(start, parser.getContext(), isa, mr, nr, kc, mc, nc,
                                           shared, fewRowsMr);
    if (!tiling)
      return {};
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<UKernelAttr>(start, parser.getContext(), *family, isa, tiling);
}

void UKernelAttr::print(AsmPrinter &printer) const {
  printer << '<' << stringifyUKernelFamily(getFamily()) << ", \"" << getIsa() << '"';
  if (TilingAttr t = getTiling()) {
    printer << ", mr = " << t.getMr() << ", nr = " << t.getNr() << ", kc = " << t.getKc()
            << ", mc = " << t.getMc() << ", nc = " << t.getNc();
    if (t.getSharedPanels())
      printer << ", shared_panels = true";
    if (t.getFewRowsMr())
      printer << ", few_rows_mr = " << t.getFewRowsMr();
  }
  printer << '>';
}
