#include "host_cpu.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#if defined(__x86_64__)
#include <cpuid.h>
#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#endif
#elif defined(__aarch64__)
#include <sys/auxv.h>
#endif

namespace mie::rt {
namespace {

// Returns 1 present, 0 absent, -1 unknown name.
#if defined(__x86_64__)
struct X86Regs {
  unsigned l1c = 0, l1d = 0, l7b = 0, l7c = 0, l7d = 0, l71a = 0, ext1c = 0;
  uint32_t xcr0 = 0;
  bool avx_os = false, avx512_os = false;
};

/// Whether this process may use the AMX tile registers. The OS must save their state (XCR0 bits 17
/// and 18), and Linux additionally hands the 8 KiB tile data state out per process, on request:
/// without the request the first tile instruction faults (SIGILL). The request is made here, once,
/// so a code object needing AMX is picked only when it can run; and only when an AMX feature is asked
/// about, since the grant enlarges every signal frame of the process.
bool request_amx(const X86Regs &r) {
  if (!((r.l7d >> 24) & 1u) || (r.xcr0 & 0x60000) != 0x60000) return false;
#if defined(__linux__)
  constexpr long kArchReqXcompPerm = 0x1023, kXfeatureXtiledata = 18;
  return syscall(SYS_arch_prctl, kArchReqXcompPerm, kXfeatureXtiledata) == 0;
#else
  return false;
#endif
}

X86Regs read_x86() {
  X86Regs r;
  unsigned a, b, c, d;
  if (__get_cpuid(1, &a, &b, &c, &d)) { r.l1c = c; r.l1d = d; }
  if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) { r.l7b = b; r.l7c = c; r.l7d = d; }
  if (__get_cpuid_count(7, 1, &a, &b, &c, &d)) r.l71a = a;
  if (__get_cpuid(0x80000001, &a, &b, &c, &d)) r.ext1c = c;
  // The OS must save the wide registers (XCR0) or AVX code faults even when CPUID lists it.
  if (r.l1c & (1u << 27)) {
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    r.avx_os = (lo & 0x6) == 0x6;
    r.avx512_os = (lo & 0xE6) == 0xE6;
    r.xcr0 = lo;
  }
  return r;
}

int has_feature(const std::string &f) {
  static const X86Regs r = read_x86();
  auto bit = [](unsigned reg, int n) { return (reg >> n) & 1u; };
  // needs: 0 none, 1 AVX state, 2 AVX-512 state, 3 AMX tile state (granted to this process)
  struct Entry { const char *name; int reg; int bit; int needs; };
  // reg: 0 l1c, 1 l1d, 2 l7b, 3 l7c, 4 l7d, 5 l71a, 6 ext1c, -1 always present on x86-64
  static const Entry kTable[] = {
      {"x87", -1, 0, 0},        {"mmx", -1, 0, 0},         {"sse", -1, 0, 0},          {"sse2", -1, 0, 0},
      {"fxsr", -1, 0, 0},       {"cmov", -1, 0, 0},        {"cx8", -1, 0, 0},          {"64bit", -1, 0, 0},
      {"sse3", 0, 0, 0},        {"pclmul", 0, 1, 0},       {"ssse3", 0, 9, 0},         {"fma", 0, 12, 1},
      {"cx16", 0, 13, 0},       {"sse4.1", 0, 19, 0},      {"sse4.2", 0, 20, 0},       {"movbe", 0, 22, 0},
      {"popcnt", 0, 23, 0},     {"aes", 0, 25, 0},         {"xsave", 0, 26, 0},        {"avx", 0, 28, 1},
      {"f16c", 0, 29, 1},       {"rdrnd", 0, 30, 0},       {"bmi", 2, 3, 0},           {"avx2", 2, 5, 1},
      {"bmi2", 2, 8, 0},        {"avx512f", 2, 16, 2},     {"avx512dq", 2, 17, 2},     {"adx", 2, 19, 0},
      {"avx512ifma", 2, 21, 2}, {"avx512cd", 2, 28, 2},    {"sha", 2, 29, 0},          {"avx512bw", 2, 30, 2},
      {"avx512vl", 2, 31, 2},   {"avx512vbmi", 3, 1, 2},   {"avx512vbmi2", 3, 6, 2},   {"avx512vnni", 3, 11, 2},
      {"avx512bitalg", 3, 12, 2}, {"avx512vpopcntdq", 3, 14, 2}, {"avx512fp16", 4, 23, 2}, {"avxvnni", 5, 4, 1},
      {"avx512bf16", 5, 5, 2},  {"lzcnt", 6, 5, 0},       {"amx-bf16", 4, 22, 3},     {"amx-tile", 4, 24, 3},
      {"amx-int8", 4, 25, 3},
  };
  const unsigned regs[] = {r.l1c, r.l1d, r.l7b, r.l7c, r.l7d, r.l71a, r.ext1c};
  for (const auto &e : kTable) {
    if (f != e.name) continue;
    if (e.reg < 0) return 1;
    if (!bit(regs[e.reg], e.bit)) return 0;
    if (e.needs == 1 && !r.avx_os) return 0;
    if (e.needs == 2 && !r.avx512_os) return 0;
    if (e.needs == 3) {
      static const bool amx = request_amx(r);
      if (!amx) return 0;
    }
    return 1;
  }
  return -1;
}
#elif defined(__aarch64__)
int has_feature(const std::string &f) {
  // Bit numbers from the kernel's uapi asm/hwcap.h, spelled out so old sysroots still build.
  const unsigned long hw = getauxval(AT_HWCAP), hw2 = getauxval(AT_HWCAP2);
  struct Entry { const char *name; int word; unsigned long mask; };
  static const Entry kTable[] = {
      {"v8a", 0, 0},  {"fp-armv8", 0, 1ul << 0}, {"neon", 0, 1ul << 1}, {"aes", 0, 1ul << 3},
      {"sha2", 0, 1ul << 6}, {"crc", 0, 1ul << 7}, {"lse", 0, 1ul << 8},
      {"fullfp16", 0, (1ul << 9) | (1ul << 10)}, {"rdm", 0, 1ul << 12}, {"dotprod", 0, 1ul << 20},
      {"sve", 0, 1ul << 22}, {"fp16fml", 0, 1ul << 23}, {"sve2", 1, 1ul << 1}, {"i8mm", 1, 1ul << 13},
      {"bf16", 1, 1ul << 14},
  };
  for (const auto &e : kTable) {
    if (f != e.name) continue;
    const unsigned long w = e.word ? hw2 : hw;
    return (w & e.mask) == e.mask ? 1 : 0;
  }
  return -1;
}
#else
int has_feature(const std::string &) { return -1; }
#endif

}  // namespace

