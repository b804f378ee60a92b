#include "store/run_store.h"

#include <algorithm>
#include <set>
#include <span>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "store_test_support.h"

namespace codebias::store {
namespace {

using namespace codebias::store::testing;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<std::string> ids_of(const std::vector<PlannedSample>& samples) {
  std::vector<std::string> ids;
  for (const auto& sample : samples) ids.push_back(sample.id);
  return ids;
}

std::string error_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const StoreError& error) {
    return error.what();
  }
  return "(no StoreError thrown)";
}

const json kProvenance = {{"tool", "codebias"}, {"model", "test-model"}, {"seed", 7}};

TEST(RunStore, CreateWritesAVersionedWalSchema) {
  fs::path dir = fresh_test_dir("store");
  auto store = RunStore::create(dir / "nested", kProvenance);
  fs::path file = dir / "nested" / kStoreFileName;
  EXPECT_EQ(store.path(), file);
  ASSERT_TRUE(fs::exists(file));
  EXPECT_EQ(query_integer(file, "PRAGMA user_version"), kSchemaVersion);
  EXPECT_EQ(query_integer(file, "SELECT COUNT(*) FROM pragma_journal_mode WHERE journal_mode = 'wal'"), 1);
  EXPECT_EQ(query_integer(file,
                          "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name IN "
                          "('run', 'samples', 'results', 'analyses', 'executions')"),
            5);
  EXPECT_EQ(query_integer(file,
                          "SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'samples' "
                          "AND sql LIKE '%(status%'"),
            1);
  // results and analyses point at their sample.
  EXPECT_EQ(query_integer(file, "SELECT COUNT(*) FROM pragma_foreign_key_list('results') WHERE \"table\" = 'samples'"),
            1);
  EXPECT_EQ(query_integer(file, "SELECT COUNT(*) FROM pragma_foreign_key_list('analyses') WHERE \"table\" = 'samples'"),
            1);
  EXPECT_EQ(store.provenance(), kProvenance);
}

TEST(RunStore, CreateRefusesADirectoryThatHoldsARun) {
  fs::path dir = fresh_test_dir("store");
  { auto store = RunStore::create(dir, kProvenance); }
  EXPECT_THAT(error_of([&] { RunStore::create(dir, json::object()); }), HasSubstr("a run already exists in"));
  EXPECT_EQ(RunStore::open(dir).provenance(), kProvenance);  // untouched
}

TEST(RunStore, OpenExplainsAMissingRun) {
  fs::path dir = fresh_test_dir("store");
  EXPECT_THAT(error_of([&] { RunStore::open(dir); }), HasSubstr("no run in " + dir.string()));
  EXPECT_FALSE(fs::exists(dir / kStoreFileName));  // opening never creates
}

TEST(RunStore, OpenRefusesAnotherSchemaVersion) {
  fs::path dir = fresh_test_dir("store");
  { auto store = RunStore::create(dir, kProvenance); }
  execute(dir / kStoreFileName, "PRAGMA user_version = 99");
  EXPECT_THAT(error_of([&] { RunStore::open(dir); }), HasSubstr("schema version 99; this codebias reads version 3"));
}

TEST(RunStore, OpenRefusesFilesThatAreNotRunStores) {
  fs::path dir = fresh_test_dir("store");
  fs::create_directories(dir);
  std::ofstream(dir / kStoreFileName) << "not a database at all, just text that is long enough to have a header\n";
  EXPECT_THAT(error_of([&] { RunStore::open(dir); }), HasSubstr(kStoreFileName));

  fs::path other = fresh_test_dir("store_other");
  fs::create_directories(other);
  execute(other / kStoreFileName, "CREATE TABLE t (x)");  // a valid SQLite file of something else
  EXPECT_THAT(error_of([&] { RunStore::open(other); }), HasSubstr("is not a codebias run store"));
}

TEST(RunStore, ReopenKeepsPlanResultsAndProvenance) {
  fs::path dir = fresh_test_dir("store");
  auto plan = make_plan(2, 3);
  {
    auto store = RunStore::create(dir, kProvenance);
    store.plan(plan);
    ASSERT_TRUE(store.record(done_result("p0#1", "answer one")));
    json updated = kProvenance;
    updated["finished"] = false;
    store.update_provenance(updated);
  }
  auto store = RunStore::open(dir);
  EXPECT_EQ(store.provenance().value("finished", true), false);
  auto counts = store.counts();
  EXPECT_EQ(counts.planned, 6);
  EXPECT_EQ(counts.done, 1);
  EXPECT_EQ(counts.pending, 5);
  auto samples = read_all(store);
  ASSERT_EQ(samples.size(), 6u);
  EXPECT_EQ(samples[1].result.answer, "answer one");
}

