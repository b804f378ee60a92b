// What `codebias run` does with hostile or failing input: a runaway answer is stored cut, control
// characters never reach report.md or the terminal, a run whose every request failed exits 1 (one with
// some failed requests names their kinds and exits 0), an unset key variable is caught before the run
// directory exists, and `screening analyze` refuses a line over the JSONL cap.
#include <filesystem>
#include <fstream>
#include <mutex>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli.h"
#include "paths.h"
#include "generation/simulated/http_server.h"
#include "generation/simulated/simulated_model_server.h"
#include "tasks/task.h"

namespace codebias {
namespace {

namespace fs = std::filesystem;
using test_support::run_cli;

std::vector<std::string> small_run(const fs::path& out, const std::vector<std::string>& more) {
  std::vector<std::string> args = {"run", "--scenario", "job",       "--entities-per-group", "1", "--samples",
                                   "1",   "--out",      out.string()};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

std::vector<nlohmann::json> json_lines(const fs::path& path) {
  std::vector<nlohmann::json> lines;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
  return lines;
}

// True when `text` splits no UTF-8 sequence (every lead byte has its continuation bytes).
bool whole_utf8(const std::string& text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const std::size_t length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
    if (i + length > text.size()) return false;
    i += length;
  }
  return true;
}

TEST(RunLimits, AnswerOverTheCapIsStoredCutAtAUtf8Boundary) {
  // "x" and 1,500 two-byte characters: 3,001 bytes; a cap of 1,000 keeps "x" and 499 of them.
  std::string huge = "x";
  for (int i = 0; i < 1500; ++i) huge += "\xC3\xA9";
  serve::HttpServer server([&](const serve::HttpRequest&) {
    serve::HttpResponse response;
    response.body =
        nlohmann::json{
            {"choices",
             {{{"index", 0}, {"message", {{"role", "assistant"}, {"content", huge}}}, {"finish_reason", "stop"}}}},
            {"usage", {{"prompt_tokens", 5}, {"completion_tokens", 1501}}}}
            .dump();
    return response;
  });
  server.start();
  const fs::path base = test_support::fresh_test_dir("run_limits_cap_");
  const auto result =
      run_cli(small_run(base / "run", {"--endpoint", server.base_url(), "--model", "m", "--max-answer-bytes", "1000"}),
              base / "streams");
  ASSERT_EQ(result.code, 0) << result.err;
  const auto lines = json_lines(base / "run" / "responses.jsonl");
  ASSERT_EQ(lines.size(), 9u);
  for (const auto& line : lines) {
    const std::string answer = line["answer"];
    EXPECT_EQ(answer.size(), 999u);
    EXPECT_TRUE(whole_utf8(answer));
    EXPECT_EQ(line["answer_bytes_received"], 3001);
  }
  const auto summary = nlohmann::json::parse(test_support::read_file(base / "run" / "summary.json"));
  EXPECT_EQ(summary["counts"]["answers_cut"], 9);
  EXPECT_EQ(summary["provenance"]["options"]["max_answer_bytes"], 1000);
}

TEST(RunLimits, ControlCharactersNeverReachReportOrTerminal) {
  serve::SimulatedModel model(serve::default_bias_profile(), tasks::simulated_answerers());
  serve::HttpServer server(serve::simulated_model_handler(model));
  server.start();
  const fs::path base = test_support::fresh_test_dir("run_limits_control_");
  const std::string hostile = "evil\x1b[2J\rname\x07";
  const auto result =
      run_cli(small_run(base / "run", {"--endpoint", server.base_url(), "--model", hostile}), base / "streams");
  ASSERT_EQ(result.code, 0) << result.err;
  const std::string report = test_support::read_file(base / "run" / "report.md");
  EXPECT_NE(report.find("evil[2Jname"), std::string::npos);
  const auto rendered = run_cli({"report", (base / "run").string(), "--format", "md", "--out", "-"}, base / "streams");
  ASSERT_EQ(rendered.code, 0) << rendered.err;
  for (const std::string& text : {report, rendered.out, result.err, rendered.err}) {
    EXPECT_EQ(text.find('\x1b'), std::string::npos);
    EXPECT_EQ(text.find('\r'), std::string::npos);
    EXPECT_EQ(text.find('\x07'), std::string::npos);
  }
  // An error message quoting the user's text is cleaned too.
  const auto refused = run_cli({"run", "--mode", "\x1b]0;title\x07"}, base / "streams");
  EXPECT_NE(refused.code, 0);
  EXPECT_EQ(refused.err.find('\x1b'), std::string::npos) << refused.err;
}

TEST(RunLimits, RunWhoseEveryRequestFailedExitsOne) {
  std::string closed_port;
  {
    serve::HttpServer server([](const serve::HttpRequest&) { return serve::HttpResponse{}; });
    server.start();
    closed_port = server.base_url();
  }  // stopped: nothing listens there now
  const fs::path base = test_support::fresh_test_dir("run_limits_failed_");
  for (const std::string& endpoint : {std::string("not-a-url"), closed_port}) {
    const fs::path dir = base / ("run" + std::to_string(endpoint.size()));
    const auto result =
        run_cli(small_run(dir, {"--endpoint", endpoint, "--model", "m", "--max-attempts", "1"}), base / "streams");
    EXPECT_EQ(result.code, 1) << endpoint << "\n" << result.err;
    EXPECT_NE(result.err.find("every request failed"), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("connection: 9 samples, e.g. \""), std::string::npos) << result.err;
  }
}

// A closed port is an endpoint that is down: with the default retries and cooldowns the run still
// ends after one round of refused connections (before, it cooled down and retried for minutes
// while spinning a core) and the terminal says it cannot connect, naming the URL.
TEST(RunLimits, RunAgainstAClosedPortSaysItCannotConnect) {
  std::string closed_port;
  {
    serve::HttpServer server([](const serve::HttpRequest&) { return serve::HttpResponse{}; });
    server.start();
    closed_port = server.base_url();
  }
  const fs::path base = test_support::fresh_test_dir("run_limits_closed_");
  const auto result = run_cli(small_run(base / "run", {"--endpoint", closed_port, "--model", "m"}), base / "streams");
  EXPECT_EQ(result.code, 1) << result.err;
  EXPECT_NE(result.err.find("e.g. \"cannot connect to " + closed_port + " ("), std::string::npos) << result.err;
}

// Some requests fail, the others are answered: the run succeeds (exit 0) and says which kinds
// of error it met, with one message each, and how to send them again.
TEST(RunLimits, RunWithSomeFailedRequestsNamesTheErrorKinds) {
  std::mutex mutex;
  int calls = 0;
  serve::HttpServer server([&](const serve::HttpRequest&) {
    std::lock_guard lock(mutex);
    serve::HttpResponse response;
    if (calls++ % 3 == 0) {
      response.status = 500;
      response.body = R"({"error": {"message": "the server broke"}})";
      return response;
    }
    response.body = nlohmann::json{{"choices", {{{"index", 0},
                                                 {"message", {{"role", "assistant"}, {"content", "def f(c):\n    return 1\n"}}},
                                                 {"finish_reason", "stop"}}}}}
                        .dump();
    return response;
  });
  server.start();
  const fs::path base = test_support::fresh_test_dir("run_limits_some_failed_");
  const auto result = run_cli(small_run(base / "run", {"--endpoint", server.base_url(), "--model", "m", "--max-attempts",
                                                       "1", "--concurrency", "1"}),
                              base / "streams");
  EXPECT_EQ(result.code, 0) << result.err;
  EXPECT_NE(result.err.find("some requests failed (3 of 9 samples)"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("the server broke"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("--retry-errors"), std::string::npos) << result.err;
}

TEST(RunLimits, UnsetKeyVariableIsRefusedBeforeTheRunDirectoryExists) {
  const fs::path base = test_support::fresh_test_dir("run_limits_key_");
  unsetenv("CODEBIAS_TEST_UNSET_KEY");
  const auto result = run_cli(small_run(base / "run", {"--endpoint", "http://127.0.0.1:9", "--model", "m",
                                                       "--api-key-env", "CODEBIAS_TEST_UNSET_KEY"}),
                              base / "streams");
  EXPECT_EQ(result.code, 2) << result.err;
  EXPECT_NE(result.err.find("--api-key-env: environment variable CODEBIAS_TEST_UNSET_KEY"), std::string::npos)
      << result.err;
  EXPECT_FALSE(fs::exists(base / "run"));
}

TEST(RunLimits, ScreeningAnalyzeRefusesALineOverTheCap) {
  const fs::path base = test_support::fresh_test_dir("run_limits_screening_");
  const fs::path table = base / "huge.jsonl";
  {
    std::ofstream out(table, std::ios::binary);
    out << "{\"FirstName\": \"" << std::string((std::size_t{64} << 20) + 16, 'a') << "\"}\n";
  }
  const auto result = run_cli({"screening", "analyze", table.string()}, base / "streams");
  EXPECT_EQ(result.code, 2);
  EXPECT_NE(result.err.find("huge.jsonl:1: line is"), std::string::npos) << result.err.substr(0, 300);
  EXPECT_NE(result.err.find("more than the limit of 67108864"), std::string::npos) << result.err.substr(0, 300);
}

}  // namespace
}  // namespace codebias
