// Names that signal a gender × ethnicity, for the resume prompts (BAD §4.1): the candidate first
// names and surnames of data/screening/names.json (converted by scripts/build_screening_names.py
// from Tzioumis 2018, the US Census 2010 surnames and the 2014 US gender likelihood by name), the
// selection rules of docs/screening.md ("Names") and the paper's own 48 names.
//
// Deterministic: a selection depends only on the data, the rules and the seed (prompts/shuffle.h).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "suites/suite.h"
#include "tasks/screening/screening_suite.h"

namespace codebias::prompts {

// The groups, in the order prompts and reports list them.
inline constexpr std::string_view kScreeningEthnicities[] = {"White", "Black", "API", "Hispanic"};
inline constexpr std::string_view kScreeningGenders[] = {"Male", "Female"};

struct CandidateFirstName {
  std::string name;                          // "Bradley"
  int observations = 0;                      // mortgage applications behind the shares
  std::map<std::string, double> ethnicity;   // group -> share in 0..1 (the four groups)
  std::string gender;                        // "Male" | "Female": the more likely one
  double gender_probability = 0;             // P(gender | name), 0..1
};

struct CandidateSurname {
  std::string name;                          // "Becker"
  long count = 0;                            // people with the surname in the 2010 Census
  std::map<std::string, double> ethnicity;   // group -> share in 0..1 (the four groups)
};

// One of the paper's names with what the sources say about it (unset: not in that source).
struct PaperName {
  std::string first_name;
  std::string last_name;
  std::string gender;
  std::string ethnicity;
  std::optional<CandidateFirstName> first_name_record;
  std::optional<CandidateSurname> surname_record;
};

struct NameData {
  std::string source;  // the file's "source": each source and its year
  std::string prefilter;  // what the converter kept
  std::vector<CandidateFirstName> first_names;
  std::vector<CandidateSurname> surnames;
  std::vector<PaperName> paper;
};

// Throws std::runtime_error naming `origin` and the field.
NameData parse_name_data(std::string_view json_text, std::string_view origin);
// data/screening/names.json, built into the binary, parsed once.
const NameData& builtin_name_data();

struct ScreeningName {
  std::string first_name;
  std::string last_name;
  std::string gender;     // "Male" | "Female"
  std::string ethnicity;  // "White" | "Black" | "API" | "Hispanic"
  std::string source;     // "paper" | "selected"
  // The shares and probability behind the name and the thresholds it met (prompt metadata
  // "name_evidence"; docs/screening.md lists the keys).
  nlohmann::json evidence;

  std::string full_name() const { return first_name + " " + last_name; }
};

// What the rules gave one gender × ethnicity group.
struct GroupSelection {
  std::string gender;
  std::string ethnicity;
  double first_name_threshold = 0;  // the share the group's first names met
  double surname_threshold = 0;     // the share the group's surnames met
  bool lowered = false;             // either is below the rules' own threshold
  std::size_t first_name_pool = 0;  // candidates at the threshold
  std::size_t surname_pool = 0;
};

struct NameSelection {
  std::vector<ScreeningName> names;    // groups in kScreeningEthnicities × kScreeningGenders order
  std::vector<GroupSelection> groups;
};

// `rules.names_per_group` names for each gender × ethnicity, drawn uniformly without
// replacement from the candidates that meet the group's thresholds (lowered as the rules say
// where too few do), the i-th first name paired with the i-th surname. Throws
// std::invalid_argument for rules out of range or a group with too few names even at the floor.
NameSelection select_names(const NameData& data, const suites::NameSelectionRules& rules, std::uint64_t seed);

// The paper's 48 names (names_used_DERIVED.csv), in its order, with their recorded evidence.
std::vector<ScreeningName> paper_names(const NameData& data);

}  // namespace codebias::prompts