TEST(RunStore, PlanIsIdempotentAndKeepsPlanOrder) {
  fs::path dir = fresh_test_dir("store");
  auto store = RunStore::create(dir, kProvenance);
  std::vector<PlannedSample> first = {make_sample(3, 0), make_sample(1, 0), make_sample(2, 0)};
  store.plan(first);
  store.plan(first);
  // A resumed run plans everything again, plus what it adds (here p0#0 at the end).
  std::vector<PlannedSample> again = {make_sample(0, 0), make_sample(2, 0), make_sample(3, 0), make_sample(1, 0)};
  store.plan(again);
  EXPECT_EQ(store.counts().planned, 4);
  EXPECT_THAT(ids_of(store.pending(false)), ElementsAre("p3#0", "p1#0", "p2#0", "p0#0"));
  EXPECT_EQ(query_integer(store.path(), "SELECT COUNT(*) FROM samples"), 4);
}

TEST(RunStore, PlanRefusesToChangeAPlannedRequestAndAddsNothing) {
  fs::path dir = fresh_test_dir("store");
  auto store = RunStore::create(dir, kProvenance);
  store.plan(std::vector<PlannedSample>{make_sample(0, 0)});
  auto changed = make_sample(0, 0);
  changed.body["temperature"] = 1.0;
  std::vector<PlannedSample> batch = {make_sample(5, 0), changed};
  EXPECT_THAT(error_of([&] { store.plan(batch); }), HasSubstr("p0#0 is already planned with a different request"));
  EXPECT_EQ(store.counts().planned, 1);  // p5#0 rolled back with the rest

  auto reseeded = make_sample(0, 0);
  reseeded.seed = 5;
  EXPECT_THAT(error_of([&] { store.plan(std::vector<PlannedSample>{reseeded}); }), HasSubstr("different request"));
}

TEST(RunStore, PlannedSamplesRoundTrip) {
  fs::path dir = fresh_test_dir("store");
  auto store = RunStore::create(dir, kProvenance);
  auto seeded = make_sample(0, 4);
  seeded.config = "temperature=0.2";
  auto unseeded = make_sample(1, 0);
  unseeded.seed.reset();
  unseeded.api_path = "/v1/completions";
  unseeded.body = {{"model", "m"}, {"prompt", "def score(x):"}, {"max_tokens", 64}};
  unseeded.metadata = nullptr;
  store.plan(std::vector<PlannedSample>{seeded, unseeded});
  auto pending = store.pending(false);
  ASSERT_EQ(pending.size(), 2u);
  EXPECT_EQ(pending[0].id, "p0#4");
  EXPECT_EQ(pending[0].prompt_id, "p0");
  EXPECT_EQ(pending[0].sample_index, 4);
  EXPECT_EQ(pending[0].seed, std::optional<std::int64_t>(1004));
  EXPECT_EQ(pending[0].config, "temperature=0.2");
  EXPECT_EQ(pending[0].api_path, "/v1/chat/completions");
  EXPECT_EQ(pending[0].body, seeded.body);
  EXPECT_EQ(pending[0].metadata, seeded.metadata);
  EXPECT_FALSE(pending[1].seed.has_value());
  EXPECT_EQ(pending[1].api_path, "/v1/completions");
  EXPECT_EQ(pending[1].body, unseeded.body);
  EXPECT_TRUE(pending[1].metadata.is_null());
}

