// The sensitive attributes of a prompt, read from its metadata (prompts/prompt_metadata.h) with the
// attribute table: the one way every stage reads a prompt's offered attributes back.
#pragma once

#include <string>
#include <vector>

#include "attributes/attributes.h"
#include "prompts/prompt_metadata.h"

namespace codebias::analysis {

// The sensitive attributes a prompt offered, as canonical keys: the one it was built for first,
// then each offered attribute the table knows (by its declared key, else by its label's name:
// "income level (high, medium, low)" is "income level"); each once, unknown ones skipped.
std::vector<std::string> offered_attribute_keys(const prompts::PromptMetadata& metadata, const AttributeTable& table);

// The attributes a sample counts for: the prompt's sensitive attribute when it names one
// (FairCoder builds one per prompt; its canonical key, or as named when the table lacks it),
// otherwise every sensitive attribute it offered.
std::vector<std::string> cell_attributes(const prompts::PromptMetadata& metadata, const AttributeTable& table);

}  // namespace codebias::analysis
