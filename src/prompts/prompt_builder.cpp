#include "prompts/prompt_builder.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "base/strings.h"
#include "prompts/faircoder_layout.h"
#include "prompts/prompt_metadata.h"
#include "prompts/shuffle.h"
#include "suites/template_text.h"

namespace codebias::prompts {

namespace {

using nlohmann::json;
using suites::Scenario;
using suites::SensitiveAttribute;
using suites::Suite;

using base::join;

std::string ascii_lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) {
    return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  });
  return out;
}

// A valid identifier in every target language: lower case, each run of other characters one '_'.
// FairCoder only replaced spaces, which leaves names like "evaluate_driver/sales_worker".
std::string identifier(std::string_view name) {
  std::string out;
  bool pending_separator = false;
  for (unsigned char c : ascii_lower(name)) {
    bool word = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (!word) {
      pending_separator = !out.empty();
      continue;
    }
    if (pending_separator) out += '_';
    pending_separator = false;
    out += static_cast<char>(c);
  }
  return out.empty() ? "entity" : out;
}

// FairCoder's uniform_dict: lower case, spaces to underscores, other characters kept.
std::string lower_snake(std::string_view text) {
  std::string out = ascii_lower(text);
  std::replace(out.begin(), out.end(), ' ', '_');
  return out;
}

// The function task's prompts (FairCoder §2.2): one per scenario, sensitive attribute, entity and
// sample.
class FunctionBuilder {
 public:
  FunctionBuilder(const Suite& suite, const PromptOptions& options)
      : layout_(suite, options, "function"), suite_(suite), options_(options) {}

  std::vector<Prompt> prompts() {
    build_function();
    return std::move(prompts_);
  }

 private:
  bool full() const { return layout_.full(prompts_.size()); }

  // faircoder: the persona as system message (replaced by the style's own), the demos as
  // user/assistant turns, the style's instruction closing the request.
  // probedebias: one system message with the intro, the style's texts and the demos as a
  // "User:/Assistant:" transcript, then the request as the only user message.
  std::vector<ChatMessage> function_messages(const Scenario& scenario, const std::string& request) const {
    const auto& text = suite_.prompting;
    std::vector<ChatMessage> messages;
    if (options_.convention == "faircoder") {
      messages.push_back({"system", layout_.system_or_style(text.system)});
      for (const auto& demo : scenario.demos) {
        messages.push_back({"user", demo.user});
        messages.push_back({"assistant", demo.assistant});
      }
      messages.push_back({"user", layout_.with_instruction(request)});
      return messages;
    }
    std::string system = layout_.with_style_lines(text.demo_intro);
    for (const auto& demo : scenario.demos) system += "\nUser: " + demo.user + "\nAssistant: " + demo.assistant;
    messages.push_back({"system", std::move(system)});
    messages.push_back({"user", request});
    return messages;
  }

  // The scenarios to build, in suite order; also rejects attributes none of them offers.
  std::vector<const Scenario*> selected_scenarios() const {
    if (suite_.scenarios.empty()) {
      throw std::invalid_argument("suite '" + suite_.name + "' has no function task");
    }
    std::vector<std::string> known;
    for (const auto& scenario : suite_.scenarios) known.push_back(scenario.key);
    std::vector<const Scenario*> selected;
    if (options_.scenarios.empty()) {
      for (const auto& scenario : suite_.scenarios) selected.push_back(&scenario);
    } else {
      for (const auto& key : options_.scenarios) require_one_of("scenario", key, known);
      // Suite order, so the output does not depend on the order the flags were given in.
      for (const auto& scenario : suite_.scenarios) {
        if (std::find(options_.scenarios.begin(), options_.scenarios.end(), scenario.key) != options_.scenarios.end()) {
          selected.push_back(&scenario);
        }
      }
    }
    std::vector<std::string> offered;
    for (const auto* scenario : selected) {
      for (const auto& attribute : scenario->sensitive_attributes) {
        if (std::find(offered.begin(), offered.end(), attribute.key) == offered.end()) offered.push_back(attribute.key);
      }
    }
    for (const auto& key : options_.attributes) require_one_of("attribute", key, offered);
    return selected;
  }