TEST(RunStore, RecordKeepsEveryFieldExactly) {
  fs::path dir = fresh_test_dir("store");
  auto store = RunStore::create(dir, kProvenance);
  store.plan(make_plan(1, 1));
  SampleResult result;
  result.id = "p0#0";
  result.status = SampleStatus::done;
  result.endpoint = "http://10.0.0.2:8000/v1";
  result.http_status = 200;
  result.attempts = 2;
  result.raw_response = std::string("{\"x\":\"\xff\xfe\"}\0tail", 16);  // invalid UTF-8 and a NUL, as received
  result.reasoning = "First, think.";
  result.reasoning_cut_off = true;
  result.answer = "```python\ndef f(): return 1\n```";
  result.finish_reason = "length";
  result.usage = {100, 200, 150};
  result.latency_s = 1.25;
  result.started_at = 1700000000.5;
  result.finished_at = 1700000002.75;
  ASSERT_TRUE(store.record(result));
  auto samples = read_all(RunStore::open(dir));
  ASSERT_EQ(samples.size(), 1u);
  const auto& stored = samples[0].result;
  EXPECT_EQ(stored.id, "p0#0");
  EXPECT_EQ(stored.status, SampleStatus::done);
  EXPECT_EQ(stored.endpoint, result.endpoint);
  EXPECT_EQ(stored.http_status, 200);
  EXPECT_EQ(stored.attempts, 2);
  EXPECT_EQ(stored.raw_response, result.raw_response);
  EXPECT_EQ(stored.raw_response.size(), 16u);
  EXPECT_EQ(stored.reasoning, "First, think.");
  EXPECT_TRUE(stored.reasoning_cut_off);
  EXPECT_EQ(stored.answer, result.answer);
  EXPECT_EQ(stored.finish_reason, "length");
  EXPECT_EQ(stored.usage.prompt_tokens, 100);
  EXPECT_EQ(stored.usage.completion_tokens, 200);
  EXPECT_EQ(stored.usage.reasoning_tokens, 150);
  EXPECT_EQ(stored.latency_s, 1.25);
  EXPECT_EQ(stored.started_at, 1700000000.5);
  EXPECT_EQ(stored.finished_at, 1700000002.75);
  EXPECT_EQ(stored.error_kind, "");
  EXPECT_FALSE(samples[0].analysis.has_value());
}

TEST(RunStore, UnrecordedSamplesReadAsPending) {
  fs::path dir = fresh_test_dir("store");
  auto store = RunStore::create(dir, kProvenance);
  store.plan(make_plan(1, 2));
  auto samples = read_all(store);
  ASSERT_EQ(samples.size(), 2u);
  EXPECT_EQ(samples[1].result.id, "p0#1");
  EXPECT_EQ(samples[1].result.status, SampleStatus::pending);
  EXPECT_EQ(samples[1].result.answer, "");
  EXPECT_EQ(store.status("p0#1"), std::optional(SampleStatus::pending));
  EXPECT_EQ(store.status("nope"), std::nullopt);
}

TEST(RunStore, ADoneSampleIsNeverDowngradedNorRewritten) {
  fs::path dir = fresh_test_dir("store");
  auto store = RunStore::create(dir, kProvenance);
  store.plan(make_plan(1, 1));
  ASSERT_TRUE(store.record(done_result("p0#0", "first")));
  EXPECT_FALSE(store.record(error_result("p0#0", "server")));
  EXPECT_FALSE(store.record(done_result("p0#0", "second")));
  auto samples = read_all(store);
  EXPECT_EQ(samples[0].result.status, SampleStatus::done);
  EXPECT_EQ(samples[0].result.answer, "first");
  EXPECT_EQ(query_integer(store.path(), "SELECT COUNT(*) FROM results"), 1);
}

TEST(RunStore, AnErrorIsReplacedByALaterResult) {
  fs::path dir = fresh_test_dir("store");
  auto store = RunStore::create(dir, kProvenance);
  store.plan(make_plan(1, 1));
  ASSERT_TRUE(store.record(error_result("p0#0", "rate_limit")));
  EXPECT_EQ(store.status("p0#0"), std::optional(SampleStatus::error));
  ASSERT_TRUE(store.record(error_result("p0#0", "timeout")));
  EXPECT_EQ(read_all(store)[0].result.error_kind, "timeout");
  ASSERT_TRUE(store.record(done_result("p0#0", "finally")));
  auto samples = read_all(store);
  EXPECT_EQ(samples[0].result.status, SampleStatus::done);
  EXPECT_EQ(samples[0].result.answer, "finally");
  EXPECT_EQ(samples[0].result.error_kind, "");
  EXPECT_EQ(query_integer(store.path(), "SELECT COUNT(*) FROM results"), 1);
}

