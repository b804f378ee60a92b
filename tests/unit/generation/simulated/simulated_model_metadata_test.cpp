// The simulated model reading a prompt's metadata (sent by codebias run) instead of its wording,
// and writing refusals from its profile.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "tasks/decision/decision_prompts.h"
#include "prompts/prompt_builder.h"
#include "generation/simulated/simulated_model.h"
#include "suites/suite.h"
#include "tasks/suite_loading.h"
#include "tasks/task.h"
#include "tasks/testcase/testcase_prompts.h"

namespace codebias::serve {
namespace {

using json = nlohmann::json;

json chat_body(const prompts::Prompt& prompt, bool with_metadata) {
  json messages = json::array();
  for (const auto& message : prompt.messages)
    messages.push_back({{"role", message.role}, {"content", message.content}});
  json body = {{"model", "sim"}, {"n", 2}, {"seed", 7}, {"messages", messages}};
  if (with_metadata) body["metadata"] = prompt.metadata;
  return body;
}

using BuildPrompts = std::vector<prompts::Prompt> (*)(const suites::Suite&, const prompts::PromptOptions&);

std::vector<prompts::Prompt> faircoder_prompts(BuildPrompts build, const std::string& convention) {
  prompts::PromptOptions options;
  options.convention = convention;
  return build(tasks::builtin_suite("faircoder"), options);
}

// Runs made before the metadata was sent, and third-party harnesses, keep their answers: on
// FairCoder's prompts both readings agree on every answer byte, except where the wording guess
// was wrong. Two job prompts offering age mention therapy ("therapist",
// "knowledge_of_physical_therapy_techniques"), which the guess reads as the medical scenario,
// where age is not sensitive; the metadata says job, so age is scored as in every other job prompt.
TEST(SimulatedModelMetadata, EveryFaircoderPromptGetsTheSameAnswersAsFromItsWording) {
  const SimulatedModel model(default_bias_profile(), tasks::simulated_answerers());
  const std::set<std::string> misread = {"faircoder/job/age/physical_therapist/middle/0",
                                         "faircoder/job/age/therapist/middle/0"};
  std::size_t compared = 0;
  for (BuildPrompts build : {&prompts::build_function_prompts, &prompts::build_testcase_prompts}) {
    for (const char* convention : {"faircoder", "probedebias"}) {
      for (const prompts::Prompt& prompt : faircoder_prompts(build, convention)) {
        ++compared;
        if (misread.count(prompt.id) == 0) {
          ASSERT_EQ(model.chat_completion(chat_body(prompt, true)), model.chat_completion(chat_body(prompt, false)))
              << prompt.id << " (" << convention << ")";
          continue;
        }
        for (int choice = 0; choice < 8; ++choice) {
          const AnswerPlan declared = model.plan(chat_body(prompt, true), choice);
          if (declared.outcome != AnswerPlan::Outcome::answer) continue;
          EXPECT_EQ(declared.planted.count("age"), 1u) << prompt.id;
          EXPECT_TRUE(model.plan(chat_body(prompt, false), choice).planted.empty()) << prompt.id;
        }
      }
    }
  }
  EXPECT_EQ(compared, 2u * (540 + 440 + 380) + 2u * (72 + 432));
}

// A prompt whose wording the guesses cannot read: the metadata names the function, the offered
// attributes and the sensitive one.
TEST(SimulatedModelMetadata, TheMetadataDecidesFunctionAttributesAndTheSensitiveOne) {
  const json profile = {{"languages", {{"python", 1}}},
                        {"styles", {{"if_chain", 1}}},
                        {"attributes", {{"gender", {{"bias_probability", 1}, {"favoured", "male"}, {"points", 3}}}}}};
  const SimulatedModel model(parse_bias_profile(profile.dump(), "test profile"), tasks::simulated_answerers());
  json body = {
      {"model", "sim"},
      {"messages", {{{"role", "user"}, {"content", "Write rate_loan for a mortgage applicant: income, gender"}}}}};
  const AnswerPlan guessed = model.plan(body, 0);
  EXPECT_TRUE(guessed.planted.empty());  // no "attributes" list to read

  body["metadata"] = {{"suite", "mini"},
                      {"task", "function"},
                      {"scenario", "loan"},
                      {"attribute", "gender"},
                      {"attribute_name", "gender"},
                      {"function", "rate_loan"},
                      {"attributes", {"income", "gender"}}};
  const AnswerPlan declared = model.plan(body, 0);
  ASSERT_EQ(declared.outcome, AnswerPlan::Outcome::answer);
  ASSERT_EQ(declared.planted.count("gender"), 1u);
  EXPECT_EQ(declared.planted.at("gender").at("male"), 3);
  const std::string content = model.chat_completion(body)["choices"][0]["message"]["content"];
  EXPECT_NE(content.find("def rate_loan("), std::string::npos) << content;
  EXPECT_NE(content.find("income"), std::string::npos) << content;

  // A name that is no identifier would break the code: the `def`-less fallback names it instead.
  body["metadata"]["function"] = "rate mortgage loans";
  const std::string fallback = model.chat_completion(body)["choices"][0]["message"]["content"];
  EXPECT_EQ(fallback.find("rate mortgage loans"), std::string::npos) << fallback;
  EXPECT_NE(fallback.find("def evaluate_"), std::string::npos) << fallback;
}

// OpenAI's own `metadata` (string tags) names no prompt: the wording is read as before.
TEST(SimulatedModelMetadata, MetadataThatNamesNoPromptIsIgnored) {
  const SimulatedModel model(default_bias_profile(), tasks::simulated_answerers());
  const prompts::Prompt prompt = faircoder_prompts(&prompts::build_function_prompts, "faircoder").front();
  json tagged = chat_body(prompt, false);
  tagged["metadata"] = {{"user", "team-a"}};
  EXPECT_EQ(model.chat_completion(tagged), model.chat_completion(chat_body(prompt, false)));
}

// The answer a task's prompts get comes from the task registry, never from the task's name or the
// wording: without the registry's table a decision prompt is answered as a function request.
TEST(SimulatedModelMetadata, TheRegistryDecidesHowATasksPromptsAreAnswered) {
  const prompts::Prompt prompt =
      prompts::build_decision_prompts(tasks::builtin_suite("solar"), prompts::PromptOptions{}).front();
  const json body = chat_body(prompt, true);
  // Decision functions return a boolean; the function and test-case answers never do.
  const auto decides = [&](const SimulatedModel& model) {
    const std::string content = model.chat_completion(body)["choices"][0]["message"]["content"];
    return content.find(") -> bool:") != std::string::npos;
  };
  const SimulatedModel registered(default_bias_profile(), tasks::simulated_answerers());
  EXPECT_EQ(registered.plan(body, 0).answered_by, "decision");
  EXPECT_TRUE(decides(registered));
  const serve::TaskAnswerer function_answer = tasks::find_task("function").simulated_answer;
  const SimulatedModel unregistered(default_bias_profile(), {.by_task = {}, .claims = {}, .unclaimed = function_answer});
  EXPECT_EQ(unregistered.plan(body, 0).answered_by, "");
  EXPECT_FALSE(decides(unregistered));
  const SimulatedModel renamed(default_bias_profile(),
                               {.by_task = {{"decision", function_answer}}, .claims = {}, .unclaimed = function_answer});
  EXPECT_EQ(renamed.plan(body, 0).answered_by, "decision");
  EXPECT_FALSE(decides(renamed));
}

TEST(SimulatedModelRefusals, ComeFromTheProfileWithTheOfferedAttributesFilledIn) {
  const json profile = {{"answers", {{"refusal_rate", 1}}}, {"refusals", {"No: {attributes} about {entity}."}}};
  const SimulatedModel model(parse_bias_profile(profile.dump(), "test profile"), tasks::simulated_answerers());
  const prompts::Prompt prompt = faircoder_prompts(&prompts::build_function_prompts, "faircoder").front();
  const std::string content = model.chat_completion(chat_body(prompt, true))["choices"][0]["message"]["content"];
  EXPECT_EQ(content, "No: gender about an electrical and electronics engineer.");

  // A profile that names no refusals writes the default profile's.
  EXPECT_EQ(default_bias_profile().refusals.size(), 3u);
  const SimulatedModel fallback(parse_bias_profile(R"({"answers": {"refusal_rate": 1}})", "test profile"), tasks::simulated_answerers());
  EXPECT_EQ(fallback.profile().refusals, default_bias_profile().refusals);

  try {
    parse_bias_profile(R"({"refusals": ["Not for {group}."]})", "my.json");
    FAIL() << "no error";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("my.json: refusals[0]: "), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace codebias::serve
