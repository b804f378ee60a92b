#include "store/run_store.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <cctype>
#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <tuple>
#include <utility>

#include "base/url.h"
#include "store/sqlite.h"

namespace codebias::store {

namespace {

using generation::PlannedSample;
using generation::SampleResult;
using generation::SampleStatus;
using nlohmann::json;
namespace fs = std::filesystem;

// PRAGMA application_id: "cbrs", so that `open` can tell a run store from any other SQLite file.
constexpr std::int64_t kApplicationId = 0x63627273;

// for_each_sample reads this many samples per query, then calls back without the lock held.
constexpr std::int64_t kPageSize = 512;

constexpr const char* kSchema = R"sql(
CREATE TABLE run (
  singleton  INTEGER PRIMARY KEY CHECK (singleton = 1),
  provenance TEXT NOT NULL CHECK (json_valid(provenance)),
  created_at REAL NOT NULL,
  updated_at REAL NOT NULL
);
CREATE TABLE samples (
  seq          INTEGER PRIMARY KEY,
  id           TEXT NOT NULL UNIQUE,
  prompt_id    TEXT NOT NULL,
  sample_index INTEGER NOT NULL,
  seed         INTEGER,
  config       TEXT NOT NULL,
  api_path     TEXT NOT NULL,
  body         TEXT NOT NULL CHECK (json_valid(body)),
  metadata     TEXT NOT NULL CHECK (json_valid(metadata)),
  status       TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'error'))
);
CREATE INDEX samples_by_status ON samples (status, seq);
CREATE INDEX samples_by_prompt ON samples (prompt_id);
CREATE TABLE results (
  seq               INTEGER PRIMARY KEY REFERENCES samples (seq),
  endpoint          TEXT NOT NULL,
  http_status       INTEGER NOT NULL,
  attempts          INTEGER NOT NULL,
  raw_response      TEXT NOT NULL,
  reasoning         TEXT NOT NULL,
  reasoning_cut_off INTEGER NOT NULL,
  answer            TEXT NOT NULL,
  finish_reason     TEXT NOT NULL,
  prompt_tokens     INTEGER NOT NULL,
  completion_tokens INTEGER NOT NULL,
  reasoning_tokens  INTEGER NOT NULL,
  latency_s         REAL NOT NULL,
  started_at        REAL NOT NULL,
  finished_at       REAL NOT NULL,
  error_kind        TEXT NOT NULL,
  error_message     TEXT NOT NULL,
  recorded_at       REAL NOT NULL,
  answer_bytes_received INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE analyses (
  seq         INTEGER PRIMARY KEY REFERENCES samples (seq),
  analysis    TEXT NOT NULL CHECK (json_valid(analysis)),
  recorded_at REAL NOT NULL
);
)sql";

// Version 3 added each executed answer's outcome (`run --execute`), so a report rebuilds without
// running the programs again; an upgrade of an older store adds the table empty.
constexpr const char* kExecutionsTable = R"sql(
CREATE TABLE executions (
  seq         INTEGER PRIMARY KEY REFERENCES samples (seq),
  execution   TEXT NOT NULL CHECK (json_valid(execution)),
  recorded_at REAL NOT NULL
);
)sql";

double unix_now() { return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count(); }

const char* status_name(SampleStatus status) {
  switch (status) {
    case SampleStatus::pending: return "pending";
    case SampleStatus::done: return "done";
    case SampleStatus::error: return "error";
  }
  return "pending";
}

SampleStatus parse_status(const std::string& name) {
  if (name == "done") return SampleStatus::done;
  if (name == "error") return SampleStatus::error;
  return SampleStatus::pending;
}

// JSON the store keeps for reading back (metadata, provenance, analyses): invalid UTF-8 in a
// string becomes U+FFFD rather than failing the write.
template <class Json>
std::string to_text(const Json& value) { return value.dump(-1, ' ', false, json::error_handler_t::replace); }

// A request body is stored exactly or not at all: it must be what goes over the wire.
std::string body_text(const PlannedSample& sample) {
  if (!sample.body.is_object()) throw StoreError("sample " + sample.id + ": request body must be a JSON object");
  try {
    return sample.body.dump();
  } catch (const json::exception& error) {
    throw StoreError("sample " + sample.id + ": request body cannot be stored: " + error.what());
  }
}

