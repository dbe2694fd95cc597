// Batch slices (docs/dynamic-shapes.md, "Batch slices"). A model whose manifest marks a batch
// symbol computes each sample on its own, so a run of a large batch may be several runs of the
// code for every shape over slices of it. Each slice's activations then stay in the cache where
// the whole batch's would stream through memory: mobilenet_v2 ran 1.2x slower per image at
// batch 32 than at batch 1 (its 190 MB of activations against a 32 MB cache). The price is that
// each slice reads the weights again, which the choice below weighs.
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>

#include "../cpu/host_cpu.h"
#include "session.h"

namespace mie::rt {

int64_t Session::batch_slice_from_environment() {
  const char *text = std::getenv("MIE_BATCH_SLICE");
  if (!text || !*text || std::strcmp(text, "auto") == 0)
    return -1;
  if (std::strcmp(text, "off") == 0)
    return 0;
  char *end = nullptr;
  const long long n = std::strtoll(text, &end, 10);
  return end && *end == '\0' && n > 0 ? int64_t(n) : -1;
}

int64_t Session::choose_batch_slice(Variant *generic, const std::vector<int64_t> &values,
                                    int64_t whole, uint32_t *workers,
                                    uint64_t *slice_arena) const {
  if (batch_symbol_ < 0 || batch_slice_setting_ == 0)
    return 0;
  const Manifest &m = pkg_->manifest();
  const size_t s = size_t(batch_symbol_);
  const SymbolDesc &sym = m.symbols[s];
  const int64_t batch = values[s];
  // Several threads run several slices at once, one thread each (run_slices); a debugging run
  // (poisoned buffers, a profiler) one after another.
  const int64_t threads = poison_ || user_profile_ ? 1 : int64_t(env_.num_threads);
  std::vector<int64_t> probe = values;
  auto arena_for = [&](int64_t samples) {
    probe[s] = samples;
    return generic->arena_bytes(probe.data());
  };
  int64_t slice = batch_slice_setting_;
  if (slice < 0) {
    // The activations of the slices that run at once within half the last-level cache (the
    // rest for the weights and other processes): the largest such slice, the arena growing with
    // the batch.
    const uint64_t budget = last_level_cache_bytes() / 2;
    if (uint64_t(whole) <= budget)
      return 0;
    int64_t lo = std::max<int64_t>(1, sym.min), hi = batch - 1, best = 0;
    while (lo <= hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      const int64_t bytes = arena_for(mid);
      if (bytes >= 0 && uint64_t(bytes) * uint64_t(threads) <= budget) {
        best = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    if (!best)
      return 0;
    // Worth it where the weights stay in the cache beside the slices' activations, or else
    // where the activations the cache now keeps (each written and read back at least once:
    // twice the whole run's arena) outweigh the weights every further slice reads again from
    // memory: a CNN of small weights and large feature maps slices (mobilenet_v2's 14 MB), a
    // transformer of large weights (bert_base's 436 MB) not.
    const uint64_t weights = (target_->has_own_weights ? target_->weights : m.weights).size;
    int64_t slices = (batch + best - 1) / best;
    const bool weights_stay =
        weights + uint64_t(arena_for(best)) * uint64_t(threads) <= last_level_cache_bytes();
    if (!weights_stay && 2 * uint64_t(whole) <= uint64_t(slices - 1) * weights)
      return 0;
    if (threads > 1) {
      // The threads take whole slices: rounds of `threads` slices at once, the last round no
      // more than a quarter idle (batch 3 over 2 threads and slices of 1 would leave one thread
      // idle a third of the run: the whole batch, threaded within each kernel, runs it better).
      const int64_t rounds = (slices + threads - 1) / threads;
      if (4 * rounds * threads > 5 * slices)
        return 0;
    } else {
      // As many slices, of even sizes: batch 8 over slices of at most 6 runs 4 + 4, not 6 + 2.
      best = (batch + slices - 1) / slices;
    }
    slice = best;
  }
  if (slice >= batch)
    return 0;
  // Every slice's size must be one the code takes (the symbol's range).
  const int64_t last = batch - (batch - 1) / slice * slice;
  if (slice < sym.min || last < sym.min)
    return 0;
  const int64_t a = arena_for(slice), b = arena_for(last);
  const int64_t slices = (batch + slice - 1) / slice;
  *workers = uint32_t(std::min<int64_t>(threads, slices));
  const uint64_t one = uint64_t(std::max(a, b));
  if (a < 0 || b < 0 || one > MIE_MAX_ARENA_BYTES / *workers)
    return 0;
  *slice_arena = one;
  return slice;
}

mie_status Session::run_slices(const void *const *inputs, void *const *outputs,
                               std::string *error) {
  const int64_t batch = dims_[size_t(batch_symbol_)];
  const int64_t count = (batch + batch_slice_ - 1) / batch_slice_;
  // Slice `k` with worker `w`'s arena and scratch (sized at the bind: nothing allocated here).
  auto run_one = [&](int64_t k, size_t w, std::string *why) {
    SliceScratch &scratch = slice_scratch_[w];
    const int64_t start = k * batch_slice_;
    scratch.dims[size_t(batch_symbol_)] = std::min(batch_slice_, batch - start);
    for (size_t i = 0; i < scratch.inputs.size(); ++i)
      scratch.inputs[i] =
          static_cast<const uint8_t *>(inputs[i]) + uint64_t(start) * input_sample_bytes_[i];
    for (size_t i = 0; i < scratch.outputs.size(); ++i)
      scratch.outputs[i] =
          static_cast<uint8_t *>(outputs[i]) + uint64_t(start) * output_sample_bytes_[i];
    return call_entry(scratch.inputs.data(), scratch.outputs.data(), scratch.dims.data(),
                      arena_.data() + w * slice_arena_stride_, scratch.args.data(), why);
  };
  // Debugging runs (poisoned buffers, a profiler, set after the bind) take the slices in turn.
  if (batch_workers_ <= 1 || poison_ || user_profile_) {
    for (int64_t k = 0; k < count; ++k)
      if (mie_status status = run_one(k, 0, error))
        return status;
    return MIE_OK;
  }
  // Concurrent slices: each body of the pool's loop takes a free worker (its arena and scratch)
  // for its slices and runs them on its thread (the kernels' own parallel loops run inline
  // there); at most batch_workers_ bodies run at once.
  struct Shared {
    decltype(run_one) *run;
    std::vector<std::atomic<bool>> busy;
    std::string error;
    mie_status status = MIE_OK;
    std::mutex mu;
    explicit Shared(size_t n) : busy(n) {}
  } shared(batch_workers_);
  shared.run = &run_one;
  auto body = [](void *ctx, int64_t begin, int64_t end) {
    auto *sh = static_cast<Shared *>(ctx);
    size_t w = 0;
    for (bool expected = false;; w = (w + 1) % sh->busy.size(), expected = false)
      if (sh->busy[w].compare_exchange_strong(expected, true))
        break;
    for (int64_t k = begin; k < end; ++k) {
      std::string why;
      if (mie_status status = (*sh->run)(k, w, &why)) {
        std::lock_guard<std::mutex> lock(sh->mu);
        if (sh->status == MIE_OK) {
          sh->status = status;
          sh->error = why;
        }
        break;
      }
    }
    sh->busy[w].store(false);
  };
  pool_->parallel_for(count, 1, body, &shared);
  if (shared.status != MIE_OK)
    *error = shared.error;
  return shared.status;
}

mie_status Session::set_batch_slice(int64_t slice, std::string *error) {
  if (slice < -1) {
    *error = "package '" + pkg_->path() + "': batch slice " + std::to_string(slice) +
             " (expected -1 to choose, 0 for none, or a number of samples)";
    return MIE_ERR_INVALID_ARGUMENT;
  }
  std::lock_guard<std::mutex> lock(run_mu_);
  batch_slice_setting_ = slice;
  return replan_batch_slices(error);
}

mie_status Session::replan_batch_slices(std::string *error) {
  if (!bound_ || !bound_->arena_bytes || batch_symbol_ < 0)
    return MIE_OK;  // no code for every shape bound: the next bind plans
  const Manifest &m = pkg_->manifest();
  std::string assignment;
  for (size_t k = 0; k < dims_.size(); ++k)
    assignment += (k ? ", " : "") + m.symbols[k].name + "=" + std::to_string(dims_[k]);
  const std::vector<int64_t> values = dims_;
  return bind_generic(bound_, values, assignment, error);
}

}  // namespace mie::rt
