#include "core/groth16/prover.hpp"

#include <sodium.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "core/groth16/quotient.hpp"
#include "core/msm/msm.hpp"
#include "core/poly/ntt.hpp"
#include "core/util/at_exit.hpp"
#include "core/util/secure_vector.hpp"

namespace enygma {

const char* prove_stage_name(ProveStage stage) {
  switch (stage) {
    case ProveStage::kConstraints:
      return "constraints";
    case ProveStage::kQuotient:
      return "quotient";
    case ProveStage::kMsmA:
      return "msm_a";
    case ProveStage::kMsmB1:
      return "msm_b1";
    case ProveStage::kMsmB2:
      return "msm_b2";
    case ProveStage::kMsmC:
      return "msm_c";
    case ProveStage::kMsmH:
      return "msm_h";
    case ProveStage::kDone:
      return "done";
  }
  return "?";
}

namespace {

// r and s: uniform in Fr from the CSPRNG, or (tests) from BLAKE2b(seed, label).
void draw_blinding(std::span<const uint8_t> seed, Fr& r, Fr& s) {
  uint8_t wide[64];
  if (seed.empty()) {
    randombytes_buf(wide, sizeof wide);
    r = Fr::from_wide_le_bytes(wide);
    randombytes_buf(wide, sizeof wide);
    s = Fr::from_wide_le_bytes(wide);
  } else {
    static_assert(kMaxTestSeedBytes == crypto_generichash_KEYBYTES_MAX);
    static const uint8_t kR[] = "enygma-groth16-r", kS[] = "enygma-groth16-s";
    // (the caller checked the seed's length, the only way these can fail)
    if (crypto_generichash(wide, sizeof wide, kR, sizeof kR - 1, seed.data(), seed.size()) != 0) {
      std::abort();
    }
    r = Fr::from_wide_le_bytes(wide);
    if (crypto_generichash(wide, sizeof wide, kS, sizeof kS - 1, seed.data(), seed.size()) != 0) {
      std::abort();
    }
    s = Fr::from_wide_le_bytes(wide);
  }
  sodium_memzero(wide, sizeof wide);
}

// scalars[k] = witness[query.wires[k]]
template <class Q>
SecureVector<Fr> gather(const Q& query, std::span<const Fr> witness) {
  SecureVector<Fr> out(query.size());
  for (size_t k = 0; k < query.size(); ++k) out[k] = witness[query.wires[k]];
  return out;
}

Error cancelled() {
  return make_error("the proof was cancelled", "cancelled");
}

// The work of one proof as items for the pool's threads: "cq" (the constraints' evaluations and
// the quotient, in that order, on the calling thread, which reports the stages), "blind" (the
// blinding terms r delta, s delta, ...), and for each MSM its prepare step and then its tasks
// (core/msm/msm.hpp MsmSteps). The C and H queries are one MSM (one set of bucket reductions,
// a wider window), available when cq is done; the others from the start. Every thread takes the
// next item by priority until none is left:
// - one thread: the stages in their documented order (constraints, quotient, A, B1, B2, then C
//   and H together), each MSM parallel in itself (inline here);
// - more: cq on the calling thread while the others start on the MSMs that need only the
//   witness, largest first (the G2 MSM B2 first); C+H's tasks as soon as they exist. Each item
//   runs on one thread (nested pool calls run inline), so no item waits for another thread in
//   the middle of its work.
class ProofSchedule {
 public:
  enum Job { kA, kB1, kB2, kCH, kJobs };

  struct Msm {
    std::unique_ptr<MsmSteps<G1>> g1;
    std::unique_ptr<MsmSteps<G2>> g2;
    G1 r1 = G1::infinity();
    G2 r2 = G2::infinity();
    bool available = true, preparing = false, prepared = false;
    size_t tasks = 0, next = 0, done = 0;
    bool finished = false;
  };

