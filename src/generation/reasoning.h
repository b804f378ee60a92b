// Separating a reasoning trace from the answer. Engines return the trace in different places
// (vLLM/Ollama/OpenRouter `message.reasoning`, llama.cpp/SGLang/DeepSeek
// `message.reasoning_content`, or raw `<think>…</think>` in the text when no reasoning parser
// runs); the analysis must only ever see the answer, because traces contain code drafts.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "base/reasoning_split.h"

namespace codebias::generation {

// How the prompt left the think block: templates such as Qwen3.5/R1 open `<think>` in the prompt
// (the output then holds only `</think>`), and a prefilled `<think>…</think>` closes it.
enum class PromptThink { unknown, opened, closed };

// Splits raw text on <think>…</think> as generation stores it (ThinkTags::every_block of
// base/reasoning_split.h). With PromptThink::opened, text with no tags at all is a cut-off trace;
// with ::closed, tags are not expected and all text is the answer unless it carries its own tags.
ReasoningSplit split_think_tags(std::string_view text, PromptThink prompt = PromptThink::unknown);

// Reads one response choice (chat `message` or completions `text`). A non-empty
// `reasoning_content` or `reasoning` field wins over tags; tags still present in the content
// (llama.cpp's deepseek-legacy format keeps both) are stripped from the answer. A trace with no
// content and finish_reason "length" is cut off. When the prompt closed the think block yet the
// server put everything in the reasoning field (vLLM's qwen3 parser does when thinking is on),
// that text is the answer.
ReasoningSplit extract_reasoning(const nlohmann::json& choice,
                                 PromptThink prompt = PromptThink::unknown);

// What a request body does to the think block: a completions `prompt`, or a chat body continuing
// a final assistant message (`continue_final_message`), that ends inside or after a think block.
PromptThink prompt_think_state(const nlohmann::json& body);

}  // namespace codebias::generation
