// Samples, results and scratch directories for the run-store and batch-file tests.
#pragma once

#include <sqlite3.h>
#include "paths.h"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "generation/sample.h"
#include "store/run_store.h"

namespace codebias::store::testing {

using generation::PlannedSample;
using generation::SampleResult;
using generation::SampleStatus;
using nlohmann::json;
namespace fs = std::filesystem;

// A fresh directory named after the running test (removed first, kept afterwards for debugging).
inline fs::path fresh_test_dir(const std::string& prefix) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  fs::path dir = fs::path(::codebias::test_support::test_tmp_dir()) / (prefix + "_" + info->test_suite_name() + "_" + info->name());
  fs::remove_all(dir);
  return dir;
}

// Sample k of prompt p, seeded 1000 + k, with a chat body like the planner's.
inline PlannedSample make_sample(int prompt, int k) {
  PlannedSample sample;
  sample.prompt_id = "p" + std::to_string(prompt);
  sample.sample_index = k;
  sample.seed = 1000 + k;
  sample.id = sample.prompt_id + "#" + std::to_string(k);
  sample.body = {
      {"model", "test-model"},
      {"messages", json::array({{{"role", "user"}, {"content", "Write score(applicant) #" + std::to_string(prompt)}}})},
      {"temperature", 0.7},
      {"max_tokens", 512},
      {"seed", *sample.seed}};
  sample.metadata = {{"suite", "test"}, {"scenario", "job"}, {"attribute", "gender"}};
  return sample;
}

// prompts × samples_per_prompt samples, prompt-major.
inline std::vector<PlannedSample> make_plan(int prompts, int samples_per_prompt) {
  std::vector<PlannedSample> plan;
  for (int p = 0; p < prompts; ++p) {
    for (int k = 0; k < samples_per_prompt; ++k) plan.push_back(make_sample(p, k));
  }
  return plan;
}

inline SampleResult done_result(const std::string& id, const std::string& answer) {
  SampleResult result;
  result.id = id;
  result.status = SampleStatus::done;
  result.endpoint = "http://127.0.0.1:8000/v1";
  result.http_status = 200;
  result.attempts = 1;
  result.raw_response = R"({"choices":[{"message":{"content":"x"}}]})";
  result.answer = answer;
  result.finish_reason = "stop";
  result.usage = {12, 34, 0};
  result.latency_s = 0.5;
  result.started_at = 1.7e9;
  result.finished_at = 1.7e9 + 0.5;
  return result;
}

inline SampleResult error_result(const std::string& id, const std::string& kind) {
  SampleResult result;
  result.id = id;
  result.status = SampleStatus::error;
  result.endpoint = "http://127.0.0.1:8000/v1";
  result.http_status = kind == "rate_limit" ? 429 : 500;
  result.attempts = 3;
  result.error_kind = kind;
  result.error_message = "HTTP " + std::to_string(result.http_status);
  return result;
}

struct StoredSample {
  PlannedSample planned;
  SampleResult result;
  std::optional<json> analysis;
};

inline std::vector<StoredSample> read_all(const RunStore& store) {
  std::vector<StoredSample> samples;
  store.for_each_sample([&](const PlannedSample& planned, const SampleResult& result, const json* analysis) {
    samples.push_back({planned, result, analysis ? std::optional<json>(*analysis) : std::nullopt});
  });
  return samples;
}

inline std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// One integer from a query run straight on the database file, to check what the store wrote
// without going through the store's own reading code.
inline std::int64_t query_integer(const fs::path& database, const std::string& sql) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(database.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
    sqlite3_close(db);
    throw std::runtime_error("cannot open " + database.string());
  }
  sqlite3_stmt* statement = nullptr;
  std::int64_t value = -1;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr) == SQLITE_OK &&
      sqlite3_step(statement) == SQLITE_ROW) {
    value = sqlite3_column_int64(statement, 0);
  }
  std::string error = sqlite3_errmsg(db);
  sqlite3_finalize(statement);
  sqlite3_close(db);
  if (value == -1) throw std::runtime_error(sql + ": " + error);
  return value;
}

inline void execute(const fs::path& database, const std::string& sql) {
  sqlite3* db = nullptr;
  sqlite3_open_v2(database.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  char* message = nullptr;
  int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message);
  std::string error = message ? message : "";
  sqlite3_free(message);
  sqlite3_close(db);
  if (rc != SQLITE_OK) throw std::runtime_error(sql + ": " + error);
}

}  // namespace codebias::store::testing