  ProofSchedule(ThreadPool& pool, const ProveOptions& options,
                std::function<bool(ProofSchedule&)> cq, std::function<void()> blind)
      : pool_(pool), options_(options), cq_(std::move(cq)), blind_(std::move(blind)) {}
  ProofSchedule(const ProofSchedule&) = delete;
  ProofSchedule& operator=(const ProofSchedule&) = delete;
  // The MSMs' sums (the witness's part of A, B and C+H before r and s blind them) go with it.
  ~ProofSchedule() {
    for (Msm& m : msms_) {
      sodium_memzero(&m.r1, sizeof m.r1);
      sodium_memzero(&m.r2, sizeof m.r2);
    }
  }

  Msm& msm(Job j) { return msms_[j]; }

  // Runs everything; false when cancelled or when cq failed. Rethrows an item's exception.
  bool run() {
    caller_ = std::this_thread::get_id();
    msms_[kCH].available = false;
    const size_t workers = pool_.size();
    pool_.run_tasks(workers, [&](size_t) { work(); });
    if (error_) std::rethrow_exception(error_);
    if (stopped_) return false;
    report(ProveStage::kDone);
    return true;
  }

  // Every stage up to `s` not reported yet, on the calling thread only; false when cancelled.
  // (cq reports kQuotient through this.)
  bool report(ProveStage s) {
    if (std::this_thread::get_id() == caller_) {
      while (reported_ <= int(s)) {
        if (options_.on_stage) options_.on_stage(ProveStage(reported_));
        ++reported_;
      }
    }
    return !(options_.cancel && options_.cancel->load(std::memory_order_relaxed));
  }

 private:
  // Stage of each job, for the reports.
  static ProveStage stage_of(Job j) {
    // C+H reports msm_c and msm_h as it starts.
    static constexpr ProveStage kStages[kJobs] = {ProveStage::kMsmA, ProveStage::kMsmB1,
                                                  ProveStage::kMsmB2, ProveStage::kMsmH};
    return kStages[j];
  }

  enum Kind { kNone, kCq, kBlind, kPrepare, kTask, kWait };
  struct Item {
    Kind kind = kNone;
    Job job = kA;
    size_t task = 0;
  };

  // The next item by priority (under mu_).
  Item next_item() {
    const bool caller = std::this_thread::get_id() == caller_;
    const bool one = pool_.size() == 1;
    if (!cq_started_ && (caller || one)) {
      cq_started_ = true;
      return {kCq};
    }
    static constexpr Job kInOrder[kJobs] = {kA, kB1, kB2, kCH};
    static constexpr Job kLargestFirst[kJobs] = {kCH, kB2, kA, kB1};
    const Job* order = one ? kInOrder : kLargestFirst;
    // Tasks of prepared MSMs first (their buffers are live), then new prepares.
    for (int i = 0; i < kJobs; ++i) {
      Msm& m = msms_[order[i]];
      if (m.prepared && m.next < m.tasks) return {kTask, order[i], m.next++};
    }
    for (int i = 0; i < kJobs; ++i) {
      Msm& m = msms_[order[i]];
      if (m.available && !m.preparing) {
        m.preparing = true;
        return {kPrepare, order[i]};
      }
    }
    if (!blind_started_) {
      blind_started_ = true;
      return {kBlind};
    }
    // Nothing to take now: wait only for items still to appear (H's after cq, an MSM's tasks
    // after its prepare); otherwise this thread is done.
    bool coming = !msms_[kCH].available;
    for (const Msm& m : msms_) coming = coming || (m.preparing && !m.prepared);
    return {coming ? kWait : kNone};
  }

  void work() {
    for (;;) {
      Item item;
      uint64_t seen = 0;
      {
        std::lock_guard<std::mutex> lock(mu_);
        if (stopped_ || error_) return;
        item = next_item();
        seen = events_.load(std::memory_order_relaxed);
      }
      if (item.kind == kNone) return;
      if (item.kind == kWait) {
        wait_for_event(seen);
        continue;
      }
      const ProveStage stage = item.kind == kCq      ? ProveStage::kConstraints
                               : item.kind == kBlind ? ProveStage::kConstraints
                                                     : stage_of(item.job);
      // The report runs the caller's on_stage: what it throws fails the proof as the item's own
      // failure would (the item is claimed: the other threads wait for it).
      try {
        if (!report(stage)) {
          stop();
          return;
        }
        run_item(item);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mu_);
        if (!error_) error_ = std::current_exception();
        signal();
        return;
      }
    }
  }

