#include "native/server/metrics.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>

#include "native/server/access_log.hpp"

namespace enygma::server {

namespace {

std::string format_double(double v) {
  char buf[32];
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    snprintf(buf, sizeof buf, "%.0f", v);  // counts: every digit
  } else {
    snprintf(buf, sizeof buf, "%.6g", v);
  }
  return buf;
}

void header(std::string& out, const char* name, const char* type, const char* help) {
  out += "# HELP ";
  out += name;
  out += ' ';
  out += help;
  out += "\n# TYPE ";
  out += name;
  out += ' ';
  out += type;
  out += '\n';
}

void sample(std::string& out, const std::string& name, const std::string& labels, double value) {
  out += name;
  if (!labels.empty()) out += "{" + labels + "}";
  out += ' ';
  out += format_double(value);
  out += '\n';
}

}  // namespace

void Histogram::observe(double seconds) {
  size_t i = 0;
  while (i < kBounds.size() && seconds > kBounds[i]) ++i;
  buckets_[i].fetch_add(1, std::memory_order_relaxed);
  count_.fetch_add(1, std::memory_order_relaxed);
  sum_micros_.fetch_add(static_cast<uint64_t>(seconds * 1e6), std::memory_order_relaxed);
}

void Histogram::render(std::string& out, const std::string& name, const std::string& labels) const {
  const std::string prefix = labels.empty() ? "" : labels + ",";
  uint64_t cumulative = 0;
  for (size_t i = 0; i < kBounds.size(); ++i) {
    cumulative += buckets_[i].load(std::memory_order_relaxed);
    sample(out, name + "_bucket", prefix + "le=\"" + format_double(kBounds[i]) + "\"",
           static_cast<double>(cumulative));
  }
  cumulative += buckets_[kBounds.size()].load(std::memory_order_relaxed);
  sample(out, name + "_bucket", prefix + "le=\"+Inf\"", static_cast<double>(cumulative));
  sample(out, name + "_sum", labels, sum_micros_.load(std::memory_order_relaxed) / 1e6);
  sample(out, name + "_count", labels, static_cast<double>(count_.load(std::memory_order_relaxed)));
}

Metrics::Metrics(const std::vector<CircuitId>& circuits) {
  for (const CircuitId& id : circuits) {
    auto m = std::make_unique<PerCircuit>();
    m->labels = "circuit=\"" + std::string(id.family->name) + "\"";
    if (id.family->has_k()) m->labels += ",k=\"" + std::to_string(id.k) + "\"";
    per_circuit_[id.str()] = std::move(m);
  }
}

Metrics::PerCircuit* Metrics::find(const CircuitId& id) const {
  auto it = per_circuit_.find(id.str());
  return it == per_circuit_.end() ? nullptr : it->second.get();
}

void Metrics::count_request(const std::string& endpoint, int status) {
  std::lock_guard lock(requests_mu_);
  ++requests_[{endpoint, status}];
}

void Metrics::observe_proof(const CircuitId& id, double seconds) {
  if (PerCircuit* m = find(id)) m->proof.observe(seconds);
}

void Metrics::observe_queue_wait(const CircuitId& id, double seconds) {
  if (PerCircuit* m = find(id)) m->queue_wait.observe(seconds);
}

void Metrics::observe_verify(const CircuitId& id, double seconds) {
  if (PerCircuit* m = find(id)) m->verify.observe(seconds);
}

void Metrics::set_key_load_seconds(const CircuitId& id, double seconds) {
  // Only called at start-up, before any reader exists.
  if (PerCircuit* m = find(id)) m->key_load_seconds = seconds;
}

