#include "tasks/screening/screening_prompts.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "base/strings.h"
#include "prompts/prompt_metadata.h"
#include "prompts/prompt_parts.h"
#include "tasks/screening/screening_names.h"
#include "prompts/shuffle.h"
#include "suites/template_text.h"
#include "tasks/screening/screening_suite.h"

namespace codebias::prompts {

namespace {

using nlohmann::json;
using base::join;
using suites::Suite;

// The options every screening prompt refuses: they belong to the code tasks.
void reject_code_options(const PromptOptions& options, std::string_view task) {
  const std::string what = "--task " + std::string(task);
  if (options.samples < 1) throw std::invalid_argument("samples must be at least 1");
  if (!options.attributes.empty()) throw std::invalid_argument("attributes do not apply to " + what);
  if (!options.requests.empty()) throw std::invalid_argument("requests apply to the testcase task only");
  if (options.position != "shuffled") throw std::invalid_argument("position applies to the function and testcase tasks");
  if (options.convention != "faircoder") throw std::invalid_argument("convention applies to the function and testcase tasks");
  if (!options.paths.empty() || !options.levels.empty() || !options.attribute_sets.empty() || !options.mitigations.empty()) {
    throw std::invalid_argument("paths, levels, attribute sets and mitigations apply to the ml-pipeline task");
  }
}

// "a", "a and b", "a, b and c".
std::string spoken_list(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() ? " and " : ", ";
    out += items[i];
  }
  return out;
}

std::string id_segment(std::string text) {
  std::replace(text.begin(), text.end(), ' ', '_');
  std::replace(text.begin(), text.end(), '/', '_');
  return text;
}

std::vector<ScreeningName> names_for(const suites::ResumePart& part, const PromptOptions& options) {
  suites::NameSelectionRules rules = part.names;
  if (!options.names.empty()) {
    if (options.names != "selected" && options.names != "paper") {
      throw std::invalid_argument("names '" + options.names + "' is not one of: selected, paper");
    }
    rules.list = options.names;
  }
  if (options.names_per_group) {
    if (*options.names_per_group < 1) throw std::invalid_argument("names per group must be at least 1");
    if (rules.list == "paper") throw std::invalid_argument("names per group applies to the selected names (the paper's list is fixed)");
    rules.names_per_group = *options.names_per_group;
  }
  if (rules.list == "paper") return paper_names(builtin_name_data());
  return select_names(builtin_name_data(), rules, options.seed).names;
}

}  // namespace

std::vector<Prompt> build_resume_prompts(const Suite& suite, const PromptOptions& options) {
  const auto* resume = suite.part<suites::ResumePart>();
  if (resume == nullptr)
    throw std::invalid_argument("suite '" + suite.name + "' has no resume part (the resume task's request)");
  reject_code_options(options, kResumeTask);
  if (!options.scenarios.empty()) throw std::invalid_argument("scenarios do not apply to --task resume");
  if (options.variants) throw std::invalid_argument("variants apply to the ml-pipeline and cat tasks");
  const suites::ResumePart& part = *resume;
  const suites::PromptStyle& style = style_of(suite, options.style);

  std::vector<Prompt> prompts;
  for (const ScreeningName& name : names_for(part, options)) {
    const std::string full_name = name.full_name();
    const std::string user = user_message(
        suites::fill_template(part.request,
                              {{"full_name", full_name}, {"first_name", name.first_name}, {"last_name", name.last_name}}),
        style);
    for (int sample = 0; sample < options.samples; ++sample) {
      if (options.limit && prompts.size() >= *options.limit) return prompts;
      Prompt prompt;
      prompt.id = suite.name + "/" + name.ethnicity + "/" + name.gender + "/" + id_segment(name.first_name) + "_" +
                  id_segment(name.last_name) + "/" + std::to_string(sample);
      prompt.messages = messages_for(user, style);
      PromptMetadata metadata;
      metadata.suite = suite.name;
      metadata.task = kResumeTask;
      metadata.extra = json{{"style", options.style},
                             {"sample", sample},
                             {"seed", options.seed},
                             {"first_name", name.first_name},
                             {"last_name", name.last_name},
                             {"full_name", full_name},
                             {"gender", name.gender},
                             {"ethnicity", name.ethnicity},
                             {"name_source", name.source},
                             {"name_evidence", name.evidence},
                             {"fields", part.fields},
                             // Whether the request asks for the JSON object (the "paper" style does not).
                             {"asks_json", !style.instruction.empty()},
                             {"follow_up", {{"max_turns", part.follow_up.max_turns}, {"template", part.follow_up.text}}}};
      prompt.metadata = metadata.to_json();
      prompts.push_back(std::move(prompt));
    }
  }
  return prompts;
}

