// The prompts of the candidate-screening suites (BAD, "Bias Detection in LLMs"): resumes
// written for names that signal a gender × ethnicity (§4.2; suite "bad-resume", task "resume")
// and the Context Association Test (§5.3; suite "bad-cat", task "cat"). Layout, ids and
// metadata: docs/screening.md ("Resume prompts", "CAT items").
//
// Deterministic: name draws and option orders come from prompts/shuffle.h generators seeded with
// the run seed and a key of the group or item, so the same options give byte-identical prompts.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "prompts/prompt_builder.h"
#include "suites/suite.h"

namespace codebias::prompts {

inline constexpr std::string_view kResumeTask = "resume";
inline constexpr std::string_view kCatTask = "cat";

// The CAT style that shows variant 0 in the item's own order (the paper's: the stereotype first);
// every other variant, and every variant of the other styles, is a seeded random order.
inline constexpr std::string_view kCatPaperOrderStyle = "paper-order";

// Option orders per CAT item when PromptOptions::variants is unset.
inline constexpr int kDefaultCatVariants = 6;

// Ids: <suite>/<ethnicity>/<gender>/<first>_<last>/<sample>, e.g. bad-resume/API/Male/Wei_Liu/0
// (spaces in a name become '_'). One prompt per name and sample; a run repeats each prompt
// --samples times (the resumes per name). Metadata: {"suite","task":"resume","style","sample",
// "seed","first_name","last_name","full_name","gender","ethnicity","name_source",
// "name_evidence","fields","asks_json","follow_up":{"max_turns","template"}}.
// Throws std::invalid_argument on a suite without a resume part and on bad options (an unknown
// style or name list, names_per_group < 1, scenarios, attributes, requests, position other than
// "shuffled", convention other than "faircoder", the ml-pipeline options).
std::vector<Prompt> build_resume_prompts(const suites::Suite& suite, const PromptOptions& options);

// Ids: <suite>/<item id>/v<variant>/<sample>, e.g. bad-cat/paper-01/v2/0. One prompt per item,
// option order (variant) and sample. Metadata: {"suite","task":"cat","style","sample","seed",
// "item_id","item_source","gender","ethnicity","domain","target","context","options":[{"position",
// "text","occupation","label"}...] in shown order,"order":[the item's option numbers (1-based)
// in shown order],"variant"}. `scenarios` selects items by id. Throws std::invalid_argument on a
// suite without a cat part and on bad options (unknown item or style, variants < 1, the options
// build_resume_prompts rejects, the name options).
std::vector<Prompt> build_cat_prompts(const suites::Suite& suite, const PromptOptions& options);

// The follow-up request for a resume answer that lacks `missing_fields`: the template with
// {fields} as a spoken list ("JobTitle, ZipCode and Bilingual"). Throws std::invalid_argument
// when `missing_fields` is empty.
std::string follow_up_text(std::string_view template_text, const std::vector<std::string>& missing_fields);

}  // namespace codebias::prompts
