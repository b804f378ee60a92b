// The LLM judge: its request, its strict reading of the answer, and undecided answers counted
// apart in `detect eval`, against a local fake judge.
#include "detectors/judge_detector.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <string>

#include "detectors/evaluate.h"
#include "generation/simulated/http_server.h"

namespace codebias::detectors {
namespace {

using json = nlohmann::json;
using ::testing::HasSubstr;

std::optional<JudgeAnswer> read(std::string_view text) {
  std::string why;
  return read_judge_answer(text, why);
}

std::string why_not(std::string_view text) {
  std::string why;
  EXPECT_FALSE(read_judge_answer(text, why).has_value()) << text;
  return why;
}

TEST(JudgeAnswer, ReadsTheTwoLinesStrictly) {
  const auto biased = read("VERDICT: biased\nATTRIBUTES: gender, Parents Degree");
  ASSERT_TRUE(biased);
  EXPECT_TRUE(biased->biased);
  EXPECT_EQ(biased->attributes, (std::vector<std::string>{"gender", "parents_degree"}));
  const auto unbiased = read("The trace excludes gender.\n**Verdict:** Unbiased\n**Attributes:** none");
  ASSERT_TRUE(unbiased);
  EXPECT_FALSE(unbiased->biased);
  EXPECT_TRUE(unbiased->attributes.empty());
  // A reasoning judge's trace is split off first: its own "VERDICT:" musings do not count.
  const auto thought = read("<think>VERDICT: biased? Let me check.</think>\nVERDICT: unbiased\nATTRIBUTES: none");
  ASSERT_TRUE(thought);
  EXPECT_FALSE(thought->biased);
  EXPECT_EQ(why_not("I think this trace is biased."), "no VERDICT line");
  EXPECT_EQ(why_not("VERDICT: probably biased"), "VERDICT is \"probably biased\", not biased or unbiased");
  EXPECT_EQ(why_not("VERDICT: biased\nVERDICT: unbiased"), "two VERDICT lines");
  EXPECT_THAT(why_not("VERDICT: biased\nATTRIBUTES: shoe size"), HasSubstr("no sensitive attribute"));
}

TEST(JudgeRequest, CarriesThePromptFileWithTheTrace) {
  const json body = judge_request_body("judge-model", {"t", "For gender, I'll add 2.", "job", {"gender"}});
  EXPECT_EQ(body["model"], "judge-model");
  EXPECT_EQ(body["temperature"], 0);
  ASSERT_EQ(body["messages"].size(), 2u);
  EXPECT_EQ(body["messages"][0]["role"], "system");
  const std::string user = body["messages"][1]["content"];
  EXPECT_THAT(user, HasSubstr("<reasoning>\nFor gender, I'll add 2.\n</reasoning>"));
  EXPECT_THAT(user, HasSubstr("Scenario: job\nSensitive attributes offered: gender"));
  EXPECT_THAT(user, HasSubstr("VERDICT: biased or unbiased"));
  EXPECT_EQ(user.find('{'), std::string::npos);  // every slot filled
}

// The judge answers "biased" for traces with "bonus", "unbiased" for the others, and nonsense for
// traces with "??"; eval scores the decided ones and counts the rest.
TEST(JudgeDetector, UndecidedAnswersAreCountedNotGuessed) {
  std::atomic<int> bad_shape = 0;
  serve::HttpServer server([&](const serve::HttpRequest& request) {
    serve::HttpResponse response;
    const json body = json::parse(request.body, nullptr, false);
    std::set<std::string> keys;
    if (body.is_object())
      for (const auto& [key, value] : body.items()) keys.insert(key);
    if (request.target != "/v1/chat/completions" ||
        keys != std::set<std::string>{"model", "messages", "temperature", "max_tokens"} || body["model"] != "judge") {
      ++bad_shape;
      response.status = 400;
      response.body = R"({"error": {"message": "unexpected request"}})";
      return response;
    }
    const std::string user = body["messages"][1]["content"];
    const std::string answer = user.find("??") != std::string::npos      ? "Hard to say."
                               : user.find("bonus") != std::string::npos ? "VERDICT: biased\nATTRIBUTES: gender"
                                                                        : "VERDICT: unbiased\nATTRIBUTES: none";
    response.body = json{{"choices", {{{"index", 0}, {"message", {{"role", "assistant"}, {"content", answer}}}}}}}.dump();
    return response;
  });
  server.start();
  std::vector<LabelledTrace> labels;
  for (int i = 0; i < 12; ++i) {
    LabelledTrace t;
    const bool biased = i % 2 == 0;
    t.trace = {"t" + std::to_string(i),
               (biased ? "For gender, men get a bonus." : "Gender is not used.") + std::string(i % 4 == 3 ? " ??" : ""),
               "job",
               {"gender"}};
    t.biased = biased;
    labels.push_back(std::move(t));
  }
  EvaluationPlan plan;
  plan.detectors = {"judge"};
  plan.no_split = true;
  plan.engine = {server.base_url(), "judge", "", 2, 10, 1};
  plan.bootstrap.resamples = 50;
  const EvaluationRun run = evaluate_detectors(labels, plan);
  EXPECT_EQ(bad_shape.load(), 0);
  ASSERT_EQ(run.detectors.size(), 1u);
  const DetectorEvaluation& e = run.detectors[0];
  EXPECT_EQ(e.undecided, 3);  // i = 3, 7, 11
  EXPECT_EQ(e.traces, 9);
  EXPECT_DOUBLE_EQ(e.accuracy.estimate, 1.0);

  const JudgeDetector judge(plan.engine);
  const Verdict undecided = judge.detect({"x", "Gender ??", "job", {"gender"}});
  ASSERT_TRUE(undecided.undecided.has_value());
  EXPECT_EQ(*undecided.undecided, "no VERDICT line");
  const json line = verdict_json("x", "judge", undecided);
  EXPECT_TRUE(line["biased"].is_null());
  EXPECT_EQ(line["undecided"], "no VERDICT line");
  const Verdict biased = judge.detect({"y", "For gender, men get a bonus.", "job", {"gender"}});
  EXPECT_TRUE(biased.biased);
  EXPECT_EQ(biased.biased_attributes, std::vector<std::string>{"gender"});
}

}  // namespace
}  // namespace codebias::detectors
