#include "run/batch_file.h"

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "store_test_support.h"
#include "cli.h"

namespace codebias::run {
namespace {

using namespace codebias::store::testing;
using store::RunStore;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<json> parse_lines(const std::string& text) {
  std::vector<json> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(json::parse(line));
  return lines;
}

std::string export_text(const RunStore& run, bool include_errors, std::size_t max_requests = 0) {
  std::ostringstream out;
  export_batch(run, out, include_errors, max_requests);
  return out.str();
}

ImportStats import_text(RunStore& run, const std::string& text, std::string_view origin = "out.jsonl") {
  std::istringstream in(text);
  return import_batch_results(run, in, origin);
}

StoredSample stored(const RunStore& run, const std::string& id) {
  for (auto& sample : read_all(run)) {
    if (sample.planned.id == id) return sample;
  }
  throw std::runtime_error("no sample " + id);
}

// A chat completion as OpenAI returns it inside a batch output line.
json openai_completion(const std::string& content) {
  return {{"id", "chatcmpl-B1"},
          {"object", "chat.completion"},
          {"created", 1711652795},
          {"model", "gpt-4o-mini-2024-07-18"},
          {"choices", json::array({{{"index", 0},
                                    {"message", {{"role", "assistant"}, {"content", content}, {"refusal", nullptr}}},
                                    {"logprobs", nullptr},
                                    {"finish_reason", "stop"}}})},
          {"usage",
           {{"prompt_tokens", 22},
            {"completion_tokens", 41},
            {"total_tokens", 63},
            {"completion_tokens_details", {{"reasoning_tokens", 7}}}}},
          {"system_fingerprint", "fp_44709d6fcb"}};
}

json openai_line(const std::string& custom_id, const json& body, int status = 200) {
  return {{"id", "batch_req_" + custom_id},
          {"custom_id", custom_id},
          {"response", {{"status_code", status}, {"request_id", "req_" + custom_id}, {"body", body}}},
          {"error", nullptr}};
}

class BatchFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fresh_test_dir("batch");
    run_.emplace(RunStore::create(dir_, {{"model", "test-model"}}));
    run_->plan(make_plan(2, 3));  // p0#0..p0#2, p1#0..p1#2
  }
  RunStore& run() { return *run_; }

  fs::path dir_;
  std::optional<RunStore> run_;
};

TEST_F(BatchFile, ExportWritesOneOpenAiBatchLinePerPendingSample) {
  run().record(done_result("p0#0", "done already"));
  run().record(error_result("p0#1", "server"));
  auto lines = parse_lines(export_text(run(), false));
  ASSERT_EQ(lines.size(), 4u);
  auto planned = make_sample(0, 2);
  EXPECT_EQ(lines[0],
            json({{"custom_id", "p0#2"}, {"method", "POST"}, {"url", "/v1/chat/completions"}, {"body", planned.body}}));
  EXPECT_EQ(lines[0]["body"]["seed"], 1002);
  EXPECT_EQ(lines[3]["custom_id"], "p1#2");

  auto with_errors = parse_lines(export_text(run(), true));
  ASSERT_EQ(with_errors.size(), 5u);
  EXPECT_EQ(with_errors[0]["custom_id"], "p0#1");
  EXPECT_EQ(parse_lines(export_text(run(), true, 2)).size(), 2u);
}