template <class Json = json>
Json parse_stored(const std::string& text, const fs::path& path, std::string_view what) {
  try {
    return Json::parse(text);
  } catch (const json::exception& error) {
    throw StoreError(path.string() + ": stored " + std::string(what) + " is not valid JSON: " + error.what());
  }
}

bool is_credential_key(const std::string& key) {
  std::string normalized;
  for (char c : key) {
    if (c == '-' || c == '_') continue;
    normalized += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  static constexpr std::array<std::string_view, 5> kCredentialKeys = {"apikey", "xapikey", "authorization",
                                                                      "proxyauthorization", "bearertoken"};
  return std::find(kCredentialKeys.begin(), kCredentialKeys.end(), normalized) != kCredentialKeys.end();
}

// A base URL carries no credentials (base/url.h). Anything without "://" is a label such as
// "batch:<file>", not a URL.
void refuse_credentials_in_url(const std::string& url, std::string_view where) {
  if (url.find("://") == std::string::npos) return;
  if (auto problem = base::endpoint_url_problem(url); !problem.empty()) {
    throw StoreError(std::string(where) + ": endpoint refused: " + problem);
  }
}

void configure(sqlite::Database& db) {
  // WAL + synchronous=NORMAL: a commit is in the WAL file (the OS's page cache) before it
  // returns, so killing the process loses nothing committed; only an OS crash or power loss can
  // drop the last commits, and never corrupts the file. FULL would fsync on every sample.
  db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;");
}

// Which stored JSON columns of a planned sample are parsed (the others are left null).
struct PlannedJson {
  bool body = true;
  bool metadata = true;
};

PlannedSample read_planned(const sqlite::Statement& row, int first, const fs::path& path, PlannedJson parse = {}) {
  PlannedSample sample;
  sample.id = row.text(first);
  sample.prompt_id = row.text(first + 1);
  sample.sample_index = static_cast<int>(row.integer(first + 2));
  sample.seed = row.optional_integer(first + 3);
  sample.config = row.text(first + 4);
  sample.api_path = row.text(first + 5);
  if (parse.body) sample.body = parse_stored(row.text(first + 6), path, "body of sample " + sample.id);
  if (parse.metadata) sample.metadata = parse_stored(row.text(first + 7), path, "metadata of sample " + sample.id);
  return sample;
}

constexpr const char* kPlannedColumns =
    "s.id, s.prompt_id, s.sample_index, s.seed, s.config, s.api_path, s.body, s.metadata";

// Inserts the samples not yet planned, inside the caller's transaction (see RunStore::plan).
void insert_plan(sqlite::Database& db, std::span<const PlannedSample> samples) {
  sqlite::Statement insert(db,
                           "INSERT INTO samples (id, prompt_id, sample_index, seed, config, api_path, body, metadata) "
                           "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT (id) DO NOTHING");
  std::optional<sqlite::Statement> existing;  // prepared at the first sample planned before
  for (const auto& sample : samples) {
    if (sample.id.empty()) throw StoreError("a planned sample has an empty id");
    refuse_credentials(sample.body, "request body of sample " + sample.id);
    refuse_credentials(sample.metadata, "metadata of sample " + sample.id);
    std::string body = body_text(sample);
    insert.reset();
    insert.bind_text(1, sample.id)
        .bind_text(2, sample.prompt_id)
        .bind_integer(3, sample.sample_index)
        .bind_optional_integer(4, sample.seed)
        .bind_text(5, sample.config)
        .bind_text(6, sample.api_path)
        .bind_text(7, body)
        .bind_text(8, to_text(sample.metadata))
        .run();
    if (db.changes() > 0) continue;
    if (!existing) existing.emplace(db, "SELECT api_path, body, seed FROM samples WHERE id = ?1");
    existing->reset();
    existing->bind_text(1, sample.id);
    if (!existing->step() || existing->text(0) != sample.api_path || existing->text(1) != body ||
        existing->optional_integer(2) != sample.seed) {
      throw StoreError(db.path().string() + ": sample " + sample.id +
                       " is already planned with a different request (api_path, body or seed); a resumed run "
                       "must use the configuration it was started with");
    }
  }
}

// Every URL in the provenance (endpoints, endpoints_on_resume, the options' copies) is checked
// like a result's endpoint: the provenance is written into every report.
void refuse_credentials_in_urls(const json& value, std::string_view where) {
  if (value.is_string()) {
    refuse_credentials_in_url(value.get<std::string>(), where);
  } else if (value.is_structured()) {
    for (const auto& child : value) refuse_credentials_in_urls(child, where);
  }
}

}  // namespace

