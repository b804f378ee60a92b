#include "metrics/labour_force.h"

#include <cctype>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "base/builtin_data.h"

namespace codebias::metrics {
namespace {

using nlohmann::json;

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

json parse_json(std::string_view text, const std::string& where) {
  try {
    return json::parse(text);
  } catch (const json::parse_error& error) {
    throw std::runtime_error(where + ": not valid JSON: " + error.what());
  }
}

const json& member(const json& object, const char* key, const std::string& where) {
  if (!object.is_object() || !object.contains(key)) {
    throw std::runtime_error(where + ": missing field \"" + key + "\"");
  }
  return object.at(key);
}

std::string string_member(const json& object, const char* key, const std::string& where) {
  const json& value = member(object, key, where);
  if (!value.is_string()) throw std::runtime_error(where + ": field \"" + key + "\" must be a string");
  return value.get<std::string>();
}

std::optional<double> share_member(const json& object, const char* key, const std::string& where) {
  const json& value = member(object, key, where);
  if (value.is_null()) return std::nullopt;
  if (!value.is_number() || value.get<double>() < 0 || value.get<double>() > 1) {
    throw std::runtime_error(where + ": field \"" + key + "\" must be a fraction in [0, 1] or null");
  }
  return value.get<double>();
}

std::map<std::string, double> shares_object(const json& object, const char* key,
                                            const std::string& where) {
  const json& value = member(object, key, where);
  if (!value.is_object()) throw std::runtime_error(where + ": field \"" + key + "\" must be an object");
  std::map<std::string, double> out;
  for (const auto& [group, share] : value.items()) {
    if (!share.is_number() || share.get<double>() < 0 || share.get<double>() > 1) {
      throw std::runtime_error(where + ": " + key + "." + group + " must be a fraction in [0, 1]");
    }
    out[group] = share.get<double>();
  }
  return out;
}

GroupShares group_shares(const json& object, const std::string& where) {
  return GroupShares{shares_object(object, "gender", where), shares_object(object, "ethnicity", where)};
}

// " words " with single spaces, so a phrase matches as whole words by a plain find.
std::string padded(std::string_view normalised) { return " " + std::string(normalised) + " "; }

}  // namespace

const OccupationRow* LabourForceTable::find(std::string_view occupation) const {
  const std::string wanted = lower(occupation);
  for (const auto& row : rows) {
    if (lower(row.occupation) == wanted) return &row;
  }
  return nullptr;
}

const OccupationRow& LabourForceTable::total() const {
  for (const auto& row : rows) {
    if (row.level == 0) return row;
  }
  throw std::logic_error("LabourForceTable has no total row");
}

LabourForceTable parse_labour_force_table(std::string_view text, const std::string& where) {
  const json document = parse_json(text, where);
  LabourForceTable table;
  table.source = string_member(document, "source", where);
  const json& year = member(document, "year", where);
  if (!year.is_number_integer()) throw std::runtime_error(where + ": field \"year\" must be an integer");
  table.year = year.get<int>();
  const json& rows = member(document, "rows", where);
  if (!rows.is_array() || rows.empty()) throw std::runtime_error(where + ": \"rows\" must be a non-empty array");
  int totals = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::string at = where + ": rows[" + std::to_string(i) + "]";
    const json& row = rows[i];
    OccupationRow out;
    out.occupation = string_member(row, "occupation", at);
    const json& level = member(row, "level", at);
    if (!level.is_number_integer() || level.get<int>() < 0) {
      throw std::runtime_error(at + ": field \"level\" must be an integer >= 0");
    }
    out.level = level.get<int>();
    const json& employed = member(row, "employed_thousands", at);
    if (!employed.is_number() || employed.get<double>() < 0) {
      throw std::runtime_error(at + ": field \"employed_thousands\" must be a number >= 0");
    }
    out.employed_thousands = employed.get<double>();
    out.women = share_member(row, "women", at);
    out.white = share_member(row, "white", at);
    out.black = share_member(row, "black", at);
    out.asian = share_member(row, "asian", at);
    out.hispanic = share_member(row, "hispanic", at);
    if (table.find(out.occupation) != nullptr) {
      throw std::runtime_error(at + ": occupation \"" + out.occupation + "\" appears twice");
    }
    if (out.level == 0) ++totals;
    table.rows.push_back(std::move(out));
  }
  if (totals != 1) throw std::runtime_error(where + ": needs exactly one total row (level 0)");
  if (!table.total().women || !table.total().white || !table.total().black ||
      !table.total().asian || !table.total().hispanic) {
    throw std::runtime_error(where + ": the total row must have every share");
  }
  return table;
}

const LabourForceTable& builtin_labour_force_table() {
  static const LabourForceTable table =
      parse_labour_force_table(data::builtin_cps_table11_json(), "data/screening/cps_table11.json");
  return table;
}

GroupShares occupation_shares(const OccupationRow& row) {
  GroupShares shares;
  if (row.women) {
    shares.gender["Female"] = *row.women;
    shares.gender["Male"] = 1 - *row.women;
  }
  if (row.white) shares.ethnicity["White"] = *row.white;
  if (row.black) shares.ethnicity["Black"] = *row.black;
  if (row.asian) shares.ethnicity["API"] = *row.asian;
  if (row.hispanic) shares.ethnicity["Hispanic"] = *row.hispanic;
  return shares;
}

std::string normalise_job_text(std::string_view text) {
  std::string out;
  bool pending_space = false;
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    // Bytes of UTF-8 sequences count as letters: "résumé" stays one word.
    if (std::isalnum(byte) || byte >= 0x80) {
      if (pending_space && !out.empty()) out += ' ';
      pending_space = false;
      out += static_cast<char>(std::tolower(byte));
    } else {
      pending_space = true;
    }
  }
  return out;
}

