#include "thread_pool.h"

#include <sched.h>
#include <unistd.h>

#include <cstring>

namespace mie::rt {
namespace {

// True while this thread runs a parallel_for body: nested calls then run inline instead of waiting on a
// pool whose threads may all be busy with the outer loop (which would deadlock).
thread_local bool tls_in_parallel_body = false;

// About half a millisecond (a pause is about 26 ns on the Zen 4 this was measured on): long enough to
// catch the next parallel kernel across a stretch of single-threaded small kernels without a futex
// round trip (2000, about 50 us, let mobilenet_v2 and v3_small's workers fall asleep: 2 threads 1-4%
// slower), short enough not to burn a core for long when the model is idle or the machine is
// oversubscribed.
constexpr int kSpinIterations = 20000;

// Chunks per thread a parallel_for is cut into at most (about): enough that uneven chunks balance, few
// enough that claiming them (one CAS each) stays negligible.
constexpr int64_t kChunksPerThread = 32;

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

struct BodyScope {
  BodyScope() { tls_in_parallel_body = true; }
  ~BodyScope() { tls_in_parallel_body = false; }
};

}  // namespace

uint32_t ThreadPool::available_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    int n = CPU_COUNT(&set);
    if (n > 0) return uint32_t(n);
  }
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? uint32_t(n) : 1;
}

bool ThreadPool::create(uint32_t num_threads, std::unique_ptr<ThreadPool> *out, std::string *error) {
  if (num_threads == 0) num_threads = available_cpus();
  if (num_threads > kMaxThreads) {
    *error = "num_threads " + std::to_string(num_threads) + " exceeds the limit of " + std::to_string(kMaxThreads);
    return false;
  }
  std::unique_ptr<ThreadPool> pool(new ThreadPool(num_threads));
  pool->worker_args_.resize(num_threads - 1);
  pool->workers_.reserve(num_threads - 1);
  // Kernels keep their per-thread scratch (packed panels, up to 512 KiB) on the stack: give every
  // worker the 8 MiB a main thread usually has, whatever the process's default thread stack is.
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, kWorkerStackBytes);
  for (uint32_t i = 0; i + 1 < num_threads; ++i) {
    pool->worker_args_[i] = {pool.get(), i};
    pthread_t t;
    int rc = pthread_create(&t, &attr, &ThreadPool::worker_main, &pool->worker_args_[i]);
    if (rc != 0) {
      *error = "cannot start thread pool worker " + std::to_string(i) + " of " + std::to_string(num_threads - 1) +
               ": " + std::strerror(rc);
      pthread_attr_destroy(&attr);
      return false;  // ~ThreadPool stops and joins the workers started so far
    }
    pool->workers_.push_back(t);
  }
  pthread_attr_destroy(&attr);
  *out = std::move(pool);
  return true;
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lk(mu_);
    stop_.store(true, std::memory_order_release);
  }
  wake_cv_.notify_all();
  for (pthread_t t : workers_) pthread_join(t, nullptr);
}

void *ThreadPool::worker_main(void *arg) {
  auto *a = static_cast<WorkerArg *>(arg);
  a->pool->worker_loop(a->index);
  return nullptr;
}

void ThreadPool::worker_loop(uint32_t index) {
  uint32_t seen_generation = 0;
  for (;;) {
    uint64_t word = job_word_.load(std::memory_order_acquire);
    for (int i = 0; i < kSpinIterations && uint32_t(word >> 32) == seen_generation &&
                    !stop_.load(std::memory_order_relaxed);
         ++i) {
      cpu_relax();
      word = job_word_.load(std::memory_order_acquire);
    }
    if (uint32_t(word >> 32) == seen_generation && !stop_.load(std::memory_order_acquire)) {
      std::unique_lock<std::mutex> lk(mu_);
      wake_cv_.wait(lk, [&] {
        word = job_word_.load(std::memory_order_acquire);
        return uint32_t(word >> 32) != seen_generation || stop_.load(std::memory_order_acquire);
      });
    }
    if (stop_.load(std::memory_order_acquire)) return;
    seen_generation = uint32_t(word >> 32);
    if (index < uint32_t(word)) run_chunks(index + 1, seen_generation);  // else not needed for this job
  }
}

int64_t ThreadPool::claim_chunk(uint32_t self, uint64_t tag) {
  constexpr uint64_t kMask = (uint64_t(1) << kChunkBits) - 1;
  // A range word of this job with chunks left: next < end.
  auto claimable = [&](uint64_t w) {
    return (w & ~((uint64_t(1) << kTagShift) - 1)) == tag && ((w >> kChunkBits) & kMask) < (w & kMask);
  };
  // Own range first: next moves up by one.
  std::atomic<uint64_t> &own = ranges_[self].word;
  uint64_t w = own.load(std::memory_order_acquire);
  while (claimable(w)) {
    if (own.compare_exchange_weak(w, w + (uint64_t(1) << kChunkBits), std::memory_order_acq_rel,
                                  std::memory_order_acquire))
      return int64_t((w >> kChunkBits) & kMask);
  }
  // Then the others' ranges, from their back: end moves down by one, so the owner keeps its next rows.
  for (uint32_t k = 1; k < num_threads_; ++k) {
    const uint32_t victim = self + k < num_threads_ ? self + k : self + k - num_threads_;
    std::atomic<uint64_t> &range = ranges_[victim].word;
    w = range.load(std::memory_order_acquire);
    while (claimable(w)) {
      if (range.compare_exchange_weak(w, w - 1, std::memory_order_acq_rel, std::memory_order_acquire))
        return int64_t(w & kMask) - 1;
    }
  }
  return -1;
}