void refuse_credentials(const json& value, std::string_view where) {
  if (value.is_object()) {
    for (const auto& [key, child] : value.items()) {
      if (is_credential_key(key)) {
        throw StoreError(std::string(where) + ": refusing to store a credential field \"" + key + "\"");
      }
      refuse_credentials(child, where);
    }
  } else if (value.is_array()) {
    for (const auto& child : value) refuse_credentials(child, where);
  }
}

// A statement prepared once per store and reused (preparing the same SQL on every call was ~7 % of
// a built-in run's CPU). Reset when taken and when given back: a statement left between rows
// would keep its read snapshot open, and a later call would not see newer commits.
class ReusedStatement {
 public:
  ReusedStatement(sqlite::Database& db, std::string sql) : db_(db), sql_(std::move(sql)) {}

  class Use {
   public:
    explicit Use(sqlite::Statement& statement) : statement_(statement) { statement_.reset(); }
    ~Use() { statement_.reset(); }
    Use(const Use&) = delete;
    Use& operator=(const Use&) = delete;
    sqlite::Statement* operator->() const { return &statement_; }
    sqlite::Statement& operator*() const { return statement_; }

   private:
    sqlite::Statement& statement_;
  };

  // Callers hold the store's mutex.
  Use use() {
    if (!statement_) statement_.emplace(db_, sql_);
    return Use(*statement_);
  }

 private:
  sqlite::Database& db_;
  std::string sql_;
  std::optional<sqlite::Statement> statement_;
};

struct RunStore::Impl {
  Impl(sqlite::Database database, json run_provenance)
      : db(std::move(database)), provenance(std::move(run_provenance)) {}

  // The sample's seq and status; throws for an id that was never planned.
  std::pair<std::int64_t, SampleStatus> find(std::string_view sample_id) {
    auto query = find_sample.use();
    query->bind_text(1, sample_id);
    if (!query->step()) {
      throw StoreError(db.path().string() + ": no sample \"" + std::string(sample_id) + "\" in this run");
    }
    return {query->integer(0), parse_status(query->text(1))};
  }

  // Stores `value` (an analysis or an execution outcome) for a done sample, with `upsert`; only a
  // done sample has an answer to `verb`.
  void record_for_done_sample(std::string_view sample_id, ReusedStatement& upsert, const std::string& value,
                              const char* verb) {
    std::lock_guard lock(mutex);
    sqlite::Transaction transaction(db);
    auto [seq, status] = find(sample_id);
    if (status != SampleStatus::done) {
      throw StoreError(db.path().string() + ": sample \"" + std::string(sample_id) +
                       "\" is not done; only a done sample has an answer to " + verb);
    }
    upsert.use()->bind_integer(1, seq).bind_text(2, value).bind_real(3, unix_now()).run();
    transaction.commit();
  }

  // Declared before the statements, so that they are finalized before the connection closes.
  sqlite::Database db;
  json provenance;
  std::mutex mutex;
  ReusedStatement find_sample{db, "SELECT seq, status FROM samples WHERE id = ?1"};
  ReusedStatement upsert_result{
      db,
      "INSERT OR REPLACE INTO results (seq, endpoint, http_status, attempts, raw_response, reasoning, "
      "reasoning_cut_off, answer, finish_reason, prompt_tokens, completion_tokens, reasoning_tokens, latency_s, "
      "started_at, finished_at, error_kind, error_message, recorded_at, answer_bytes_received) VALUES (?1, ?2, ?3, "
      "?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)"};
  ReusedStatement update_status{db, "UPDATE samples SET status = ?1 WHERE seq = ?2"};
  ReusedStatement upsert_analysis{db,
                                  "INSERT OR REPLACE INTO analyses (seq, analysis, recorded_at) VALUES (?1, ?2, ?3)"};
  ReusedStatement upsert_execution{
      db, "INSERT OR REPLACE INTO executions (seq, execution, recorded_at) VALUES (?1, ?2, ?3)"};
  ReusedStatement count_by_status{db, "SELECT status, COUNT(*) FROM samples GROUP BY status"};
  ReusedStatement sample_page{
      db, std::string("SELECT s.seq, ") + kPlannedColumns +
              ", s.status, r.endpoint, r.http_status, r.attempts, r.raw_response, r.reasoning, r.reasoning_cut_off, "
              "r.answer, r.finish_reason, r.prompt_tokens, r.completion_tokens, r.reasoning_tokens, r.latency_s, "
              "r.started_at, r.finished_at, r.error_kind, r.error_message, a.analysis, r.answer_bytes_received "
              "FROM samples AS s LEFT JOIN results AS r ON r.seq = s.seq LEFT JOIN analyses AS a ON a.seq = s.seq "
              "WHERE s.seq > ?1 ORDER BY s.seq LIMIT ?2"};
  ReusedStatement pending_page{db, std::string("SELECT s.seq, ") + kPlannedColumns +
                                       " FROM samples AS s WHERE s.status IN ('pending', ?1) AND s.seq > ?2 "
                                       "ORDER BY s.seq LIMIT ?3"};
};