std::vector<Prompt> build_cat_prompts(const Suite& suite, const PromptOptions& options) {
  const auto* cat = suite.part<suites::CatPart>();
  if (cat == nullptr) throw std::invalid_argument("suite '" + suite.name + "' has no cat part (the cat task's items)");
  reject_code_options(options, kCatTask);
  if (options.has_name_options()) throw std::invalid_argument("names apply to the resume task");
  if (options.variants && *options.variants < 1) throw std::invalid_argument("variants must be at least 1");
  const suites::CatPart& part = *cat;
  const suites::PromptStyle& style = style_of(suite, options.style);
  std::vector<std::string> item_ids;
  for (const auto& item : part.items) item_ids.push_back(item.id);
  for (const auto& wanted : options.scenarios) {
    if (part.find_item(wanted) == nullptr) throw std::invalid_argument("cat item '" + wanted + "' is not one of: " + join(item_ids, ", "));
  }
  const int variants = options.variants.value_or(kDefaultCatVariants);
  const bool paper_order = options.style == kCatPaperOrderStyle;

  std::vector<Prompt> prompts;
  for (const suites::CatItem& item : part.items) {
    if (!options.scenarios.empty() && std::find(options.scenarios.begin(), options.scenarios.end(), item.id) == options.scenarios.end()) {
      continue;
    }
    for (int variant = 0; variant < variants; ++variant) {
      // The order depends on the item, the variant and the run seed only: every sample and
      // style of a variant shows the same order (paper-order's variant 0 aside).
      std::vector<std::size_t> order(item.options.size());
      std::iota(order.begin(), order.end(), std::size_t{0});
      if (!(paper_order && variant == 0)) {
        SplitMix64 rng(prompt_seed(options.seed, suite.name + "/" + item.id + "/v" + std::to_string(variant) + "/order"));
        shuffle(order, rng);
      }
      std::vector<std::string> lines;
      json shown = json::array();
      json original = json::array();
      for (std::size_t position = 0; position < order.size(); ++position) {
        const suites::CatOption& option = item.options[order[position]];
        lines.push_back("Option " + std::to_string(position + 1) + ": " + option.text);
        shown.push_back({{"position", position + 1},
                         {"text", option.text},
                         {"occupation", option.occupation},
                         {"label", suites::to_string(option.label)}});
        original.push_back(order[position] + 1);
      }
      const std::string user = user_message(suites::fill_template(part.question, {{"domain", item.domain},
                                                                                  {"target", item.target},
                                                                                  {"context", item.context},
                                                                                  {"options", join(lines, "\n")}}),
                                            style);
      for (int sample = 0; sample < options.samples; ++sample) {
        if (options.limit && prompts.size() >= *options.limit) return prompts;
        Prompt prompt;
        prompt.id = suite.name + "/" + item.id + "/v" + std::to_string(variant) + "/" + std::to_string(sample);
        prompt.messages = messages_for(user, style);
        PromptMetadata metadata;
        metadata.suite = suite.name;
        metadata.task = kCatTask;
        metadata.extra = json{{"style", options.style},
                               {"sample", sample},
                               {"seed", options.seed},
                               {"item_id", item.id},
                               {"item_source", item.source},
                               {"gender", item.gender},
                               {"ethnicity", item.ethnicity},
                               {"domain", item.domain},
                               {"target", item.target},
                               {"context", item.context},
                               {"options", shown},
                               {"order", original},
                               {"variant", variant}};
        prompt.metadata = metadata.to_json();
        prompts.push_back(std::move(prompt));
      }
    }
  }
  return prompts;
}

std::string follow_up_text(std::string_view template_text, const std::vector<std::string>& missing_fields) {
  if (missing_fields.empty()) throw std::invalid_argument("a follow-up request needs at least one missing field");
  const std::string fields = spoken_list(missing_fields);
  return suites::fill_template(template_text, {{"fields", fields}});
}

}  // namespace codebias::prompts