void ThreadPool::run_chunks(uint32_t self, uint32_t generation) {
  const uint64_t tag = uint64_t(generation & 0xFFFF) << kTagShift;
  BodyScope scope;
  // Chunks this thread ran and has not reported yet: reported once, when it finds no more to claim, so
  // a job costs each thread one write to done_chunks_ instead of one per chunk. Until then the job
  // cannot finish, so its fields stay as they are while this thread still claims.
  int64_t ran = 0;
  for (int64_t i; (i = claim_chunk(self, tag)) >= 0;) {
    // Chunk i is ours: the job cannot finish (and its fields cannot change) until we report it done.
    const int64_t begin = i * chunk_;
    const int64_t end = count_ - begin > chunk_ ? begin + chunk_ : count_;
    body_(ctx_, begin, end);
    ++ran;
  }
  if (ran == 0) return;  // also when the job this thread woke for is already over
  const int64_t total = num_chunks_.load(std::memory_order_relaxed);
  if (done_chunks_.fetch_add(ran, std::memory_order_acq_rel) + ran == total) {
    std::lock_guard<std::mutex> lk(mu_);  // pairs with the caller's predicate check: no lost wakeup
    done_cv_.notify_one();
  }
}

void ThreadPool::parallel_for(int64_t count, int64_t grain, mie_parallel_body_fn body, void *ctx) {
  if (count <= 0 || body == nullptr) return;
  if (num_threads_ == 1 || tls_in_parallel_body) {
    // One chunk starting at 0 satisfies the grain contract.
    if (tls_in_parallel_body) {
      body(ctx, 0, count);
    } else {
      BodyScope scope;
      body(ctx, 0, count);
    }
    return;
  }
  // Chunks are whole multiples of the grain (the ABI promises grain-aligned starts); several per thread so
  // uneven work balances (by stealing), but few enough that claiming stays negligible.
  // Kernels split their work into a few dozen items (blocks of output tiles) of unequal cost: each item is
  // its own chunk until there are more than kChunksPerThread per thread, so the last chunks, which decide
  // when the caller may return, are single items.
  const int64_t threads = int64_t(num_threads_);
  const int64_t g = grain > 0 ? grain : 1;
  const int64_t units = count / g + (count % g != 0);
  const int64_t units_per_chunk = units / (threads * kChunksPerThread) > 0 ? units / (threads * kChunksPerThread) : 1;
  const int64_t chunk = g * units_per_chunk;
  // At most about 2 * kChunksPerThread chunks per thread, far below the 2^24 a range word can count.
  const int64_t num_chunks = count / chunk + (count % chunk != 0);
  if (num_chunks <= 1) {
    BodyScope scope;
    body(ctx, 0, count);
    return;
  }

  std::lock_guard<std::mutex> submit(submit_mu_);
  const uint32_t generation = uint32_t(job_word_.load(std::memory_order_relaxed) >> 32) + 1;
  const uint64_t tag = uint64_t(generation & 0xFFFF) << kTagShift;
  const uint32_t workers = num_threads_ - 1;
  const uint32_t wake = num_chunks - 1 < int64_t(workers) ? uint32_t(num_chunks - 1) : workers;
  const uint32_t participants = wake + 1;
  // 1. Close the previous job for late workers: every word it opened gets the new tag and an empty range.
  const uint32_t close = open_ranges_ > participants ? open_ranges_ : participants;
  for (uint32_t t = 0; t < close; ++t) ranges_[t].word.store(tag, std::memory_order_seq_cst);
  // 2. Describe the new job. The release on num_chunks_ orders it after step 1 for anyone who reads it.
  body_ = body;
  ctx_ = ctx;
  count_ = count;
  chunk_ = chunk;
  done_chunks_.store(0, std::memory_order_relaxed);
  num_chunks_.store(num_chunks, std::memory_order_release);
  // 3. Open it: participant t owns chunks [t * n / p, (t + 1) * n / p). Then wake the workers among them.
  for (uint32_t t = 0; t < participants; ++t) {
    const uint64_t begin = uint64_t(num_chunks) * t / participants;
    const uint64_t end = uint64_t(num_chunks) * (t + 1) / participants;
    ranges_[t].word.store(tag | begin << kChunkBits | end, std::memory_order_release);
  }
  open_ranges_ = participants;
  {
    std::lock_guard<std::mutex> lk(mu_);
    job_word_.store(uint64_t(generation) << 32 | wake, std::memory_order_release);
  }
  wake_cv_.notify_all();

  run_chunks(0, generation);

  // Wait for chunks other threads claimed and are still running.
  for (int i = 0; i < kSpinIterations && done_chunks_.load(std::memory_order_acquire) != num_chunks; ++i) cpu_relax();
  if (done_chunks_.load(std::memory_order_acquire) != num_chunks) {
    std::unique_lock<std::mutex> lk(mu_);
    done_cv_.wait(lk, [&] { return done_chunks_.load(std::memory_order_acquire) == num_chunks; });
  }
}

void ThreadPool::parallel_for_thunk(void *pool, int64_t count, int64_t grain, mie_parallel_body_fn body,
                                    void *ctx) {
  static_cast<ThreadPool *>(pool)->parallel_for(count, grain, body, ctx);
}

}  // namespace mie::rt
