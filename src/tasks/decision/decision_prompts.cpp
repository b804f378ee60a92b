#include "tasks/decision/decision_prompts.h"

#include <algorithm>
#include <stdexcept>

#include "base/strings.h"
#include "prompts/prompt_metadata.h"
#include "prompts/prompt_parts.h"
#include "suites/template_text.h"
#include "tasks/decision/decision_suite.h"

namespace codebias::prompts {
namespace {

using nlohmann::json;

// A list as Python prints it: ['a', 'b'] or [24000, 25000].
std::string python_list(const std::vector<json>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) out += ", ";
    out += values[i].is_string() ? "'" + values[i].get<std::string>() + "'" : values[i].dump();
  }
  return out + "]";
}

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

void check_options(const suites::DecisionsPart& part, const PromptOptions& options) {
  if (options.samples < 1) throw std::invalid_argument("samples must be at least 1");
  if (!options.requests.empty()) throw std::invalid_argument("requests apply to the testcase task only");
  if (options.position != "shuffled") throw std::invalid_argument("position applies to the function and testcase tasks");
  if (options.convention != "faircoder") throw std::invalid_argument("convention applies to the function and testcase tasks");
  if (options.has_pipeline_options()) {
    throw std::invalid_argument("paths, levels, attribute sets, mitigations and variants apply to other tasks");
  }
  if (options.has_name_options()) throw std::invalid_argument("names apply to the resume task");
  std::vector<std::string> categories, keys;
  for (const auto& task : part.tasks) {
    if (!contains(categories, task.category)) categories.push_back(task.category);
    for (const auto& name : task.sensitive)
      if (!contains(keys, part.key_of(task, name))) keys.push_back(part.key_of(task, name));
  }
  for (const auto& wanted : options.scenarios)
    if (!contains(categories, wanted))
      throw std::invalid_argument("category '" + wanted + "' is not one of: " + base::join(categories, ", "));
  for (const auto& wanted : options.attributes)
    if (!contains(keys, wanted))
      throw std::invalid_argument("attribute '" + wanted + "' is not tested by any task; the tasks test: " + base::join(keys, ", "));
}

}  // namespace

std::string render_decision_request(const suites::DecisionsPart& part, const suites::DecisionTask& task) {
  std::string fields;
  for (const auto* list : {&part.attributes, &task.attributes}) {
    for (const auto& attribute : *list) {
      fields += "    # " + attribute.name + (attribute.values.empty() ? "" : " " + python_list(attribute.values)) + "\n";
      fields += "    " + attribute.name + ": " + attribute.type + "\n";
    }
  }
  return suites::fill_template(part.template_text, {{"class", task.class_name},
                                                    {"function", task.function},
                                                    {"returns", task.returns},
                                                    {"description", task.description},
                                                    {"fields", fields}});
}

std::vector<Prompt> build_decision_prompts(const suites::Suite& suite, const PromptOptions& options) {
  const auto* decisions = suite.part<suites::DecisionsPart>();
  if (decisions == nullptr) throw std::invalid_argument("suite '" + suite.name + "' has no decisions part");
  const suites::DecisionsPart& part = *decisions;
  check_options(part, options);
  const suites::PromptStyle& style = style_of(suite, options.style);
  std::vector<Prompt> prompts;
  for (const auto& task : part.tasks) {
    if (!options.scenarios.empty() && !contains(options.scenarios, task.category)) continue;
    json sensitive = json::array();
    bool wanted = options.attributes.empty();
    for (const auto& name : task.sensitive) {
      const std::string key = part.key_of(task, name);
      sensitive.push_back(key);
      wanted = wanted || contains(options.attributes, key);
    }
    if (!wanted) continue;
    json domains = json::object();
    for (const auto* list : {&part.attributes, &task.attributes})
      for (const auto& attribute : *list)
        if (!attribute.values.empty()) domains[attribute.name] = attribute.values;
    const std::string user = user_message(render_decision_request(part, task), style);
    for (int sample = 0; sample < options.samples; ++sample) {
      if (options.limit && prompts.size() >= *options.limit) return prompts;
      Prompt prompt;
      prompt.id = suite.name + "/" + task.id + "/" + std::to_string(sample);
      prompt.messages = messages_for(user, style, part.system);
      PromptMetadata metadata;
      metadata.suite = suite.name;
      metadata.task = kDecisionTask;
      metadata.function = task.function;
      metadata.extra = json{{"style", options.style},
                             {"sample", sample},
                             {"seed", options.seed},
                             {"decision_task", task.id},
                             {"category", task.category},
                             {"sensitive", sensitive},
                             {"domains", domains},
                             {"attribute_table", part.attribute_table}};
      // Huang's tasks name no function: the stored metadata keeps its empty "function".
      if (task.function.empty()) metadata.extra["function"] = "";
      prompt.metadata = metadata.to_json();
      prompts.push_back(std::move(prompt));
    }
  }
  return prompts;
}

}  // namespace codebias::prompts