TEST(RunStore, RecordRejectsUnknownIdsAndPendingResults) {
  fs::path dir = fresh_test_dir("store");
  auto store = RunStore::create(dir, kProvenance);
  store.plan(make_plan(1, 1));
  EXPECT_THAT(error_of([&] { store.record(done_result("p9#9", "x")); }), HasSubstr("no sample \"p9#9\""));
  SampleResult pending;
  pending.id = "p0#0";
  EXPECT_THAT(error_of([&] { store.record(pending); }), HasSubstr("must be done or error"));
  EXPECT_EQ(store.counts().pending, 1);
}

TEST(RunStore, PendingListsFailedSamplesOnlyWhenAsked) {
  fs::path dir = fresh_test_dir("store");
  auto store = RunStore::create(dir, kProvenance);
  store.plan(make_plan(1, 5));
  store.record(done_result("p0#0", "a"));
  store.record(error_result("p0#1", "rate_limit"));
  store.record(error_result("p0#3", "server"));
  EXPECT_THAT(ids_of(store.pending(false)), ElementsAre("p0#2", "p0#4"));
  EXPECT_THAT(ids_of(store.pending(true)), ElementsAre("p0#1", "p0#2", "p0#3", "p0#4"));
  auto counts = store.counts();
  EXPECT_EQ(counts.planned, 5);
  EXPECT_EQ(counts.done, 1);
  EXPECT_EQ(counts.errors, 2);
  EXPECT_EQ(counts.pending, 2);
}

TEST(RunStore, PendingPagesVisitThePendingSamplesInPlanOrderWhileResultsAreRecorded) {
  fs::path dir = fresh_test_dir("store");
  auto store = RunStore::create(dir, kProvenance);
  store.plan(make_plan(3, 4));  // 12 samples
  store.record(done_result("p0#1", "a"));
  store.record(error_result("p1#2", "server"));
  std::vector<std::vector<std::string>> pages;
  store.for_each_pending_page(false, 5, true, [&](std::vector<PlannedSample>& page) {
    pages.push_back(ids_of(page));
    for (const auto& sample : page) {
      EXPECT_TRUE(sample.body.is_object());
      store.record(done_result(sample.id, "answer"));  // the visit may record results
    }
  });
  EXPECT_THAT(pages, ElementsAre(ElementsAre("p0#0", "p0#2", "p0#3", "p1#0", "p1#1"),
                                 ElementsAre("p1#3", "p2#0", "p2#1", "p2#2", "p2#3")));
  EXPECT_THAT(ids_of(store.pending(true)), ElementsAre("p1#2"));
  std::vector<std::string> retried;
  store.for_each_pending_page(true, 5, false, [&](std::vector<PlannedSample>& page) {
    for (const auto& sample : page) {
      EXPECT_TRUE(sample.body.is_null());  // left unparsed when not asked for
      EXPECT_FALSE(sample.metadata.is_null());
      retried.push_back(sample.id);
    }
  });
  EXPECT_THAT(retried, ElementsAre("p1#2"));
}

TEST(RunStore, CreateStoresAPlanWrittenBatchByBatchInOrder) {
  fs::path dir = fresh_test_dir("store");
  const auto plan = make_plan(4, 3);
  auto store = RunStore::create(dir, kProvenance, [&](const RunStore::PlanBatch& add) {
    for (std::size_t start = 0; start < plan.size(); start += 5)
      add(std::span<const PlannedSample>(plan).subspan(start, std::min<std::size_t>(5, plan.size() - start)));
  });
  EXPECT_EQ(ids_of(store.pending(false)), ids_of(plan));
  EXPECT_FALSE(fs::exists(dir / (std::string(kStoreFileName) + ".partial")));
}

