// `codebias run --mitigation` end to end: the strategies side by side on the built-in model (the
// planted effect of the reasoning rewrite recovered), the rewrite path's requests checked field by
// field against what vLLM and SGLang document for a local fake engine, and a run resumed in the
// middle of its strategy.
#include <gtest/gtest.h>
#include "paths.h"

#include <atomic>
#include <map>
#include <set>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "attributes/attributes.h"
#include "cli.h"
#include "prompts/mitigation_prompts.h"
#include "run/score_input.h"
#include "run/load_run.h"
#include "run/mitigation_steps.h"
#include "run/run.h"
#include "generation/simulated/http_server.h"
#include "generation/simulated/simulated_model.h"
#include "store/run_store.h"

namespace codebias::run {
namespace {

using json = nlohmann::json;

std::filesystem::path fresh_dir(const std::string& name) {
  const auto dir = std::filesystem::path(::codebias::test_support::test_tmp_dir()) / name;
  std::filesystem::remove_all(dir);
  return dir;
}

json read_json(const std::filesystem::path& path) {
  std::ifstream in(path);
  return json::parse(in);
}

const json* comparison(const json& summary, const std::string& strategy, const std::string& attribute) {
  for (const auto& c : summary["mitigation"]["comparisons"])
    if (c["strategy"] == strategy && c["attribute"] == attribute) return &c;
  return nullptr;
}

// A built-in-model run on job prompts offering `attribute` (the first `entities` occupations of each
// group), `samples` each, with the `mitigations` sweep; returns its directory.
std::filesystem::path builtin_run(const std::string& name, const std::string& attribute, int entities, int samples,
                                  std::vector<std::string> mitigations, std::vector<std::string> modes) {
  RunOptions options;
  options.scenarios = {"job"};
  options.attributes = {attribute};
  options.entities_per_group = entities;
  options.samples = samples;
  options.modes = std::move(modes);
  options.mitigations = std::move(mitigations);
  options.out_dir = fresh_dir(name);
  start_run(options, {});
  return options.out_dir;
}

// The built-in model's planted effect (docs/simulated-model.md): without mitigation, code is biased
// at P(BT)·P(BC|BT) + P(UT)·P(BC|UT); after the rewrite every flagged trace is unbiased, so at
// P(BC|UT). Each Bias Rate within 4 binomial SEs, the paired reduction within 4 SEs of the planted
// one. (Sized for the sanitizer build: 576 conversations.)
TEST(MitigationRun, TheReasoningRewriteLowersTheBiasRateByThePlantedAmount) {
  const auto dir = builtin_run("mitigation_planted", "age", 8, 8, {"none", "reasoning-rewrite", "summary-only"}, {"cot"});
  const json summary = read_json(dir / "summary.json");
  const auto& profile = serve::default_bias_profile();
  for (const std::string attribute : {"age"}) {
    const auto& bias = *profile.find_attribute(attribute);
    const double planted_none = *bias.bias_probability_reasoning;
    const double planted_rewrite = bias.trace_relation->code_given_unbiased_trace;
    const json* c = comparison(summary, "reasoning-rewrite", attribute);
    ASSERT_NE(c, nullptr);
    const double n = (*c)["pairs"].get<double>();
    ASSERT_GT(n, 120);
    const double none = (*c)["baseline_bias_rate"], rewrite = (*c)["strategy_bias_rate"];
    EXPECT_NEAR(none, planted_none, 4 * std::sqrt(planted_none * (1 - planted_none) / n));
    EXPECT_NEAR(rewrite, planted_rewrite, 4 * std::sqrt(planted_rewrite * (1 - planted_rewrite) / n));
    // The paired difference's standard error from the discordant pairs.
    const double b = (*c)["mcnemar"]["b_biased_without_only"], cc = (*c)["mcnemar"]["c_biased_with_only"];
    const double se = std::sqrt((b + cc) - (b - cc) * (b - cc) / n) / n;
    EXPECT_NEAR(none - rewrite, planted_none - planted_rewrite, 4 * se);
    EXPECT_LT((*c)["mcnemar"]["p_holm"].get<double>(), 0.05);
    EXPECT_LT((*c)["cliffs_delta"].get<double>(), 0);
    // Summary only keeps the biased steps: its Bias Rate does not move beyond noise.
    const json* summary_only = comparison(summary, "summary-only", attribute);
    ASSERT_NE(summary_only, nullptr);
    EXPECT_GT((*summary_only)["mcnemar"]["p_value"].get<double>(), 1e-4);
  }
  // Every strategy's cost; the rewrite sends two more requests per flagged trace.
  const auto& costs = summary["mitigation"]["costs"];
  ASSERT_EQ(costs.size(), 3u);
  for (const auto& cost : costs) {
    EXPECT_EQ(cost["conversations"], 192) << cost.dump();
    const bool rewrites = cost["strategy"] != "none";
    EXPECT_EQ(cost["requests"].get<int>(), 192 + (rewrites ? 2 * cost["rewrites"].get<int>() : 0)) << cost.dump();
    EXPECT_EQ(cost["rewrites"].get<int>() > 0, rewrites) << cost.dump();
  }
  std::ifstream report(dir / "report.md");
  std::stringstream text;
  text << report.rdbuf();
  EXPECT_NE(text.str().find("## Mitigation strategies (ProbeDebias §5.2, Table 6)"), std::string::npos);
  EXPECT_NE(text.str().find("| default | reasoning-rewrite | job | age |"), std::string::npos);
}

// A fake engine: first answers reason with a biased step, rewrites come back debiased, and the
// regeneration must be the first request again with the rewritten trace prefilled, as vLLM and
// SGLang document continuing a final assistant message (continue_final_message: true,
// add_generation_prompt: false; both true is a 400 on vLLM). Any other shape is refused.
class FakeReasoningEngine {
 public:
  enum class Fail { nothing, rewrites, regenerations };
  explicit FakeReasoningEngine(Fail fail = Fail::nothing)
      : fail_(fail), server_([this](const serve::HttpRequest& r) { return answer(r); }) {
    server_.start();
  }
  std::string url() const { return server_.base_url(); }
  int first_answers() const { return first_; }
  int rewrites() const { return rewrites_; }
  int regenerations() const { return regenerations_; }
  std::vector<std::string> bad_shapes() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return bad_;
  }

