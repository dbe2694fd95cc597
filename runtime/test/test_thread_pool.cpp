#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "core/thread_pool.h"

using mie::rt::ThreadPool;

namespace {

std::unique_ptr<ThreadPool> make_pool(uint32_t n) {
  std::unique_ptr<ThreadPool> pool;
  std::string error;
  EXPECT_TRUE(ThreadPool::create(n, &pool, &error)) << error;
  return pool;
}

struct SumCtx {
  std::vector<int> hits;  // one slot per index: every index must be visited exactly once
  std::atomic<int64_t> sum{0};
  std::atomic<int64_t> calls{0};
  int64_t grain = 0;
  std::atomic<bool> misaligned{false};
};

void sum_body(void *p, int64_t begin, int64_t end) {
  auto *c = static_cast<SumCtx *>(p);
  c->calls.fetch_add(1);
  if (c->grain > 0 && begin % c->grain != 0) c->misaligned = true;
  int64_t local = 0;
  for (int64_t i = begin; i < end; ++i) {
    ++c->hits[size_t(i)];  // disjoint chunks: no two threads touch the same slot
    local += i;
  }
  c->sum.fetch_add(local);
}

void check_sum(ThreadPool &pool, int64_t count, int64_t grain) {
  SumCtx c;
  c.hits.assign(size_t(count > 0 ? count : 0), 0);
  c.grain = grain;
  pool.parallel_for(count, grain, sum_body, &c);
  const int64_t n = count > 0 ? count : 0;
  EXPECT_EQ(c.sum.load(), n * (n - 1) / 2) << "count " << count << " grain " << grain;
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(c.hits[size_t(i)], 1) << "index " << i << " count " << count;
  EXPECT_FALSE(c.misaligned.load()) << "chunk not aligned to grain " << grain;
}

class PoolTest : public ::testing::TestWithParam<uint32_t> {};

TEST_P(PoolTest, SumsOverRanges) {
  auto pool = make_pool(GetParam());
  ASSERT_EQ(pool->num_threads(), GetParam());
  for (int64_t count : {0, 1, 2, 3, 7, 64, 100, 1000, 4097, 100000})
    for (int64_t grain : {-1, 0, 1, 3, 16, 1000, 1 << 20}) check_sum(*pool, count, grain);
  check_sum(*pool, -5, 1);  // negative count: no-op
}

TEST_P(PoolTest, ManyRepeatedCalls) {
  auto pool = make_pool(GetParam());
  SumCtx c;
  c.hits.assign(256, 0);
  for (int rep = 0; rep < 5000; ++rep) pool->parallel_for(256, 8, sum_body, &c);
  EXPECT_EQ(c.sum.load(), int64_t(5000) * (255 * 256 / 2));
  for (int h : c.hits) ASSERT_EQ(h, 5000);
}

TEST_P(PoolTest, NestedCallsRunInline) {
  auto pool = make_pool(GetParam());
  struct Ctx {
    ThreadPool *pool;
    std::atomic<int64_t> total{0};
  } ctx{pool.get()};
  pool->parallel_for(16, 1, [](void *p, int64_t b, int64_t e) {
    auto *c = static_cast<Ctx *>(p);
    for (int64_t i = b; i < e; ++i)
      c->pool->parallel_for(100, 10, [](void *q, int64_t bb, int64_t ee) {
        static_cast<Ctx *>(q)->total.fetch_add(ee - bb);
      }, c);
  }, &ctx);
  EXPECT_EQ(ctx.total.load(), 1600);
}

TEST_P(PoolTest, UsesWorkerThreads) {
  auto pool = make_pool(GetParam());
  struct Ctx {
    std::mutex mu;
    std::set<std::thread::id> ids;
  } ctx;
  // Enough slow chunks that, with more than one thread, some worker must take part.
  for (int rep = 0; rep < 50 && ctx.ids.size() < 2; ++rep)
    pool->parallel_for(64, 1, [](void *p, int64_t, int64_t) {
      auto *c = static_cast<Ctx *>(p);
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      std::lock_guard<std::mutex> lk(c->mu);
      c->ids.insert(std::this_thread::get_id());
    }, &ctx);
  if (GetParam() == 1) {
    EXPECT_EQ(ctx.ids.size(), 1u);
    EXPECT_EQ(*ctx.ids.begin(), std::this_thread::get_id());  // inline on the caller
  } else {
    EXPECT_GE(ctx.ids.size(), 2u);
  }
}

INSTANTIATE_TEST_SUITE_P(Threads, PoolTest, ::testing::Values(1u, 2u, 4u),
                         [](const ::testing::TestParamInfo<uint32_t> &i) { return std::to_string(i.param); });

TEST(ThreadPool, SharedByTwoCallers) {
  // Two external threads submitting to one pool are serialized, never mixed.
  auto pool = make_pool(3);
  std::atomic<int64_t> total{0};
  auto work = [&] {
    for (int i = 0; i < 2000; ++i)
      pool->parallel_for(50, 5, [](void *p, int64_t b, int64_t e) {
        static_cast<std::atomic<int64_t> *>(p)->fetch_add(e - b);
      }, &total);
  };
  std::thread a(work), b(work);
  a.join();
  b.join();
  EXPECT_EQ(total.load(), 2 * 2000 * 50);
}

TEST(ThreadPool, OwnRangesFirstThenSteals) {
  // Each thread starts on a contiguous range of its own; a thread stuck in its first chunk has the rest of
  // its range taken by the others, so the caller never waits for more than the chunks already running.
  auto pool = make_pool(2);
  struct Ctx {
    std::thread::id caller = std::this_thread::get_id();
    std::vector<int> by_caller = std::vector<int>(64, 0);
    std::atomic<bool> stalled{false};
  } ctx;
  pool->parallel_for(64, 1, [](void *p, int64_t b, int64_t e) {
    auto *c = static_cast<Ctx *>(p);
    if (std::this_thread::get_id() == c->caller) {
      for (int64_t i = b; i < e; ++i) c->by_caller[size_t(i)] = 1;
      // Slow enough that the worker wakes and claims the first chunk of its range while the caller is busy.
      std::this_thread::sleep_for(std::chrono::microseconds(500));
    } else if (!c->stalled.exchange(true)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(150));
    }
  }, &ctx);
  int caller_chunks = 0;
  for (int v : ctx.by_caller) caller_chunks += v;
  // The caller owns [0, 32): it ran all of them, and stole all but the worker's stalled chunk (or ran
  // everything if the worker never woke). Without stealing it would have waited for the worker: 32.
  for (int i = 0; i < 32; ++i) EXPECT_EQ(ctx.by_caller[size_t(i)], 1) << "chunk " << i;
  EXPECT_GE(caller_chunks, 63);
}

TEST(ThreadPool, CreateAndDestroyRepeatedly) {
  for (int i = 0; i < 50; ++i) {
    auto pool = make_pool(4);
    check_sum(*pool, 1000, 7);
  }
}

TEST(ThreadPool, Limits) {
  std::unique_ptr<ThreadPool> pool;
  std::string error;
  EXPECT_FALSE(ThreadPool::create(5000, &pool, &error));
  EXPECT_EQ(error, "num_threads 5000 exceeds the limit of 1024");
  ASSERT_TRUE(ThreadPool::create(0, &pool, &error));
  EXPECT_EQ(pool->num_threads(), ThreadPool::available_cpus());
  EXPECT_GE(ThreadPool::available_cpus(), 1u);
}

}  // namespace
