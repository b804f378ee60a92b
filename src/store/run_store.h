// The run store: one SQLite database per run directory (DIR/run.sqlite) holding the run's
// provenance, the exact request of every planned sample, what each sample ended as, and the
// analysis of each answer. Schema and durability choices: docs/store.md.
//
// Contract:
// - Each record() is its own committed transaction, so a run killed with SIGKILL keeps every
//   sample whose record() returned (WAL with synchronous=NORMAL: a kill of the process loses
//   nothing committed; only an OS crash or power loss may drop the last few commits, never
//   corrupting the file).
// - A done sample is final: record() of anything for it is ignored and reported as not stored.
//   An error may be replaced by a later result (a retry).
// - No credentials: request bodies, metadata and provenance holding an "api_key",
//   "Authorization" (or similar) field at any depth are refused; so is an endpoint URL with
//   user:password or a query string in it. The store is never given an API key.
// - Thread safety: every member function may be called from any thread (one internal mutex);
//   the intended use is one writer (the engine's result callback) and readers after the run.
//   for_each_sample's callback runs without the lock held and may call record_analysis().
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "generation/sample.h"
#include "store/store_error.h"

namespace codebias::store {

// The schema version this build reads and writes (PRAGMA user_version).
// Older stores are upgraded in place when opened: version 1 gets results.answer_bytes_received,
// versions 1 and 2 the executions table (empty).
inline constexpr std::int64_t kSchemaVersion = 3;
// The database file inside a run directory.
inline constexpr const char* kStoreFileName = "run.sqlite";

class RunStore {
 public:
  // Creates DIR (and its parents) and DIR/run.sqlite holding the provenance and `plan` (as
  // plan() would add them), all at once: a kill at any point leaves either no run.sqlite or the
  // run with its whole plan. Throws StoreError when a run already exists there or the
  // provenance or plan carries a credential (or an endpoint URL with one).
  static RunStore create(const std::filesystem::path& dir, const nlohmann::json& provenance,
                         std::span<const generation::PlannedSample> plan = {});
  // The same with the plan written batch by batch (so that it is never all in memory at once):
  // `write_plan` calls its argument with each batch, in plan order, and all of them are stored at
  // once as above.
  using PlanBatch = std::function<void(std::span<const generation::PlannedSample>)>;
  static RunStore create(const std::filesystem::path& dir, const nlohmann::json& provenance,
                         const std::function<void(const PlanBatch&)>& write_plan);
  // Opens the run in DIR. Throws StoreError when there is none, when the file is not a codebias
  // run store, or when its schema version is not kSchemaVersion.
  static RunStore open(const std::filesystem::path& dir);

  RunStore(RunStore&&) noexcept;
  RunStore& operator=(RunStore&&) noexcept;
  ~RunStore();

  const std::filesystem::path& path() const;  // DIR/run.sqlite

  const nlohmann::json& provenance() const;
  void update_provenance(const nlohmann::json& provenance);

  // Adds the samples not yet planned, in the given order after those already planned; one
  // transaction. A sample id already planned with a different request (api_path, body or seed)
  // throws StoreError and adds nothing: a resumed run must send what the run planned.
  void plan(std::span<const generation::PlannedSample> samples);

  // Samples still to run, in plan order: pending ones, plus failed ones when include_errors.
  std::vector<generation::PlannedSample> pending(bool include_errors) const;
  // The same, `page_size` samples at a time (bounded memory): `visit` gets each page without the
  // lock held, so it may record results. With `with_bodies` false the request bodies are left
  // null (for a pass that only selects or counts samples).
  void for_each_pending_page(bool include_errors, std::size_t page_size, bool with_bodies,
                             const std::function<void(std::vector<generation::PlannedSample>&)>& visit) const;

  // Stores one sample's result, committed before returning. Returns false (and stores nothing)
  // when the sample is already done. Throws StoreError for an unknown id, a result whose status
  // is pending, an endpoint carrying credentials, or a failed write (disk full, ...).
  bool record(const generation::SampleResult& result);

  // Stores (or replaces) the analysis of a done sample. Throws StoreError for an unknown id or a
  // sample that is not done.
  void record_analysis(std::string_view sample_id, const nlohmann::json& analysis);
  // The same keeping the analysis's keys in their order (for_each_sample_ordered reads them back so).
  void record_ordered_analysis(std::string_view sample_id, const nlohmann::ordered_json& analysis);

  // Stores (or replaces) what running a done sample's program showed (`run --execute`; the
  // task's outcome, tasks/stored_execution.h), so a report need not run it again. Throws
  // StoreError for an unknown id or a sample that is not done.
  void record_execution(std::string_view sample_id, const nlohmann::json& execution);
  // Every stored execution outcome, by sample id.
  std::map<std::string, nlohmann::json> executions() const;

  // The sample's status, or nullopt when no sample has this id.
  std::optional<generation::SampleStatus> status(std::string_view sample_id) const;

  struct Counts {
    std::int64_t planned = 0;
    std::int64_t done = 0;
    std::int64_t errors = 0;
    std::int64_t pending = 0;  // neither done nor failed
  };
  Counts counts() const;

  // Every planned sample in plan order with its result (status pending and otherwise empty when
  // none was recorded) and its analysis (nullptr when none). Reads in pages, so the callback may
  // write analyses back into this store.
  using SampleVisitor = std::function<void(const generation::PlannedSample&, const generation::SampleResult&,
                                           const nlohmann::json* analysis)>;
  void for_each_sample(const SampleVisitor& visit) const;
  // The same with each analysis's keys in the order they were stored in; the visitor may take
  // (move) what it is given.
  using OrderedSampleVisitor = std::function<void(generation::PlannedSample&, generation::SampleResult&,
                                                  nlohmann::ordered_json* analysis)>;
  void for_each_sample_ordered(const OrderedSampleVisitor& visit) const;
  // The same without parsing the stored JSON: request bodies, metadata and analyses are left null
  // (a pass that only counts results).
  void for_each_sample_result(const OrderedSampleVisitor& visit) const;

 private:
  struct Impl;
  template <class Json, class Visitor>
  void visit_samples(const Visitor& visit, bool parse_json = true) const;
  explicit RunStore(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Throws StoreError naming `where` when `value` holds a credential (see the contract above).
// Exposed so that callers can check data before a long run starts rather than at plan().
void refuse_credentials(const nlohmann::json& value, std::string_view where);

}  // namespace codebias::store