const char *host_arch() {
#if defined(__x86_64__)
  return "x86_64";
#elif defined(__aarch64__)
  return "aarch64";
#else
  return "unknown";
#endif
}

FeatureCheck check_host_features(const std::string &features, std::string *which) {
  size_t pos = 0;
  while (pos <= features.size()) {
    size_t comma = features.find(',', pos);
    if (comma == std::string::npos) comma = features.size();
    std::string item = features.substr(pos, comma - pos);
    pos = comma + 1;
    // Trim spaces so "+avx2, +fma" works too.
    while (!item.empty() && item.front() == ' ') item.erase(item.begin());
    while (!item.empty() && item.back() == ' ') item.pop_back();
    if (item.empty() || item[0] == '-') continue;
    const std::string name = item[0] == '+' ? item.substr(1) : item;
    const int has = has_feature(name);
    if (has != 1) {
      *which = name;
      return has == 0 ? FeatureCheck::kMissing : FeatureCheck::kUnknown;
    }
  }
  return FeatureCheck::kAllPresent;
}

uint64_t last_level_cache_bytes() {
  static const uint64_t bytes = [] {
    // Linux: the caches of cpu0, the highest level's size ("32768K").
    int best_level = 0;
    uint64_t best = 0;
    for (int index = 0; index < 8; ++index) {
      const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
      std::FILE *level_file = std::fopen((dir + "level").c_str(), "r");
      if (!level_file) break;
      int level = 0;
      const bool read_level = std::fscanf(level_file, "%d", &level) == 1;
      std::fclose(level_file);
      std::FILE *size_file = std::fopen((dir + "size").c_str(), "r");
      if (!size_file) continue;
      unsigned long long size = 0;
      char unit = 0;
      const int got = std::fscanf(size_file, "%llu%c", &size, &unit);
      std::fclose(size_file);
      if (!read_level || got < 1) continue;
      if (got == 2 && (unit == 'K' || unit == 'k')) size <<= 10;
      if (got == 2 && (unit == 'M' || unit == 'm')) size <<= 20;
      if (level > best_level || (level == best_level && size > best)) {
        best_level = level;
        best = size;
      }
    }
    return best ? best : uint64_t(8) << 20;
  }();
  return bytes;
}

}  // namespace mie::rt
