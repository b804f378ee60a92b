// Slices of a suite's prompts for `codebias run`: the default slice's first K entities per group
// list, and `--limit N` spread evenly over the suite rather than cut from its front (the first 40
// test-case prompts are 2 of its 18 topics; the first 30 Huang prompts only its insurance ones).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "prompts/prompt_builder.h"

namespace codebias::run {

// Keeps the first K entities of each (scenario, attribute, group) list, in prompt order; prompts
// that name no entity (test-case prompts) are all kept.
std::vector<prompts::Prompt> first_entities_per_group(std::vector<prompts::Prompt> all, int k);

struct LimitedPrompts {
  std::vector<prompts::Prompt> kept;
  // What the slice covers, for the run's log: "--limit 40 keeps 40 of 360 prompts, spread evenly
  // over the suite: topic 18 of 18, category 4 of 4"; empty when the limit keeps every prompt.
  std::string note;
};

// At most `limit` prompts, in suite order: a systematic sample (the middle prompt of each of
// `limit` equal stretches), so every stratum the builders lay out contiguously (scenario,
// attribute, topic, dataset, category) keeps its share, deterministically.
LimitedPrompts spread_limit(std::vector<prompts::Prompt> all, std::size_t limit);

}  // namespace codebias::run
