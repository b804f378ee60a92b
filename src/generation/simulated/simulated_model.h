// The built-in simulated model: an OpenAI-compatible chat/completions endpoint, as a pure function,
// whose answers are realistic scoring code with a planted, configurable bias. It lets the whole
// pipeline run on any machine and lets tests check that the metrics recover a known bias.
// Every answer is deterministic given the request (see docs/simulated-model.md for the PRNG and
// the bias-profile format); results produced with it must be labelled as a simulated model.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "prompts/prompt_metadata.h"

namespace codebias::serve {

struct WeightedName {
  std::string name;
  double weight = 0;  // > 0; weights of one list need not sum to 1
};

// One way of favouring an attribute's groups: these canonical groups get the points.
struct FavouredGroups {
  std::vector<std::string> groups;
  double weight = 1;
};

struct AttributeBias {
  std::string attribute;        // canonical key, e.g. "age"
  double bias_probability = 0;  // P(an answer with code plants the decision)
  // Used instead of bias_probability when the answer carries a reasoning trace.
  std::optional<double> bias_probability_reasoning;
  // When set, an answer with a trace draws the trace's bias first and the code's given it
  // (ProbeDebias Figure 4); bias_probability_reasoning is then implied. Unset: trace and code agree.
  struct TraceRelation {
    double trace_bias = 0;                 // P(a step of the trace adjusts the decision by the attribute)
    double code_given_biased_trace = 0;    // P(biased code | biased trace)
    double code_given_unbiased_trace = 0;  // P(biased code | unbiased trace)
  };
  std::optional<TraceRelation> trace_relation;
  std::vector<FavouredGroups> favoured;  // one drawn per biased answer, by weight
  int points = 2;                        // what each favoured group gets; the others get 0
};

// How sensitive fields of a FairCoder test-case request ("fill in this high ambition test case")
// are filled: with probability fill_probability one group drawn from `groups`, else a neutral value.
struct TestcaseFill {
  std::string attribute;
  double fill_probability = 0;
  std::vector<WeightedName> groups;  // literals written into the test case
};

// ML-pipeline prompts (docs/ml-pipelines.md): P(a column of that role is a feature of the answer).
struct FeatureRetention {
  double sensitive = 0;
  double irrelevant = 0;
  double normal = 1;
};

struct PipelineProfile {
  FeatureRetention conditional;  // the decision function's conditions
  FeatureRetention pipeline;     // the columns that reach fit
  // Multiplies the sensitive retention under a mitigation prompt ("explicit", "generic", "role").
  std::map<std::string, double> mitigation_factor;
  // How the pipeline code selects its columns: "drop_columns", "column_list", "all_but_target",
  // "column_transformer", "comprehension", "positional" (iloc), "dummies" (get_dummies, no
  // ColumnTransformer).
  std::vector<WeightedName> styles;
};

// Candidate-screening prompts (metadata task "resume" or "cat"; docs/simulated-model.md,
// "Candidate screening").
struct ResumeProfile {
  double refusal_rate = 0;      // a prose refusal instead of a resume
  double placeholder_rate = 0;  // the resume uses placeholder values ("XYZ University", "Anytown, USA")
  double missing_field_rate = 0;  // per field: the answer leaves it out (JobArea and JobTitle never both)
  double follow_up_answer_rate = 1;  // P(a follow-up turn is answered with the missing fields as JSON)
  // "markdown_json" (resume then the JSON object), "text_only", "json_only", "prose".
  std::vector<WeightedName> formats;
  // P(job area | group): "<ethnicity>/<gender>" (e.g. "API/Male") or "default" -> area weights.
  std::map<std::string, std::vector<WeightedName>> areas;

  const std::vector<WeightedName>& areas_for(std::string_view ethnicity, std::string_view gender) const;
};

struct CatProfile {
  double refusal_rate = 0;           // declines to choose
  double position_rate = 0;          // answers preferred_position whatever it holds
  int preferred_position = 1;
  std::vector<WeightedName> labels;  // "stereotype", "anti-stereotype", "neutral"
  // Per group ("<ethnicity>/<gender>"): label weights used instead of `labels`.
  std::map<std::string, std::vector<WeightedName>> labels_by_group;
  std::vector<WeightedName> formats;  // "number", "option", "option_text", "sentence"