 private:
  serve::HttpResponse answer(const serve::HttpRequest& request) {
    serve::HttpResponse response;
    const json body = json::parse(request.body, nullptr, false);
    const auto refuse = [&](const std::string& why) {
      std::lock_guard<std::mutex> lock(mutex_);
      bad_.push_back(why + ": " + request.body.substr(0, 300));
      response.status = 400;
      response.body = R"({"error": {"message": "unexpected request"}})";
      return response;
    };
    const auto overloaded = [&] {
      response.status = 500;
      response.body = R"({"error": {"message": "overloaded"}})";
      return response;
    };
    if (request.target != "/v1/chat/completions" || !body.is_object() || !body.contains("messages"))
      return refuse("not a chat request");
    if (body.contains("metadata")) return refuse("a real endpoint gets no metadata");
    const json& messages = body["messages"];
    const std::string last = messages.back().value("content", "");
    std::string content, reasoning;
    if (body.contains("continue_final_message")) {
      if (body["continue_final_message"] != true || body.value("add_generation_prompt", true) != false)
        return refuse("continue_final_message needs add_generation_prompt false");
      if (messages.back()["role"] != "assistant" || last.rfind("<think>\n", 0) != 0 ||
          last.find("\n</think>\n\n") == std::string::npos || last.find("bonus") != std::string::npos)
        return refuse("the prefill is the rewritten trace in a think block");
      if (messages.size() < 2 || messages[messages.size() - 2]["role"] != "user") return refuse("the task comes first");
      ++regenerations_;
      if (fail_ == Fail::regenerations) return overloaded();
      content = "def evaluate(c):\n    score = 0\n    if c.experience > 5:\n        score += 1\n    return score\n";
    } else if (last.find("<reasoning>\n") != std::string::npos) {
      if (messages.size() != 1 || messages[0]["role"] != "user") return refuse("a rewrite is one user message");
      ++rewrites_;
      if (fail_ == Fail::rewrites) return overloaded();
      content = "Experience counts. Gender is not used.";
    } else {
      ++first_;
      reasoning = "For gender, I'll give male a bonus of 2 points since men tend to be better.";
      content = "```python\ndef evaluate(c):\n    score = 0\n    if c.gender == 'male':\n        score += 2\n    return score\n```";
    }
    json message = {{"role", "assistant"}, {"content", content}};
    if (!reasoning.empty()) message["reasoning_content"] = reasoning;
    response.body = json{{"id", "x"},
                         {"object", "chat.completion"},
                         {"model", body.value("model", "")},
                         {"choices", {{{"index", 0}, {"message", message}, {"finish_reason", "stop"}}}},
                         {"usage", {{"prompt_tokens", 10}, {"completion_tokens", 10}, {"total_tokens", 20}}}}
                        .dump();
    return response;
  }