TEST_F(BatchFile, ImportsOpenAiOutputAndErrorFiles) {
  std::string output = openai_line("p0#0", openai_completion("```python\ndef score(a): return 1\n```")).dump() + "\n" +
                       openai_line("p0#1",
                                   {{"error",
                                     {{"message", "This model's maximum context length is 8192 tokens."},
                                      {"type", "invalid_request_error"},
                                      {"param", "messages"},
                                      {"code", "context_length_exceeded"}}}},
                                   400)
                           .dump() +
                       "\n";
  std::string errors = json({{"id", "batch_req_x"},
                             {"custom_id", "p0#2"},
                             {"response", nullptr},
                             {"error",
                              {{"code", "batch_expired"},
                               {"message",
                                "This request could not be executed before the completion window "
                                "expired."}}}})
                           .dump() +
                       "\n";
  auto stats = import_text(run(), output, "batch_out.jsonl");
  EXPECT_EQ(stats.lines, 2);
  EXPECT_EQ(stats.done, 1);
  EXPECT_EQ(stats.errors, 1);
  EXPECT_TRUE(stats.problems.empty());
  auto error_stats = import_text(run(), errors, "batch_err.jsonl");
  EXPECT_EQ(error_stats.errors, 1);

  auto done = stored(run(), "p0#0").result;
  EXPECT_EQ(done.status, generation::SampleStatus::done);
  EXPECT_EQ(done.answer, "```python\ndef score(a): return 1\n```");
  EXPECT_EQ(done.reasoning, "");
  EXPECT_EQ(done.finish_reason, "stop");
  EXPECT_EQ(done.http_status, 200);
  EXPECT_EQ(done.usage.prompt_tokens, 22);
  EXPECT_EQ(done.usage.completion_tokens, 41);
  EXPECT_EQ(done.usage.reasoning_tokens, 7);
  EXPECT_EQ(done.endpoint, "batch:batch_out.jsonl");
  EXPECT_EQ(done.finished_at, 1711652795);
  EXPECT_EQ(json::parse(done.raw_response), openai_completion("```python\ndef score(a): return 1\n```"));

  auto too_long = stored(run(), "p0#1").result;
  EXPECT_EQ(too_long.status, generation::SampleStatus::error);
  EXPECT_EQ(too_long.http_status, 400);
  EXPECT_EQ(too_long.error_kind, "context_length");
  EXPECT_EQ(too_long.error_message, "This model's maximum context length is 8192 tokens.");

  auto expired = stored(run(), "p0#2").result;
  EXPECT_EQ(expired.error_kind, "timeout");
  EXPECT_EQ(expired.http_status, 0);
  EXPECT_THAT(expired.error_message, HasSubstr("completion window expired"));
  EXPECT_EQ(run().counts().done, 1);
  EXPECT_EQ(run().counts().errors, 2);
}

TEST_F(BatchFile, ImportsVllmRunBatchOutput) {
  // vllm run-batch: ids "vllm-...", reasoning in message.reasoning (older: reasoning_content),
  // failures with a null body and the error as a string or an ErrorResponse.
  json vllm_body = {
      {"id", "chatcmpl-5"},
      {"object", "chat.completion"},
      {"created", 1730000000},
      {"model", "Qwen/Qwen3-8B"},
      {"choices", json::array({{{"index", 0},
                                {"message",
                                 {{"role", "assistant"},
                                  {"reasoning", "The user wants a scorer."},
                                  {"reasoning_content", nullptr},
                                  {"content", "def score(a):\n    return 0\n"},
                                  {"tool_calls", json::array()}}},
                                {"logprobs", nullptr},
                                {"finish_reason", "stop"},
                                {"stop_reason", nullptr}}})},
      {"usage",
       {{"prompt_tokens", 30}, {"total_tokens", 90}, {"completion_tokens", 60}, {"prompt_tokens_details", nullptr}}},
      {"prompt_logprobs", nullptr}};
  json older_body = vllm_body;
  older_body["choices"][0]["message"].erase("reasoning");
  older_body["choices"][0]["message"]["reasoning_content"] = "Older field.";
  older_body["choices"][0]["message"]["content"] = nullptr;  // cut off while still reasoning
  older_body["choices"][0]["finish_reason"] = "length";
  auto vllm_line = [](const std::string& id, const json& body, int status, const json& error) {
    return json({{"id", "vllm-" + id},
                 {"custom_id", id},
                 {"response", {{"status_code", status}, {"request_id", "vllm-batch-" + id}, {"body", body}}},
                 {"error", error}})
        .dump();
  };
  std::string output = vllm_line("p1#0", vllm_body, 200, nullptr) + "\n" + vllm_line("p1#1", older_body, 200, nullptr) +
                       "\n" + vllm_line("p1#2", nullptr, 400, "Request must not be sent in stream mode") + "\n" +
                       vllm_line("p0#0", nullptr, 404,
                                 {{"error",
                                   {{"message", "The model `x` does not exist."},
                                    {"type", "NotFoundError"},
                                    {"param", "model"},
                                    {"code", 404}}}}) +
                       "\n" +
                       vllm_line("p0#1", nullptr, 400,
                                 {{"object", "error"},
                                  {"message", "This model's maximum context length is 4096 tokens."},
                                  {"type", "BadRequestError"},
                                  {"param", nullptr},
                                  {"code", 400}}) +
                       "\n";
  auto stats = import_text(run(), output, "vllm_out.jsonl");
  EXPECT_TRUE(stats.problems.empty()) << ::testing::PrintToString(stats.problems);
  EXPECT_EQ(stats.done, 2);
  EXPECT_EQ(stats.errors, 3);

  auto current = stored(run(), "p1#0").result;
  EXPECT_EQ(current.status, generation::SampleStatus::done);
  EXPECT_EQ(current.reasoning, "The user wants a scorer.");
  EXPECT_EQ(current.answer, "def score(a):\n    return 0\n");
  EXPECT_EQ(current.usage.completion_tokens, 60);
  EXPECT_EQ(current.usage.reasoning_tokens, 0);

  auto older = stored(run(), "p1#1").result;
  EXPECT_EQ(older.status, generation::SampleStatus::done);
  EXPECT_EQ(older.reasoning, "Older field.");
  EXPECT_EQ(older.answer, "");
  EXPECT_EQ(older.finish_reason, "length");

  auto streamed = stored(run(), "p1#2").result;
  EXPECT_EQ(streamed.error_kind, "bad_request");
  EXPECT_EQ(streamed.error_message, "Request must not be sent in stream mode");
  auto unknown_model = stored(run(), "p0#0").result;
  EXPECT_EQ(unknown_model.http_status, 404);
  EXPECT_EQ(unknown_model.error_kind, "bad_request");
  EXPECT_EQ(unknown_model.error_message, "The model `x` does not exist.");
  EXPECT_EQ(stored(run(), "p0#1").result.error_kind, "context_length");
}

