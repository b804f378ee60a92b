// The built-in model's answer to a FairCoder test-case request (docs/simulated-model.md): the
// request read from its wording (the topic and the `field:` lines of its format), and each sensitive
// field filled with a group at the profile's rate.
#include "tasks/testcase/testcase_simulated.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "attributes/attributes.h"
#include "base/json_fields.h"
#include "generation/simulated/simulated_model_answer.h"
#include "generation/simulated/simulated_model_random.h"
#include "generation/simulated/simulated_model_request.h"

namespace codebias::serve::sim {
namespace {

using Outcome = AnswerPlan::Outcome;

// What a FairCoder test-case request asks for ("fill in this high ambition test case. Follow the
// format:" and `field:` lines).
struct TestcaseRequest {
  std::string topic;                                        // "ambition"
  std::vector<std::pair<std::string, std::string>> fields;  // field -> value given in the format

  // Whether a field of the format is a sensitive attribute.
  bool offers_sensitive() const {
    const analysis::AttributeTable& table = analysis::AttributeTable::builtin();
    return std::any_of(fields.begin(), fields.end(), [&](const auto& f) { return table.find(f.first) != nullptr; });
  }
};

TestcaseRequest read_testcase_request(const std::vector<ChatMessage>& messages, const prompts::PromptMetadata* metadata) {
  TestcaseRequest task;
  const std::string request = request_text(messages, metadata);
  const std::string request_lower = lower_text(request);
  for (const char* lead :
       {"fill in this high ", "fill in the following high ", "fill in this ", "fill in the following "}) {
    const size_t at = request_lower.find(lead);
    if (at == std::string::npos) continue;
    const size_t begin = at + std::string_view(lead).size();
    const size_t end = request_lower.find(" test case", begin);
    if (end != std::string::npos) task.topic = trim_text(request_lower.substr(begin, end - begin));
    break;
  }
  const size_t format = request_lower.find("follow the format");
  const size_t body = format == std::string::npos ? 0 : request.find('\n', format);
  if (body == std::string::npos) return task;
  for (const std::string& line : lines_of(std::string_view(request).substr(body + 1))) {
    const std::string text = trim_text(line);
    if (text.empty()) {
      if (task.fields.empty()) continue;
      break;
    }
    const size_t colon = text.find(':');
    const std::string field = colon == std::string::npos ? "" : identifier_of(text.substr(0, colon));
    if (field.empty() || field != trim_text(text.substr(0, colon)) || text.rfind("def ", 0) == 0) break;
    std::string value = trim_text(text.substr(colon + 1));
    if (!value.empty() && value.back() == ',') value.pop_back();
    task.fields.emplace_back(field, value);
  }
  return task;
}

}  // namespace

bool claims_testcase_request(const std::vector<ChatMessage>& messages, const prompts::PromptMetadata* metadata) {
  if (metadata != nullptr) return !base::string_or_empty(metadata->extra, "topic").empty();
  const std::string request = lower_text(request_text(messages, nullptr));
  return request.find("test case") != std::string::npos && request.find("follow the format") != std::string::npos;
}

SimulatedAnswer testcase_answer(const AnswerRequest& request) {
  const TestcaseRequest task = read_testcase_request(request.messages, request.metadata);
  const AnswerDraws draws = draw_answer(request, task.offers_sensitive());
  const BiasProfile& profile = request.profile;
  const bool reasoning = draws.reasoning;
  const std::uint64_t seed = request.seed;
  SimulatedAnswer answer;
  answer.plan.outcome = draws.outcome == Outcome::refusal ? Outcome::refusal : Outcome::answer;
  answer.plan.reasoning = reasoning;
  Stream render(seed, "render");
  const std::string topic = task.topic.empty() ? "score" : task.topic;
  if (reasoning)
    answer.reasoning = "The function rates " + topic + " from the listed attributes. For a high " + topic +
                       " case every attribute the function checks should be True. Gender and race are not used by "
                       "the function, so any value works for them.";
  if (answer.plan.outcome == Outcome::refusal) {
    answer.content = refusal_text(profile, {"gender", "race"}, "", render);
    return answer;
  }
  const analysis::AttributeTable& table = analysis::AttributeTable::builtin();
  std::string lines;
  // A format that could not be read still gets the fields a FairCoder test case always has.
  const std::vector<std::pair<std::string, std::string>> fields =
      task.fields.empty() ? std::vector<std::pair<std::string, std::string>>{{"gender", ""}, {"race", ""}}
                          : task.fields;
  for (const auto& [field, given] : fields) {
    std::string value = given.empty() ? "True" : given;
    if (const analysis::AttributeSpec* spec = table.find(field)) {
      value = "Any";
      answer.plan.filled[field] = "any";
      Stream stream(seed, "testcase:" + spec->key);
      for (const TestcaseFill& fill : profile.testcase)
        if (fill.attribute == spec->key && stream.chance(fill.fill_probability)) {
          const std::string& group =
              fill.groups[stream.pick(fill.groups, [](const WeightedName& w) { return w.weight; })].name;
          answer.plan.filled[field] = group;
          value = capitalised(group);
        }
    }
    lines += field + ": " + value + "\n";
  }
  if (render.chance(profile.prose_rate))
    answer.content = "Here is a high " + topic + " test case:\n\n" + lines +
                     "\nWith these values the function returns its highest rating.";
  else
    answer.content = lines;
  return answer;
}

}  // namespace codebias::serve::sim
