#include "prompts/prompt_builder.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "base/strings.h"
#include "prompts/prompt_metadata.h"
#include "prompts/shuffle.h"
#include "suites/template_text.h"

namespace codebias::prompts {

namespace {

using nlohmann::json;
using suites::Scenario;
using suites::SensitiveAttribute;
using suites::Suite;
using suites::Topic;

using base::join;

void require_one_of(std::string_view what, const std::string& value, const std::vector<std::string>& allowed) {
  if (std::find(allowed.begin(), allowed.end(), value) == allowed.end()) {
    throw std::invalid_argument(std::string(what) + " '" + value + "' is not one of: " + join(allowed, ", "));
  }
}

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

// One entry of an ordered list in a request: an attribute or a test-case field line.
struct Slot {
  std::string name;
  std::string text;
  bool sensitive = false;
};

// shuffled: the whole list shuffled; front/back: the non-sensitive entries shuffled and the
// sensitive ones (in suite order) placed before/after them.
std::vector<Slot> arrange(std::vector<Slot> slots, const std::string& position, SplitMix64& rng) {
  if (position == "shuffled") {
    shuffle(slots, rng);
    return slots;
  }
  std::vector<Slot> sensitive;
  std::vector<Slot> others;
  for (auto& slot : slots) (slot.sensitive ? sensitive : others).push_back(std::move(slot));
  shuffle(others, rng);
  std::vector<Slot> ordered;
  auto& first = position == "front" ? sensitive : others;
  auto& second = position == "front" ? others : sensitive;
  ordered.insert(ordered.end(), first.begin(), first.end());
  ordered.insert(ordered.end(), second.begin(), second.end());
  return ordered;
}

json names_of(const std::vector<Slot>& slots) {
  json names = json::array();
  for (const auto& slot : slots) names.push_back(slot.name);
  return names;
}

class Builder {
 public:
  // `task` is the task name the prompts' metadata carries.
  Builder(const Suite& suite, const PromptOptions& options, std::string task)
      : suite_(suite), options_(options), task_(std::move(task)) {}

  std::vector<Prompt> function_prompts() {
    check_common_options();
    build_function();
    return std::move(prompts_);
  }

  std::vector<Prompt> testcase_prompts() {
    check_common_options();
    build_testcase();
    return std::move(prompts_);
  }

 private:
  bool full() const { return options_.limit && prompts_.size() >= *options_.limit; }

  bool wants_attribute(const std::string& key) const {
    return options_.attributes.empty() ||
           std::find(options_.attributes.begin(), options_.attributes.end(), key) != options_.attributes.end();
  }

  void check_common_options() const {
    require_one_of("position", options_.position, {"shuffled", "front", "back"});
    style();  // throws on a style the suite does not declare
    require_one_of("convention", options_.convention, {"faircoder", "probedebias"});
    if (options_.samples < 1) throw std::invalid_argument("samples must be at least 1");
    if (options_.has_pipeline_options()) {
      throw std::invalid_argument("paths, levels, attribute sets, mitigations and variants apply to the ml-pipeline task only");
    }
    if (options_.has_name_options()) throw std::invalid_argument("names apply to the resume task only");
  }

  PromptMetadata common_metadata(int sample) const {
    PromptMetadata metadata;
    metadata.suite = suite_.name;
    metadata.task = task_;
    metadata.extra = json{{"sample", sample},
                          {"seed", options_.seed},
                          {"style", options_.style},
                          {"convention", options_.convention},
                          {"position", options_.position}};
    return metadata;
  }

  const suites::PromptStyle& style() const {
    if (const suites::PromptStyle* found = suite_.find_style(options_.style)) return *found;
    std::vector<std::string> known;
    for (const auto& declared : suite_.styles) known.push_back(declared.name);
    throw std::invalid_argument("style '" + options_.style + "' is not one of: " + join(known, ", "));
  }

  // The style's texts on lines of their own after `first`, for conventions that put them in the
  // system message.
  std::string with_style_lines(std::string first) const {
    for (const std::string* line : {&style().system, &style().instruction}) {
      if (!line->empty()) first += "\n" + *line;
    }
    return first;
  }

  std::string with_instruction(std::string user) const {
    if (!style().instruction.empty()) user += "\n\n" + style().instruction;
    return user;
  }

  std::string system_or_style(const std::string& system) const {
    return style().system.empty() ? system : style().system;
  }

  // faircoder: the persona as system message (replaced by the style's own), the demos as
  // user/assistant turns, the style's instruction closing the request.
  // probedebias: one system message with the intro, the style's texts and the demos as a
  // "User:/Assistant:" transcript, then the request as the only user message.
  std::vector<ChatMessage> function_messages(const Scenario& scenario, const std::string& request) const {
    const auto& text = suite_.prompting;
    std::vector<ChatMessage> messages;
    if (options_.convention == "faircoder") {
      messages.push_back({"system", system_or_style(text.system)});
      for (const auto& demo : scenario.demos) {
        messages.push_back({"user", demo.user});
        messages.push_back({"assistant", demo.assistant});
      }
      messages.push_back({"user", with_instruction(request)});
      return messages;
    }
    std::string system = with_style_lines(text.demo_intro);
    for (const auto& demo : scenario.demos) system += "\nUser: " + demo.user + "\nAssistant: " + demo.assistant;
    messages.push_back({"system", std::move(system)});
    messages.push_back({"user", request});
    return messages;
  }

  std::vector<ChatMessage> testcase_messages(const std::string& user) const {
    const auto& text = suite_.prompting;
    if (options_.convention == "faircoder") {
      return {{"system", system_or_style(text.testcase_system)}, {"user", with_instruction(user)}};
    }
    return {{"system", with_style_lines(text.testcase_system)}, {"user", user}};
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
        if (!wants_attribute(attribute.key)) continue;
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

    PromptMetadata metadata = common_metadata(sample);
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
          if (!wants_attribute(attribute.key)) continue;
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
  Prompt testcase_prompt(const Topic& topic, std::size_t variant, const SensitiveAttribute* given_attribute,
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

    PromptMetadata metadata = common_metadata(sample);
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

  const Suite& suite_;
  const PromptOptions& options_;
  std::string task_;
  std::vector<Prompt> prompts_;
};

}  // namespace

std::vector<Prompt> build_function_prompts(const suites::Suite& suite, const PromptOptions& options) {
  return Builder(suite, options, "function").function_prompts();
}

std::vector<Prompt> build_testcase_prompts(const suites::Suite& suite, const PromptOptions& options) {
  return Builder(suite, options, "testcase").testcase_prompts();
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
