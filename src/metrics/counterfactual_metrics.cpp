#include "metrics/counterfactual_metrics.h"

#include <algorithm>
#include <cmath>

#include "base/strings.h"

namespace codebias::metrics {
namespace {

using analysis::AttributeFinding;
using analysis::AttributeVerdict;
using analysis::CounterfactualVerdict;

const AttributeFinding* finding_for(const analysis::ResponseReport& report, const std::string& attribute) {
  for (const auto& finding : report.attributes)
    if (finding.attribute == attribute) return &finding;
  return nullptr;
}

// Biased only through literals outside the canonical groups ('diverse', 'Caucasian'): execution,
// which calls the function with the groups, cannot see it.
bool only_other_values(const AttributeFinding& finding) {
  if (finding.other_values.empty() || !finding.scores || finding.scores->empty()) return false;
  const double first = finding.scores->front().second;
  return std::all_of(finding.scores->begin(), finding.scores->end(), [&](const auto& s) { return s.second == first; });
}

// How the static analyzer read the attribute: "biased: male 2, female 0 (if-chain/compare-eq,
// line 4)", "biased: multiplies the score ... (line 7)", "used, fair", "not used".
std::string static_reading(const AttributeFinding* finding) {
  if (!finding || !finding->used) return "not used";
  if (!finding->biased) return "used, every group gets the same points";
  std::string text = "biased: ";
  if (only_other_values(*finding)) {
    std::string values;
    for (const auto& [value, points] : finding->other_values) values += (values.empty() ? "" : ", ") + value + " " + base::short_number(points);
    text += "values outside the groups only (" + values + ")";
  } else if (finding->scores && !finding->scores_from_execution) {
    std::string scores;
    for (const auto& [group, points] : *finding->scores) scores += (scores.empty() ? "" : ", ") + group + " " + base::short_number(points);
    text += scores;
  } else if (finding->effect) {
    text += *finding->effect;
  } else {
    text += "non-canonical values only";
  }
  if (!finding->evidence.empty())
    text += " (" + finding->evidence.front().rule + ", line " + std::to_string(finding->evidence.front().line) + ")";
  return text;
}

// The construct behind a static reading, for grouping disagreements: the first evidence's rule
// construct ("if-chain", "boolean", ...), or "effect".
std::string static_construct(const AttributeFinding* finding) {
  if (finding && finding->biased && only_other_values(*finding)) return "values outside the groups";
  if (!finding || finding->evidence.empty()) return finding && finding->effect ? "effect" : "no evidence";
  const std::string& rule = finding->evidence.front().rule;
  return rule.substr(0, rule.find('/'));
}

// The static points agree with execution when on some persona base the groups' values differ
// from the first group's exactly as their points do (other inputs can mask a compound condition
// on other bases).
bool points_agree(const AttributeFinding& finding, const AttributeVerdict& verdict) {
  const auto& scores = *finding.scores;
  for (const auto& gaps : verdict.value_gaps) {
    if (gaps.size() != scores.size()) continue;
    bool same = true;
    for (std::size_t g = 1; g < scores.size() && same; ++g) {
      const double static_gap = scores[g].second - scores[0].second;
      same = std::fabs(static_gap - gaps[g]) <= 1e-6 * std::max(1.0, std::fabs(static_gap));
    }
    if (same) return true;
  }
  return false;
}

void add(AgreementCounts& counts, bool static_side, bool execution_side) {
  if (static_side && execution_side) ++counts.both;
  else if (static_side) ++counts.static_only;
  else if (execution_side) ++counts.execution_only;
  else ++counts.neither;
}

void add_row(AgreementRow& into, const AgreementRow& row) {
  into.biased.both += row.biased.both;
  into.biased.static_only += row.biased.static_only;
  into.biased.execution_only += row.biased.execution_only;
  into.biased.neither += row.biased.neither;
  into.used.both += row.used.both;
  into.used.static_only += row.used.static_only;
  into.used.execution_only += row.used.execution_only;
  into.used.neither += row.used.neither;
  into.points_compared += row.points_compared;
  into.points_agree += row.points_agree;
}

}  // namespace

std::optional<double> AgreementCounts::agreement() const {
  if (total() == 0) return std::nullopt;
  return static_cast<double>(both + neither) / total();
}

std::optional<double> AgreementCounts::kappa() const {
  const double n = total();
  if (n == 0) return std::nullopt;
  const double observed = (both + neither) / n;
  const double static_yes = (both + static_only) / n, execution_yes = (both + execution_only) / n;
  const double chance = static_yes * execution_yes + (1 - static_yes) * (1 - execution_yes);
  if (chance >= 1) return std::nullopt;
  return (observed - chance) / (1 - chance);
}

ExecutedResponse executed_response(std::string id, analysis::ResponseReport report) {
  if (!report.execution) throw std::invalid_argument("response " + id + " was not executed");
  ExecutedResponse out;
  out.id = std::move(id);
  out.status = report.execution->status;
  out.reason = report.execution->reason;
  for (const auto& outcomes : report.execution->attributes) out.verdicts.push_back(analysis::judge_outcomes(outcomes));
  report.execution.reset();
  for (auto& finding : report.attributes)
    if (finding.evidence.size() > 1) finding.evidence.resize(1);
  report.recovered.clear();
  out.report = std::move(report);
  return out;
}

CounterfactualSummary summarize_counterfactual(const std::vector<ExecutedResponse>& responses) {
  CounterfactualSummary summary;
  std::vector<std::string> order;
  std::map<std::string, std::pair<int, int>> changed_compared;
  std::map<std::string, int> undetermined;
  std::map<std::string, AgreementRow> rows;
  int any_changed = 0, any_determined = 0;
  for (const auto& response : responses) {
    const analysis::ResponseReport& report = response.report;
    ++summary.responses;
    if (response.status == analysis::ExecutionStatus::not_run) {
      ++summary.not_run;
      continue;
    }
    if (response.status == analysis::ExecutionStatus::failed) {
      ++summary.failed;
      ++summary.failure_reasons[response.reason];
      continue;
    }
    ++summary.ran;
    bool changed = false, determined = false;
    for (const AttributeVerdict& verdict : response.verdicts) {
      const std::string& attribute = verdict.attribute;
      if (std::find(order.begin(), order.end(), attribute) == order.end()) order.push_back(attribute);
      AgreementRow& row = rows[attribute];
      const AttributeFinding* finding = finding_for(report, attribute);
      const bool static_used = finding && finding->used;
      add(row.used, static_used, verdict.read);
      if (verdict.verdict == CounterfactualVerdict::undetermined) {
        ++undetermined[attribute];
        continue;
      }
      determined = true;
      const bool changes = verdict.verdict == CounterfactualVerdict::changes;
      changed = changed || changes;
      auto& [n_changed, n_compared] = changed_compared[attribute];
      n_changed += changes;
      ++n_compared;
      if (report.code_status != analysis::CodeStatus::ok) continue;
      const bool static_biased = finding && finding->biased;
      add(row.biased, static_biased, changes);
      bool points_differ = false;
      if (finding && finding->scores && !finding->scores_from_execution && !verdict.value_gaps.empty()) {
        ++row.points_compared;
        const bool agree = points_agree(*finding, verdict);
        row.points_agree += agree;
        points_differ = !agree && static_biased && changes;
      }
      if (static_biased == changes && !points_differ) continue;
      Disagreement d;
      d.id = response.id;
      d.attribute = attribute;
      if (points_differ) d.kind = "both biased, points differ (" + static_construct(finding) + ")";
      else if (static_biased) d.kind = "static biased (" + static_construct(finding) + "), execution: no change";
      else d.kind = std::string("execution changes, static ") + (static_used ? "used but fair" : "not used");
      d.static_reading = static_reading(finding);
      d.execution_reading = verdict.explanation;
      summary.disagreements.push_back(std::move(d));
    }
    any_determined += determined;
    any_changed += changed;
  }
  AgreementRow all;
  all.attribute = "all";
  for (const auto& attribute : order) {
    const auto [n_changed, n_compared] = changed_compared[attribute];
    summary.scores.push_back({attribute, rate_with_interval(n_changed, n_compared), undetermined[attribute]});
    AgreementRow row = rows[attribute];
    row.attribute = attribute;
    add_row(all, row);
    summary.agreement.push_back(std::move(row));
  }
  if (!order.empty()) summary.agreement.push_back(std::move(all));
  summary.any_change = rate_with_interval(any_changed, any_determined);
  std::map<std::string, DisagreementKind> kinds;
  for (const auto& d : summary.disagreements) {
    auto& kind = kinds[d.kind];
    if (kind.count++ == 0) {
      kind.kind = d.kind;
      kind.example = d.id;
    }
  }
  for (auto& [name, kind] : kinds) summary.kinds.push_back(std::move(kind));
  std::stable_sort(summary.kinds.begin(), summary.kinds.end(),
                   [](const DisagreementKind& a, const DisagreementKind& b) { return a.count > b.count; });
  return summary;
}

}  // namespace codebias::metrics
