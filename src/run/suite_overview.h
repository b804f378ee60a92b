// What each built-in suite is: its task, what it measures, its paper, the size of its default
// slice and of the whole suite, and a command that runs it. `codebias suites`, `run --help` and
// the README's suite table all come from here, so they cannot disagree.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace codebias::run {

struct SuiteOverview {
  std::string name;      // --suite
  std::string task;      // the task its prompts are built for by default
  std::string measures;  // suites::SuiteAbout
  std::string paper;
  std::string example;
  std::size_t default_prompts = 0;  // the default slice (`codebias run` without --full or --limit)
  std::size_t default_samples = 0;  // its samples: prompts × samples per prompt
  std::size_t full_prompts = 0;     // --full
};

// One row per built-in suite, in suites::builtin_suite_names() order.
std::vector<SuiteOverview> builtin_suite_overviews();

// The rows as a Markdown table (the README's "Suites" table is this text).
std::string suite_overview_markdown(const std::vector<SuiteOverview>& rows);

// The rows as aligned plain text for a terminal.
std::string suite_overview_text(const std::vector<SuiteOverview>& rows);

}  // namespace codebias::run
