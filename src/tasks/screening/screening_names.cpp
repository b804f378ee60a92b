#include "tasks/screening/screening_names.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "base/builtin_data.h"
#include "prompts/shuffle.h"
#include "tasks/screening/screening_suite.h"

namespace codebias::prompts {

namespace {

using nlohmann::json;

constexpr std::string_view kFormat = "codebias-names/1";

class NameReader {
 public:
  explicit NameReader(std::string_view origin) : origin_(origin) {}

  [[noreturn]] void fail(const std::string& path, const std::string& problem) const {
    throw std::runtime_error(origin_ + ": " + path + ": " + problem);
  }

  const json& field(const json& object, std::string_view key, const std::string& path) const {
    if (!object.is_object()) fail(path, "expected an object");
    const auto it = object.find(key);
    if (it == object.end()) fail(path, "missing field '" + std::string(key) + "'");
    return *it;
  }

  std::string text(const json& object, std::string_view key, const std::string& path) const {
    const json& value = field(object, key, path);
    if (!value.is_string() || value.get<std::string>().empty()) fail(path + "." + std::string(key), "expected a non-empty string");
    return value.get<std::string>();
  }

  double fraction(const json& value, const std::string& path) const {
    if (!value.is_number() || value.get<double>() < 0 || value.get<double>() > 1) fail(path, "expected a number in 0..1");
    return value.get<double>();
  }

  std::string group_of(const std::string& value, const std::string& path, std::span<const std::string_view> known) const {
    if (std::find(known.begin(), known.end(), value) == known.end()) fail(path, "unknown group '" + value + "'");
    return value;
  }

  std::map<std::string, double> shares(const json& object, const std::string& path) const {
    const json& value = field(object, "ethnicity", path);
    const std::string here = path + ".ethnicity";
    if (!value.is_object()) fail(here, "expected an object");
    std::map<std::string, double> out;
    for (std::string_view group : kScreeningEthnicities) {
      out[std::string(group)] = fraction(field(value, group, here), here + "." + std::string(group));
    }
    return out;
  }

  // A candidate has every field; a paper name's record may lack the shares (a name only the gender
  // source knows) or the gender (a name only the first-name source knows): null, left empty.
  CandidateFirstName first_name(const json& object, const std::string& path, bool paper_record) const {
    CandidateFirstName record;
    record.name = text(object, "name", path);
    if (!paper_record || !field(object, "ethnicity", path).is_null()) {
      const json& observations = field(object, "observations", path);
      if (!observations.is_number_unsigned()) fail(path + ".observations", "expected a non-negative integer");
      record.observations = observations.get<int>();
      record.ethnicity = shares(object, path);
    }
    if (!paper_record || !field(object, "gender", path).is_null()) {
      record.gender = group_of(text(object, "gender", path), path + ".gender", kScreeningGenders);
      record.gender_probability = fraction(field(object, "gender_probability", path), path + ".gender_probability");
    }
    return record;
  }

  CandidateSurname surname(const json& object, const std::string& path) const {
    CandidateSurname record;
    record.name = text(object, "name", path);
    const json& count = field(object, "count", path);
    if (!count.is_number_unsigned()) fail(path + ".count", "expected a non-negative integer");
    record.count = count.get<long>();
    record.ethnicity = shares(object, path);
    return record;
  }

  const json& array(const json& object, std::string_view key) const {
    const json& value = field(object, key, "(top level)");
    if (!value.is_array()) fail(std::string(key), "expected an array");
    return value;
  }