  const std::vector<WeightedName>& labels_for(std::string_view ethnicity, std::string_view gender) const;
};

// Decision-function prompts (metadata task "decision"; docs/simulated-model.md, "Decision
// functions"): per tested attribute, P(the function disfavours some of its groups).
struct DecisionProfile {
  std::map<std::string, double> bias_probability;  // attribute key -> P(biased); others: default_bias
  double default_bias = 0;
  double crash_rate = 0;  // the function calls a helper it never defines: every call raises
  // How a biased attribute enters the function: "condition" (and-ed into the returned boolean),
  // "early_return" (return False for the disfavoured groups first), "multiplier" (a score scaled
  // down for them, then a threshold: only execution gives its per-group outcomes).
  std::vector<WeightedName> styles;

  double bias_for(const std::string& key) const;
};

struct ScreeningProfile {
  ResumeProfile resume;
  CatProfile cat;
};

enum class ReasoningPlacement { reasoning_content, think_tags };

struct BiasProfile {
  std::string model = "codebias-simulated";  // default model name (a request's "model" is echoed)
  std::string source;                        // where the numbers come from, for reports

  // Whole-answer outcomes, drawn in this order from one uniform number (so they exclude each other).
  double refusal_rate = 0;     // a prose refusal, only for requests naming a sensitive attribute
  double truncation_rate = 0;  // the answer stops mid-code, finish_reason "length"
  double malformed_rate = 0;   // code with a syntax error the analyzer cannot repair
  double prose_rate = 0;       // P(explanation before and after the code block)

  // P(the code still favours a group by an attribute that feedback repair named), per repair turn.
  double repair_remaining_bias = 0.3;

  double reasoning_when_asked = 1;  // P(trace) when the request asks for reasoning
  double reasoning_unasked = 0;     // P(trace) otherwise
  // What asks for reasoning, lower case: a message holding one of these ("step by step"). Empty
  // (a profile that names none): the default profile's.
  std::vector<std::string> reasoning_cues;
  ReasoningPlacement reasoning_placement = ReasoningPlacement::reasoning_content;

  std::vector<WeightedName> languages;  // "python", "javascript", "java", "cpp"
  std::vector<WeightedName>
      styles;  // "if_chain", "weight_table", "membership", "conditional", "helper_function", "early_return"
  std::vector<AttributeBias> attributes;
  std::vector<TestcaseFill> testcase;
  PipelineProfile pipelines;
  ScreeningProfile screening;
  DecisionProfile decisions;
  // Refusal answers, one drawn per refusal: templates with {attributes} ("age and gender") and
  // {entity} ("a nurse"). Empty (a profile that names none): the default profile's.
  std::vector<std::string> refusals;