std::string Metrics::render(const Gauges& gauges) const {
  std::string out;
  out.reserve(16 * 1024);
  header(out, "enygma_http_requests_total", "counter", "HTTP requests by endpoint and status.");
  {
    std::lock_guard lock(requests_mu_);
    for (const auto& [key, count] : requests_) {
      sample(out, "enygma_http_requests_total",
             "endpoint=\"" + key.first + "\",status=\"" + std::to_string(key.second) + "\"",
             static_cast<double>(count));
    }
  }
  header(out, "enygma_proof_duration_seconds", "histogram",
         "Time to prove one request (parse, validate, witness, Groth16), by circuit.");
  for (const auto& [id, m] : per_circuit_) {
    m->proof.render(out, "enygma_proof_duration_seconds", m->labels);
  }
  header(out, "enygma_proof_queue_wait_seconds", "histogram",
         "Time an admitted proof waited for a prover thread, by circuit.");
  for (const auto& [id, m] : per_circuit_) {
    m->queue_wait.render(out, "enygma_proof_queue_wait_seconds", m->labels);
  }
  header(out, "enygma_verify_duration_seconds", "histogram",
         "Time to verify one proof, by circuit.");
  for (const auto& [id, m] : per_circuit_) {
    m->verify.render(out, "enygma_verify_duration_seconds", m->labels);
  }
  header(out, "enygma_key_load_seconds", "gauge",
         "Time to read and decode both keys of a circuit at start-up, by circuit.");
  for (const auto& [id, m] : per_circuit_) {
    sample(out, "enygma_key_load_seconds", m->labels, m->key_load_seconds);
  }
  header(out, "enygma_proof_queue_depth", "gauge", "Admitted proofs waiting for a prover.");
  sample(out, "enygma_proof_queue_depth", "", static_cast<double>(gauges.queue_depth));
  header(out, "enygma_proofs_in_flight", "gauge", "Proofs being computed now.");
  sample(out, "enygma_proofs_in_flight", "", static_cast<double>(gauges.proofs_in_flight));
  header(out, "enygma_verify_queue_depth", "gauge", "Admitted verifications waiting.");
  sample(out, "enygma_verify_queue_depth", "", static_cast<double>(gauges.verify_queue_depth));
  header(out, "enygma_verifies_in_flight", "gauge", "Verifications being computed now.");
  sample(out, "enygma_verifies_in_flight", "", static_cast<double>(gauges.verifies_in_flight));
  header(out, "enygma_rejected_total", "counter",
         "Requests and connections turned away for capacity: 503 for a full queue or too many "
         "open connections (connections beyond twice --max-connections are closed unanswered).");
  sample(out, "enygma_rejected_total", "", static_cast<double>(rejected_.load()));
  header(out, "enygma_proofs_cancelled_total", "counter",
         "Admitted proofs dropped because their client went away.");
  sample(out, "enygma_proofs_cancelled_total", "", static_cast<double>(cancelled_.load()));
  header(out, "enygma_proofs_failed_total", "counter", "Proofs that failed inside the prover.");
  sample(out, "enygma_proofs_failed_total", "", static_cast<double>(failed_.load()));
  header(out, "enygma_access_log_dropped_total", "counter",
         "Access log lines dropped because stdout did not take them (a stalled reader).");
  sample(out, "enygma_access_log_dropped_total", "",
         static_cast<double>(AccessLog::dropped_access_lines()));
  header(out, "enygma_open_connections", "gauge", "Open client connections.");
  sample(out, "enygma_open_connections", "", static_cast<double>(gauges.open_connections));
  header(out, "enygma_ready", "gauge", "1 while serving, 0 while draining.");
  sample(out, "enygma_ready", "", gauges.ready ? 1 : 0);
  header(out, "process_resident_memory_bytes", "gauge", "Resident memory size in bytes.");
  sample(out, "process_resident_memory_bytes", "", static_cast<double>(process_rss_bytes()));
  header(out, "process_uptime_seconds", "gauge", "Seconds since start-up.");
  sample(out, "process_uptime_seconds", "",
         std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
  return out;
}

uint64_t process_rss_bytes() {
  FILE* f = fopen("/proc/self/statm", "r");
  if (!f) return 0;
  unsigned long long size = 0, resident = 0;
  const int n = fscanf(f, "%llu %llu", &size, &resident);
  fclose(f);
  if (n != 2) return 0;
  return resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

}  // namespace enygma::server