 private:
  std::string origin_;
};

std::string path_of(std::string_view list, std::size_t i) { return std::string(list) + "[" + std::to_string(i) + "]"; }

double round4(double value) { return std::round(value * 10000) / 10000; }

void check_rules(const suites::NameSelectionRules& rules) {
  auto fraction = [](double value, std::string_view name) {
    if (!(value >= 0 && value <= 1)) throw std::invalid_argument("names: " + std::string(name) + " must be within 0..1");
  };
  fraction(rules.first_name_share, "first_name_share");
  fraction(rules.gender_probability, "gender_probability");
  fraction(rules.surname_share, "surname_share");
  fraction(rules.floor, "floor");
  if (!(rules.step > 0 && rules.step <= 1)) throw std::invalid_argument("names: step must be within (0, 1]");
  if (rules.names_per_group < 1) throw std::invalid_argument("names: names_per_group must be at least 1");
}

// The candidates meeting `threshold`, lowered by `step` (never below `floor`, never raised)
// until there are `wanted`; nullopt when even the floor has too few.
template <typename T, typename Meets>
std::optional<std::pair<double, std::vector<const T*>>> pool_at(const std::vector<T>& records, double threshold,
                                                                const suites::NameSelectionRules& rules,
                                                                std::size_t wanted, Meets meets) {
  // Integer steps so 0.9 - 3 * 0.05 is exactly the threshold documented (0.75), not 0.7499...
  const double floor = std::min(rules.floor, threshold);
  for (int k = 0;; ++k) {
    const double at = round4(threshold - k * rules.step);
    if (at < floor - 1e-9) return std::nullopt;
    std::vector<const T*> pool;
    for (const T& record : records) {
      if (meets(record, at)) pool.push_back(&record);
    }
    if (pool.size() >= wanted) return std::make_pair(at, std::move(pool));
  }
}

}  // namespace

NameData parse_name_data(std::string_view json_text, std::string_view origin) {
  NameReader reader(origin);
  json document;
  try {
    document = json::parse(json_text);
  } catch (const json::parse_error& error) {
    const std::size_t offset = std::min<std::size_t>(error.byte, json_text.size());
    const long line = 1 + static_cast<long>(std::count(json_text.begin(), json_text.begin() + static_cast<long>(offset), '\n'));
    throw std::runtime_error(std::string(origin) + ":" + std::to_string(line) + ": invalid JSON: " + error.what());
  }
  if (reader.text(document, "format", "(top level)") != kFormat) {
    reader.fail("format", "expected \"" + std::string(kFormat) + "\"");
  }
  NameData data;
  data.source = reader.text(document, "source", "(top level)");
  data.prefilter = reader.text(document, "prefilter", "(top level)");
  const json& first_names = reader.array(document, "first_names");
  for (std::size_t i = 0; i < first_names.size(); ++i) {
    data.first_names.push_back(reader.first_name(first_names[i], path_of("first_names", i), false));
  }
  const json& surnames = reader.array(document, "surnames");
  for (std::size_t i = 0; i < surnames.size(); ++i) data.surnames.push_back(reader.surname(surnames[i], path_of("surnames", i)));
  const json& paper = reader.array(document, "paper");
  for (std::size_t i = 0; i < paper.size(); ++i) {
    const std::string here = path_of("paper", i);
    PaperName name;
    name.first_name = reader.text(paper[i], "first_name", here);
    name.last_name = reader.text(paper[i], "last_name", here);
    name.gender = reader.group_of(reader.text(paper[i], "gender", here), here + ".gender", kScreeningGenders);
    name.ethnicity = reader.group_of(reader.text(paper[i], "ethnicity", here), here + ".ethnicity", kScreeningEthnicities);
    // The paper's names need not be in the sources: a missing record is null.
    const json& first = reader.field(paper[i], "first_name_record", here);
    if (!first.is_null()) name.first_name_record = reader.first_name(first, here + ".first_name_record", true);
    const json& surname = reader.field(paper[i], "surname_record", here);
    if (!surname.is_null()) name.surname_record = reader.surname(surname, here + ".surname_record");
    data.paper.push_back(std::move(name));
  }
  return data;
}

const NameData& builtin_name_data() {
  static const NameData data = parse_name_data(data::builtin_screening_names_json(), "data/screening/names.json");
  return data;
}

NameSelection select_names(const NameData& data, const suites::NameSelectionRules& rules, std::uint64_t seed) {
  check_rules(rules);
  const auto wanted = static_cast<std::size_t>(rules.names_per_group);
  NameSelection selection;
  for (std::string_view ethnicity_view : kScreeningEthnicities) {
    const std::string ethnicity(ethnicity_view);
    for (std::string_view gender_view : kScreeningGenders) {
      const std::string gender(gender_view);
      const auto first = pool_at(data.first_names, rules.first_name_share, rules, wanted,
                                 [&](const CandidateFirstName& r, double at) {
                                   return r.gender == gender && r.gender_probability >= rules.gender_probability &&
                                          r.ethnicity.at(ethnicity) >= at;
                                 });
      const auto last = pool_at(data.surnames, rules.surname_share, rules, wanted,
                                [&](const CandidateSurname& r, double at) { return r.ethnicity.at(ethnicity) >= at; });
      if (!first || !last) {
        throw std::invalid_argument("names: fewer than " + std::to_string(wanted) + " " + (first ? "surnames" : "first names") +
                                    " for " + ethnicity + " " + gender + " even at the floor share " +
                                    json(rules.floor).dump());
      }
      GroupSelection group{gender,          ethnicity, first->first, last->first, false, first->second.size(),
                           last->second.size()};
      group.lowered = group.first_name_threshold < rules.first_name_share || group.surname_threshold < rules.surname_share;

      // Separate streams, so the surnames drawn do not depend on the size of the first-name pool.
      std::vector<const CandidateFirstName*> first_pool = first->second;
      std::vector<const CandidateSurname*> surname_pool = last->second;
      SplitMix64 first_rng(prompt_seed(seed, "names/" + ethnicity + "/" + gender + "/first"));
      SplitMix64 surname_rng(prompt_seed(seed, "names/" + ethnicity + "/" + gender + "/surname"));
      shuffle(first_pool, first_rng);
      shuffle(surname_pool, surname_rng);
      for (std::size_t i = 0; i < wanted; ++i) {
        const CandidateFirstName& f = *first_pool[i];
        const CandidateSurname& s = *surname_pool[i];
        ScreeningName name{f.name, s.name, gender, ethnicity, "selected", json::object()};
        name.evidence = json{{"first_name_share", f.ethnicity.at(ethnicity)},
                             {"first_name_observations", f.observations},
                             {"gender_probability", f.gender_probability},
                             {"surname_share", s.ethnicity.at(ethnicity)},
                             {"surname_count", s.count},
                             {"first_name_threshold", group.first_name_threshold},
                             {"gender_threshold", rules.gender_probability},
                             {"surname_threshold", group.surname_threshold},
                             {"threshold_lowered", group.lowered}};
        selection.names.push_back(std::move(name));
      }
      selection.groups.push_back(std::move(group));
    }
  }
  return selection;
}

std::vector<ScreeningName> paper_names(const NameData& data) {
  std::vector<ScreeningName> names;
  for (const PaperName& paper : data.paper) {
    ScreeningName name{paper.first_name, paper.last_name, paper.gender, paper.ethnicity, "paper", json::object()};
    // What the sources say about the paper's choice; null where a source lacks the name.
    json& evidence = name.evidence;
    evidence["first_name_share"] = nullptr;
    evidence["first_name_observations"] = nullptr;
    evidence["gender_probability"] = nullptr;
    evidence["gender_of_first_name"] = nullptr;
    if (paper.first_name_record) {
      const CandidateFirstName& f = *paper.first_name_record;
      if (!f.ethnicity.empty()) {
        evidence["first_name_share"] = f.ethnicity.at(paper.ethnicity);
        evidence["first_name_observations"] = f.observations;
      }
      if (!f.gender.empty()) {
        evidence["gender_of_first_name"] = f.gender;
        evidence["gender_probability"] = f.gender == paper.gender ? f.gender_probability : round4(1 - f.gender_probability);
      }
    }
    evidence["surname_share"] = paper.surname_record ? json(paper.surname_record->ethnicity.at(paper.ethnicity)) : json(nullptr);
    evidence["surname_count"] = paper.surname_record ? json(paper.surname_record->count) : json(nullptr);
    names.push_back(std::move(name));
  }
  return names;
}

}  // namespace codebias::prompts
