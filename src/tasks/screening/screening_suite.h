// The candidate-screening tasks' parts of a suite file ("resume" and "cat"; docs/suites.md),
// parsed by their tasks: the registry rows' suite parts (tasks/task.h), read back with
// Suite::part<suites::ResumePart>() and Suite::part<suites::CatPart>().
#pragma once

#include "suites/suite.h"

namespace codebias::suites {

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

}  // namespace codebias::suites

namespace codebias::tasks {

extern const suites::TaskPartParser kResumeSuitePart;
extern const suites::TaskPartParser kCatSuitePart;

}  // namespace codebias::tasks
