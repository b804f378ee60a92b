// ProbeDebias's code-quality score: pylint over batches of files in the sandbox (quality stage).
#include "quality/pylint_score.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace codebias::quality {

namespace {

using nlohmann::json;

constexpr std::string_view kResultMark = "CODEBIAS-PYLINT ";
constexpr const char* kCategories[] = {"fatal", "error", "warning", "refactor", "convention", "info"};

// pylint 2.16 has no per-module score in any output format (json2 came with 3.0), but its stats
// keep per-module counts; this reporter applies the run's own evaluation expression to them.
constexpr std::string_view kReporter = R"PY(
import json
from pylint.reporters.base_reporter import BaseReporter


class ModuleScoreReporter(BaseReporter):
    name = "codebias-module-scores"

    def __init__(self, output=None):
        super().__init__(output)
        self.paths = {}
        self.symbols = {}

    def on_set_current_module(self, module, filepath):
        self.paths[module] = filepath

    def handle_message(self, msg):
        counts = self.symbols.setdefault(msg.path, {})
        counts[msg.symbol] = counts.get(msg.symbol, 0) + 1

    def _display(self, layout):
        pass

    def display_reports(self, layout):
        pass

    def on_close(self, stats, previous_stats):
        evaluation = self.linter.config.evaluation
        modules = {}
        for module, module_stats in stats.by_module.items():
            counts = {key: module_stats[key] for key in
                      ("fatal", "error", "warning", "refactor", "convention", "info", "statement")}
            note = eval(evaluation, {}, dict(counts)) if counts["statement"] else None
            path = self.paths.get(module, module)
            modules[path] = {"counts": counts, "note": note, "messages": self.symbols.get(path, {})}
        self.out.write("CODEBIAS-PYLINT " + json.dumps(modules) + "\n")
        self.out.flush()
)PY";

std::string file_name(std::size_t index) {
  char name[32];
  std::snprintf(name, sizeof name, "s%06zu.py", index);
  return name;
}

std::optional<json> reporter_result(const std::string& output) {
  auto at = output.rfind(kResultMark);
  if (at == std::string::npos) return std::nullopt;
  auto end = output.find('\n', at);
  json parsed = json::parse(output.substr(at + kResultMark.size(), end == std::string::npos ? std::string::npos
                                                                                           : end - at - kResultMark.size()),
                            nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object()) return std::nullopt;
  return parsed;
}

QualityScore score_of(const json& module) {
  QualityScore score;
  const json& counts = module["counts"];
  for (const char* category : kCategories) score.counts[category] = counts.value(category, 0L);
  score.statements = counts.value("statement", 0L);
  for (const auto& [symbol, count] : module["messages"].items()) score.messages[symbol] = count.get<long>();
  if (module["note"].is_number()) {
    score.scored = true;
    score.pylint_note = module["note"].get<double>();
    score.score = quality_from_pylint_note(*score.pylint_note);
  } else if (score.counts["error"] > 0 || score.counts["fatal"] > 0) {
    // No statements and an error: pylint could not parse the file. Code that does not parse
    // has no quality to speak of.
    score.scored = true;
    score.syntax_error = true;
  } else {
    score.not_scored_reason = "no_statements";
  }
  return score;
}

void score_batch(const std::vector<std::string>& sources, std::size_t first, std::size_t count,
                 const PylintOptions& options, std::vector<QualityScore>& scores) {
  SandboxRequest request;
  request.program = options.pylint;
  request.files = {{"codebias_pylint_reporter.py", std::string(kReporter)}, {"pylintrc", ""}};
  // An empty rcfile: the defaults, whatever configuration the machine or the code's folder has.
  request.args = {"--rcfile=pylintrc", "--persistent=n", "--jobs=1", "--disable=duplicate-code,cyclic-import",
                  "--output-format=codebias_pylint_reporter.ModuleScoreReporter"};
  for (std::size_t index = first; index < first + count; ++index) {
    request.files.emplace_back(file_name(index), sources[index]);
    request.args.push_back(file_name(index));
  }
  request.env = {{"PYTHONPATH", "."}};
  request.limits = options.limits;
  request.temp_root = options.temp_root;
  SandboxResult run = run_sandboxed(request);

  std::optional<json> report = reporter_result(run.stdout_text);
  for (std::size_t index = first; index < first + count; ++index) {
    QualityScore& score = scores[index];
    if (!report) {
      std::string why = run.stderr_text.substr(0, 200);
      score.not_scored_reason = "pylint_failed: " + run.describe() + (why.empty() ? "" : ": " + why);
      continue;
    }
    auto module = report->find(file_name(index));
    if (module == report->end()) score.not_scored_reason = "pylint_failed: no report for the file";
    else score = score_of(*module);
  }
}

}  // namespace

void require_pylint(const PylintOptions& options) {
  if (::access(options.pylint.c_str(), X_OK) != 0) {
    throw std::runtime_error("pylint not found at " + options.pylint +
                             " (install the Debian package: apt-get install pylint)");
  }
}

std::vector<QualityScore> pylint_scores(const std::vector<std::string>& sources, const PylintOptions& options) {
  require_pylint(options);
  std::vector<QualityScore> scores(sources.size());
  const std::size_t batch = std::max<std::size_t>(options.batch_size, 1);
  for (std::size_t first = 0; first < sources.size(); first += batch) {
    score_batch(sources, first, std::min(batch, sources.size() - first), options, scores);
  }
  return scores;
}

double quality_from_pylint_note(double note) { return std::clamp(note / 10.0, 0.0, 1.0); }

}  // namespace codebias::quality
