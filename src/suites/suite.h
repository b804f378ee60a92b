// A benchmark suite: the data a prompt builder turns into prompts (entities, demos, request
// templates, unit-test topics, datasets for ML pipelines, resume requests, CAT items). Suites are
// JSON files (format "codebias-suite/1", described in docs/suites.md); the FairCoder,
// ML-pipelines and BAD suites are built into the binary from data/suites/faircoder.json,
// ml_pipelines.json, bad_resume.json and bad_cat.json.
// A suite is plain data: rendering rules live in prompts/prompt_builder.h. Each task's part is
// parsed by its task (tasks/<task>/<task>_suite.h); tasks/suite_loading.h loads whole suites.
#pragma once

#include <any>
#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace codebias::suites {

// Slots in Scenario::attributes that expand when a prompt is built.
inline constexpr std::string_view kEntitySlot = "<entity>";        // the entity's own attributes
inline constexpr std::string_view kSensitiveSlot = "<sensitive>";  // the sensitive attribute

struct Demo {
  std::string user;       // the demo request, verbatim
  std::string assistant;  // the unbiased demo answer, verbatim
};

// The first `count` entities (all when unset) of the entity list named `list`.
struct EntitySource {
  std::string list;
  std::optional<std::size_t> count;
};

struct SensitiveAttribute {
  std::string key;                    // canonical key, as in data/attributes/attributes.json
  std::string name;                   // as written in prompts, e.g. "age (young, middle, elder)"
  std::vector<std::string> groups;    // canonical group names
  std::vector<EntitySource> entities; // function task: whose entities its prompts ask about
};

struct Entity {
  std::string name;                     // occupation, major or treatment, verbatim
  std::vector<std::string> attributes;  // its own non-sensitive attributes (may be empty)
};

struct EntityList {
  std::string name;
  std::string group;  // the demographic group the list was sampled for; empty when none
  std::vector<Entity> entities;
};

enum class TextCase { verbatim, lower };
enum class AttributeStyle { verbatim, lower_snake };  // lower_snake: "Attention to detail" -> attention_to_detail

// One decision-making scenario of the function-implementation task.
struct Scenario {
  std::string key;    // "job", "edu", "med"
  std::string title;
  std::string source;
  std::vector<Demo> demos;
  // Templates with {entity}, {entity_id}, {function} (request only) and {attributes} (request
  // only); "{{" and "}}" stand for literal braces.
  std::string request;
  std::string function;
  TextCase entity_case = TextCase::verbatim;                         // how {entity} is written
  AttributeStyle entity_attribute_style = AttributeStyle::verbatim;  // how kEntitySlot expands
  std::vector<std::string> attributes;  // the offered attributes before ordering, with the slots
  std::vector<SensitiveAttribute> sensitive_attributes;
  std::vector<EntityList> entity_lists;

  const EntityList* find_list(std::string_view name) const;
  const SensitiveAttribute* find_attribute(std::string_view key) const;
};

struct TestField {
  std::string name;
  std::string value;  // the value the request gives; empty when the model fills it in
};

// One unit-test-generation topic: a function judging a person and the test case to fill in.
struct Topic {
  std::string id;        // "cancer"
  std::string category;  // "medical", "trait-m", "trait-f", "social"
  std::string instruction;                   // the question's first line
  std::vector<TestField> fields;             // non-sensitive fields, in the question's order
  std::vector<std::string> sensitive_fields; // sensitive attribute names, in the question's order
  std::vector<std::string> code;             // one per TestcaseTask::variants, same order
};

struct TestcaseTask {
  static constexpr std::string_view kSuiteKey = "testcase";  // its key in a suite file (tasks/<task>/*_suite.h)
  std::string source;
  std::vector<SensitiveAttribute> sensitive_attributes;  // groups a counterfactual request gives
  std::vector<std::string> variants;                     // "python", "swapped", "weights", "c"
  std::vector<Topic> topics;

  const SensitiveAttribute* find_attribute(std::string_view key) const;
};

// Fixed sentences the prompt builder places around demos and requests.
struct Prompting {
  std::string system;           // function task system message
  std::string testcase_system;  // unit-test task system message
  std::string demo_intro;       // opens a system message that carries the demos
};

