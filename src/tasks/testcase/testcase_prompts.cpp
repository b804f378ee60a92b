// FairCoder's unit-test-generation prompts (§2.2): per topic and code variant, a group request and
// one counterfactual request per sensitive attribute and group.
#include "tasks/testcase/testcase_prompts.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "prompts/faircoder_layout.h"
#include "tasks/testcase/testcase_suite.h"

namespace codebias::prompts {
namespace {

using nlohmann::json;

class TestcaseBuilder {
 public:
  TestcaseBuilder(const suites::Suite& suite, const PromptOptions& options)
      : layout_(suite, options, "testcase"), suite_(suite), options_(options) {}

  std::vector<Prompt> prompts() {
    build_testcase();
    return std::move(prompts_);
  }

 private:
  bool full() const { return layout_.full(prompts_.size()); }

  std::vector<ChatMessage> testcase_messages(const std::string& user) const {
    const auto& text = suite_.prompting;
    if (options_.convention == "faircoder") {
      return {{"system", layout_.system_or_style(text.testcase_system)}, {"user", layout_.with_instruction(user)}};
    }
    return {{"system", layout_.with_style_lines(text.testcase_system)}, {"user", user}};
  }

  void build_testcase() {
    if (suite_.part<suites::TestcaseTask>() == nullptr)
      throw std::invalid_argument("suite '" + suite_.name + "' has no testcase task");
    if (!options_.scenarios.empty()) throw std::invalid_argument("scenarios apply to the function task only");
    const auto& task = *suite_.part<suites::TestcaseTask>();
    std::vector<std::string> keys;
    for (const auto& attribute : task.sensitive_attributes) keys.push_back(attribute.key);
    for (const auto& key : options_.attributes) require_one_of("attribute", key, keys);

    bool group = options_.requests.empty();
    bool counterfactual = options_.requests.empty();
    for (const auto& request : options_.requests) {
      require_one_of("request", request, {"group", "counterfactual", "both"});
      group = group || request != "counterfactual";
      counterfactual = counterfactual || request != "group";
    }

    for (const auto& topic : task.topics) {
      for (std::size_t variant = 0; variant < task.variants.size(); ++variant) {
        if (group) {
          for (int sample = 0; sample < options_.samples; ++sample) {
            if (full()) return;
            prompts_.push_back(testcase_prompt(topic, variant, nullptr, {}, sample));
          }
        }
        if (!counterfactual) continue;
        for (const auto& attribute : task.sensitive_attributes) {
          if (!layout_.wants_attribute(attribute.key)) continue;
          if (std::find(topic.sensitive_fields.begin(), topic.sensitive_fields.end(), attribute.name) ==
              topic.sensitive_fields.end()) {
            continue;
          }
          for (const auto& given : attribute.groups) {
            for (int sample = 0; sample < options_.samples; ++sample) {
              if (full()) return;
              prompts_.push_back(testcase_prompt(topic, variant, &attribute, given, sample));
            }
          }
        }
      }
    }
  }

  // Group request: the question as the suite gives it (one non-sensitive value given, the rest
  // and every sensitive field blank). Counterfactual request (`given_attribute` set): only the
  // sensitive value is given; every non-sensitive field is blank and the other sensitive fields
  // are left out.
  Prompt testcase_prompt(const suites::Topic& topic, std::size_t variant, const suites::SensitiveAttribute* given_attribute,
                         const std::string& given_group, int sample) const {
    const auto& task = *suite_.part<suites::TestcaseTask>();
    const std::string& variant_key = task.variants[variant];
    Prompt prompt;
    std::string request_part = given_attribute == nullptr ? "group" : given_attribute->key + "=" + given_group;
    prompt.id = suite_.name + "/testcase/" + topic.id + "/" + variant_key + "/" + request_part + "/" + std::to_string(sample);

    std::vector<Slot> slots;
    json fields = json::array();
    for (const auto& field : topic.fields) {
      std::string value = given_attribute == nullptr ? field.value : std::string();
      slots.push_back({field.name, field.name + ":" + (value.empty() ? "" : " " + value), false});
      fields.push_back(field.name);
    }
    json sensitive_fields = json::array();
    for (const auto& attribute : task.sensitive_attributes) {
      bool in_topic = std::find(topic.sensitive_fields.begin(), topic.sensitive_fields.end(), attribute.name) !=
                      topic.sensitive_fields.end();
      if (!in_topic || (given_attribute != nullptr && given_attribute != &attribute)) continue;
      std::string value = given_attribute == nullptr ? std::string() : given_group;
      slots.push_back({attribute.name, attribute.name + ":" + (value.empty() ? "" : " " + value), true});
      sensitive_fields.push_back(attribute.key);
    }
    SplitMix64 rng(prompt_seed(options_.seed, prompt.id));
    slots = arrange(std::move(slots), options_.position, rng);

    std::string user = topic.instruction + "\n";
    for (const auto& slot : slots) user += "\n" + slot.text;
    user += "\n" + topic.code[variant];
    prompt.messages = testcase_messages(user);

    PromptMetadata metadata = layout_.common_metadata(sample);
    if (given_attribute != nullptr) {
      metadata.attribute = given_attribute->key;
      metadata.extra["given_group"] = given_group;
    }
    metadata.extra["topic"] = topic.id;
    metadata.extra["category"] = topic.category;
    metadata.extra["variant"] = variant_key;
    metadata.extra["request"] = given_attribute == nullptr ? "group" : "counterfactual";
    metadata.extra["fields"] = std::move(fields);
    metadata.extra["sensitive_fields"] = std::move(sensitive_fields);
    metadata.extra["prompt_fields"] = names_of(slots);
    prompt.metadata = metadata.to_json();
    return prompt;
  }

  FaircoderLayout layout_;
  const suites::Suite& suite_;
  const PromptOptions& options_;
  std::vector<Prompt> prompts_;
};

}  // namespace

std::vector<Prompt> build_testcase_prompts(const suites::Suite& suite, const PromptOptions& options) {
  return TestcaseBuilder(suite, options).prompts();
}

}  // namespace codebias::prompts
