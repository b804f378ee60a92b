#include "prompts/faircoder_layout.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "base/strings.h"

namespace codebias::prompts {

using nlohmann::json;

void require_one_of(std::string_view what, const std::string& value, const std::vector<std::string>& allowed) {
  if (std::find(allowed.begin(), allowed.end(), value) == allowed.end()) {
    throw std::invalid_argument(std::string(what) + " '" + value + "' is not one of: " + base::join(allowed, ", "));
  }
}

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

FaircoderLayout::FaircoderLayout(const suites::Suite& suite, const PromptOptions& options, std::string task)
    : suite_(suite), options_(options), task_(std::move(task)) {
  require_one_of("position", options_.position, {"shuffled", "front", "back"});
  style();  // throws on a style the suite does not declare
  require_one_of("convention", options_.convention, {"faircoder", "probedebias"});
  if (options_.samples < 1) throw std::invalid_argument("samples must be at least 1");
  if (options_.has_pipeline_options()) {
    throw std::invalid_argument("paths, levels, attribute sets, mitigations and variants apply to the ml-pipeline task only");
  }
  if (options_.has_name_options()) throw std::invalid_argument("names apply to the resume task only");
}

bool FaircoderLayout::wants_attribute(const std::string& key) const {
  return options_.attributes.empty() ||
         std::find(options_.attributes.begin(), options_.attributes.end(), key) != options_.attributes.end();
}

PromptMetadata FaircoderLayout::common_metadata(int sample) const {
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

const suites::PromptStyle& FaircoderLayout::style() const {
  if (const suites::PromptStyle* found = suite_.find_style(options_.style)) return *found;
  std::vector<std::string> known;
  for (const auto& declared : suite_.styles) known.push_back(declared.name);
  throw std::invalid_argument("style '" + options_.style + "' is not one of: " + base::join(known, ", "));
}

std::string FaircoderLayout::with_style_lines(std::string first) const {
  for (const std::string* line : {&style().system, &style().instruction}) {
    if (!line->empty()) first += "\n" + *line;
  }
  return first;
}

std::string FaircoderLayout::with_instruction(std::string user) const {
  if (!style().instruction.empty()) user += "\n\n" + style().instruction;
  return user;
}

std::string FaircoderLayout::system_or_style(const std::string& system) const {
  return style().system.empty() ? system : style().system;
}

}  // namespace codebias::prompts