  // Items may appear (cq done, an MSM prepared) or the proof stop: signal() under mu_.
  void signal() {
    events_.fetch_add(1, std::memory_order_release);
    changed_.notify_all();
  }

  // Until an event after `seen`: polled briefly, yielding, then blocked. (A thread woken from a
  // futex while its waker computes starts late on this VM: core/parallel/thread_pool.cpp.)
  void wait_for_event(uint64_t seen) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::microseconds(250);
    while (events_.load(std::memory_order_acquire) == seen &&
           std::chrono::steady_clock::now() < deadline) {
      std::this_thread::yield();
    }
    std::unique_lock<std::mutex> lock(mu_);
    changed_.wait(lock, [&] { return events_.load(std::memory_order_relaxed) != seen; });
  }

  void run_item(const Item& item) {
    if (item.kind == kCq) {
      const bool ok = cq_(*this);
      std::lock_guard<std::mutex> lock(mu_);
      cq_done_ = true;
      if (!ok) stopped_ = true;
      msms_[kCH].available = true;
      signal();
      return;
    }
    if (item.kind == kBlind) {
      blind_();
      std::lock_guard<std::mutex> lock(mu_);
      blind_done_ = true;
      return;
    }
    Msm& m = msms_[item.job];
    if (item.kind == kPrepare) {
      const size_t tasks = m.g1 ? m.g1->prepare(pool_) : m.g2->prepare(pool_);
      bool finish_now = false;
      {
        std::lock_guard<std::mutex> lock(mu_);
        m.tasks = tasks;
        m.prepared = true;
        finish_now = tasks == 0;
        signal();
      }
      if (finish_now) finish(m);
      return;
    }
    if (m.g1) {
      m.g1->run(item.task);
    } else {
      m.g2->run(item.task);
    }
    bool last = false;
    {
      std::lock_guard<std::mutex> lock(mu_);
      last = ++m.done == m.tasks;
    }
    if (last) finish(m);
  }

  void finish(Msm& m) {
    if (m.g1) {
      m.r1 = m.g1->finish();
      m.g1.reset();
    } else {
      m.r2 = m.g2->finish();
      m.g2.reset();
    }
    std::lock_guard<std::mutex> lock(mu_);
    m.finished = true;
  }

  void stop() {
    std::lock_guard<std::mutex> lock(mu_);
    stopped_ = true;
    signal();
  }

  ThreadPool& pool_;
  const ProveOptions& options_;
  std::function<bool(ProofSchedule&)> cq_;
  std::function<void()> blind_;
  Msm msms_[kJobs];
  std::mutex mu_;
  std::condition_variable changed_;
  std::atomic<uint64_t> events_{0};
  std::thread::id caller_;
  int reported_ = 0;  // stages reported so far (on the calling thread)
  bool cq_started_ = false, cq_done_ = false, blind_started_ = false, blind_done_ = false;
  bool stopped_ = false;
  std::exception_ptr error_;
};

// The constraint system through one interface: an R1cs, or a key's ConstraintShape.
struct R1csRows {
  const R1cs& r;
  uint32_t num_wires() const { return r.num_wires; }
  uint32_t num_public() const { return r.num_public; }
  size_t num_constraints() const { return r.num_constraints(); }
  void eval(size_t i, std::span<const Fr> w, Fr& a, Fr& b, Fr& c) const {
    a = r.a.dot(i, w);
    b = r.b.dot(i, w);
    c = r.c.dot(i, w);
  }
  std::string label(size_t i) const { return i < r.labels.size() ? r.labels[i] : std::string(); }
};

