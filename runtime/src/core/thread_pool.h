// Fixed-size thread pool behind mie_kernel_env::parallel_for.
//
// Generated kernels call parallel_for many times per inference, often on small loops, so the steady state
// must not allocate or create threads: one job slot is reused, workers spin briefly before sleeping, and the
// calling thread takes chunks too. Threads are created with pthreads so failure is a status, not an abort.
#pragma once

#include <pthread.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "mie/mie_kernel_abi.h"

namespace mie::rt {

class ThreadPool {
 public:
  static constexpr uint32_t kMaxThreads = 1024;
  static constexpr size_t kWorkerStackBytes = 8u << 20;

  // num_threads counts the calling thread, so num_threads - 1 workers are started (1 = everything inline).
  static bool create(uint32_t num_threads, std::unique_ptr<ThreadPool> *out, std::string *error);
  ~ThreadPool();
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  uint32_t num_threads() const { return num_threads_; }
  void parallel_for(int64_t count, int64_t grain, mie_parallel_body_fn body, void *ctx);

  // Matches mie_kernel_env::parallel_for; `pool` is a ThreadPool*.
  static void parallel_for_thunk(void *pool, int64_t count, int64_t grain, mie_parallel_body_fn body, void *ctx);

  // CPUs this process may run on (sched_getaffinity), at least 1.
  static uint32_t available_cpus();

 private:
  explicit ThreadPool(uint32_t num_threads) : num_threads_(num_threads), ranges_(new RangeWord[num_threads]) {}
  static void *worker_main(void *arg);
  void worker_loop(uint32_t index);

  const uint32_t num_threads_;
  std::vector<pthread_t> workers_;
  struct WorkerArg {
    ThreadPool *pool;
    uint32_t index;
  };
  std::vector<WorkerArg> worker_args_;

  std::mutex submit_mu_;  // one job at a time, even if two external threads share the pool
  std::mutex mu_;         // guards sleeping/waking
  std::condition_variable wake_cv_, done_cv_;
  // High 32 bits: job generation; low 32 bits: how many workers to wake for it. One word, so a worker never
  // pairs the generation of one job with the participant count of the next.
  std::atomic<uint64_t> job_word_{0};
  std::atomic<bool> stop_{false};

  // Chunk claiming. Each participant owns a contiguous range of the job's chunks, one word per thread on a
  // cache line of its own: (generation tag << 48 | next << 24 | end). The owner claims from the front (a CAS on
  // a line no other thread writes until it runs out of work); a thread whose own range is empty steals from
  // the back of another's. Contiguous ranges keep a kernel's rows on the same core run after run, and
  // consecutive kernels split their outputs alike, so a thread mostly reads what it wrote itself: one shared
  // claim counter (chunks dealt round the threads in turn) made every small kernel pull its operands from
  // the other core's cache (mobilenet_v3_small's kernels 1.3x slower at 2 threads than this).
  // The tag makes a claim fail once the job the thread woke for is closed, so a worker that wakes late can
  // never run a chunk of the next job with the previous job's idea of it. Hence the caller waits only for
  // chunks to finish, never for workers to wake up: under oversubscription a descheduled worker costs
  // nothing (its range is stolen).
  static constexpr int kChunkBits = 24;
  static constexpr int kTagShift = 2 * kChunkBits;
  struct alignas(64) RangeWord {
    std::atomic<uint64_t> word{0};
  };
  std::unique_ptr<RangeWord[]> ranges_;  // num_threads_ words; index 0 is the calling thread's
  uint32_t open_ranges_ = 0;             // words the previous job opened (to close before the next)
  // On a cache line of its own: every thread's last act in a job writes done_chunks_, and it should not take
  // the read-mostly job fields with it.
  alignas(64) std::atomic<int64_t> done_chunks_{0};
  alignas(64) std::atomic<int64_t> num_chunks_{0};  // atomic: late workers may read it while the next job is set up
  // The current job; written before the ranges open it, read only by threads holding a claimed chunk.
  mie_parallel_body_fn body_ = nullptr;
  void *ctx_ = nullptr;
  int64_t count_ = 0, chunk_ = 0;
  // Claims one chunk for thread `self` of the job tagged `tag`: from the front of its own range, else from the
  // back of another's. -1 when none is left (or the job is over).
  int64_t claim_chunk(uint32_t self, uint64_t tag);
  void run_chunks(uint32_t self, uint32_t generation);
};

}  // namespace mie::rt
