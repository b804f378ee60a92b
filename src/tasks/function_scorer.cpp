// `codebias score` of answers that are functions: read by the static analyzer (the function and
// decision tasks), or by FairCoder's published scorer (faircoder-compat).
#include "tasks/function_scorer.h"

#include <algorithm>
#include <istream>

#include "analysis/batch.h"
#include "tasks/function/faircoder_compat_scorer.h"
#include "tasks/function/faircoder_compat.h"
#include "metrics/fairness.h"
#include "metrics/counterfactual_metrics.h"
#include "metrics/summary_format.h"
#include "execution/counterfactual_execution.h"
#include "reports/counterfactual_report.h"

namespace codebias::tasks {
namespace {

// What the metrics need of a report: everything but the evidence.
analysis::ResponseReport without_evidence(analysis::ResponseReport report) {
  for (auto& finding : report.attributes) finding.evidence.clear();
  report.recovered.clear();
  return report;
}

bool reported(const std::vector<analysis::ResponseReport>& reports, const std::string& attribute) {
  return std::any_of(reports.begin(), reports.end(), [&](const analysis::ResponseReport& report) {
    return std::any_of(report.attributes.begin(), report.attributes.end(),
                       [&](const analysis::AttributeFinding& finding) { return finding.attribute == attribute; });
  });
}

// The attributes a summary covers: the --attribute list, else every attribute some response
// reported (offered or used), in the order of `known` (attribute key and its groups).
metrics::AttributeGroups summary_attributes(const metrics::AttributeGroups& known,
                                            const std::vector<std::string>& listed,
                                            const std::vector<analysis::ResponseReport>& reports) {
  metrics::AttributeGroups groups;
  for (const auto& [key, names] : known) {
    const bool wanted = listed.empty() ? reported(reports, key)
                                       : std::find(listed.begin(), listed.end(), key) != listed.end();
    if (wanted) groups.emplace_back(key, names);
  }
  return groups;
}

metrics::AttributeGroups table_groups(const analysis::AttributeTable& table) {
  metrics::AttributeGroups groups;
  for (const auto& spec : table.specs()) {
    std::vector<std::string> names;
    for (const auto& group : spec.groups) names.push_back(group.name);
    groups.emplace_back(spec.key, std::move(names));
  }
  return groups;
}

metrics::AttributeGroups compat_groups() {
  metrics::AttributeGroups groups;
  for (const auto& attribute : metrics::faircoder_compat_attributes()) groups.emplace_back(attribute.key, attribute.groups);
  return groups;
}

using Summarize = metrics::SummaryMetrics (*)(const std::vector<analysis::ResponseReport>&,
                                              const metrics::AttributeGroups&, const metrics::MetricsOptions&);

// One reader of function-task lines for both scorers; they differ in how a response is analysed,
// which groups an attribute has, and how the metrics treat unmeasured responses.
class FunctionScorer : public Scorer {
 public:
  FunctionScorer(const ScoreSettings& settings, analysis::AnalyzeFn analyze, metrics::AttributeGroups groups,
                 Summarize summarize)
      : settings_(settings), analyze_(std::move(analyze)), groups_(std::move(groups)), summarize_(summarize) {
    static_cast<base::JsonlOptions&>(options_) = settings.engine;
    if (settings.execute) {
      // Counterfactual execution runs on the worker threads, each response in a sandboxed process
      // of its own, forked by one execution server per thread.
      const analysis::AttributeTable* table = settings.table;
      auto executor = std::make_shared<quality::CounterfactualExecutor>(
          quality::CounterfactualOptions{}, settings.engine.threads);  // 0: one server per core
      options_.after_analysis = [table, executor](const analysis::ScoreRequest& request, analysis::ResponseReport& report) {
        quality::CounterfactualProgram program{request.response, request.options, request.domains, {}};
        analysis::add_execution(report, executor->execute(program, *table));
      };
    }
    options_.defaults.scenario = settings.scenario;
    if (!settings.attributes.empty()) {
      try {
        options_.defaults.attributes = analysis::resolve_attributes(*settings.table, settings.attributes);
      } catch (const std::invalid_argument& error) {
        throw std::invalid_argument(std::string("--attributes: ") + error.what());
      }
      options_.defaults.only_listed = true;
    }
  }

  base::JsonlStats score(std::istream& in, std::string_view origin,
                         const std::function<void(std::string_view)>& write) override {
    return analysis::score_jsonl(in, origin, *settings_.table, analyze_, options_, [&](analysis::ScoredLine& line) {
      write(line.json);
      if (!settings_.want_summary || !line.result) return;
      if (line.result->execution) executed_.push_back(metrics::executed_response(line.id.value_or(""), *line.result));
      reports_.push_back(without_evidence(std::move(*line.result)));
    });
  }

  ScoreSummary summary() const override {
    metrics::MetricsOptions options;
    options.block = settings_.block.value_or(metrics::kDefaultBlock);
    const auto summary = summarize_(reports_, summary_attributes(groups_, options_.defaults.attributes, reports_), options);
    ScoreSummary out{metrics::format_table(summary), metrics::to_json(summary)};
    if (settings_.execute) {
      const auto counterfactual = metrics::summarize_counterfactual(executed_);
      out.table += "\n" + base::render(reports::counterfactual_document(counterfactual), base::DocumentFormat::text);
      out.json["counterfactual"] = reports::counterfactual_json(counterfactual);
    }
    return out;
  }

 private:
  ScoreSettings settings_;
  analysis::BatchOptions options_;
  analysis::AnalyzeFn analyze_;
  metrics::AttributeGroups groups_;
  Summarize summarize_;
  std::vector<analysis::ResponseReport> reports_;  // input order, for the metrics
  std::vector<metrics::ExecutedResponse> executed_;  // with --execute
};

}  // namespace

std::unique_ptr<Scorer> make_function_scorer(const ScoreSettings& settings) {
  auto analyzer = std::make_shared<const analysis::Analyzer>(*settings.table);
  analysis::AnalyzeFn analyze = [analyzer](std::string_view response, const analysis::AnalyzeOptions& options) {
    return analyzer->analyze(response, options);
  };
  return std::make_unique<FunctionScorer>(settings, std::move(analyze), table_groups(*settings.table),
                                          &metrics::summarize);
}

std::unique_ptr<Scorer> make_faircoder_compat_scorer(const ScoreSettings& settings) {
  if (settings.execute) throw std::invalid_argument("--execute does not apply to --task faircoder-compat");
  return std::make_unique<FunctionScorer>(settings, analysis::AnalyzeFn(metrics::analyze_faircoder_compat),
                                          compat_groups(), &metrics::summarize_faircoder_compat);
}

}  // namespace codebias::tasks
