#include "abi_table.h"

#include <algorithm>
#include <vector>

#include "format.h"
#include "mie/mie_kernel_abi.h"

namespace mie::rt {
namespace {

std::string describe(int64_t dtype, const int64_t *dims, int64_t rank) {
  // Only known values become a mie_dtype: converting any other number to the enum is undefined.
  const bool known = dtype >= MIE_DTYPE_F32 && dtype <= MIE_DTYPE_LAST;
  std::string s = (known ? std::string(dtype_to_name(mie_dtype(dtype))) : "dtype " + std::to_string(dtype)) + " [";
  for (int64_t i = 0; i < rank; ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}

}  // namespace

bool check_abi_table(const int64_t *words, size_t count, const Manifest &m, const TargetDesc &target,
                     uint64_t weights_bytes, std::string *error) {
  if (count < MIE_ABI_TABLE_HEADER_WORDS || words[0] != MIE_ABI_TABLE_MAGIC) {
    *error = std::string("the code's ABI table '") + MIE_ABI_SYMBOL + "' is not one this runtime reads";
    return false;
  }
  // The table's own length, bounded by the symbol's size: nothing below reads past either.
  if (words[1] < MIE_ABI_TABLE_HEADER_WORDS || uint64_t(words[1]) > count) {
    *error = "the code's ABI table declares " + std::to_string(words[1]) + " words but its symbol holds " +
             std::to_string(count);
    return false;
  }
  const size_t n = size_t(words[1]);
  auto mismatch = [&](const std::string &what, const std::string &code, const std::string &manifest) {
    *error = "manifest disagrees with the code object: " + what + ": the code was compiled for " + code +
             ", the manifest says " + manifest;
    return false;
  };
  // Code for every shape of symbolic dims sizes each run's arena (mie_arena_bytes): -1 here.
  const bool generic = !m.symbols.empty() && target.dims.empty();
  if (generic ? words[2] != -1 : uint64_t(words[2]) != target.arena_bytes)
    return mismatch("arena_bytes", std::to_string(words[2]),
                    generic ? std::string("-1 (code for every shape)") : std::to_string(target.arena_bytes));
  if (uint64_t(words[3]) != weights_bytes)
    return mismatch("weights size", std::to_string(words[3]) + " bytes", std::to_string(weights_bytes) + " bytes");
  if (uint64_t(words[4]) != m.inputs.size())
    return mismatch("inputs", std::to_string(words[4]), std::to_string(m.inputs.size()));
  // The extent buffers of outputs with data-dependent dims are outputs of the entry too, after the others.
  std::vector<TensorDesc> extents;
  for (const TensorDesc &t : m.outputs) {
    if (t.dynamic_dims.empty()) continue;
    TensorDesc e;
    e.name = t.name + " extents";
    e.dtype = MIE_DTYPE_I64;
    e.dims = {int64_t(t.dynamic_dims.size())};
    e.num_elements = t.dynamic_dims.size();
    extents.push_back(std::move(e));
  }
  if (uint64_t(words[5]) != m.outputs.size() + extents.size())
    return mismatch("outputs", std::to_string(words[5]), std::to_string(m.outputs.size() + extents.size()));
  size_t at = MIE_ABI_TABLE_HEADER_WORDS;
  auto tensor = [&](const TensorDesc &t, const std::string &what) {
    if (n - at < 2 || words[at + 1] < 0 || uint64_t(words[at + 1]) > n - at - 2) {
      *error = "the code's ABI table ends inside the entry of " + what;
      return false;
    }
    const int64_t dtype = words[at], rank = words[at + 1];
    const int64_t *dims = words + at + 2;
    at += size_t(2 + rank);
    // A package with symbols: the shape this target's code was compiled for (parse_manifest checked
    // that it evaluates).
    // For code for every shape, -1 at each symbolic dim (as t.dims has it).
    std::vector<int64_t> want = t.dims;
    if (t.is_symbolic() && !generic)
      evaluate_shape(t, target.dims, &want);
    bool same = dtype == int64_t(t.dtype) && uint64_t(rank) == want.size();
    for (int64_t i = 0; same && i < rank; ++i)
      same = dims[i] == want[size_t(i)];
    // An empty tensor's shape makes no difference to code that never touches its buffer, and the compiler
    // may give such an argument a shape of its own ([0] for a [3, 0, 5] input).
    const bool code_empty = std::find(dims, dims + rank, int64_t(0)) != dims + rank;
    const bool want_empty = std::find(want.begin(), want.end(), int64_t(0)) != want.end();
    if (!same && dtype == int64_t(t.dtype) && code_empty && want_empty)
      same = true;
    if (!same)
      return mismatch(what, describe(dtype, dims, rank),
                      describe(int64_t(t.dtype), want.data(), int64_t(want.size())));
    return true;
  };
  for (size_t i = 0; i < m.inputs.size(); ++i)
    if (!tensor(m.inputs[i], "input " + std::to_string(i) + " '" + m.inputs[i].name + "'")) return false;
  for (size_t i = 0; i < m.outputs.size(); ++i)
    if (!tensor(m.outputs[i], "output " + std::to_string(i) + " '" + m.outputs[i].name + "'")) return false;
  for (const TensorDesc &e : extents)
    if (!tensor(e, "the extent buffer of '" + e.name.substr(0, e.name.size() - 8) + "'")) return false;
  if (at != n) {
    *error = "the code's ABI table has " + std::to_string(n - at) + " words after its last tensor";
    return false;
  }
  return true;
}

}  // namespace mie::rt