  void build_function() {
    if (!options_.requests.empty()) {
      throw std::invalid_argument("requests apply to the testcase task only");
    }
    for (const Scenario* scenario : selected_scenarios()) {
      for (const auto& attribute : scenario->sensitive_attributes) {
        if (!layout_.wants_attribute(attribute.key)) continue;
        for (const auto& source : attribute.entities) {
          const suites::EntityList& list = *scenario->find_list(source.list);
          std::size_t count = source.count.value_or(list.entities.size());
          for (std::size_t i = 0; i < count; ++i) {
            for (int sample = 0; sample < options_.samples; ++sample) {
              if (full()) return;
              prompts_.push_back(function_prompt(*scenario, attribute, list, list.entities[i], sample));
            }
          }
        }
      }
    }
  }

  Prompt function_prompt(const Scenario& scenario, const SensitiveAttribute& attribute, const suites::EntityList& list,
                         const suites::Entity& entity, int sample) const {
    std::string entity_text = scenario.entity_case == suites::TextCase::lower ? ascii_lower(entity.name) : entity.name;
    std::string entity_id = identifier(entity.name);
    std::string function = suites::fill_template(scenario.function, {{"entity", entity_text}, {"entity_id", entity_id}});

    Prompt prompt;
    prompt.id = suite_.name + "/" + scenario.key + "/" + attribute.key + "/" + entity_id + "/" + list.name + "/" +
                std::to_string(sample);

    std::vector<Slot> slots;
    for (const auto& entry : scenario.attributes) {
      if (entry == suites::kSensitiveSlot) {
        slots.push_back({attribute.name, attribute.name, true});
      } else if (entry == suites::kEntitySlot) {
        for (const auto& own : entity.attributes) {
          std::string name = scenario.entity_attribute_style == suites::AttributeStyle::lower_snake ? lower_snake(own) : own;
          slots.push_back({name, name, false});
        }
      } else {
        slots.push_back({entry, entry, false});
      }
    }
    SplitMix64 rng(prompt_seed(options_.seed, prompt.id));
    slots = arrange(std::move(slots), options_.position, rng);
    std::vector<std::string> shown;
    for (const auto& slot : slots) shown.push_back(slot.text);
    std::string attributes = join(shown, ", ");

    std::string request = suites::fill_template(
        scenario.request,
        {{"entity", entity_text}, {"entity_id", entity_id}, {"function", function}, {"attributes", attributes}});
    prompt.messages = function_messages(scenario, request);

    PromptMetadata metadata = layout_.common_metadata(sample);
    metadata.scenario = scenario.key;
    metadata.attribute = attribute.key;
    metadata.attribute_name = attribute.name;
    metadata.function = function;
    for (const auto& slot : slots) metadata.offered.push_back({slot.name, slot.sensitive ? attribute.key : ""});
    metadata.extra["group"] = list.group.empty() ? json(nullptr) : json(list.group);
    metadata.extra["entity_list"] = list.name;
    metadata.extra["entity"] = entity_text;
    prompt.metadata = metadata.to_json();
    return prompt;
  }

  FaircoderLayout layout_;
  const Suite& suite_;
  const PromptOptions& options_;
  std::vector<Prompt> prompts_;
};

}  // namespace

std::vector<Prompt> build_function_prompts(const suites::Suite& suite, const PromptOptions& options) {
  return FunctionBuilder(suite, options).prompts();
}

std::string prompt_json_line(const Prompt& prompt) {
  // Ordered so each message reads role first; metadata keys stay sorted (nlohmann::json).
  using ordered = nlohmann::ordered_json;
  ordered messages = ordered::array();
  for (const auto& message : prompt.messages) {
    messages.push_back(ordered{{"role", message.role}, {"content", message.content}});
  }
  ordered line{{"id", prompt.id}, {"messages", std::move(messages)}, {"metadata", ordered(prompt.metadata)}};
  return line.dump();
}

}  // namespace codebias::prompts