  Fail fail_;
  std::atomic<int> first_{0}, rewrites_{0}, regenerations_{0};
  mutable std::mutex mutex_;
  std::vector<std::string> bad_;
  serve::HttpServer server_;
};

RunOptions endpoint_run(const std::string& url, const std::string& name) {
  RunOptions options;
  options.scenarios = {"job"};
  options.attributes = {"gender"};
  options.limit = 3;
  options.samples = 2;
  options.modes = {"cot"};
  options.mitigations = {"reasoning-rewrite"};
  options.endpoints = {url};
  options.model = "target";
  options.max_attempts = 1;
  options.out_dir = fresh_dir(name);
  return options;
}

TEST(MitigationRun, TheRewritePathSendsTheRequestsTheEnginesDocument) {
  FakeReasoningEngine engine;
  const RunOptions options = endpoint_run(engine.url(), "mitigation_fake_engine");
  const RunOutcome outcome = start_run(options, {});
  EXPECT_TRUE(engine.bad_shapes().empty()) << engine.bad_shapes().front();
  EXPECT_EQ(engine.first_answers(), 6);
  EXPECT_EQ(engine.rewrites(), 6);  // every trace is biased
  EXPECT_EQ(engine.regenerations(), 6);
  EXPECT_EQ(outcome.counts.errors, 0);
  // The conversation's answer is the regenerated one: no program is biased.
  const json summary = read_json(options.out_dir / "summary.json");
  ASSERT_EQ(summary["metrics"].size(), 1u);
  EXPECT_EQ(summary["metrics"][0]["n_with_code"], 6);
  EXPECT_EQ(summary["metrics"][0]["bias_rate"], 0.0);
  // The rewrite request carries the first trace under the strategy's text.
  auto store = store::RunStore::open(options.out_dir);
  int rewrites = 0;
  store.for_each_sample([&](const generation::PlannedSample& planned, const generation::SampleResult&, const json*) {
    if (planned.metadata.value("step", "") != "rewrite") return;
    ++rewrites;
    EXPECT_EQ(planned.metadata["detector"], "keywords");
    const std::string request = planned.body["messages"][0]["content"];
    EXPECT_EQ(request, prompts::rewrite_request(*prompts::find_mitigation_strategy("reasoning-rewrite"),
                                                "For gender, I'll give male a bonus of 2 points since men tend to be better."));
  });
  EXPECT_EQ(rewrites, 6);
}

// --rewrite-endpoint: the rewrites go to another model (its name, no metadata), everything else to the target.
TEST(MitigationRun, RewritesGoToTheRewritingModelWhenOneIsGiven) {
  FakeReasoningEngine target, rewriter;
  RunOptions options = endpoint_run(target.url(), "mitigation_rewriter");
  options.rewrite_endpoint = rewriter.url();
  options.rewrite_model = "rewriter-model";
  start_run(options, {});
  EXPECT_TRUE(target.bad_shapes().empty());
  EXPECT_TRUE(rewriter.bad_shapes().empty());
  EXPECT_EQ(target.first_answers(), 6);
  EXPECT_EQ(target.rewrites(), 0);
  EXPECT_EQ(target.regenerations(), 6);
  EXPECT_EQ(rewriter.rewrites(), 6);
  EXPECT_EQ(rewriter.first_answers() + rewriter.regenerations(), 0);
  auto store = store::RunStore::open(options.out_dir);
  store.for_each_sample([&](const generation::PlannedSample& planned, const generation::SampleResult& result, const json*) {
    if (planned.metadata.value("step", "") != "rewrite") return;
    EXPECT_EQ(planned.body["model"], "rewriter-model");
    EXPECT_EQ(result.endpoint, rewriter.url());
  });
}

TEST(MitigationRun, ARunResumesInTheMiddleOfItsStrategy) {
  const std::string name = "mitigation_resume";
  std::filesystem::path dir;
  {
    FakeReasoningEngine failing(FakeReasoningEngine::Fail::regenerations);
    const RunOptions options = endpoint_run(failing.url(), name);
    dir = options.out_dir;
    const RunOutcome outcome = start_run(options, {});
    EXPECT_EQ(outcome.counts.errors, 6);  // every regeneration failed
    EXPECT_TRUE(failing.bad_shapes().empty());
  }
  FakeReasoningEngine engine;
  ResumeOptions resume;
  resume.retry_errors = true;
  resume.endpoints = {engine.url()};
  const RunOutcome outcome = resume_run(dir, resume, {});
  EXPECT_TRUE(engine.bad_shapes().empty());
  // Only the failed regenerations are sent again: no first answer or rewrite twice.
  EXPECT_EQ(engine.first_answers(), 0);
  EXPECT_EQ(engine.rewrites(), 0);
  EXPECT_EQ(engine.regenerations(), 6);
  EXPECT_EQ(outcome.counts.errors, 0);
  EXPECT_EQ(read_json(dir / "summary.json")["metrics"][0]["bias_rate"], 0.0);
}

// A rewrite that failed does not let the unmitigated first answer count for the strategy.
TEST(MitigationRun, AFailedStepLeavesTheConversationWithoutAnAnswer) {
  FakeReasoningEngine engine(FakeReasoningEngine::Fail::rewrites);
  const RunOptions options = endpoint_run(engine.url(), "mitigation_failed_rewrite");
  const RunOutcome outcome = start_run(options, {});
  EXPECT_EQ(outcome.counts.errors, 6);
  EXPECT_EQ(engine.regenerations(), 0);
  const json summary = read_json(options.out_dir / "summary.json");
  EXPECT_EQ(summary["counts"]["with_code"], 0);  // the 6 biased first answers do not stand in
  EXPECT_EQ(summary["counts"]["errors"], 6);
  for (const auto& cell : summary["metrics"]) EXPECT_EQ(cell["n_with_code"], 0) << cell.dump();
}

TEST(MitigationRun, StrategiesAreCheckedBeforeAnythingIsSent) {
  RunOptions options;
  options.mitigations = {"reasoning-rewrite"};
  options.out_dir = fresh_dir("mitigation_refused");
  try {
    start_run(options, {});
    FAIL() << "a rewrite strategy without reasoning must be refused";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("needs --mode cot or native"), std::string::npos) << error.what();
  }
  options.mitigations = {"self-debias"};
  try {
    start_run(options, {});
    FAIL() << "an unknown strategy must be refused";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("must be one of none, fair-system-prompt"), std::string::npos) << error.what();
  }
}

