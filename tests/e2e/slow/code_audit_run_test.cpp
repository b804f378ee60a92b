// The code audit (docs/hiring-audit.md, "Auditing generated code"): `--execute` on a built-in run
// of the FairCoder job suite calls every generated hiring function on an applicant pool and gives
// the LL144 tables; a model profile that plants a rule favouring men in every gender answer shows
// an impact ratio below 1 for women, and `codebias report` rebuilds the same audit from the store.
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "paths.h"
#include "run/rebuild_report.h"
#include "run/run.h"

namespace codebias::tasks {
namespace {

nlohmann::json read_json(const std::filesystem::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

// The default profile with every answer Python code and every gender answer favouring men by 3
// points (data/models/simulated-default.json, docs/simulated-model.md).
std::filesystem::path gender_rule_profile(const std::filesystem::path& dir) {
  nlohmann::json profile =
      read_json(std::filesystem::path(test_support::source_dir()) / "data/models/simulated-default.json");
  profile["answers"] = {{"refusal_rate", 0.0}, {"truncation_rate", 0.0}, {"malformed_rate", 0.0}, {"prose_rate", 0.0}};
  profile["languages"] = {{"python", 1.0}};
  auto& gender = profile["attributes"]["gender"];
  gender["bias_probability"] = 1.0;
  gender["favoured"] = "male";
  gender["points"] = 3;
  gender.erase("reasoning");
  std::filesystem::create_directories(dir);
  const auto path = dir / "gender-rule.json";
  std::ofstream(path) << profile.dump(2);
  return path;
}

const nlohmann::json& row_of(const nlohmann::json& rows, const std::string& category) {
  for (const auto& row : rows)
    if (row["category"] == category) return row;
  static const nlohmann::json none;
  return none;
}

TEST(CodeAudit, AnExecuteRunOfTheJobSuiteAuditsTheGeneratedFunctionsAndFindsThePlantedGenderRule) {
  const auto scratch = std::filesystem::path(test_support::test_tmp_dir()) / "code_audit_run";
  std::filesystem::remove_all(scratch);
  run::RunOptions options;
  options.scenarios = {"job"};
  options.attributes = {"gender"};
  options.entities_per_group = 3;
  options.samples = 2;
  options.execute = true;
  options.model_profile = gender_rule_profile(scratch);
  options.out_dir = scratch / "run";
  ASSERT_FALSE(run::start_run(options, {}).cancelled);

  const auto summary = read_json(options.out_dir / "summary.json");
  ASSERT_TRUE(summary.contains("audit")) << summary.dump().substr(0, 2000);
  ASSERT_EQ(summary["audit"].size(), 1U);
  const auto& audit = summary["audit"][0];
  EXPECT_EQ(audit["design"], "code");
  EXPECT_EQ(audit["rate_kind"], "scoring");  // FairCoder's functions return a score
  EXPECT_EQ(audit["unknown"], 0);
  // Six prompts (three male-typed and three female-typed jobs), two answers each, 200 applicants each.
  EXPECT_EQ(audit["individuals"], 12 * 200) << audit["answers"].dump();
  for (const char* table : {"sex", "race_ethnicity", "intersectional"}) {
    for (const auto& row : audit["tables"][table]) {
      for (const char* key : {"category", "n", "rate", "impact_ratio", "ci95", "excluded"})
        EXPECT_TRUE(row.contains(key)) << table << ": " << row.dump();
    }
  }
  const auto& women = row_of(audit["tables"]["sex"], "Female");
  const auto& men = row_of(audit["tables"]["sex"], "Male");
  ASSERT_TRUE(women.is_object() && men.is_object()) << audit["tables"]["sex"].dump();
  EXPECT_EQ(men["impact_ratio"], 1.0);
  EXPECT_LT(women["impact_ratio"].get<double>(), 1.0) << audit["tables"]["sex"].dump();
  EXPECT_LT(women["impact_ratio_ci95"][1].get<double>(), 1.0) << women.dump();
  EXPECT_EQ(row_of(audit["tables"]["race_ethnicity"], "Hispanic or Latino")["excluded"], false);

  EXPECT_TRUE(std::filesystem::exists(options.out_dir / "audit.csv"));
  std::ifstream report(options.out_dir / "report.md");
  const std::string markdown((std::istreambuf_iterator<char>(report)), std::istreambuf_iterator<char>());
  EXPECT_NE(markdown.find("bias-audit summary (NYC Local Law 144)"), std::string::npos);
  EXPECT_NE(markdown.find("Design: code"), std::string::npos);
  // The pool outcomes are stored: rebuilding the report reads them back, running nothing.
  const auto rebuilt = nlohmann::json::parse(run::rebuild_report(options.out_dir, run::ReportFormat::json));
  EXPECT_EQ(rebuilt["audit"].dump(), summary["audit"].dump());
}

}  // namespace
}  // namespace codebias::tasks
