// The kinds of target a package may hold, as the package format knows them: what the manifest says of
// a target of each kind beyond its name, arch and features, checked in one place by the reader
// (manifest.cpp) and the writer (package_writer.cpp). What the runtime does with a target of a kind
// (whether it runs here, how the automatic choice ranks it) is its backend's (session.cpp's table). A
// new kind is one row here and one there, mirroring the compiler's TargetBackend.
#pragma once

#include <cstdint>
#include <string>

namespace mie::rt {

struct TargetKind {
  const char *name;
  // Runs on a device rather than the host's CPU (ranks above the host kinds in the automatic choice;
  // outputs with data-dependent shapes are read from host memory, so only host kinds produce them).
  bool device;
  // The kernel ABI a code object of this kind declares when the writer is not told (0 there), and the
  // least it may declare, with why.
  uint32_t default_abi_version;
  uint32_t min_abi_version;
  const char *min_abi_reason;
  // The form of `arch` when the kind prescribes one (nullptr: any non-empty string), e.g. "an SM
  // architecture such as sm_90", and its parser, which also fills the numbers the runtime compares.
  const char *arch_form;
  bool (*parse_arch)(const std::string &arch, int *number, bool *exact);
  // Whether the manifest must say which machine its host code object is for (`host_arch`).
  bool needs_host_arch;
};

// The kind named `name`, or nullptr.
const TargetKind *find_target_kind(const std::string &name);
// The host's kind (the one cpu code objects have): the fallback of a device target that cannot start.
const TargetKind &host_target_kind();
// "cpu or cuda": the known names, for messages.
std::string known_target_kinds();
// "cuda": the kinds that need host_arch, for messages.
std::string target_kinds_with_host_arch();

}  // namespace mie::rt