RunStore::RunStore(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
RunStore::RunStore(RunStore&&) noexcept = default;
RunStore& RunStore::operator=(RunStore&&) noexcept = default;
RunStore::~RunStore() = default;

RunStore RunStore::create(const fs::path& dir, const json& provenance, std::span<const PlannedSample> plan) {
  return create(dir, provenance, [&](const PlanBatch& add) { add(plan); });
}

RunStore RunStore::create(const fs::path& dir, const json& provenance,
                          const std::function<void(const PlanBatch&)>& write_plan) {
  refuse_credentials(provenance, "run provenance");
  refuse_credentials_in_urls(provenance, "run provenance");
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) throw StoreError("cannot create run directory " + dir.string() + ": " + error.message());
  fs::path path = dir / kStoreFileName;
  bool exists = fs::exists(path, error);
  if (error) throw StoreError("cannot look into " + dir.string() + ": " + error.message());
  if (exists) {
    throw StoreError("a run already exists in " + dir.string() + " (" + path.string() +
                     "); resume it or choose another directory");
  }
  // Built under another name and renamed into place once committed, so run.sqlite either holds
  // the run with its whole plan or does not exist, wherever a kill interrupts the start (a run
  // row without its plan would resume forever as "0 of 0 samples answered").
  const fs::path partial = path.string() + ".partial";
  const auto remove_partial = [&] {
    for (const char* suffix : {"", "-journal", "-wal", "-shm"}) fs::remove(partial.string() + suffix, error);
  };
  remove_partial();  // left by a start that was killed
  try {
    {
      sqlite::Database db(partial, sqlite::Database::Mode::create);
      sqlite::Transaction transaction(db);
      db.exec(kSchema);
      db.exec(kExecutionsTable);
      db.exec(("PRAGMA application_id = " + std::to_string(kApplicationId) +
               "; PRAGMA user_version = " + std::to_string(kSchemaVersion) + ";")
                  .c_str());
      sqlite::Statement insert(
          db, "INSERT INTO run (singleton, provenance, created_at, updated_at) VALUES (1, ?1, ?2, ?2)");
      insert.bind_text(1, to_text(provenance)).bind_real(2, unix_now()).run();
      write_plan([&](std::span<const PlannedSample> batch) { insert_plan(db, batch); });
      transaction.commit();
    }
    fs::rename(partial, path);
  } catch (...) {
    remove_partial();
    throw;
  }
  return open(dir);
}

RunStore RunStore::open(const fs::path& dir) {
  fs::path path = dir / kStoreFileName;
  std::error_code error;
  if (!fs::exists(path, error)) {
    throw StoreError("no run in " + dir.string() + ": " + path.string() + " does not exist");
  }
  sqlite::Database db(path, sqlite::Database::Mode::open_existing);
  if (db.pragma_integer("PRAGMA application_id") != kApplicationId) {
    throw StoreError(path.string() + " is not a codebias run store");
  }
  std::int64_t version = db.pragma_integer("PRAGMA user_version");
  if (version == 1 || version == 2) {
    sqlite::Transaction transaction(db);
    // Version 2 added the size of an answer stored cut (--max-answer-bytes); older rows were whole.
    if (version == 1) db.exec("ALTER TABLE results ADD COLUMN answer_bytes_received INTEGER NOT NULL DEFAULT 0;");
    db.exec(kExecutionsTable);
    db.exec(("PRAGMA user_version = " + std::to_string(kSchemaVersion) + ";").c_str());
    transaction.commit();
    version = kSchemaVersion;
  }
  if (version != kSchemaVersion) {
    throw StoreError(path.string() + " has run-store schema version " + std::to_string(version) +
                     "; this codebias reads version " + std::to_string(kSchemaVersion));
  }
  configure(db);
  sqlite::Statement query(db, "SELECT provenance FROM run WHERE singleton = 1");
  if (!query.step()) throw StoreError(path.string() + ": the run's provenance row is missing");
  json provenance = parse_stored(query.text(0), path, "provenance");
  return RunStore(std::make_unique<Impl>(std::move(db), std::move(provenance)));
}

