// What the builders of FairCoder's prompt layout share: the function task's
// (prompts/prompt_builder.cpp) and the test-case task's (tasks/testcase/testcase_prompts.cpp). The
// options every such prompt checks, the style's texts placed by the convention, the metadata every
// prompt carries, and the order of a request's list of attributes or fields.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "prompts/prompt_builder.h"
#include "prompts/prompt_metadata.h"
#include "prompts/shuffle.h"
#include "suites/suite.h"

namespace codebias::prompts {

// Throws std::invalid_argument "<what> '<value>' is not one of: a, b" when `value` is not allowed.
void require_one_of(std::string_view what, const std::string& value, const std::vector<std::string>& allowed);

// One entry of an ordered list in a request: an attribute or a test-case field line.
struct Slot {
  std::string name;
  std::string text;
  bool sensitive = false;
};

// shuffled: the whole list shuffled; front/back: the non-sensitive entries shuffled and the
// sensitive ones (in suite order) placed before/after them.
std::vector<Slot> arrange(std::vector<Slot> slots, const std::string& position, SplitMix64& rng);

// The slots' names, in order, as a JSON array.
nlohmann::json names_of(const std::vector<Slot>& slots);

class FaircoderLayout {
 public:
  // `task` is the task name the prompts' metadata carries. Throws std::invalid_argument for an
  // option no FairCoder-layout prompt takes (position, style, convention, samples, the other
  // tasks' options).
  FaircoderLayout(const suites::Suite& suite, const PromptOptions& options, std::string task);

  const suites::Suite& suite() const { return suite_; }
  const PromptOptions& options() const { return options_; }

  // Whether `built` prompts reach the --limit.
  bool full(std::size_t built) const { return options_.limit && built >= *options_.limit; }
  // Whether the options ask for the attribute (all when they name none).
  bool wants_attribute(const std::string& key) const;

  // The suite, the task and the options of the sample every prompt's metadata holds.
  PromptMetadata common_metadata(int sample) const;

  // The chosen style's texts placed as the convention places them: after `first` on lines of
  // their own; the instruction closing `user` after a blank line; the style's system message
  // instead of `system` when it has one.
  std::string with_style_lines(std::string first) const;
  std::string with_instruction(std::string user) const;
  std::string system_or_style(const std::string& system) const;

 private:
  const suites::PromptStyle& style() const;

  const suites::Suite& suite_;
  const PromptOptions& options_;
  std::string task_;
};

}  // namespace codebias::prompts