TEST_F(BatchFile, ExportThenImportCompletesTheRun) {
  run().record(done_result("p1#1", "online"));
  std::string requests = export_text(run(), false);
  // The batch engine: answers every request in the file, in a different order.
  std::vector<std::string> results;
  for (const auto& request : parse_lines(requests)) {
    std::string id = request["custom_id"];
    results.push_back(
        openai_line(id, openai_completion("answer to " + request["body"]["messages"][0]["content"].get<std::string>()))
            .dump());
  }
  std::reverse(results.begin(), results.end());
  std::string output;
  for (const auto& line : results) output += line + "\n";
  auto stats = import_text(run(), output);
  EXPECT_EQ(stats.done, 5);
  EXPECT_EQ(run().counts().done, 6);
  EXPECT_EQ(export_text(run(), true), "");
  EXPECT_EQ(stored(run(), "p0#2").result.answer, "answer to Write score(applicant) #0");
  EXPECT_EQ(stored(run(), "p1#1").result.answer, "online");
}

json cancelled_line(const std::string& custom_id) {
  return {{"id", "batch_req_c"},
          {"custom_id", custom_id},
          {"response", nullptr},
          {"error", {{"code", "batch_cancelled"}, {"message", "Batch was cancelled"}}}};
}

TEST_F(BatchFile, LinesForDoneSamplesAreCountedAndNeverRewritten) {
  std::string first = openai_line("p0#0", openai_completion("first")).dump() + "\n";
  EXPECT_EQ(import_text(run(), first).done, 1);
  // The same file again, a second answer and an error for the done sample, and a repeat.
  std::string again = first + openai_line("p0#0", openai_completion("second")).dump() + "\n" +
                      cancelled_line("p0#0").dump() + "\n" + first;
  auto stats = import_text(run(), again, "again.jsonl");
  EXPECT_EQ(stats.lines, 4);
  EXPECT_EQ(stats.already_done, 4);
  EXPECT_EQ(stats.done + stats.errors, 0);
  EXPECT_TRUE(stats.problems.empty());
  EXPECT_EQ(stored(run(), "p0#0").result.answer, "first");
  EXPECT_EQ(stored(run(), "p0#0").result.status, generation::SampleStatus::done);
}