const fs::path& RunStore::path() const { return impl_->db.path(); }

const json& RunStore::provenance() const { return impl_->provenance; }

void RunStore::update_provenance(const json& provenance) {
  refuse_credentials(provenance, "run provenance");
  refuse_credentials_in_urls(provenance, "run provenance");
  std::lock_guard lock(impl_->mutex);
  sqlite::Statement update(impl_->db, "UPDATE run SET provenance = ?1, updated_at = ?2 WHERE singleton = 1");
  update.bind_text(1, to_text(provenance)).bind_real(2, unix_now()).run();
  impl_->provenance = provenance;
}

void RunStore::plan(std::span<const PlannedSample> samples) {
  std::lock_guard lock(impl_->mutex);
  sqlite::Transaction transaction(impl_->db);
  insert_plan(impl_->db, samples);
  transaction.commit();
}

std::vector<PlannedSample> RunStore::pending(bool include_errors) const {
  std::vector<PlannedSample> samples;
  for_each_pending_page(include_errors, kPageSize, true, [&](std::vector<PlannedSample>& page) {
    samples.insert(samples.end(), std::make_move_iterator(page.begin()), std::make_move_iterator(page.end()));
  });
  return samples;
}

void RunStore::for_each_pending_page(bool include_errors, std::size_t page_size, bool with_bodies,
                                     const std::function<void(std::vector<PlannedSample>&)>& visit) const {
  std::int64_t after_seq = 0;
  for (;;) {
    std::vector<PlannedSample> page;
    {
      std::lock_guard lock(impl_->mutex);
      auto use = impl_->pending_page.use();
      sqlite::Statement& query = *use;
      query.bind_text(1, include_errors ? "error" : "pending")
          .bind_integer(2, after_seq)
          .bind_integer(3, static_cast<std::int64_t>(page_size));
      while (query.step()) {
        after_seq = query.integer(0);
        page.push_back(read_planned(query, 1, impl_->db.path(), {with_bodies, true}));
      }
    }
    if (page.empty()) return;
    visit(page);
  }
}

bool RunStore::record(const SampleResult& result) {
  if (result.status == SampleStatus::pending) {
    throw StoreError("sample " + result.id + ": a result to record must be done or error, not pending");
  }
  refuse_credentials_in_url(result.endpoint, "result of sample " + result.id);
  std::lock_guard lock(impl_->mutex);
  auto& db = impl_->db;
  sqlite::Transaction transaction(db);
  auto [seq, status] = impl_->find(result.id);
  if (status == SampleStatus::done) return false;  // final: the transaction rolls back unchanged
  auto upsert = impl_->upsert_result.use();
  upsert->bind_integer(1, seq)
      .bind_text(2, result.endpoint)
      .bind_integer(3, result.http_status)
      .bind_integer(4, result.attempts)
      .bind_text(5, result.raw_response)
      .bind_text(6, result.reasoning)
      .bind_integer(7, result.reasoning_cut_off ? 1 : 0)
      .bind_text(8, result.answer)
      .bind_text(9, result.finish_reason)
      .bind_integer(10, result.usage.prompt_tokens)
      .bind_integer(11, result.usage.completion_tokens)
      .bind_integer(12, result.usage.reasoning_tokens)
      .bind_real(13, result.latency_s)
      .bind_real(14, result.started_at)
      .bind_real(15, result.finished_at)
      .bind_text(16, result.error_kind)
      .bind_text(17, result.error_message)
      .bind_real(18, unix_now())
      .bind_integer(19, result.answer_bytes_received)
      .run();
  impl_->update_status.use()->bind_text(1, status_name(result.status)).bind_integer(2, seq).run();
  transaction.commit();
  return true;
}

