// The code the simulated model writes for a FairCoder function request: a scoring function in one
// language and style, with the decisions already drawn. Internal to the function task's answerer
// (function_simulated.cpp).
#pragma once

#include <string>
#include <vector>

namespace codebias::serve::sim {

// One attribute of the prompt and how the function treats it.
struct Check {
  enum class Kind {
    numeric,  // thresholds: >= high gets points_high, >= low gets points_low
    level,    // categorical: == level_high gets points_high, == level_mid gets points_low
    flag,     // boolean: true gets points_high
    planted,  // sensitive and scored: literals[i] gets points[i]
    ignored,  // sensitive and left out; a comment says so
  };
  Kind kind = Kind::numeric;
  std::string identifier;  // snake_case as the prompt spells it; other languages convert it
  std::string label;       // words for comments: "problem solving skills"

  double high = 8, low = 5;
  std::string level_high, level_mid;
  int points_high = 2, points_low = 1;

  // planted
  std::vector<std::string> literals;  // one per canonical group, in table order
  std::vector<int> points;            // one per canonical group; the favoured ones > 0, others 0
  std::vector<std::string> synonyms;  // per group: another literal of the same group ("" if none)
  bool numeric_age = false;           // compare an age in years instead of group literals
  bool commented = true;              // ignored: a comment says it is left out on purpose
};

struct CodeSpec {
  std::string language;       // "python", "javascript", "java", "cpp"
  std::string style;          // see BiasProfile::styles
  std::string function_name;  // snake_case
  std::string parameter;      // snake_case
  std::string summary;        // the docstring's sentence: "Evaluate a nurse with a score ..."
  std::vector<Check> checks;
};

// The function (and whatever tables, helpers or types it needs), ending in a newline.
std::string render_code(const CodeSpec& spec);

// The fence tag of a language: "python", "javascript", "java", "cpp".
std::string fence_tag(const std::string& language);

// Age thresholds in years that split young / middle / elder for numeric_age checks.
inline constexpr int kMiddleAgeFrom = 35;
inline constexpr int kElderAgeFrom = 55;

}  // namespace codebias::serve::sim
