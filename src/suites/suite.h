// A benchmark suite: the data a prompt builder turns into prompts (entities, demos, request
// templates, unit-test topics, datasets for ML pipelines, resume requests, CAT items). Suites are
// JSON files (format "codebias-suite/1", described in docs/suites.md); the FairCoder,
// ML-pipelines and BAD suites are built into the binary from data/suites/faircoder.json,
// ml_pipelines.json, bad_resume.json and bad_cat.json.
// A suite is plain data: rendering rules live in the prompt builders. Each task defines its part
// and parses it (tasks/<task>/<task>_suite.h); tasks/suite_loading.h loads whole suites.
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
