// mie-run: see mie_run.h.
#include <cstdio>

#include "mie_run.h"

int main(int argc, char **argv) { return mie::run::main(argc, argv, stdout, stderr); }