void RunStore::record_analysis(std::string_view sample_id, const json& analysis) {
  impl_->record_for_done_sample(sample_id, impl_->upsert_analysis, to_text(analysis), "analyse");
}

void RunStore::record_ordered_analysis(std::string_view sample_id, const nlohmann::ordered_json& analysis) {
  impl_->record_for_done_sample(sample_id, impl_->upsert_analysis, to_text(analysis), "analyse");
}

void RunStore::record_execution(std::string_view sample_id, const json& execution) {
  impl_->record_for_done_sample(sample_id, impl_->upsert_execution, to_text(execution), "execute");
}

std::map<std::string, json> RunStore::executions() const {
  std::lock_guard lock(impl_->mutex);
  sqlite::Statement query(impl_->db,
                          "SELECT s.id, e.execution FROM executions AS e JOIN samples AS s ON s.seq = e.seq");
  std::map<std::string, json> outcomes;
  while (query.step()) {
    std::string id = query.text(0);
    json execution = parse_stored(query.text(1), impl_->db.path(), "execution of sample " + id);
    outcomes.emplace(std::move(id), std::move(execution));
  }
  return outcomes;
}

std::optional<SampleStatus> RunStore::status(std::string_view sample_id) const {
  std::lock_guard lock(impl_->mutex);
  auto query = impl_->find_sample.use();
  query->bind_text(1, sample_id);
  if (!query->step()) return std::nullopt;
  return parse_status(query->text(1));
}

RunStore::Counts RunStore::counts() const {
  std::lock_guard lock(impl_->mutex);
  auto query = impl_->count_by_status.use();
  Counts counts;
  while (query->step()) {
    std::int64_t n = query->integer(1);
    counts.planned += n;
    switch (parse_status(query->text(0))) {
      case SampleStatus::done: counts.done += n; break;
      case SampleStatus::error: counts.errors += n; break;
      case SampleStatus::pending: counts.pending += n; break;
    }
  }
  return counts;
}

void RunStore::for_each_sample(const SampleVisitor& visit) const { visit_samples<json>(visit); }

void RunStore::for_each_sample_ordered(const OrderedSampleVisitor& visit) const {
  visit_samples<nlohmann::ordered_json>(visit);
}

void RunStore::for_each_sample_result(const OrderedSampleVisitor& visit) const {
  visit_samples<nlohmann::ordered_json>(visit, false);
}

template <class Json, class Visitor>
void RunStore::visit_samples(const Visitor& visit, bool parse_json) const {
  struct Row {
    PlannedSample planned;
    SampleResult result;
    std::optional<Json> analysis;
  };
  std::int64_t after_seq = 0;
  for (;;) {
    std::vector<Row> page;
    {
      std::lock_guard lock(impl_->mutex);
      auto use = impl_->sample_page.use();
      sqlite::Statement& query = *use;
      query.bind_integer(1, after_seq).bind_integer(2, kPageSize);
      while (query.step()) {
        after_seq = query.integer(0);
        Row row;
        row.planned = read_planned(query, 1, impl_->db.path(), {parse_json, parse_json});
        auto& result = row.result;
        result.id = row.planned.id;
        result.status = parse_status(query.text(9));
        result.endpoint = query.text(10);
        result.http_status = static_cast<int>(query.integer(11));
        result.attempts = static_cast<int>(query.integer(12));
        result.raw_response = query.text(13);
        result.reasoning = query.text(14);
        result.reasoning_cut_off = query.integer(15) != 0;
        result.answer = query.text(16);
        result.finish_reason = query.text(17);
        result.usage.prompt_tokens = query.integer(18);
        result.usage.completion_tokens = query.integer(19);
        result.usage.reasoning_tokens = query.integer(20);
        result.latency_s = query.real(21);
        result.started_at = query.real(22);
        result.finished_at = query.real(23);
        result.error_kind = query.text(24);
        result.error_message = query.text(25);
        result.answer_bytes_received = query.is_null(27) ? 0 : query.integer(27);
        if (parse_json && !query.is_null(26)) {
          row.analysis = parse_stored<Json>(query.text(26), impl_->db.path(), "analysis of sample " + result.id);
        }
        page.push_back(std::move(row));
      }
    }
    if (page.empty()) return;
    for (auto& row : page) visit(row.planned, row.result, row.analysis ? &*row.analysis : nullptr);
  }
}

}  // namespace codebias::store