struct ShapeRows {
  const ConstraintShape& s;
  uint32_t num_wires() const { return s.num_wires; }
  uint32_t num_public() const { return s.num_public; }
  size_t num_constraints() const { return s.num_constraints(); }
  void eval(size_t i, std::span<const Fr> w, Fr& a, Fr& b, Fr& c) const {
    a = s.dot(s.a, i, w);
    b = s.dot(s.b, i, w);
    c = s.dot(s.c, i, w);
  }
  std::string label(size_t) const { return {}; }
};

template <class Rows>
Result<Proof> prove(const ProvingKey& pk, const Rows& r1cs, std::span<const Fr> witness,
                    ThreadPool& pool, const ProveOptions& options) {
  if (sodium_init() < 0) return make_error("libsodium failed to initialise", "internal");
  const size_t m = r1cs.num_constraints();
  const size_t n = pk.domain_size;
  if (!EvaluationDomain::valid_size(n) || r1cs.num_wires() != pk.num_wires ||
      r1cs.num_public() != pk.num_public || uint64_t(m) + r1cs.num_public() + 1 > n ||
      pk.b2.size() != pk.b1.size() || pk.h.size() != n || !pk.a.consistent() ||
      !pk.b1.consistent() || !pk.b2.consistent() || !pk.c.consistent()) {
    return make_error("the proving key does not belong to this circuit", "key");
  }
  if (witness.size() != r1cs.num_wires()) {
    return make_error("the witness has " + std::to_string(witness.size()) +
                          " values, the circuit " + std::to_string(r1cs.num_wires()) + " wires",
                      "witness");
  }
  if (!(witness[0] == Fr::one())) {
    return make_error("witness[0] must be 1 (the constant wire)", "witness");
  }
  if (options.insecure_test_seed.size() > kMaxTestSeedBytes) {
    // (BLAKE2b takes keys of at most 64 bytes: a longer one would leave r and s undrawn)
    return make_error("the test seed has " + std::to_string(options.insecure_test_seed.size()) +
                          " bytes, more than " + std::to_string(kMaxTestSeedBytes),
                      "input", "test_seed");
  }

  // The MSMs' scalars: the witness values of each query's wires; H's are the quotient's.
  SecureVector<Fr> sc_a = gather(pk.a, witness), sc_b = gather(pk.b1, witness),
                   sc_c = gather(pk.c, witness);
  SecureVector<Fr> a(n, Fr::zero());
  size_t bad = SIZE_MAX;

  // 1. Evaluations a_i = <A_i, w>, b_i = <B_i, w>, c_i = <C_i, w>; each constraint is checked,
  //    so an unsatisfied witness is an error rather than a proof that fails to verify.
  // 2. The quotient on the odd coset: the H query's scalars, in a.
  auto cq = [&](ProofSchedule& schedule) -> bool {
    SecureVector<Fr> b(n, Fr::zero()), c(n, Fr::zero());
    std::atomic<size_t> first_bad{SIZE_MAX};
    pool.parallel_for(
        m,
        [&](size_t begin, size_t end) {
          for (size_t i = begin; i < end; ++i) {
            r1cs.eval(i, witness, a[i], b[i], c[i]);
            if (!(a[i] * b[i] == c[i])) {
              size_t cur = first_bad.load();
              while (i < cur && !first_bad.compare_exchange_weak(cur, i)) {
              }
            }
          }
        },
        1024);
    bad = first_bad.load();
    if (bad != SIZE_MAX) return false;
    for (uint32_t s = 0; s <= r1cs.num_public(); ++s) a[m + s] = witness[s];  // IC rows
    if (!schedule.report(ProveStage::kQuotient)) return false;                // cancelled
    quotient_odd_coset(EvaluationDomain::shared(n), a.data(), b.data(), c.data(), pool);
    return true;
  };

  Fr r, s, rs;
  G1 r_delta1, s_delta1, rs_delta1;
  G2 s_delta2;
  // The blinding and its products with delta (pi_A - r delta is alpha + A), however the proof
  // ends (an item's exception rethrown by the schedule included).
  const AtExit wipe_blinding{[&] {
    sodium_memzero(&r, sizeof r);
    sodium_memzero(&s, sizeof s);
    sodium_memzero(&rs, sizeof rs);
    sodium_memzero(&r_delta1, sizeof r_delta1);
    sodium_memzero(&s_delta1, sizeof s_delta1);
    sodium_memzero(&rs_delta1, sizeof rs_delta1);
    sodium_memzero(&s_delta2, sizeof s_delta2);
  }};
  draw_blinding(options.insecure_test_seed, r, s);
  rs = r * s;
  auto blind = [&] {
    const G1 delta1 = pk.delta1.to_jacobian();
    r_delta1 = delta1.mul_secret(r.to_u256());
    s_delta1 = delta1.mul_secret(s.to_u256());
    rs_delta1 = delta1.mul_secret(rs.to_u256());
    s_delta2 = pk.delta2.to_jacobian().mul_secret(s.to_u256());
  };

  // With several threads the MSMs run side by side: B2 whole on one thread; C+H (the largest,
  // available last) and the two smallest, A and B1 (taken last), split over the pool so that
  // the threads finish together.
  MsmOptions g2_whole, split;
  g2_whole.threads = 1;
  // The key's B2 points are in G2 (made by the setup or an imported ceremony's key, bound by
  // its digest), so the MSM may use the endomorphism there.
  g2_whole.endomorphism = MsmOptions::Endomorphism::kOn;
  ProofSchedule schedule(pool, options, cq, blind);
  using S = ProofSchedule;
  schedule.msm(S::kA).g1 = msm_g1_steps(pk.a.points.data(), sc_a.data(), sc_a.size(), split);
  schedule.msm(S::kB1).g1 = msm_g1_steps(pk.b1.points.data(), sc_b.data(), sc_b.size(), split);
  schedule.msm(S::kB2).g2 = msm_g2_steps(pk.b2.points.data(), sc_b.data(), sc_b.size(), g2_whole);
  schedule.msm(S::kCH).g1 =
      msm_g1_steps(pk.c.points.data(), sc_c.data(), sc_c.size(), pk.h.data(), a.data(), n, split);

  const bool completed = schedule.run();
  if (bad != SIZE_MAX) {
    std::string what = "the witness does not satisfy constraint " + std::to_string(bad);
    if (const std::string label = r1cs.label(bad); !label.empty()) what += " (" + label + ")";
    return make_error(what, "witness");
  }
  if (!completed) return cancelled();

  // pi_A = alpha + A + r delta; B_1 = beta + B + s delta (G1 and G2);
  // pi_C = C + H + s pi_A + r B_1 - r s delta.
  const G1 pi_a = schedule.msm(S::kA).r1.add_mixed(pk.alpha1) + r_delta1;
  const G1 b1 = schedule.msm(S::kB1).r1.add_mixed(pk.beta1) + s_delta1;
  const G2 pi_b = schedule.msm(S::kB2).r2.add_mixed(pk.beta2) + s_delta2;
  G1 pi_c = schedule.msm(S::kCH).r1;
  pi_c += pi_a.mul_secret(s.to_u256()) + b1.mul_secret(r.to_u256()) - rs_delta1;

  Proof proof{pi_a.to_affine(), pi_b.to_affine(), pi_c.to_affine()};
  return proof;
}

}  // namespace

Result<Proof> groth16_prove(const ProvingKey& pk, const R1cs& r1cs, std::span<const Fr> witness,
                            ThreadPool& pool, const ProveOptions& options) {
  return prove(pk, R1csRows{r1cs}, witness, pool, options);
}

Result<Proof> groth16_prove(const ProvingKey& pk, const ConstraintShape& shape,
                            std::span<const Fr> witness, ThreadPool& pool,
                            const ProveOptions& options) {
  return prove(pk, ShapeRows{shape}, witness, pool, options);
}

}  // namespace enygma