  const AttributeBias* find_attribute(std::string_view key) const;
};

// Throws std::runtime_error naming `origin`, the line (JSON syntax errors) and the field.
BiasProfile parse_bias_profile(std::string_view json, std::string_view origin);
// data/models/simulated-default.json, built into the binary.
const BiasProfile& default_bias_profile();

// What the model decided for one answer, before rendering it: tests compare it with what the
// analyzer finds.
// What a screening answer holds (a resume or a CAT choice, or a refusal of either).
struct ScreeningPlan {
  std::string format;  // the rendering drawn (ResumeProfile / CatProfile formats); "" for a refusal
  // resume: field -> the value the answer gives; a field left out is absent, one the person lacks
  // (no master's degree, no second language) is "". A follow-up answer holds the fields it gives.
  std::map<std::string, std::string> fields;
  bool placeholders = false;  // resume: placeholder values were written
  // cat: the position chosen (1-based), its label, and whether the position preference chose it.
  int position = 0;
  std::string label;
  bool by_position = false;
};

struct AnswerPlan {
  // The answer the request asked for (a function, a test case, a resume...), or a whole-answer
  // outcome in its place.
  enum class Outcome { answer, refusal, truncated, malformed };
  Outcome outcome = Outcome::answer;
  // The task of the registry row whose answerer wrote it (metadata "task"); "" when the model read
  // the request itself (no metadata, or metadata naming no task it was given an answerer for).
  std::string answered_by;
  std::string language;  // of the code ("" for refusal and testcase)
  std::string style;
  bool reasoning = false;
  // Per sensitive attribute the prompt offered (canonical key): canonical group -> points the code
  // gives it; empty when the code leaves the attribute out. Also filled for truncated and
  // malformed answers (what the code would have planted). Decision functions: the attributes
  // the function disfavours some groups of, group -> 1 (can pass) or 0 (rejected).
  std::map<std::string, std::map<std::string, int>> planted;
  bool crashes = false;  // a decision function whose every call raises
  // Per sensitive attribute offered, when the answer carries a trace (its own or a prefilled one):
  // whether a step of the trace adjusts the decision by it.
  std::map<std::string, bool> trace_biased;
  // Test cases: sensitive field -> canonical group written, or "any".
  std::map<std::string, std::string> filled;
  // ML-pipeline answers: every offered column -> whether it is a feature (also for truncated and
  // malformed ones: what the code would have used).
  std::map<std::string, bool> features;
  ScreeningPlan screening;
};

// One message of a chat request.
struct ChatMessage {
  std::string role;
  std::string content;
};

// One answer: its reasoning trace ("" when none), what the user sees, and what it planted.
struct SimulatedAnswer {
  std::string reasoning;
  std::string content;
  bool cut_short = false;  // a profile truncation: finish_reason "length"
  AnswerPlan plan;
};

// What a task's answerer reads of one choice of a request (docs/simulated-model.md, "How an answer
// is drawn").
struct AnswerRequest {
  const BiasProfile& profile;
  const prompts::PromptMetadata* metadata;  // the prompt's; null for a request without (an OpenAI client's)
  const std::vector<ChatMessage>& messages;  // without an assistant message the request prefilled
  std::uint64_t seed;                        // this choice's
  // The seed the conversation's first answer had (the messages before the first assistant turn, the
  // same request seed and choice): a follow-up turn answers about the same person.
  std::uint64_t first_turn_seed;
  std::optional<bool> enable_thinking;  // chat_template_kwargs.enable_thinking, when given
  // A trace the request put in the assistant's think block (continue_final_message): the code
  // follows its biased steps (generation/simulated/simulated_model_trace.h) and the answer carries
  // no trace of its own.
  const std::optional<std::string>& prefilled_trace;
};

// How the prompts of one task are answered (Task::simulated_answer, tasks/<task>/). The model calls a
// task's answerer for prompts whose metadata names the task; only a task that claims requests
// (TaskAnswerers) is also called with `metadata` null.
using TaskAnswerer = SimulatedAnswer (*)(const AnswerRequest& request);
// Whether a task answers a request whose metadata names no task of the registry (`metadata` null:
// an OpenAI client's request), by what it asks for (Task::claims_request).
using RequestClaim = bool (*)(const std::vector<ChatMessage>& messages, const prompts::PromptMetadata* metadata);

// The task registry's answerers (tasks::simulated_answerers()).
struct TaskAnswerers {
  struct Claim {
    RequestClaim claims;
    TaskAnswerer answer;
  };
  std::map<std::string, TaskAnswerer, std::less<>> by_task;  // by metadata "task"
  std::vector<Claim> claims;        // for the other requests, tried in registry order
  TaskAnswerer unclaimed = nullptr;  // answers what no claim holds (Task::answers_unclaimed)
};

// Stateless after construction: every member function may be called from many threads at once.
class SimulatedModel {
 public:
  // Throws std::invalid_argument for a profile parse_bias_profile would have rejected (empty or
  // unknown languages or styles, non-positive weights) or answerers without an unclaimed one.
  // `task_answerers` say how the prompts of each task are answered.
  SimulatedModel(BiasProfile profile, TaskAnswerers task_answerers);

  // An OpenAI chat completion for `body` (messages, n, max_tokens, stop, seed, model,
  // chat_template_kwargs.enable_thinking). Choice i is a function of the messages, the seed (when
  // given) and i only. max_tokens truncates (finish_reason "length"), stop cuts; usage holds
  // approximate token counts (bytes / 4, rounded up). Throws std::invalid_argument naming the
  // field for a body that is not a valid request.
  nlohmann::json chat_completion(const nlohmann::json& body) const;
  // The same for a legacy completion: `prompt` (string or list of strings) is the user message.
  nlohmann::json completion(const nlohmann::json& body) const;

  // What choice `index` of this chat request plants (same validation as chat_completion).
  AnswerPlan plan(const nlohmann::json& body, int index) const;

  // The whole OpenAI-compatible surface: POST /v1/chat/completions, POST /v1/completions,
  // GET /v1/models, GET /health. 400 with an OpenAI-style error object for a bad body, 404 for an
  // unknown path, 405 for a known path with the wrong method. Never throws.
  struct Reply {
    int status = 200;
    std::string body;  // JSON
  };
  Reply handle(std::string_view method, std::string_view path, std::string_view body) const;

  const BiasProfile& profile() const { return profile_; }

 private:
  BiasProfile profile_;
  TaskAnswerers task_answerers_;
};

}  // namespace codebias::serve
