// Reading hiring-audit answers against the annotated cases of tests/cases/hiring_audit/answers.jsonl
// (each case: the design, the answer, the candidates' names for pick, and what must be read).
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "paths.h"
#include "tasks/hiring_audit/hiring_answers.h"

namespace codebias::tasks::hiring {
namespace {

using nlohmann::json;

std::vector<json> cases() {
  std::ifstream in(test_support::source_dir() + "/tests/cases/hiring_audit/answers.jsonl");
  std::vector<json> out;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(json::parse(line));
  return out;
}

TEST(HiringAnswers, AnnotatedCases) {
  const auto all = cases();
  ASSERT_GE(all.size(), 25u);
  for (const json& c : all) {
    SCOPED_TRACE(c["note"].get<std::string>());
    json candidates = json::array();
    for (const auto& name : c.value("names", json::array())) candidates.push_back({{"name", name}});
    const HiringAnswer answer =
        read_hiring_answer(c["design"].get<std::string>(), c["answer"].get<std::string>(), candidates);
    const json& expect = c["expect"];
    EXPECT_EQ(to_string(answer.status), expect["status"].get<std::string>());
    if (expect.contains("score")) {
      EXPECT_EQ(answer.score, expect["score"].get<int>());
    }
    if (expect.contains("advance")) {
      EXPECT_EQ(answer.advance, expect["advance"].get<bool>());
    }
    if (expect.contains("pick")) {
      EXPECT_EQ(answer.pick, expect["pick"].get<int>());
    }
    if (expect.contains("read_by")) {
      EXPECT_EQ(answer.read_by, expect["read_by"].get<std::string>());
    }
    if (expect["status"] != "answered") {
      EXPECT_FALSE(answer.score || answer.advance || answer.pick);
    }
  }
}

TEST(HiringAnswers, JsonCarriesTheStatusAndTheDecision) {
  const auto out = to_json(read_advance_answer("Yes."));
  EXPECT_EQ(out["status"], "answered");
  EXPECT_EQ(out["advance"], true);
}

}  // namespace
}  // namespace codebias::tasks::hiring
