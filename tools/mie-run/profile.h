// Per-kernel profiling for mie-run --profile / --trace: the runtime calls a hook around every kernel
// launch (kernel ABI 2); this file times them, measures the machine's FMA peak to compare against,
// and writes the table and the Chrome trace.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "mie/mie_rt.h"

namespace mie::run {

// Peak fp32 multiply-add throughput of one core of this machine in GFLOP/s (2 per FMA), measured
// with independent FMA chains in the widest vector ISA the CPU has (about 50 ms). 0 if unknown.
double measure_fma_peak_gflops(std::string *isa);

class KernelProfiler {
 public:
  // Installs the hook on `session`; "" on success, else why profiling cannot run. Room for the events
  // of `runs` runs is reserved here, so the hook allocates nothing while runs are timed.
  std::string attach(mie_session *session, long runs);
  void detach();
  // Aggregates over every run since attach.
  void print_table(FILE *out, uint32_t threads, double peak_per_core, const std::string &peak_isa,
                   double mean_run_ms) const;
  // Chrome trace ("traceEvents", complete events in microseconds) of every recorded launch; written
  // to a temporary next to `path` and renamed over it, so a failure leaves no partial file.
  std::string write_trace(const std::string &path, const std::string &model, const std::string &target) const;
  uint32_t num_runs() const { return runs_; }

 private:
  static void hook(void *self, int32_t kernel, int32_t phase);
  struct Kernel {
    std::string name, nodes;
    uint64_t flops = 0, total_ns = 0, launches = 0;
  };
  struct Event {
    int32_t kernel;
    uint64_t begin_ns, end_ns;
  };
  mie_session *session_ = nullptr;
  std::vector<Kernel> kernels_;
  std::vector<Event> events_;
  std::vector<uint64_t> open_;  // begin time of each kernel that has started and not ended
  uint64_t origin_ns_ = 0;
  uint32_t runs_ = 0;
  bool bad_id_ = false;
};

}  // namespace mie::run
