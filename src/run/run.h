// `codebias run`: plan → generate → analyse → metrics → report files, in one run directory.
//
// The run directory holds the store (run.sqlite) and the report files (reports/run_report.h).
// A new run plans every sample up front and stores the plan; generation writes each sample as
// it arrives; a resumed run sends only what is still pending (and, when asked, what failed).
// Analysis and reports are always rebuilt from the whole store.
#pragma once

#include <filesystem>
#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "generation/sample.h"
#include "metrics/sample_source.h"
#include "run/budget.h"
#include "run/run_options.h"
#include "tasks/run_analysis.h"
#include "tasks/task.h"

namespace codebias::suites {
struct Suite;
}
namespace codebias::store {
class RunStore;
}

namespace codebias::run {

// The options with what the user left open filled from the suite: the task (the suite's
// default task, else function) and the temperature (the suite's, else kDefaultTemperature).
RunOptions with_suite_defaults(RunOptions options, const suites::Suite& suite);

// Every sample a run with these options asks for, in plan order: configuration, then prompt,
// then sample index. Ids are "<prompt id>#<k>" plus "@<configuration label>" in a sweep. With
// --limit, `limit_note` (when given) receives what the slice covers (prompt_slice.h).
// `task` is options.task, resolved by the caller (tasks::find_task) once.
std::vector<generation::PlannedSample> plan_samples(const RunOptions& options, const tasks::Task& task,
                                                    const suites::Suite& suite, std::string* limit_note = nullptr);

// Reads every stored sample of the run into `records` (plan order, replacing what it held; each
// request body reduced to its last user message, without the raw response) and
// analyses them with the run's task (`task`, options.task resolved; a test-case run's blocks are options.samples
// long). The results point into `records`, which must outlive them and stay unchanged. With
// --execute, `started` holds the executions the run started while generating (null: none); an
// answer whose execution outcome the store keeps is not run again, and `executed` (when given)
// receives the outcomes of those that ran, by sample id, for the caller to store;
// `execution_progress` hears of the programs the analysis runs itself (ml-pipeline).
metrics::RunResults analyse_stored_samples(const store::RunStore& store, const RunOptions& options,
                                           const tasks::Task& task, std::vector<metrics::SampleRecord>& records,
                                           tasks::RunExecutions* started = nullptr,
                                           std::map<std::string, nlohmann::json>* executed = nullptr,
                                           const tasks::ExecutionProgress& execution_progress = {});

// The run's analysis read page by page from the store, each done answer's analysis handed to
// `sink` as it is made, so that its memory does not grow with the run (issue 32); results.samples
// stays empty (stored_samples reads them back). nullopt for a run whose analysis needs every sample
// at once: another task than the function task, --execute, or mitigation strategies.
std::optional<metrics::RunResults> analyse_in_pages(const store::RunStore& store, const RunOptions& options,
                                                    const tasks::Task& task, const tasks::AnalysisSink& sink);

// The run's stored samples with their stored analyses, read page by page (the reports' sample
// source); with `results_only`, without parsing their JSON parts (reports::RunReportInput::sample_results).
metrics::SampleSource stored_samples(const store::RunStore& store, bool results_only);

struct RunIo {
  std::ostream* log = nullptr;  // progress and notes; nullptr = quiet
  bool terminal = false;        // redraw the progress bar in place
  bool write_html = true;       // also write report.html (`run --no-html`: skip it)
};

struct RunOutcome {
  std::filesystem::path dir;
  metrics::RunCounts counts;
  // The failed samples by error kind, each with one of its messages as an example.
  struct ErrorKind {
    std::int64_t count = 0;
    std::string example;
  };
  std::map<std::string, ErrorKind> errors_by_kind;
  bool cancelled = false;  // interrupted (SIGINT/SIGTERM); `--resume DIR` continues it
  // Stopped before --max-cost or --max-tokens-total would be passed; `--resume DIR` with a higher
  // budget continues it.
  bool stopped_at_budget = false;
};

// Starts a new run in options.out_dir (which must not hold one). Every option, endpoint URL and
// API-key variable is checked before the directory is made (std::invalid_argument). The
// directory is locked while the run writes (store/run_lock.h).
RunOutcome start_run(const RunOptions& options, const RunIo& io);

struct ResumeOptions {
  bool retry_errors = false;
  std::vector<std::string> endpoints;  // replaces the stored endpoints when not empty
  ResumeBudget budget;                 // replaces the stored budget where given
};
// Continues the run in `dir`: sends what is pending, then rebuilds the analysis and reports.
// Throws store::StoreError naming the holder when another process has the run locked.
RunOutcome resume_run(const std::filesystem::path& dir, const ResumeOptions& resume, const RunIo& io);

}  // namespace codebias::run
