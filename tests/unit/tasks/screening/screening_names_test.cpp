// Name selection for the resume prompts (docs/screening.md, "Names"): every selected name meets
// its group's thresholds, thresholds are lowered only where the data has too few names, the draw
// is seeded, and the paper's list is the paper's 48 names.
#include <fstream>
#include "paths.h"
#include <set>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "tasks/screening/screening_names.h"
#include "tasks/screening/screening_suite.h"

namespace codebias::prompts {
namespace {

const CandidateFirstName* find_first(const NameData& data, const std::string& name) {
  for (const auto& record : data.first_names)
    if (record.name == name) return &record;
  return nullptr;
}

const CandidateSurname* find_surname(const NameData& data, const std::string& name) {
  for (const auto& record : data.surnames)
    if (record.name == name) return &record;
  return nullptr;
}

// Candidates at a share, counted here rather than by the selection code.
std::size_t first_names_at(const NameData& data, const std::string& ethnicity, const std::string& gender, double share,
                           double gender_probability) {
  std::size_t n = 0;
  for (const auto& r : data.first_names)
    n += r.gender == gender && r.gender_probability >= gender_probability && r.ethnicity.at(ethnicity) >= share;
  return n;
}

std::size_t surnames_at(const NameData& data, const std::string& ethnicity, double share) {
  std::size_t n = 0;
  for (const auto& r : data.surnames) n += r.ethnicity.at(ethnicity) >= share;
  return n;
}

TEST(ScreeningNames, EverySelectedNameMeetsItsGroupsThresholds) {
  const NameData& data = builtin_name_data();
  const suites::NameSelectionRules rules;
  const NameSelection selection = select_names(data, rules, 7);
  ASSERT_EQ(selection.names.size(), 8u * 6u);
  ASSERT_EQ(selection.groups.size(), 8u);
  for (const ScreeningName& name : selection.names) {
    const CandidateFirstName* first = find_first(data, name.first_name);
    const CandidateSurname* surname = find_surname(data, name.last_name);
    ASSERT_NE(first, nullptr) << name.first_name;
    ASSERT_NE(surname, nullptr) << name.last_name;
    const double first_threshold = name.evidence.at("first_name_threshold").get<double>();
    const double surname_threshold = name.evidence.at("surname_threshold").get<double>();
    EXPECT_EQ(first->gender, name.gender) << name.full_name();
    EXPECT_GE(first->gender_probability, rules.gender_probability) << name.full_name();
    EXPECT_GE(first->ethnicity.at(name.ethnicity), first_threshold) << name.full_name();
    EXPECT_GE(surname->ethnicity.at(name.ethnicity), surname_threshold) << name.full_name();
    EXPECT_GE(first_threshold, rules.floor);
    EXPECT_LE(first_threshold, rules.first_name_share);
    EXPECT_EQ(name.evidence.at("first_name_share").get<double>(), first->ethnicity.at(name.ethnicity));
    EXPECT_EQ(name.source, "selected");
  }
}

TEST(ScreeningNames, ThresholdsAreLoweredOnlyWhereTooFewNamesMeetThem) {
  const NameData& data = builtin_name_data();
  const suites::NameSelectionRules rules;
  const NameSelection selection = select_names(data, rules, 0);
  for (const GroupSelection& group : selection.groups) {
    const std::size_t at_default =
        first_names_at(data, group.ethnicity, group.gender, rules.first_name_share, rules.gender_probability);
    if (at_default >= 6) {
      EXPECT_DOUBLE_EQ(group.first_name_threshold, rules.first_name_share) << group.ethnicity << group.gender;
    } else {
      EXPECT_LT(group.first_name_threshold, rules.first_name_share) << group.ethnicity << group.gender;
      // The threshold one step higher would not have had enough names.
      EXPECT_LT(first_names_at(data, group.ethnicity, group.gender, group.first_name_threshold + rules.step,
                               rules.gender_probability),
                6u);
      EXPECT_TRUE(group.lowered);
    }
    EXPECT_EQ(group.surname_threshold < rules.surname_share, surnames_at(data, group.ethnicity, rules.surname_share) < 6);
  }
  // The data's own shortage (docs/screening.md): strongly Black male first names are rare.
  EXPECT_LT(first_names_at(data, "Black", "Male", 0.9, 0.95), 6u);
  bool black_male_lowered = false;
  for (const GroupSelection& group : selection.groups)
    if (group.ethnicity == "Black" && group.gender == "Male") black_male_lowered = group.lowered;
  EXPECT_TRUE(black_male_lowered);
}

TEST(ScreeningNames, TheDrawIsSeeded) {
  const NameData& data = builtin_name_data();
  const suites::NameSelectionRules rules;
  const auto names = [&](std::uint64_t seed) {
    std::vector<std::string> out;
    for (const auto& name : select_names(data, rules, seed).names) out.push_back(name.full_name());
    return out;
  };
  EXPECT_EQ(names(3), names(3));
  EXPECT_NE(names(3), names(4));
  const auto drawn = names(3);
  EXPECT_EQ(std::set<std::string>(drawn.begin(), drawn.end()).size(), drawn.size()) << "a name drawn twice";
}

TEST(ScreeningNames, RulesOutOfRangeAndTooFewNamesAreRefused) {
  const NameData& data = builtin_name_data();
  suites::NameSelectionRules rules;
  rules.names_per_group = 0;
  EXPECT_THROW(select_names(data, rules, 0), std::invalid_argument);
  rules = {};
  rules.gender_probability = 1.5;
  EXPECT_THROW(select_names(data, rules, 0), std::invalid_argument);
  rules = {};
  rules.names_per_group = 30;  // more Black male first names than the data has at the floor
  try {
    select_names(data, rules, 0);
    FAIL() << "expected too few names";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("Black Male"), std::string::npos) << error.what();
  }
}

TEST(ScreeningNames, ThePaperListIsThePapersFortyEightNames) {
  std::ifstream in(std::string(::codebias::test_support::source_dir()) + "/tests/data/screening/names_used.csv");
  ASSERT_TRUE(in);
  std::string line;
  std::getline(in, line);  // source note
  std::getline(in, line);  // header
  const std::vector<ScreeningName> names = paper_names(builtin_name_data());
  std::size_t i = 0;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::size_t start = 0;
    for (std::size_t comma; (comma = line.find(',', start)) != std::string::npos; start = comma + 1)
      cells.push_back(line.substr(start, comma - start));
    cells.push_back(line.substr(start));
    ASSERT_LT(i, names.size());
    EXPECT_EQ(names[i].first_name, cells[0]);
    EXPECT_EQ(names[i].last_name, cells[1]);
    EXPECT_EQ(names[i].ethnicity, cells[2]);
    EXPECT_EQ(names[i].gender, cells[3]);
    EXPECT_EQ(names[i].source, "paper");
    ++i;
  }
  EXPECT_EQ(i, 48u);
  EXPECT_EQ(names.size(), 48u);
  // Evidence from the sources; a surname the Census lacks is null, not guessed.
  EXPECT_NEAR(names[0].evidence.at("first_name_share").get<double>(), 0.9887, 1e-9);  // Bradley, White
  bool some_surname_missing = false;
  for (const auto& name : names) some_surname_missing |= name.evidence.at("surname_share").is_null();
  EXPECT_TRUE(some_surname_missing);
}

TEST(ScreeningNames, BadNameDataNamesTheField) {
  const std::string good_head = R"({"format":"codebias-names/1","source":"s","prefilter":"p",)";
  try {
    parse_name_data(good_head + R"("first_names":[{"name":"A","observations":3,"ethnicity":{"White":1.5,"Black":0,"API":0,"Hispanic":0},"gender":"Male","gender_probability":1}],"surnames":[],"paper":[]})",
                    "names.json");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("names.json: first_names[0].ethnicity.White"), std::string::npos)
        << error.what();
  }
  EXPECT_THROW(parse_name_data(R"({"format":"other"})", "x"), std::runtime_error);
  try {
    parse_name_data("{\n\"format\": ", "names.json");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("names.json:2"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace codebias::prompts