JobAreaRules parse_job_area_rules(std::string_view text, const std::string& where,
                                  const LabourForceTable& table) {
  const json document = parse_json(text, where);
  JobAreaRules rules;
  rules.source = string_member(document, "source", where);
  const json& list = member(document, "rules", where);
  if (!list.is_array() || list.empty()) throw std::runtime_error(where + ": \"rules\" must be a non-empty array");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string at = where + ": rules[" + std::to_string(i) + "]";
    JobAreaRule rule;
    rule.id = string_member(list[i], "id", at);
    rule.occupation = string_member(list[i], "occupation", at);
    if (table.find(rule.occupation) == nullptr) {
      throw std::runtime_error(at + " (" + rule.id + "): occupation \"" + rule.occupation +
                               "\" is not a row of the labour-force table");
    }
    const json& phrases = member(list[i], "phrases", at);
    if (!phrases.is_array() || phrases.empty()) {
      throw std::runtime_error(at + " (" + rule.id + "): \"phrases\" must be a non-empty array");
    }
    for (const auto& phrase : phrases) {
      if (!phrase.is_string() || normalise_job_text(phrase.get<std::string>()) != phrase.get<std::string>() ||
          phrase.get<std::string>().empty()) {
        throw std::runtime_error(at + " (" + rule.id + "): every phrase must be a non-empty normalised string "
                                 "(lower case, words separated by one space), got " + phrase.dump());
      }
      rule.phrases.push_back(phrase.get<std::string>());
    }
    for (const auto& earlier : rules.rules) {
      if (earlier.id == rule.id) throw std::runtime_error(at + ": id \"" + rule.id + "\" appears twice");
    }
    rules.rules.push_back(std::move(rule));
  }
  return rules;
}

const JobAreaRules& builtin_job_area_rules() {
  static const JobAreaRules rules = parse_job_area_rules(
      data::builtin_job_areas_json(), "data/screening/job_areas.json", builtin_labour_force_table());
  return rules;
}

OccupationMatch map_job_text(std::string_view text, const JobAreaRules& rules,
                             const LabourForceTable& table) {
  const std::string haystack = padded(normalise_job_text(text));
  for (const auto& rule : rules.rules) {
    for (const auto& phrase : rule.phrases) {
      if (haystack.find(padded(phrase)) != std::string::npos) {
        return OccupationMatch{table.find(rule.occupation), rule.id, ""};
      }
    }
  }
  return {};
}

OccupationMatch map_resume_occupation(const std::optional<std::string>& job_title,
                                      const std::optional<std::string>& job_area,
                                      const JobAreaRules& rules, const LabourForceTable& table) {
  if (job_title) {
    OccupationMatch match = map_job_text(*job_title, rules, table);
    if (match.row != nullptr) {
      match.matched_field = "job_title";
      return match;
    }
  }
  if (job_area) {
    OccupationMatch match = map_job_text(*job_area, rules, table);
    if (match.row != nullptr) {
      match.matched_field = "job_area";
      return match;
    }
  }
  return {};
}

BaselineKind parse_baseline_kind(std::string_view name) {
  if (name == "cps") return BaselineKind::kCps;
  if (name == "paper") return BaselineKind::kPaper;
  throw std::invalid_argument("unknown baseline \"" + std::string(name) + "\" (expected cps or paper)");
}

std::string baseline_kind_name(BaselineKind kind) { return kind == BaselineKind::kCps ? "cps" : "paper"; }

std::optional<AreaBaseline> LabourForceBaseline::for_area(std::string_view job_area) const {
  if (kind == BaselineKind::kPaper) {
    std::string key = normalise_job_text(job_area);
    for (char& c : key) {
      if (c == ' ') c = '_';
    }
    const auto found = paper_areas.find(key);
    if (found == paper_areas.end()) return std::nullopt;
    return AreaBaseline{key, found->second};
  }
  if (table == nullptr || rules == nullptr) return std::nullopt;
  const OccupationMatch match = map_job_text(job_area, *rules, *table);
  if (match.row == nullptr) return std::nullopt;
  return AreaBaseline{match.row->occupation, occupation_shares(*match.row)};
}

LabourForceBaseline parse_paper_baseline(std::string_view text, const std::string& where) {
  const json document = parse_json(text, where);
  LabourForceBaseline baseline;
  baseline.kind = BaselineKind::kPaper;
  baseline.source = string_member(document, "source", where);
  baseline.total = group_shares(member(document, "total", where), where + ": total");
  const json& areas = member(document, "areas", where);
  if (!areas.is_object()) throw std::runtime_error(where + ": \"areas\" must be an object");
  for (const auto& [key, value] : areas.items()) {
    baseline.paper_areas[key] = group_shares(value, where + ": areas." + key);
  }
  return baseline;
}

const LabourForceBaseline& builtin_baseline(BaselineKind kind) {
  static const LabourForceBaseline paper = parse_paper_baseline(
      data::builtin_paper_labour_force_json(), "data/screening/paper_labour_force.json");
  static const LabourForceBaseline cps = [] {
    LabourForceBaseline baseline;
    baseline.kind = BaselineKind::kCps;
    baseline.table = &builtin_labour_force_table();
    baseline.rules = &builtin_job_area_rules();
    baseline.source = baseline.table->source;
    baseline.total = occupation_shares(baseline.table->total());
    return baseline;
  }();
  return kind == BaselineKind::kCps ? cps : paper;
}

}  // namespace codebias::metrics