// A named way of wording the prompts (`--style NAME`): the plain benchmark, a reasoning
// instruction, a mitigation prompt. How each convention places the texts: docs/suites.md.
struct PromptStyle {
  std::string name;  // "vanilla", "cot", "fair-system-prompt"
  std::string description;
  std::string source;
  std::string system;       // replaces the system message; empty: keeps it
  std::string instruction;  // closes the request after a blank line; empty: none
};

// ---- ML pipelines (Bui et al., Findings of ACL 2026; docs/ml-pipelines.md) ----

enum class ColumnRole { normal, sensitive, irrelevant };
enum class ColumnType { categorical, integer, real };  // "float" in suite files and metadata

struct NumericRange {
  double low = 0;
  double high = 0;
};

// One column of a dataset a prompt offers: a feature a decision may or may not use.
struct DatasetColumn {
  std::string name;  // a snake_case identifier (dict key, parameter, DataFrame column)
  ColumnRole role = ColumnRole::normal;
  ColumnType type = ColumnType::categorical;
  std::vector<std::string> values;     // categorical: its values (sensitive: the groups)
  std::optional<NumericRange> range;   // integer and float columns
  std::string unit;                    // numeric columns; may be empty
  std::string description;             // may be empty
  std::string kind;                    // sensitive: "core" or "contested" (NOTES.md §2)
  bool injected = false;               // sensitive: added to data that never had it
};

struct DatasetTarget {
  std::string name;
  std::vector<std::string> values;  // as written in prompts
  bool integer_values = false;      // the values are integers (1 / 0), not strings
};

struct Dataset {
  std::string name;     // "german_credit"
  std::string domain;   // a short phrase: "consumer credit scoring"
  std::string subject;  // who or what a decision is about: "applicant"
  std::string task;     // one sentence: "Decide whether ..."
  std::string source;
  DatasetTarget target;
  std::vector<DatasetColumn> columns;  // every offered column, in the source's order; not the target
};

// How a template shows the offered columns: a bullet list, a CSV header with sample rows (the
// target last), or a JSON schema of one row.
enum class ColumnLayout { bullets, csv, json_schema };

struct RequestTemplate {
  ColumnLayout columns_as = ColumnLayout::bullets;
  std::string text;  // placeholders: docs/suites.md ("pipelines")
};

// One rung of the pipeline route's difficulty ladder ("select", "train", "full").
struct PipelineLevel {
  std::string name;
  std::string description;
  std::vector<RequestTemplate> templates;  // the paraphrase variants
};

// A mitigation prompt appended to the request; "none" is the request alone.
struct Mitigation {
  std::string name;
  std::string description;
  std::string text;  // may name the prompt's sensitive columns: {sensitive_names}
};

// Which columns a prompt offers: "all", or "normal=<N|all>,sensitive=<1|all>" (irrelevant
// columns are always all offered). A one-sensitive set makes one prompt per sensitive column.
struct AttributeSet {
  std::string name;
  std::optional<std::size_t> normal;  // unset: every normal column
  bool one_sensitive = false;
};

struct PipelinesPart {
  static constexpr std::string_view kSuiteKey = "pipelines";  // its key in a suite file (tasks/<task>/*_suite.h)
  std::string source;
  std::string system;                       // the constant system message
  std::vector<std::string> estimators;      // scikit-learn classes, drawn uniformly per variant
  std::vector<AttributeSet> attribute_sets;
  std::vector<Mitigation> mitigations;      // besides "none"
  std::vector<RequestTemplate> conditional; // the conditional route's paraphrase variants
  std::vector<PipelineLevel> levels;        // the pipeline route's ladder, easiest first
  std::vector<Dataset> datasets;

  const Dataset* find_dataset(std::string_view name) const;
  const PipelineLevel* find_level(std::string_view name) const;
  const Mitigation* find_mitigation(std::string_view name) const;
  const AttributeSet* find_attribute_set(std::string_view name) const;
};

// As written in suite files and prompt metadata: "normal", "sensitive", "irrelevant";
// "categorical", "integer", "float".
std::string_view to_string(ColumnRole role);
std::string_view to_string(ColumnType type);

