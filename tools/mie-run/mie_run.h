// mie-run command line:
//   mie-run model.mie [--input [NAME=]file.npy|file.pb ...] [--output [NAME=]out.npy ...] [--benchmark N]
//           [--threads N] [--target NAME] [--print]
// Returns the process exit code (0 ok, 1 error) and never aborts on bad input; `out` gets results, `err`
// gets "mie-run: error: ..." messages.
#pragma once

#include <cstdio>

namespace mie::run {

int main(int argc, char **argv, FILE *out, FILE *err);

}  // namespace mie::run