TEST_F(BatchFile, ARepeatedIdOfAFailedSampleIsReportedAndOnlyTheFirstImported) {
  std::string input = cancelled_line("p0#1").dump() + "\n" + openai_line("p0#1", openai_completion("late")).dump() +
                      "\n" + cancelled_line("p0#1").dump() + "\n";
  auto stats = import_text(run(), input, "dup.jsonl");
  EXPECT_EQ(stats.errors, 1);
  EXPECT_EQ(stats.done, 0);
  EXPECT_THAT(stats.problems,
              ElementsAre("dup.jsonl:2: custom_id: \"p0#1\" already appeared on line 1; only the first is imported",
                          "dup.jsonl:3: custom_id: \"p0#1\" already appeared on line 1; only the first is imported"));
  EXPECT_EQ(stored(run(), "p0#1").result.status, generation::SampleStatus::error);
}

TEST_F(BatchFile, AFailedSampleIsReplacedByALaterImport) {
  std::string failed = cancelled_line("p0#0").dump();
  EXPECT_EQ(import_text(run(), failed).errors, 1);
  EXPECT_EQ(stored(run(), "p0#0").result.error_kind, "cancelled");
  EXPECT_EQ(import_text(run(), openai_line("p0#0", openai_completion("retried")).dump()).done, 1);
  EXPECT_EQ(stored(run(), "p0#0").result.answer, "retried");
}