// ---- Candidate screening (BAD, "Bias Detection in LLMs"; docs/screening.md) ----

// How names signalling a gender × ethnicity are selected from data/screening/names.json
// (docs/screening.md, "Names"). Shares and probabilities are fractions in 0..1.
struct NameSelectionRules {
  double first_name_share = 0.9;    // the first name's share for the ethnicity
  double gender_probability = 0.95; // P(the gender | the first name)
  double surname_share = 0.9;       // the surname's share for the ethnicity
  // Where a group has fewer than names_per_group candidates at a threshold, that group's
  // threshold is lowered by `step` until it has enough, never below `floor` (recorded per name).
  double step = 0.05;
  double floor = 0.5;
  int names_per_group = 6;          // names per gender × ethnicity (the paper: 6)
  std::string list = "selected";    // "selected" (drawn by these rules) | "paper" (its 48 names)
};

struct ResumeFollowUp {
  int max_turns = 2;     // the first answer and at most max_turns - 1 follow-up requests
  std::string text;      // template with {fields}: the missing fields, as a spoken list
};

// The resume-generation part (BAD §4.2): one prompt per name, its answers' fields read back.
struct ResumePart {
  static constexpr std::string_view kSuiteKey = "resume";  // its key in a suite file (tasks/<task>/*_suite.h)
  std::string source;
  std::string request;               // template with {full_name}, {first_name}, {last_name}
  std::vector<std::string> fields;   // the fields extraction reads, in the JSON request's order
  ResumeFollowUp follow_up;
  NameSelectionRules names;
};

enum class CatLabel { stereotype, anti_stereotype, neutral };

struct CatOption {
  std::string text;        // the sentence shown, e.g. "He is probably a Software Engineer"
  std::string occupation;
  CatLabel label = CatLabel::neutral;
  std::string cps_occupation;                 // the CPS table 11 row it was chosen from; may be empty
  std::optional<double> representation;       // that row's representation ratio for the item's group
};

// One Context Association Test question (BAD §5.3): a context and three completions, in the
// order the source wrote them (the paper's: stereotype, anti-stereotype, neutral).
struct CatItem {
  std::string id;          // "paper-01", "codebias-01"
  std::string source;      // "paper" | "codebias, from CPS table 11 <year>"
  std::string gender;      // "Male" | "Female"
  std::string ethnicity;   // "White" | "Black" | "API" | "Hispanic"
  std::string domain;      // as the question writes it: "Race"
  std::string target;      // as the question writes it: "API"
  std::string context;     // "He is an Asian man."
  std::vector<CatOption> options;  // exactly one of each label
  std::string evidence;    // why these occupations (CPS shares), may be empty
};

struct CatPart {
  static constexpr std::string_view kSuiteKey = "cat";  // its key in a suite file (tasks/<task>/*_suite.h)
  std::string source;
  // Template with {domain}, {target}, {context} and {options} (one "Option N: text" line each).
  std::string question;
  std::vector<CatItem> items;

  const CatItem* find_item(std::string_view id) const;
};

// As written in suite files and prompt metadata: "stereotype", "anti-stereotype", "neutral".
std::string_view to_string(CatLabel label);

// ---- Decision functions (Solar / SocialBias-Bench, Ling et al. AAAI 2025; Huang et al. TOSEM 2025;
// docs/counterfactual.md) ----

// One attribute a decision prompt offers, with the values the prompt lists for it (none: the
// prompt names it only).
struct DecisionAttribute {
  std::string name;                  // as the prompt writes it: "employment_status", "city"
  std::string key;                   // the attribute table's key when it differs from the name; else the name
  std::string type;                  // as the prompt declares it: "str", "int", "float"; may be empty
  std::vector<nlohmann::json> values;  // numbers or strings, as the prompt prints them
  bool sensitive = false;            // suite level: demographic
};

// One task: a function deciding about a person from the offered attributes.
struct DecisionTask {
  std::string id;
  std::string category;
  std::string class_name;   // Solar: the dataclass holding the method; empty for a free function
  std::string function;     // the requested name; empty when the model picks it
  std::string returns;      // "bool"; empty when not declared
  std::string description;  // the docstring or the request, verbatim
  std::vector<DecisionAttribute> attributes;  // the task's own attributes, in prompt order
  std::vector<std::string> related;           // attributes the decision should depend on
  std::vector<std::string> sensitive;         // attribute names the task tests, in prompt order
};

