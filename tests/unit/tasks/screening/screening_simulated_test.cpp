// The simulated model's screening answers (docs/simulated-model.md, "Candidate screening"): the
// planted job-area association, the planted CAT label rates and position preference (within 4
// binomial standard errors over a few thousand in-process draws), the formats, and follow-ups.
#include <cmath>
#include <map>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "tasks/screening/screening_prompts.h"
#include "run/follow_ups.h"
#include "generation/simulated/simulated_model.h"
#include "tasks/suite_loading.h"
#include "tasks/task.h"

namespace codebias::serve {
namespace {

using nlohmann::json;

json body_of(const prompts::Prompt& prompt, int seed) {
  json messages = json::array();
  for (const auto& m : prompt.messages) messages.push_back({{"role", m.role}, {"content", m.content}});
  return {{"model", "sim"}, {"messages", messages}, {"metadata", prompt.metadata}, {"seed", seed}};
}

bool within_4_se(int hits, int n, double p) {
  const double se = std::sqrt(p * (1 - p) / n);
  return std::abs(static_cast<double>(hits) / n - p) <= 4 * se + 1e-12;
}

double weight_of(const std::vector<WeightedName>& weights, const std::string& name) {
  double total = 0, mine = 0;
  for (const auto& w : weights) {
    total += w.weight;
    if (w.name == name) mine = w.weight;
  }
  return mine / total;
}

std::string content_of(const json& completion) { return completion["choices"][0]["message"]["content"].get<std::string>(); }

const std::vector<prompts::Prompt>& resume_prompts() {
  static const auto prompts = prompts::build_resume_prompts(tasks::builtin_suite("bad-resume"), {});
  return prompts;
}

TEST(SimulatedScreening, JobAreasFollowThePlantedTablePerGroup) {
  const SimulatedModel model(default_bias_profile(), tasks::simulated_answerers());
  const ResumeProfile& profile = default_bias_profile().screening.resume;
  std::map<std::string, std::map<std::string, int>> areas;  // group -> area -> count
  std::map<std::string, int> answered;
  int draws = 0, refusals = 0;
  for (int seed = 0; seed < 70; ++seed) {
    for (const auto& prompt : resume_prompts()) {
      const AnswerPlan plan = model.plan(body_of(prompt, seed), 0);
      ++draws;
      if (plan.outcome == AnswerPlan::Outcome::refusal) {
        ++refusals;
        continue;
      }
      ASSERT_EQ(plan.outcome, AnswerPlan::Outcome::answer);
      ASSERT_EQ(plan.answered_by, "resume");  // the resume task's registry row answered
      const auto area = plan.screening.fields.find("JobArea");
      if (area == plan.screening.fields.end()) continue;  // left out, independently of the area
      const std::string group = prompt.metadata["ethnicity"].get<std::string>() + "/" + prompt.metadata["gender"].get<std::string>();
      ++areas[group][area->second];
      ++answered[group];
    }
  }
  EXPECT_TRUE(within_4_se(refusals, draws, profile.refusal_rate)) << refusals << " of " << draws;
  ASSERT_EQ(answered.size(), 8u);
  for (const auto& [group, n] : answered) {
    const auto slash = group.find('/');
    const auto& weights = profile.areas_for(group.substr(0, slash), group.substr(slash + 1));
    for (const auto& w : weights) {
      EXPECT_TRUE(within_4_se(areas[group][w.name], n, weight_of(weights, w.name)))
          << group << " " << w.name << ": " << areas[group][w.name] << " of " << n;
    }
  }
  // The direction BAD §5.1 reports, as planted.
  EXPECT_GT(areas["API/Male"]["Software Engineering"] * 1.0 / answered["API/Male"],
            areas["White/Female"]["Software Engineering"] * 3.0 / answered["White/Female"]);
}

TEST(SimulatedScreening, ResumesComeInEveryFormatWithTheirFields) {
  const SimulatedModel model(default_bias_profile(), tasks::simulated_answerers());
  std::set<std::string> formats;
  bool placeholders = false, missing = false;
  for (int seed = 0; seed < 20; ++seed) {
    for (const auto& prompt : resume_prompts()) {
      const json body = body_of(prompt, seed);
      const AnswerPlan plan = model.plan(body, 0);
      if (plan.outcome != AnswerPlan::Outcome::answer) continue;
      formats.insert(plan.screening.format);
      placeholders |= plan.screening.placeholders;
      missing |= plan.screening.fields.size() < 7;
      ASSERT_TRUE(plan.screening.fields.count("JobTitle")) << "a resume always names its job title";
      const std::string text = content_of(model.chat_completion(body));
      if (plan.screening.format == "markdown_json" || plan.screening.format == "json_only") {
        const auto open = text.find('{');
        const json object = json::parse(text.substr(open, text.rfind('}') - open + 1));
        for (const auto& [field, value] : plan.screening.fields) {
          EXPECT_EQ(object.at(field), value.empty() ? json(nullptr) : json(value)) << field;
        }
        EXPECT_EQ(object.size(), plan.screening.fields.size());
      } else {
        EXPECT_EQ(text.find('{'), std::string::npos);
        EXPECT_NE(text.find(plan.screening.fields.at("JobTitle")), std::string::npos) << text;
        EXPECT_NE(text.find(prompt.metadata["full_name"].get<std::string>()), std::string::npos);
      }
    }
  }
  EXPECT_EQ(formats, (std::set<std::string>{"markdown_json", "text_only", "json_only", "prose"}));
  EXPECT_TRUE(placeholders);
  EXPECT_TRUE(missing);
}

TEST(SimulatedScreening, AFollowUpGivesTheSamePersonsFieldsAsJson) {
  const SimulatedModel model(default_bias_profile(), tasks::simulated_answerers());
  int answered = 0, declined = 0;
  for (int seed = 0; seed < 10; ++seed) {
    for (const auto& prompt : resume_prompts()) {
      const json first_body = body_of(prompt, seed);
      const AnswerPlan first = model.plan(first_body, 0);
      if (first.outcome != AnswerPlan::Outcome::answer) continue;
      const std::vector<std::string> asked = {"JobTitle", "ZipCode"};
      metrics::SampleRecord record;
      record.planned.id = "s";
      record.planned.body = first_body;
      record.planned.metadata = prompt.metadata;
      record.result.answer = content_of(model.chat_completion(first_body));
      const tasks::NextTurn turn{prompts::follow_up_text(prompt.metadata["follow_up"]["template"].get<std::string>(), asked),
                                 {{"missing_fields", asked}}};
      const json body = run::follow_up_sample(record, turn).body;
      const AnswerPlan plan = model.plan(body, 0);
      ASSERT_EQ(plan.outcome, AnswerPlan::Outcome::answer);
      if (plan.screening.format == "follow_up_declined") {
        ++declined;
        continue;
      }
      ++answered;
      ASSERT_EQ(plan.screening.format, "follow_up_json");
      EXPECT_EQ(plan.screening.fields.at("JobTitle"), first.screening.fields.at("JobTitle"));
      if (first.screening.fields.count("ZipCode")) {
        EXPECT_EQ(plan.screening.fields.at("ZipCode"), first.screening.fields.at("ZipCode"));
      }
      const std::string text = content_of(model.chat_completion(body));
      const auto open = text.find('{');
      const json object = json::parse(text.substr(open, text.rfind('}') - open + 1));
      EXPECT_EQ(object.at("JobTitle"), plan.screening.fields.at("JobTitle"));
      EXPECT_EQ(object.size(), 2u);
    }
  }
  const double rate = default_bias_profile().screening.resume.follow_up_answer_rate;
  EXPECT_TRUE(within_4_se(answered, answered + declined, rate)) << answered << " of " << answered + declined;
}

TEST(SimulatedScreening, CatChoicesRecoverThePlantedLabelAndPositionRates) {
  const SimulatedModel model(default_bias_profile(), tasks::simulated_answerers());
  const CatProfile& profile = default_bias_profile().screening.cat;
  const auto prompts = prompts::build_cat_prompts(tasks::builtin_suite("bad-cat"), {});
  // q: the share of prompts whose position 1 holds each label (the position preference's labels).
  std::map<std::string, double> q;
  for (const auto& prompt : prompts) q[prompt.metadata["options"][0]["label"].get<std::string>()] += 1.0 / prompts.size();
  std::map<std::string, int> labels;
  std::map<int, int> positions;
  std::set<std::string> formats;
  int draws = 0, refusals = 0, chosen = 0;
  for (int seed = 0; seed < 15; ++seed) {
    for (const auto& prompt : prompts) {
      const json body = body_of(prompt, seed);
      const AnswerPlan plan = model.plan(body, 0);
      ++draws;
      if (plan.outcome == AnswerPlan::Outcome::refusal) {
        ++refusals;
        continue;
      }
      ASSERT_EQ(plan.outcome, AnswerPlan::Outcome::answer);
      ++chosen;
      ++labels[plan.screening.label];
      ++positions[plan.screening.position];
      formats.insert(plan.screening.format);
      EXPECT_EQ(prompt.metadata["options"][plan.screening.position - 1]["label"], plan.screening.label);
      const std::string text = content_of(model.chat_completion(body));
      EXPECT_NE(text.find(std::to_string(plan.screening.position)), std::string::npos) << text;
    }
  }
  const double r = profile.position_rate;
  double position_one = r;
  for (const char* label : {"stereotype", "anti-stereotype", "neutral"}) {
    const double p = weight_of(profile.labels, label);
    const double expected = r * q[label] + (1 - r) * p;  // docs/simulated-model.md
    EXPECT_TRUE(within_4_se(labels[label], chosen, expected)) << label << ": " << labels[label] << " of " << chosen
                                                              << ", expected " << expected;
    position_one += (1 - r) * p * q[label];
  }
  EXPECT_TRUE(within_4_se(positions[1], chosen, position_one)) << positions[1] << " of " << chosen;
  EXPECT_TRUE(within_4_se(refusals, draws, profile.refusal_rate)) << refusals << " of " << draws;
  EXPECT_EQ(formats, (std::set<std::string>{"number", "option", "option_text", "sentence"}));
  EXPECT_GE(draws, 3000);
}

TEST(SimulatedScreening, AnswersAreReproducibleFromTheRequestSeed) {
  const SimulatedModel model(default_bias_profile(), tasks::simulated_answerers());
  const auto& prompt = resume_prompts()[3];
  EXPECT_EQ(content_of(model.chat_completion(body_of(prompt, 9))), content_of(model.chat_completion(body_of(prompt, 9))));
  int different = 0;
  for (int seed = 0; seed < 5; ++seed) {
    different += content_of(model.chat_completion(body_of(prompt, seed))) !=
                 content_of(model.chat_completion(body_of(prompt, seed + 5)));
  }
  EXPECT_GT(different, 0);
}

TEST(SimulatedScreening, ProfileErrorsNameTheField) {
  const auto error_of = [](const std::string& text) {
    try {
      parse_bias_profile(text, "p.json");
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error_of(R"({"screening":{"resume":{"areas":{"API/Male":{"Software Engineering":1}}}}})")
                .find("screening.resume.areas: needs a \"default\""),
            std::string::npos);
  EXPECT_NE(error_of(R"({"screening":{"resume":{"areas":{"default":{"Astronaut":1}}}}})").find("screening.resume.areas.default.Astronaut"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"screening":{"resume":{"areas":{"default":{"Sales":1},"Asian/Male":{"Sales":1}}}}})")
                .find("screening.resume.areas.Asian/Male"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"screening":{"cat":{"preferred_position":4}}})").find("screening.cat.preferred_position"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"screening":{"cat":{"labels":{"unrelated":1}}}})").find("screening.cat.labels.unrelated"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"screening":{"cat":{"refusal_rate":2}}})").find("screening.cat.refusal_rate"), std::string::npos);
}

}  // namespace
}  // namespace codebias::serve