TEST(RunStore, OrderedAnalysesKeepTheirKeyOrderAndResultPassesParseNoJson) {
  fs::path dir = fresh_test_dir("store");
  auto store = RunStore::create(dir, kProvenance, make_plan(1, 2));
  store.record(done_result("p0#0", "a"));
  nlohmann::ordered_json analysis;
  analysis["id"] = "p0#0";
  analysis["code_status"] = "ok";
  analysis["attributes"] = nlohmann::ordered_json::object();
  store.record_ordered_analysis("p0#0", analysis);
  std::vector<std::string> dumped;
  store.for_each_sample_ordered([&](PlannedSample& planned, SampleResult&, nlohmann::ordered_json* stored) {
    EXPECT_FALSE(planned.body.is_null());
    dumped.push_back(stored ? stored->dump() : "none");
  });
  EXPECT_THAT(dumped, ElementsAre(R"({"id":"p0#0","code_status":"ok","attributes":{}})", "none"));
  std::vector<std::string> answers;
  store.for_each_sample_result([&](PlannedSample& planned, SampleResult& result, nlohmann::ordered_json* stored) {
    EXPECT_TRUE(planned.body.is_null());
    EXPECT_TRUE(planned.metadata.is_null());
    EXPECT_EQ(stored, nullptr);
    answers.push_back(planned.id + "=" + result.answer);
  });
  EXPECT_THAT(answers, ElementsAre("p0#0=a", "p0#1="));
}

TEST(RunStore, AnalysesRoundTripAndBelongToDoneSamples) {
  fs::path dir = fresh_test_dir("store");
  auto store = RunStore::create(dir, kProvenance);
  store.plan(make_plan(1, 3));
  store.record(done_result("p0#0", "a"));
  store.record(error_result("p0#1", "server"));
  json analysis = {{"attributes", json::array({{{"attribute", "gender"}, {"used", true}, {"effect", 0.5}}})}};
  store.record_analysis("p0#0", analysis);
  EXPECT_THAT(error_of([&] { store.record_analysis("p0#1", analysis); }), HasSubstr("is not done"));
  EXPECT_THAT(error_of([&] { store.record_analysis("p0#2", analysis); }), HasSubstr("is not done"));
  EXPECT_THAT(error_of([&] { store.record_analysis("zzz", analysis); }), HasSubstr("no sample \"zzz\""));

  auto samples = read_all(RunStore::open(dir));
  ASSERT_TRUE(samples[0].analysis.has_value());
  EXPECT_EQ(*samples[0].analysis, analysis);
  EXPECT_FALSE(samples[1].analysis.has_value());

  json reanalysed = {{"attributes", json::array()}, {"analyzer", "v2"}};  // a newer analyzer replaces it
  store.record_analysis("p0#0", reanalysed);
  EXPECT_EQ(*read_all(store)[0].analysis, reanalysed);
}

TEST(RunStore, ForEachSampleCallbackMayWriteAnalysesBack) {
  fs::path dir = fresh_test_dir("store");
  auto store = RunStore::create(dir, kProvenance);
  auto plan = make_plan(120, 10);  // more than one page
  store.plan(plan);
  for (const auto& sample : plan) store.record(done_result(sample.id, "answer of " + sample.id));
  std::vector<std::string> visited;
  store.for_each_sample([&](const PlannedSample& planned, const SampleResult& result, const json*) {
    visited.push_back(planned.id);
    store.record_analysis(planned.id, {{"answer_length", result.answer.size()}});
  });
  EXPECT_EQ(visited, ids_of(plan));  // plan order, each once
  std::size_t analysed = 0;
  store.for_each_sample([&](const PlannedSample&, const SampleResult& result, const json* analysis) {
    ASSERT_NE(analysis, nullptr);
    EXPECT_EQ(analysis->at("answer_length"), result.answer.size());
    ++analysed;
  });
  EXPECT_EQ(analysed, plan.size());
}

// The store reuses its prepared statements; each is reset after use, so no call keeps an old read
// snapshot: a reader sees what another connection committed since its last call.
TEST(RunStore, ReusedStatementsSeeCommitsOfAnotherConnection) {
  fs::path dir = fresh_test_dir("store");
  auto writer = RunStore::create(dir, kProvenance, make_plan(1, 3));
  auto reader = RunStore::open(dir);
  EXPECT_EQ(reader.status("p0#0"), SampleStatus::pending);
  EXPECT_EQ(reader.counts().done, 0);
  int seen = 0;
  reader.for_each_sample([&](const PlannedSample&, const SampleResult&, const json*) { ++seen; });
  EXPECT_EQ(seen, 3);
  ASSERT_TRUE(writer.record(done_result("p0#0", "a")));
  ASSERT_TRUE(writer.record(done_result("p0#1", "b")));
  EXPECT_EQ(reader.status("p0#0"), SampleStatus::done);
  EXPECT_EQ(reader.counts().done, 2);
  std::vector<std::string> answers;
  reader.for_each_sample([&](const PlannedSample&, const SampleResult& result, const json*) {
    answers.push_back(result.answer);
  });
  EXPECT_THAT(answers, ElementsAre("a", "b", ""));
  EXPECT_FALSE(writer.record(done_result("p0#1", "again")));  // the reused lookup still finds it done
}

TEST(RunStore, RefusesCredentialsInBodiesMetadataProvenanceAndEndpoints) {
  fs::path dir = fresh_test_dir("store");
  json with_header = {
      {"endpoints", json::array({{{"url", "http://h/v1"}, {"headers", {{"Authorization", "Bearer x"}}}}})}};
  EXPECT_THAT(error_of([&] { RunStore::create(dir, with_header); }),
              HasSubstr("refusing to store a credential field \"Authorization\""));
  EXPECT_FALSE(fs::exists(dir / kStoreFileName));

  auto store = RunStore::create(dir, kProvenance);
  auto keyed = make_sample(0, 0);
  keyed.body["extra_body"] = {{"api_key", "sk-abc"}};
  EXPECT_THAT(error_of([&] {
                store.plan(std::vector<PlannedSample>{make_sample(1, 0), keyed});
              }),
              HasSubstr("request body of sample p0#0: refusing to store a credential field \"api_key\""));
  auto keyed_metadata = make_sample(0, 0);
  keyed_metadata.metadata["X-Api-Key"] = "k";
  EXPECT_THAT(error_of([&] { store.plan(std::vector<PlannedSample>{keyed_metadata}); }), HasSubstr("\"X-Api-Key\""));
  EXPECT_EQ(store.counts().planned, 0);

  EXPECT_THAT(error_of([&] { store.update_provenance({{"api-key", "k"}}); }), HasSubstr("credential field"));
  EXPECT_EQ(RunStore::open(dir).provenance(), kProvenance);

  store.plan(make_plan(1, 1));
  auto leaky = done_result("p0#0", "a");
  leaky.endpoint = "https://user:secret@api.example.com/v1";
  EXPECT_THAT(error_of([&] { store.record(leaky); }), HasSubstr("carries credentials"));
  leaky.endpoint = "https://api.example.com/v1?key=secret";
  EXPECT_THAT(error_of([&] { store.record(leaky); }), HasSubstr("query string"));
  EXPECT_EQ(store.counts().done, 0);
  // Fields that merely mention keys are fine: the name of the variable that holds one.
  EXPECT_NO_THROW(store.update_provenance({{"api_key_env", "OPENAI_API_KEY"}}));
}

TEST(RunStore, AnApiKeyNeverReachesTheStoreFiles) {
  // The engine holds the key and sanitises what it reports; the store is given everything else.
  const std::string key = "sk-test-7f3a9c2e1b8d4f6a0e5c";
  fs::path dir = fresh_test_dir("store");
  {
    auto store = RunStore::create(
        dir, {{"endpoints", json::array({{{"url", "http://127.0.0.1:9/v1"}, {"api_key_env", "CODEBIAS_TEST_KEY"}}})}});
    store.plan(make_plan(2, 2));
    auto failed = error_result("p0#0", "auth");
    failed.http_status = 401;
    failed.error_message = "Incorrect API key provided: sk-tes***********************4f6a";  // as sanitised upstream
    failed.raw_response = R"({"error":{"message":"Incorrect API key provided","code":"invalid_api_key"}})";
    ASSERT_TRUE(store.record(failed));
    ASSERT_TRUE(store.record(done_result("p0#1", "ok")));
    store.record_analysis("p0#1", {{"ok", true}});
    // Still open: the WAL holds the commits, so the files are read as a live run leaves them.
    for (const auto& entry : fs::directory_iterator(dir)) {
      EXPECT_EQ(slurp(entry.path()).find(key), std::string::npos) << entry.path();
      EXPECT_EQ(slurp(entry.path()).find("7f3a9c2e"), std::string::npos) << entry.path();
    }
  }
  std::size_t files = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    ++files;
    EXPECT_EQ(slurp(entry.path()).find("7f3a9c2e"), std::string::npos) << entry.path();
  }
  EXPECT_GE(files, 1u);
}

TEST(RunStore, CreateStoresTheRunWithItsWholePlanOrNothing) {
  fs::path dir = fresh_test_dir("store");
  {
    auto store = RunStore::create(dir, kProvenance, make_plan(3, 2));
    EXPECT_EQ(store.counts().planned, 6);
  }
  EXPECT_EQ(RunStore::open(dir).counts().pending, 6);
  EXPECT_FALSE(fs::exists(dir / (std::string(kStoreFileName) + ".partial")));

  // A plan that cannot be stored leaves no run behind, so the directory can be used again.
  fs::path refused = fresh_test_dir("store_refused");
  auto plan = make_plan(2, 1);
  plan[1].body["api_key"] = "sk-x";
  EXPECT_THAT(error_of([&] { RunStore::create(refused, kProvenance, plan); }), HasSubstr("credential field"));
  EXPECT_FALSE(fs::exists(refused / kStoreFileName));
  EXPECT_NO_THROW(RunStore::create(refused, kProvenance, make_plan(2, 1)));
}

TEST(RunStore, ProvenanceWithAKeyedEndpointUrlIsRefused) {
  fs::path dir = fresh_test_dir("store");
  const json leaky = {{"endpoints", json::array({"http://user:SECRET@127.0.0.1:9"})}};
  EXPECT_THAT(error_of([&] { RunStore::create(dir, leaky); }), HasSubstr("carries credentials"));
  EXPECT_FALSE(fs::exists(dir / kStoreFileName));
  auto store = RunStore::create(dir, kProvenance);
  EXPECT_THAT(error_of([&] { store.update_provenance({{"options", {{"endpoints", {"http://h/v1?key=SECRET"}}}}}); }),
              HasSubstr("query string"));
}

TEST(RunStore, VersionOneStoreIsUpgradedAndKeepsCutAnswerSizes) {
  fs::path dir = fresh_test_dir("store");
  RunStore::create(dir, kProvenance, make_plan(1, 2));
  execute(dir / kStoreFileName,
          "ALTER TABLE results DROP COLUMN answer_bytes_received; DROP TABLE executions; PRAGMA user_version = 1");
  auto store = RunStore::open(dir);
  EXPECT_EQ(query_integer(dir / kStoreFileName, "PRAGMA user_version"), kSchemaVersion);
  auto cut = done_result("p0#0", "abc");
  cut.answer_bytes_received = 12345;
  ASSERT_TRUE(store.record(cut));
  ASSERT_TRUE(store.record(done_result("p0#1", "whole")));
  std::vector<std::int64_t> sizes;
  store.for_each_sample([&](const PlannedSample&, const SampleResult& result, const json*) {
    sizes.push_back(result.answer_bytes_received);
  });
  EXPECT_THAT(sizes, ElementsAre(12345, 0));
}

TEST(RunStore, ExecutionsRoundTripAndBelongToDoneSamples) {
  fs::path dir = fresh_test_dir("store");
  auto store = RunStore::create(dir, kProvenance, make_plan(1, 2));
  ASSERT_TRUE(store.record(done_result("p0#0", "a")));
  const json outcome = {{"kind", "pipeline"}, {"status", "ok"}, {"features", {"age", "race"}}};
  store.record_execution("p0#0", outcome);
  store.record_execution("p0#0", outcome);  // replaced, not added
  EXPECT_THAT(error_of([&] { store.record_execution("p0#1", outcome); }), HasSubstr("is not done"));
  EXPECT_THAT(error_of([&] { store.record_execution("nope", outcome); }), HasSubstr("no sample \"nope\""));
  const auto executions = RunStore::open(dir).executions();
  ASSERT_EQ(executions.size(), 1U);
  EXPECT_EQ(executions.at("p0#0"), outcome);
  EXPECT_EQ(query_integer(dir / kStoreFileName,
                          "SELECT COUNT(*) FROM pragma_foreign_key_list('executions') WHERE \"table\" = 'samples'"),
            1);
}

TEST(RunStore, VersionTwoStoreIsUpgradedWithAnEmptyExecutionsTable) {
  fs::path dir = fresh_test_dir("store");
  {
    auto store = RunStore::create(dir, kProvenance, make_plan(1, 1));
    ASSERT_TRUE(store.record(done_result("p0#0", "a")));
  }
  execute(dir / kStoreFileName, "DROP TABLE executions; PRAGMA user_version = 2");
  auto store = RunStore::open(dir);
  EXPECT_EQ(query_integer(dir / kStoreFileName, "PRAGMA user_version"), kSchemaVersion);
  EXPECT_TRUE(store.executions().empty());
  store.record_execution("p0#0", {{"kind", "pipeline"}});
  EXPECT_EQ(store.executions().size(), 1U);
  EXPECT_EQ(store.status("p0#0"), SampleStatus::done);
}

}  // namespace
}  // namespace codebias::store