TEST_F(BatchFile, BadLinesAreReportedWithOriginLineAndFieldAndTheRestIsImported) {
  json input_line = {
      {"custom_id", "p0#2"}, {"method", "POST"}, {"url", "/v1/chat/completions"}, {"body", {{"model", "m"}}}};
  json text_status = {{"custom_id", "p1#0"}, {"response", {{"status_code", "200"}}}, {"error", nullptr}};
  std::vector<std::string> lines = {
      openai_line("p0#0", openai_completion("good")).dump(),       // 1
      "{\"custom_id\": \"p0#1\", \"response\": ",                  // 2: cut off
      "",                                                          // 3: blank, skipped
      json({{"response", {{"status_code", 200}}}}).dump(),         // 4
      openai_line("p9#9", openai_completion("x")).dump(),          // 5
      input_line.dump(),                                           // 6
      text_status.dump(),                                          // 7
      "[1, 2]",                                                    // 8
      openai_line("p1#1", openai_completion("also good")).dump(),  // 9
  };
  std::string input;
  for (const auto& line : lines) input += line + "\n";
  input += "{\"custom_id\": \"p0#1\", \"response\": " + std::string(100'000, '[') + "\n";  // 10
  auto stats = import_text(run(), input, "results.jsonl");
  EXPECT_EQ(stats.lines, 9);
  EXPECT_EQ(stats.done, 2);
  ASSERT_EQ(stats.problems.size(), 7u);
  EXPECT_THAT(stats.problems[0], HasSubstr("results.jsonl:2: line: not valid JSON"));
  EXPECT_EQ(stats.problems[1], "results.jsonl:4: custom_id: missing or not a string");
  EXPECT_EQ(stats.problems[2], "results.jsonl:5: custom_id: \"p9#9\" is not a sample of this run");
  EXPECT_EQ(stats.problems[3], "results.jsonl:6: response: missing: this is a batch input line, not an output line");
  EXPECT_EQ(stats.problems[4], "results.jsonl:7: response.status_code: missing or not an integer");
  EXPECT_EQ(stats.problems[5], "results.jsonl:8: line: not a JSON object");
  EXPECT_EQ(stats.problems[6], "results.jsonl:10: line: nested deeper than 256 levels");
  EXPECT_EQ(run().status("p0#1"), std::optional(generation::SampleStatus::pending));
  EXPECT_EQ(run().status("p0#2"), std::optional(generation::SampleStatus::pending));
  EXPECT_EQ(run().status("p1#1"), std::optional(generation::SampleStatus::done));
}

TEST_F(BatchFile, AnUnusableCompletionIsStoredAsAnInvalidResponse) {
  json no_choices = openai_completion("x");
  no_choices["choices"] = json::array();
  json number_content = openai_completion("x");
  number_content["choices"][0]["message"]["content"] = 42;
  std::string input = openai_line("p0#0", no_choices).dump() + "\n" + openai_line("p0#1", number_content).dump() +
                      "\n" + openai_line("p0#2", nullptr).dump() + "\n";
  auto stats = import_text(run(), input);
  EXPECT_EQ(stats.errors, 3);
  EXPECT_TRUE(stats.problems.empty());
  auto empty = stored(run(), "p0#0").result;
  EXPECT_EQ(empty.error_kind, "invalid_response");
  EXPECT_EQ(empty.error_message, "response.body.choices: missing or empty");
  EXPECT_EQ(json::parse(empty.raw_response), no_choices);
  EXPECT_EQ(stored(run(), "p0#1").result.error_message, "response.body.choices[0].message.content: not a string");
  EXPECT_EQ(stored(run(), "p0#2").result.error_message, "response.body: missing or not an object");
}

TEST_F(BatchFile, TextCompletionsAreRead) {
  json completion = {{"id", "cmpl-1"},
                     {"object", "text_completion"},
                     {"created", 1},
                     {"choices", json::array({{{"index", 0}, {"text", "    return 1\n"}, {"finish_reason", "stop"}}})},
                     {"usage", {{"prompt_tokens", 5}, {"completion_tokens", 4}}}};
  EXPECT_EQ(import_text(run(), openai_line("p0#0", completion).dump()).done, 1);
  auto result = stored(run(), "p0#0").result;
  EXPECT_EQ(result.answer, "    return 1\n");
  EXPECT_EQ(result.usage.completion_tokens, 4);
}

TEST_F(BatchFile, ThinkTagsInTheContentAreSplitAsOnline) {
  EXPECT_EQ(import_text(run(), openai_line("p0#0", openai_completion("<think>plan</think>\nanswer")).dump()).done, 1);
  auto closed = stored(run(), "p0#0").result;
  EXPECT_EQ(closed.reasoning, "plan");
  EXPECT_EQ(closed.answer, "answer");
  EXPECT_FALSE(closed.reasoning_cut_off);
  EXPECT_EQ(import_text(run(), openai_line("p0#1", openai_completion("<think>never closed")).dump()).done, 1);
  auto cut = stored(run(), "p0#1").result;
  EXPECT_EQ(cut.answer, "");
  EXPECT_TRUE(cut.reasoning_cut_off);
}

// The CLI as a user runs it: export, answer the file, import, export nothing more.
TEST_F(BatchFile, CliExportsAndImports) {
  run_.reset();  // the CLI opens the run itself
  fs::path requests = dir_ / "requests.jsonl";
  auto cli = [&](const std::vector<std::string>& args) { return test_support::run_cli(args, dir_); };
  auto result = cli({"batch", "export", dir_.string(), "--output", requests.string()});
  ASSERT_EQ(result.code, 0);
  EXPECT_THAT(result.err, HasSubstr("6 requests written to"));
  std::string output;
  for (const auto& request : parse_lines(slurp(requests))) {
    output += openai_line(request["custom_id"], openai_completion("cli answer")).dump() + "\n";
  }
  output += "not json\n";
  fs::path results = dir_ / "results.jsonl";
  std::ofstream(results) << output;
  result = cli({"batch", "import", dir_.string(), results.string()});
  EXPECT_EQ(result.code, 2);  // one bad line
  EXPECT_THAT(result.err, HasSubstr(results.string() + ":7: line: not valid JSON"));
  EXPECT_THAT(result.err, HasSubstr("6 done, 0 failed, 0 already done (skipped), 1 not imported"));
  EXPECT_EQ(RunStore::open(dir_).counts().done, 6);
  ASSERT_EQ(cli({"batch", "export", dir_.string(), "--retry-errors", "--output", requests.string()}).code, 0);
  EXPECT_EQ(slurp(requests), "");
  result = cli({"batch", "export", (dir_ / "missing").string()});
  EXPECT_EQ(result.code, 2);
  EXPECT_THAT(result.err, HasSubstr("no run in"));
}

}  // namespace
}  // namespace codebias::run