// Feedback repair on the built-in model: a feedback turn names the biased attributes, which then
// stay biased at the profile's repair_remaining_bias (0.3): BR after round 1 ≈ 0.3 × BR of the
// first answers; the conversation's answer is its last turn.
TEST(MitigationRun, FeedbackRepairLowersTheBiasRateRoundByRound) {
  const auto dir = builtin_run("mitigation_repair", "age", 8, 6, {"none", "feedback-repair"}, {"vanilla"});
  const json summary = read_json(dir / "summary.json");
  const auto& rounds = summary["mitigation"]["repair_rounds"];
  ASSERT_EQ(rounds.size(), 4u);  // the first answers and 3 rounds
  const double remaining = serve::default_bias_profile().repair_remaining_bias;
  for (std::size_t r = 1; r < rounds.size(); ++r) {
    SCOPED_TRACE(r);
    const double before = rounds[r - 1]["bias_rate"], n_before = rounds[r - 1]["with_code"];
    const double after = rounds[r]["bias_rate"], n_after = rounds[r]["with_code"];
    const double expected = before * remaining;
    const double se = std::sqrt(expected * (1 - expected) / n_after + remaining * remaining * before * (1 - before) / n_before);
    EXPECT_NEAR(after, expected, 4 * se + 1e-9);
    EXPECT_LT(after, before);
  }
  // The cell of the repair configuration is its conversations' last answers: round 3's rate.
  for (const auto& cell : summary["metrics"]) {
    if (cell["config"] != "mitigation=feedback-repair") continue;
    EXPECT_EQ(cell["n_with_code"], rounds[3]["with_code"]);
    EXPECT_DOUBLE_EQ(cell["bias_rate"].get<double>(), rounds[3]["bias_rate"].get<double>());
  }
  const json* c = comparison(summary, "feedback-repair", "age");
  ASSERT_NE(c, nullptr);
  EXPECT_LT((*c)["mcnemar"]["p_holm"].get<double>(), 0.001);
  // A feedback turn continues the conversation: the code it answers, then the findings.
  auto store = store::RunStore::open(dir);
  int feedback = 0;
  store.for_each_sample([&](const generation::PlannedSample& planned, const generation::SampleResult&, const json*) {
    if (planned.metadata.value("step", "") != "repair") return;
    ++feedback;
    const auto& messages = planned.body["messages"];
    EXPECT_EQ(messages[messages.size() - 2]["role"], "assistant");
    const std::string text = messages.back()["content"];
    EXPECT_NE(text.find("treats people differently by age (age: "), std::string::npos) << text;
    EXPECT_EQ(planned.metadata["repair_attributes"], json::array({"age"}));
    EXPECT_GE(planned.metadata["round"].get<int>(), 1);
  });
  EXPECT_GT(feedback, 60);
}

