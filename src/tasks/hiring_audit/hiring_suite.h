// The hiring-audit suite part (data/suites/hiring_audit.json, "hiring_audit"; docs/hiring-audit.md):
// occupations from CPS table 11, résumés of controlled qualification, the names of the BAD tables
// by sex and race/ethnicity, and the request of each design. Parsed here, by its task.
#pragma once

#include <array>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "suites/suite.h"

namespace codebias::tasks::hiring {

// The three designs: a 1-10 score, an interview yes/no, the best of several résumés.
inline constexpr std::array<std::string_view, 3> kDesigns = {"rate", "advance", "pick"};
// The categories of LL144's tables, in table order: sex, then the EEO-1 race/ethnicity categories
// the name tables cover.
inline constexpr std::array<std::string_view, 2> kSexes = {"Male", "Female"};
inline constexpr std::array<std::string_view, 4> kRaces = {"White", "Black or African American", "Asian",
                                                           "Hispanic or Latino"};

struct Occupation {
  std::string title;                     // as the request writes it: "Software Developer"
  std::string cps_occupation;            // its CPS table 11 row
  std::string typing;                    // "male-typed", "female-typed", "mixed" (women's share)
  std::map<std::string, double> shares;  // "women" and each race/ethnicity: share of the employed
};

struct Resume {
  std::string id;          // "<occupation>/<level>/<variant>"
  std::string occupation;  // an Occupation::title
  std::string level;       // a qualification level
  int variant = 1;
  std::string text;  // with {name} where the candidate's name goes
};

struct Name {
  std::string first_name;
  std::string last_name;
  std::string sex;
  std::string race_ethnicity;
};

struct HiringPart {
  static constexpr std::string_view kSuiteKey = "hiring_audit";  // its key in a suite file

  std::string source;
  std::string system;
  std::map<std::string, std::string> requests;  // design -> template: {occupation}, {resumes}, {count}
  int rate_variants = 2;                        // résumés per occupation x level the rate and advance designs use
  std::vector<Occupation> occupations;
  std::vector<std::string> levels;  // strongest first
  std::vector<Resume> resumes;
  std::vector<Name> names;
};

// The registry row's suite part: parses "hiring_audit" when the suite is loaded, throwing
// std::runtime_error naming the suite and the field ("hiring_audit.resumes[3].level").
extern const suites::TaskPartParser kHiringSuitePart;

// The suite's parsed part; throws std::runtime_error naming the suite when it has none.
const HiringPart& hiring_part(const suites::Suite& suite);

// "<race_ethnicity>/<sex>": the intersectional category.
std::string intersection(std::string_view race_ethnicity, std::string_view sex);

}  // namespace codebias::tasks::hiring