struct DecisionsPart {
  static constexpr std::string_view kSuiteKey = "decisions";  // its key in a suite file (tasks/<task>/*_suite.h)
  std::string source;
  std::string system;    // empty: no system message
  // Placeholders {class}, {function}, {returns}, {description} and {fields} (docs/suites.md,
  // "decisions").
  std::string template_text;
  std::string attribute_table;                // the built-in attribute table the suite's groups come from
  std::vector<DecisionAttribute> attributes;  // shown in every prompt before the task's own
  std::vector<DecisionTask> tasks;

  // The key of a task attribute or suite attribute of that name in the attribute table.
  std::string key_of(const DecisionTask& task, std::string_view name) const;
};

// What a run or `codebias prompts` uses when the user names nothing else.
struct SuiteDefaults {
  std::string task;                  // empty: the function task
  std::optional<double> temperature; // unset: the run's own default
};

// What `codebias suites` says of a suite (each may be empty in a user's suite file).
struct SuiteAbout {
  std::string measures;  // one sentence: what its findings and headline metrics are
  std::string paper;     // the paper it reproduces, with its section
  std::string example;   // a command that runs a representative slice
};

struct Suite {
  std::string name;
  std::string title;
  std::string source;
  SuiteAbout about;
  SuiteDefaults defaults;
  Prompting prompting;                  // required with a function or testcase part
  std::vector<PromptStyle> styles;      // at least one
  std::vector<Scenario> scenarios;      // empty when the suite has no function task
  // Each task's part by its key in the suite file ("testcase", "pipelines", ...), as the task's
  // registry row parsed it (TaskPartParser): read it with part<T>().
  std::map<std::string, std::any, std::less<>> task_parts;

  const Scenario* find_scenario(std::string_view key) const;
  const PromptStyle* find_style(std::string_view name) const;
  // The task part of type Part (its key: Part::kSuiteKey); nullptr when the suite has none.
  template <class Part>
  const Part* part() const {
    const auto it = task_parts.find(Part::kSuiteKey);
    return it == task_parts.end() ? nullptr : std::any_cast<Part>(&it->second);
  }
};

class SuiteReader;

// A task's part of a suite file, as the task's registry row declares it (tasks/task.h;
// tasks/<task>/<task>_suite.h): its top-level key, whether its prompts are placed with the
// suite's "prompting" sentences (which it then requires), and its parser, which returns the part
// for Suite::part<T>() and fails through `reader` with the field path ("testcase.topics[2].id").
struct TaskPartParser {
  std::string_view key;
  bool needs_prompting = false;
  std::any (*parse)(const SuiteReader& reader, const nlohmann::json& part, const Suite& suite) = nullptr;
};

// Parses and checks a suite, each task part with its parser in `task_parts` (any other top-level
// key is a typo; tasks/suite_loading.h passes every registry row's). Throws std::runtime_error
// naming `origin`, the JSON line for syntax errors, and the field path (e.g.
// "function.scenarios[1].request") for bad content.
Suite parse_suite(std::string_view json_text, std::string_view origin, std::span<const TaskPartParser> task_parts);

// Reads and parses a suite file; errors name the path.
Suite load_suite_file(const std::filesystem::path& path, std::span<const TaskPartParser> task_parts);

// The JSON of a suite built into the binary ("faircoder", "ml-pipelines", "bad-resume", "bad-cat",
// "solar", "huang", "hiring-audit"), and the data file it was built from (for error messages).
// Throws std::invalid_argument listing the known names. tasks::builtin_suite parses it once.
struct BuiltinSuiteText {
  std::string_view json;
  std::string_view file;
};
BuiltinSuiteText builtin_suite_text(std::string_view name);

// The names builtin_suite_text() accepts.
std::vector<std::string> builtin_suite_names();

// The scenario keys the built-in suites declare, in suite order without repeats ("job", "edu",
// "med"): the scenarios a response line may name when no suite file comes with it.
std::vector<std::string> known_scenarios();

}  // namespace codebias::suites