// `codebias quality` on a mitigation run scores each conversation's answer once, per configuration too.
TEST(MitigationRun, QualityReadsEachConversationsAnswerPerConfiguration) {
  const auto dir = builtin_run("mitigation_quality", "gender", 2, 3, {"none", "reasoning-rewrite"}, {"cot"});
  std::ostringstream input;
  write_score_input(dir, analysis::AttributeTable::builtin(), input);
  std::istringstream lines(input.str());
  std::map<std::string, int> per_config;
  std::set<std::string> conversations;
  for (std::string line; std::getline(lines, line);) {
    const json parsed = json::parse(line);
    ++per_config[parsed["config"]];
    EXPECT_TRUE(conversations.insert(generation::first_turn_id(parsed["id"])).second) << "twice: " << line;
    EXPECT_EQ(parsed["id"].get<std::string>().find("+turn2"), std::string::npos) << "a rewrite is no answer";
  }
  EXPECT_EQ(per_config["mitigation=none"], 12);
  EXPECT_EQ(per_config["mitigation=reasoning-rewrite"], 12);
  // Read back for compare and gate: each cell's prompts hold their samples together.
  const metrics::LoadedRun loaded = load_run(dir);
  ASSERT_EQ(loaded.cells.size(), loaded.results.function_cells().size());
  for (std::size_t i = 0; i < loaded.cells.size(); ++i) {
    EXPECT_EQ(static_cast<int>(loaded.cells[i].prompts.size()), loaded.results.function_cells()[i].n_prompts)
        << loaded.cells[i].config << " " << loaded.cells[i].attribute;
  }
  // pylint comes with scripts/setup.sh.
  const auto summary_file = dir / "quality.json";
  const test_support::CliRun quality = test_support::run_cli(
      {"quality", "--input", dir.string(), "--pylint", "--summary-json", summary_file.string()},
      dir);
  ASSERT_EQ(quality.code, 0) << quality.err;
  const json summary = read_json(summary_file);
  EXPECT_EQ(summary["samples"], 24);
  EXPECT_EQ(summary["by_config"]["mitigation=none"]["samples"], 12);
  EXPECT_EQ(summary["by_config"]["mitigation=reasoning-rewrite"]["samples"], 12);
}

TEST(MitigationPrompts, PromptStrategiesShapeTheRequestAndRewritesQuoteTheTrace) {
  const auto* few_shot = prompts::find_mitigation_strategy("few-shot");
  ASSERT_NE(few_shot, nullptr);
  const auto messages = prompts::apply_mitigation(*few_shot, {{"system", "demo"}, {"user", "task"}});
  ASSERT_EQ(messages.size(), 2 + 2 * few_shot->examples.size());
  EXPECT_EQ(messages[0].role, "system");
  EXPECT_EQ(messages[0].content, few_shot->system + "\n\ndemo");
  EXPECT_EQ(messages[1].role, "user");
  EXPECT_EQ(messages[2].role, "assistant");
  EXPECT_EQ(messages.back().content, "task");
  const auto* cot = prompts::find_mitigation_strategy("cot-debias");
  EXPECT_EQ(prompts::apply_mitigation(*cot, {{"user", "task"}}).back().content, "task\n\n" + cot->instruction);
  const auto* none = prompts::find_mitigation_strategy("none");
  EXPECT_EQ(prompts::apply_mitigation(*none, {{"user", "task"}}).size(), 1u);
  const std::string rewrite = prompts::rewrite_request(*prompts::find_mitigation_strategy("debias-only"), "T R A C E");
  EXPECT_NE(rewrite.find("<reasoning>\nT R A C E\n</reasoning>"), std::string::npos);
  EXPECT_EQ(prefilled_think_block("x"), "<think>\nx\n</think>\n\n");
}

}  // namespace
}  // namespace codebias::run
