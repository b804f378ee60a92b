#include "run/run.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <unordered_map>

#include <unistd.h>

#include "analysis/analyzer.h"
#include "base/json_fields.h"
#include "base/strings.h"
#include "base/url.h"
#include "base/utc_time.h"
#include "detectors/registry.h"
#include "generation/generator.h"
#include "generation/request_builder.h"
#include "metrics/sweep_sanity.h"
#include "prompts/mitigation_prompts.h"
#include "prompts/prompt_builder.h"
#include "prompts/prompt_metadata.h"
#include "reports/run_report.h"
#include "run/budget.h"
#include "run/follow_ups.h"
#include "run/mitigation_steps.h"
#include "run/progress.h"
#include "run/until_decided.h"
#include "run/prompt_slice.h"
#include "generation/simulated/simulated_model_server.h"
#include "store/run_lock.h"
#include "store/run_store.h"
#include "suites/suite.h"
#include "tasks/run_analysis.h"
#include "tasks/suite_loading.h"
#include "tasks/task.h"

#ifndef CODEBIAS_VERSION
#error "CODEBIAS_VERSION must be defined by the build"
#endif

namespace codebias::run {
namespace {

constexpr const char* kSimulatedModelName = "codebias-simulated";

// Test-only (never set it in real use): CODEBIAS_TEST_ABORT_AT=<point> ends the process with
// _exit(86) at that point of a run's start, as a kill there would (tests/e2e/run_start_test.cpp).
// Points: "locked" (directory made and locked, nothing stored), "stored" (run and plan stored,
// nothing sent).
void test_abort_point(std::string_view point) {
  const char* wanted = std::getenv("CODEBIAS_TEST_ABORT_AT");
  if (wanted != nullptr && point == wanted) _exit(86);
}

// An answer over the run's --max-answer-bytes is stored cut at a UTF-8 boundary, with its size
// as received; the reasoning and raw response are held to the same cap (the raw response holds
// the whole answer again). Returns `result` itself when nothing is over the cap.
const generation::SampleResult& capped(const generation::SampleResult& result, std::uint64_t max_bytes,
                                       generation::SampleResult& cut) {
  const auto over = [&](const std::string& text) { return text.size() > max_bytes; };
  if (!over(result.answer) && !over(result.reasoning) && !over(result.raw_response)) return result;
  cut = result;
  if (over(result.answer)) cut.answer_bytes_received = static_cast<std::int64_t>(result.answer.size());
  for (std::string* text : {&cut.answer, &cut.reasoning, &cut.raw_response}) base::cut_utf8(*text, max_bytes);
  return cut;
}

// The API keys a run reads, checked before anything is created: a missing key fails the
// command, not the first request after the run directory and plan exist.
void check_api_keys(const RunOptions& options) {
  generation::api_key_from_env(options.api_key_env, "--api-key-env");
  generation::api_key_from_env(options.rewrite_api_key_env, "--rewrite-api-key-env");
}

// A run stored by an older codebias may hold an endpoint URL with a key: such strings are
// replaced, so that the key is neither sent again nor written into the rebuilt reports.
bool redact_keyed_urls(nlohmann::json& value) {
  bool changed = false;
  if (value.is_string()) {
    const auto& text = value.get_ref<const std::string&>();
    if (text.find("://") != std::string::npos && !base::endpoint_url_problem(text).empty()) {
      value = "(removed: the URL carried credentials)";
      changed = true;
    }
  } else if (value.is_structured()) {
    for (auto& child : value) changed = redact_keyed_urls(child) || changed;
  }
  return changed;
}

suites::Suite load_suite(const RunOptions& options) {
  if (!options.suite_file.empty()) return tasks::load_suite_file(options.suite_file);
  return tasks::builtin_suite(options.suite);
}

generation::RequestConfig request_config(const RunOptions& options, const RunConfiguration& configuration) {
  generation::RequestConfig config;
  config.model = options.endpoints.empty() ? kSimulatedModelName : options.model;
  config.temperature = configuration.temperature;
  config.top_p = options.top_p;
  config.max_tokens = options.max_tokens;
  config.stop = options.stop;
  config.mode = *generation::parse_generation_mode(configuration.mode);
  config.reasoning_budget = configuration.reasoning_budget;
  config.extra_body = options.extra_body;
  return config;
}

nlohmann::json configuration_json(const RunConfiguration& c) {
  nlohmann::json j = {{"label", c.label},
                      {"temperature", c.temperature},
                      {"mode", c.mode},
                      {"position", c.position}};
  j["reasoning_budget"] = c.reasoning_budget ? nlohmann::json(*c.reasoning_budget) : nlohmann::json(nullptr);
  j["mitigation"] = c.mitigation;
  return j;
}

nlohmann::json new_provenance(const RunOptions& options) {
  const bool simulated = options.endpoints.empty();
  nlohmann::json p;
  p["tool"] = "codebias";
  p["version"] = CODEBIAS_VERSION;
  p["model"] = simulated ? kSimulatedModelName : options.model;
  p["simulated_model"] = simulated;
  if (simulated) {
    p["model_profile"] = options.model_profile.empty() ? "built-in default" : options.model_profile.string();
  }
  p["endpoints"] = simulated ? nlohmann::json::array({"built-in (started on 127.0.0.1 by codebias)"})
                             : nlohmann::json(options.endpoints);
  p["suite"] = options.suite_file.empty() ? options.suite : options.suite_file.string();
  p["task"] = options.task;
  p["seed"] = options.seed;
  p["samples_per_prompt"] = options.samples;
  nlohmann::json configurations = nlohmann::json::array();
  for (const auto& c : expand_configurations(options)) configurations.push_back(configuration_json(c));
  p["configurations"] = configurations;
  p["options"] = to_json(options);
  p["created_at"] = utc_now();
  return p;
}

// The built-in model on a loopback port, for runs without an endpoint.
class BuiltinModelServer {
 public:
  explicit BuiltinModelServer(const std::filesystem::path& profile_file)
      : model_(serve::load_bias_profile(profile_file), tasks::simulated_answerers()), server_(serve::simulated_model_handler(model_)) {
    server_.start();
  }
  std::string base_url() const { return server_.base_url(); }

 private:
  serve::SimulatedModel model_;
  serve::HttpServer server_;
};

std::atomic<bool> interrupted{false};
extern "C" void on_interrupt(int) { interrupted.store(true); }

// Routes SIGINT/SIGTERM to a flag while a generation is in flight, and back afterwards.
class InterruptGuard {
 public:
  InterruptGuard() {
    interrupted.store(false);
    previous_int_ = std::signal(SIGINT, on_interrupt);
    previous_term_ = std::signal(SIGTERM, on_interrupt);
  }
  ~InterruptGuard() {
    std::signal(SIGINT, previous_int_);
    std::signal(SIGTERM, previous_term_);
  }
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

 private:
  void (*previous_int_)(int) = SIG_DFL;
  void (*previous_term_)(int) = SIG_DFL;
};

// A rewrite strategy's rewrite requests go to --rewrite-endpoint when one is given (run/mitigation_steps.h).
bool to_rewrite_endpoint(const RunOptions& options, const generation::PlannedSample& sample) {
  return !options.rewrite_endpoint.empty() && prompts::PromptMetadata::from_json(sample.metadata).step == "rewrite";
}

// What the run's task analysis reads besides the samples.
tasks::RunAnalysisSettings analysis_settings(const RunOptions& options) {
  tasks::RunAnalysisSettings settings;
  settings.table = &analysis::AttributeTable::builtin();
  settings.samples_per_prompt = options.samples;
  settings.execute = options.execute;
  settings.trace_detector = options.trace_detector;
  settings.trace_detector_model = options.trace_detector_model.string();
  return settings;
}

// A stored sample as the analyses and reports read it: the request body keeps only its last user
// message (the prompt the HTML drill-down shows) and the raw response is left in the store. The
// two were over a third of the memory a run's analysis held per sample (issue 32).
metrics::SampleRecord record_for_analysis(const generation::PlannedSample& planned,
                                          const generation::SampleResult& result) {
  metrics::SampleRecord record{planned, result};
  record.result.raw_response.clear();
  record.result.raw_response.shrink_to_fit();
  nlohmann::json kept = nlohmann::json::object();
  if (const auto messages = planned.body.find("messages"); messages != planned.body.end() && messages->is_array()) {
    for (auto it = messages->rbegin(); it != messages->rend(); ++it) {
      if (base::string_or_empty(*it, "role") != "user") continue;
      kept["messages"] = nlohmann::json::array({*it});
      break;
    }
  }
  if (!kept.contains("messages") && planned.body.contains("prompt")) kept["prompt"] = planned.body["prompt"];
  record.planned.body = std::move(kept);
  return record;
}

// Samples a generation page holds at once: the plan is read from the store page by page, so a
// run's memory does not grow with its size (issue 32).
constexpr std::size_t kSendPageSize = 2048;
// Samples the analysis of a run holds at once when it reads them page by page (analyse_in_pages).
constexpr std::size_t kAnalysisPageSize = 512;

// Sends what is pending (of the samples `mine` selects) and stores each result as it arrives;
// with `executions`, starts executing each stored answer; stops sending once `budget` would be
// passed (what is not sent stays pending). Returns false when interrupted.
bool generate(store::RunStore& store, const RunOptions& options, const tasks::Task& task,
              const std::vector<std::string>& endpoints, const std::string& api_key_env, bool retry_errors,
              const RunIo& io, const std::function<bool(const generation::PlannedSample&)>& mine,
              tasks::RunExecutions* executions, RunBudget& budget) {
  if (!budget.allows_more()) return true;
  std::int64_t to_send = 0;
  store.for_each_pending_page(retry_errors, kSendPageSize, false, [&](std::vector<generation::PlannedSample>& page) {
    to_send += std::count_if(page.begin(), page.end(), mine);
  });
  if (to_send == 0) return true;
  // With --execute, each stored answer starts executing while the others are still generated.
  const tasks::RunAnalysisSettings settings = analysis_settings(options);
  std::unordered_map<std::string, const generation::PlannedSample*> planned_by_id;

  std::unique_ptr<BuiltinModelServer> builtin;
  std::vector<std::string> urls = endpoints;
  if (urls.empty()) {
    builtin = std::make_unique<BuiltinModelServer>(options.model_profile);
    urls.push_back(builtin->base_url());
  }

  generation::GenerationConfig config;
  for (const auto& url : urls) config.endpoints.push_back({url, 0});
  config.api_key_env = api_key_env;
  config.concurrency = options.concurrency;
  config.timeout = std::chrono::milliseconds(static_cast<long long>(options.timeout_s * 1000));
  config.max_attempts = options.max_attempts;
  generation::Generator generator(config);

  if (io.log) *io.log << "codebias: sending " << to_send << " samples to " << urls.size()
                      << (urls.size() == 1 ? " endpoint" : " endpoints") << '\n';
  ProgressPrinter progress(io.log ? *io.log : std::cerr, io.terminal);
  ProgressSnapshot snapshot;
  snapshot.total = to_send;
  const auto started = std::chrono::steady_clock::now();

  InterruptGuard guard;
  std::atomic<bool> finished{false};
  std::thread watcher([&] {
    while (!finished.load()) {
      if (interrupted.load()) {
        generator.cancel();
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });

  const auto on_result = [&](const generation::SampleResult& result) {
    if (result.error_kind == "cancelled") return;  // stays pending: a resume sends it again
    generation::SampleResult cut;
    store.record(capped(result, options.max_answer_bytes, cut));
    if (!budget.record(result.usage)) generator.cancel();
    if (const auto planned = planned_by_id.find(result.id); planned != planned_by_id.end())
      if (auto answer = task.executable_answer({*planned->second, result}, settings)) executions->start(*answer);
    ++snapshot.done;
    if (result.status == generation::SampleStatus::error) ++snapshot.errors;
    snapshot.tokens += result.usage.completion_tokens;
    snapshot.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (io.log) progress.update(snapshot);
  };
  bool stopped = false;  // cancelled: interrupted or at the budget
  try {
    store.for_each_pending_page(retry_errors, kSendPageSize, true, [&](std::vector<generation::PlannedSample>& page) {
      if (stopped) return;
      std::erase_if(page, [&](const generation::PlannedSample& sample) { return !mine(sample); });
      if (page.empty()) return;
      planned_by_id.clear();
      if (executions && task.executable_answer)
        for (const auto& sample : page) planned_by_id.emplace(sample.id, &sample);
      generator.run(page, on_result);
      stopped = interrupted.load() || !budget.allows_more();
    });
  } catch (...) {
    finished.store(true);
    watcher.join();
    throw;
  }
  finished.store(true);
  watcher.join();
  snapshot.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (io.log) progress.finish(snapshot);
  return !interrupted.load();
}

// Sends what is pending, then the further turns the answers call for (run/follow_ups.h) until
// none is left. Returns false when interrupted.
bool generate_conversations(store::RunStore& store, const RunOptions& options, const tasks::Task& task,
                            const std::vector<std::string>& endpoints, bool retry_errors, const RunIo& io,
                            tasks::RunExecutions* executions, RunBudget& budget, const SampleFilter& wanted) {
  for (bool retry = retry_errors;; retry = false) {
    const auto for_target = [&](const generation::PlannedSample& s) { return wanted(s) && !to_rewrite_endpoint(options, s); };
    const auto for_rewriter = [&](const generation::PlannedSample& s) { return wanted(s) && to_rewrite_endpoint(options, s); };
    if (!generate(store, options, task, endpoints, options.api_key_env, retry, io, for_target, executions, budget))
      return false;
    if (!generate(store, options, task, {options.rewrite_endpoint}, options.rewrite_api_key_env, retry, io,
                  for_rewriter, executions, budget))
      return false;
    // Only a task with further turns, or a run with mitigation strategies, plans follow-ups: the
    // others need not read every stored sample back (issue 32).
    const bool mitigates = task.runs_mitigation_strategies && !options.mitigations.empty();
    if (task.next_turn == nullptr && !mitigates) return true;
    std::vector<metrics::SampleRecord> records;
    store.for_each_sample([&](const generation::PlannedSample& planned, const generation::SampleResult& result,
                              const nlohmann::json*) { records.push_back({planned, result}); });
    auto next = unplanned_follow_ups(records, task);
    if (mitigates) {
      auto steps = unplanned_mitigation_steps(records, options);
      next.insert(next.end(), std::make_move_iterator(steps.begin()), std::make_move_iterator(steps.end()));
    }
    if (next.empty()) return true;
    store.plan(next);
    if (io.log) *io.log << "codebias: planned " << next.size() << " follow-up turns\n";
  }
}

// Sends the run: everything pending, or with --until-decided round by round (run/until_decided.h).
// Returns false when interrupted.
bool send_run(store::RunStore& store, const std::filesystem::path& dir, const RunOptions& options,
              const tasks::Task& task, const std::vector<std::string>& endpoints, bool retry_errors, const RunIo& io,
              tasks::RunExecutions* executions, RunBudget& budget) {
  const auto send = [&](const SampleFilter& wanted) {
    return generate_conversations(store, options, task, endpoints, retry_errors, io, executions, budget, wanted);
  };
  if (!options.until_decided) return send([](const generation::PlannedSample&) { return true; });
  return send_until_decided(store, dir, options, budget, send, io.log);
}

// The progress line of the programs a run executes, then one line on them; silent without a log.
class ExecutionProgressLine {
 public:
  explicit ExecutionProgressLine(const RunIo& io) : log_(io.log) {
    if (log_) printer_.emplace(*log_, io.terminal, std::chrono::seconds(10));
  }

  void show(std::int64_t finished, std::int64_t total, std::int64_t failed,
            const std::map<std::string, tasks::RunExecutions::MissingRuntime>& missing_runtimes = {}) {
    if (!printer_) return;
    const ProgressSnapshot snapshot{.total = total,
                                    .done = finished,
                                    .errors = failed,
                                    .elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(),
                                    .label = "execution",
                                    .shows_tokens = false};
    if (finished < total) {
      printer_->update(snapshot);
      return;
    }
    printer_->finish(snapshot);
    *log_ << "codebias: executed " << total << " programs in the sandbox";
    if (failed > 0) *log_ << " (" << failed << " could not start)";
    *log_ << '\n';
    // Programs in a language without a runner, or whose runtime is not installed (the message
    // names the install line): say which and how many, so a report's gaps are never silent.
    for (const auto& [reason, missing] : missing_runtimes) {
      const std::string language = reason.substr(reason.find(':') + 1);
      *log_ << "codebias: " << missing.programs << " not run: "
            << (missing.message.empty()
                    ? "codebias has no runner for " + language + " (it executes Python, JavaScript, TypeScript and Java)"
                    : "the " + language + " runtime could not start: " + base::printable(missing.message, false))
            << '\n';
    }
  }

 private:
  std::ostream* log_;
  std::optional<ProgressPrinter> printer_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// With --execute the answers' programs run while the model answers; after the last answer the
// run shows their progress until every one has finished, then one line on them.
void wait_for_executions(tasks::RunExecutions* executions, const RunIo& io) {
  if (executions == nullptr) return;
  ExecutionProgressLine line(io);
  for (;;) {
    const auto progress = executions->wait_for_all(std::chrono::milliseconds(200));
    line.show(progress.finished, progress.queued, progress.failed, progress.missing_runtimes);
    if (progress.finished >= progress.queued) return;
  }
}

// Rows of the headline table a run prints at its end (report.md has them all).
constexpr std::size_t kHeadlineRows = 12;

void analyse_and_report(store::RunStore& store, const RunOptions& options, const tasks::Task& task,
                        const std::filesystem::path& dir, const RunIo& io, tasks::RunExecutions* executions,
                        RunOutcome& outcome) {
  std::vector<metrics::SampleRecord> records;
  std::optional<ExecutionProgressLine> execution_line;
  tasks::ExecutionProgress execution_progress;
  if (options.execute && executions == nullptr) {
    execution_line.emplace(io);
    execution_progress = [&](std::size_t finished, std::size_t total) {
      execution_line->show(static_cast<std::int64_t>(finished), static_cast<std::int64_t>(total), 0);
    };
  }
  std::map<std::string, nlohmann::json> executed;
  auto paged = analyse_in_pages(store, options, task,
                                [&store](const metrics::SampleRecord& record, const nlohmann::ordered_json& analysis) {
                                  store.record_ordered_analysis(record.planned.id, analysis);
                                });
  const metrics::RunResults results =
      paged ? std::move(*paged)
            : analyse_stored_samples(store, options, task, records, executions, &executed, execution_progress);
  for (const auto& [sample_id, outcome] : executed) store.record_execution(sample_id, outcome);
  for (const auto& sample : results.samples) {
    if (!sample.analysis.is_null()) store.record_analysis(sample.record->planned.id, nlohmann::json(sample.analysis));
  }

  nlohmann::json provenance = store.provenance();
  provenance["updated_at"] = utc_now();
  store.update_provenance(provenance);

  reports::RunReportInput input;
  input.provenance = provenance;
  input.results = &results;
  if (paged) {
    input.samples = stored_samples(store, false);
    input.sample_results = stored_samples(store, true);
  }
  reports::write_run_reports(input, dir, io.write_html);
  if (const auto note = metrics::identical_configurations_note(reports::sample_tallies(input).sweep);
      io.log && !note.empty()) {
    *io.log << "codebias: warning: " << note << '\n';
  }
  if (io.log) {
    // The run ends with its answer: the task's headline table, then where the rest is.
    const std::string headline = reports::headline_markdown(input, kHeadlineRows);
    if (!headline.empty()) *io.log << '\n' << base::printable(headline) << '\n';
    const auto& c = results.counts;
    *io.log << "codebias: " << c.done << " of " << c.planned << " samples answered (" << c.errors
            << " errors, " << c.refusals << " refusals, " << c.truncated << " truncated, " << c.unparseable
            << " unparseable); report: "
            << base::printable((dir / (io.write_html ? "report.html" : "report.md")).string(), false)
            << (io.write_html ? " (and report.md, summary.json, metrics.csv)" : "") << '\n';
  }
  outcome.counts = results.counts;
  for (const auto& [kind, tally] : reports::sample_tallies(input).errors_by_kind)
    outcome.errors_by_kind[kind] = {tally.count, tally.example};
}

// The executions a run with --execute starts while it generates; null when its task executes
// nothing counterfactually.
std::unique_ptr<tasks::RunExecutions> executions_for(const RunOptions& options, const tasks::Task& task) {
  if (!options.execute || !task.executable_answer) return nullptr;
  return std::make_unique<tasks::RunExecutions>();
}

}  // namespace

RunOptions with_suite_defaults(RunOptions options, const suites::Suite& suite) {
  const tasks::Task& task = tasks::task_for_suite(suite, options.task);
  options.task = std::string(task.name);
  if (options.execute && !task.executes_answers) {
    std::string runnable;
    for (const tasks::Task& t : tasks::all_tasks())
      if (t.executes_answers) runnable += (runnable.empty() ? "" : ", ") + std::string(t.name);
    throw std::invalid_argument("--execute does not apply to --task " + options.task + " (it applies to: " + runnable +
                                ")");
  }
  if (task.runs_mitigation_strategies) {
    for (const auto& name : options.mitigations) {
      const prompts::MitigationStrategy* strategy = prompts::find_mitigation_strategy(name);
      if (strategy == nullptr)
        throw std::invalid_argument("--mitigation for --task " + options.task + " must be one of " +
                                    prompts::mitigation_strategy_names() + ", not \"" + name + "\"");
      const bool reasons = std::any_of(options.modes.begin(), options.modes.end(),
                                       [](const std::string& m) { return m != "vanilla"; }) || options.style == "cot";
      if (strategy->kind == prompts::MitigationStrategy::Kind::rewrite && !reasons)
        throw std::invalid_argument("--mitigation " + name +
                                    " rewrites the reasoning trace: it needs --mode cot or native (or --style cot)");
    }
    if (detectors::require_detector(options.trace_detector).needs_engine)
      throw std::invalid_argument("--trace-detector " + options.trace_detector +
                                  " asks a model; a run checks traces with keywords, tfidf-lr, tfidf-svm or steps-lr "
                                  "(use `codebias detect` for the probe)");
  }
  if (options.temperatures.empty()) options.temperatures = {suite.defaults.temperature.value_or(kDefaultTemperature)};
  return options;
}

namespace {

// One configuration's prompts as a run plans them, before they are repeated into samples.
struct ConfigurationPrompts {
  RunConfiguration configuration;
  std::vector<prompts::Prompt> prompts;
};

std::vector<ConfigurationPrompts> plan_prompts(const RunOptions& options, const tasks::Task& task,
                                               const suites::Suite& suite, std::string* limit_note) {
  std::vector<ConfigurationPrompts> planned;
  for (const auto& configuration : expand_configurations(options)) {
    prompts::PromptOptions prompt_options;
    prompt_options.scenarios = options.scenarios;
    prompt_options.attributes = options.attributes;
    prompt_options.requests = options.requests;
    prompt_options.samples = 1;  // repeats of one prompt are the run's samples, below
    prompt_options.seed = options.seed;
    prompt_options.position = configuration.position;
    prompt_options.style = options.style;
    if (!options.convention.empty()) prompt_options.convention = options.convention;
    prompt_options.paths = options.paths;
    prompt_options.levels = options.levels;
    prompt_options.attribute_sets = options.attribute_sets;
    // Run strategies are applied below; the ml-pipeline prompts build their mitigations themselves.
    if (!task.runs_mitigation_strategies) prompt_options.mitigations = options.mitigations;
    prompt_options.variants = options.variants;
    prompt_options.names = options.names;
    prompt_options.names_per_group = options.names_per_group;
    prompt_options.designs = options.designs;
    auto prompts = task.build_prompts(suite, prompt_options);
    if (options.entities_per_group) prompts = first_entities_per_group(std::move(prompts), *options.entities_per_group);
    if (options.limit) {
      auto limited = spread_limit(std::move(prompts), *options.limit);
      prompts = std::move(limited.kept);
      if (limit_note != nullptr) *limit_note = std::move(limited.note);
    }
    planned.push_back({configuration, std::move(prompts)});
  }
  return planned;
}

// Repeats each prompt into the run's samples and hands them to `emit` in plan order, a few
// prompts' samples at a time (at least `batch_size` per call but the last), so that a large plan is
// never all in memory at once.
void expand_samples(const std::vector<ConfigurationPrompts>& planned, const RunOptions& options,
                    std::size_t batch_size, const std::function<void(std::vector<generation::PlannedSample>&)>& emit) {
  std::vector<generation::PlannedSample> batch;
  for (const auto& [configuration, prompts] : planned) {
    const prompts::MitigationStrategy* strategy = prompts::find_mitigation_strategy(configuration.mitigation);
    const auto request = request_config(options, configuration);
    for (const auto& prompt : prompts) {
      std::vector<generation::ChatMessage> messages;
      for (const auto& message : prompts::apply_mitigation(*strategy, prompt.messages))
        messages.push_back({message.role, message.content});
      for (int k = 0; k < options.samples; ++k) {
        generation::PlannedSample sample;
        sample.id = prompt.id + "#" + std::to_string(k) + (configuration.label.empty() ? "" : "@" + configuration.label);
        sample.prompt_id = prompt.id;
        sample.sample_index = k;
        sample.seed = static_cast<std::int64_t>(options.seed) + k;
        sample.body = generation::build_request_body(messages, request, sample.seed);
        // The built-in model reads the prompt's metadata instead of guessing it from the wording;
        // a real endpoint gets the body an OpenAI client would send (docs/simulated-model.md).
        if (options.endpoints.empty()) sample.body["metadata"] = prompt.metadata;
        sample.metadata = prompt.metadata;
        sample.metadata["configuration"] = configuration_json(configuration);
        sample.config = configuration.label;
        batch.push_back(std::move(sample));
      }
      if (batch.size() >= batch_size) {
        emit(batch);
        batch.clear();
      }
    }
  }
  if (!batch.empty()) emit(batch);
}

// Samples a plan batch holds (run start, RunStore::create).
constexpr std::size_t kPlanBatchSize = 1024;

}  // namespace

std::vector<generation::PlannedSample> plan_samples(const RunOptions& options, const tasks::Task& task,
                                                    const suites::Suite& suite, std::string* limit_note) {
  std::vector<generation::PlannedSample> samples;
  expand_samples(plan_prompts(options, task, suite, limit_note), options, kPlanBatchSize,
                 [&](std::vector<generation::PlannedSample>& batch) {
                   samples.insert(samples.end(), std::make_move_iterator(batch.begin()),
                                  std::make_move_iterator(batch.end()));
                 });
  return samples;
}

metrics::RunResults analyse_stored_samples(const store::RunStore& store, const RunOptions& options,
                                           const tasks::Task& task, std::vector<metrics::SampleRecord>& records,
                                           tasks::RunExecutions* started,
                                           std::map<std::string, nlohmann::json>* executed,
                                           const tasks::ExecutionProgress& execution_progress) {
  records.clear();
  store.for_each_sample([&](const generation::PlannedSample& planned, const generation::SampleResult& result,
                            const nlohmann::json*) { records.push_back(record_for_analysis(planned, result)); });
  tasks::RunAnalysisSettings settings = analysis_settings(options);
  settings.executions = started;
  settings.execution_progress = execution_progress;
  std::map<std::string, nlohmann::json> stored;
  if (options.execute) stored = store.executions();
  settings.stored_executions = {&stored, executed};
  return task.analyse_run(records, settings);
}

metrics::SampleSource stored_samples(const store::RunStore& store, bool results_only) {
  return [&store, results_only](const metrics::AnalysedSampleVisitor& visit) {
    const auto to_sample = [&](generation::PlannedSample& planned, generation::SampleResult& result,
                               nlohmann::ordered_json* analysis) {
      const metrics::SampleRecord record{std::move(planned), std::move(result)};
      visit(metrics::AnalysedSample{&record, analysis ? std::move(*analysis) : nlohmann::ordered_json()});
    };
    if (results_only)
      store.for_each_sample_result(to_sample);
    else
      store.for_each_sample_ordered(to_sample);
  };
}

std::optional<metrics::RunResults> analyse_in_pages(const store::RunStore& store, const RunOptions& options,
                                                    const tasks::Task& task, const tasks::AnalysisSink& sink) {
  if (task.analyse_pages == nullptr || options.execute || !options.mitigations.empty()) return std::nullopt;
  const auto pages = [&store](const std::function<void(const std::vector<metrics::SampleRecord>&)>& visit) {
    std::vector<metrics::SampleRecord> page;
    store.for_each_sample([&](const generation::PlannedSample& planned, const generation::SampleResult& result,
                              const nlohmann::json*) {
      page.push_back(record_for_analysis(planned, result));
      if (page.size() < kAnalysisPageSize) return;
      visit(page);
      page.clear();
    });
    if (!page.empty()) visit(page);
  };
  return task.analyse_pages(pages, analysis_settings(options), sink);
}

RunOutcome start_run(const RunOptions& requested, const RunIo& io) {
  // Every input is checked before the run directory is made (nothing to clean up on refusal).
  validate(requested);
  check_api_keys(requested);
  const auto suite = load_suite(requested);
  // Stored resolved, so a resumed run and the reports see the task and temperature it ran with.
  const RunOptions options = with_suite_defaults(requested, suite);
  const tasks::Task& task = tasks::find_task(options.task);
  if (options.until_decided && !task.answers_are_programs)  // only function cells have a bias rate to decide
    throw std::invalid_argument("--until-decided samples function-task cells against a bias rate, not --task " +
                                options.task);
  std::string limit_note;
  // The prompts only: their samples are expanded batch by batch into the store (issue 32).
  const auto planned = plan_prompts(options, task, suite, &limit_note);
  if (std::all_of(planned.begin(), planned.end(), [](const ConfigurationPrompts& c) { return c.prompts.empty(); }))
    throw std::invalid_argument("the options select no prompt");
  nlohmann::json provenance = new_provenance(options);
  provenance["prices"] = resolve_price(options, provenance["model"].get<std::string>());

  std::error_code error;
  std::filesystem::create_directories(options.out_dir, error);
  if (error) {
    throw std::runtime_error("cannot create run directory " + options.out_dir.string() + ": " + error.message());
  }
  const auto lock = store::RunLock::acquire(options.out_dir, "codebias run");
  test_abort_point("locked");
  // The run row and its whole plan in one go: a kill leaves either no run or a resumable one.
  std::size_t planned_samples = 0;
  auto store = store::RunStore::create(options.out_dir, provenance, [&](const store::RunStore::PlanBatch& add) {
    expand_samples(planned, options, kPlanBatchSize, [&](std::vector<generation::PlannedSample>& batch) {
      add(batch);
      planned_samples += batch.size();
    });
  });
  test_abort_point("stored");
  if (io.log)
    *io.log << "codebias: planned " << planned_samples << " samples in "
            << base::printable(options.out_dir.string(), false) << '\n';
  if (io.log && !limit_note.empty()) *io.log << "codebias: " << limit_note << '\n';

  RunOutcome outcome;
  outcome.dir = options.out_dir;
  auto executions = executions_for(options, task);
  RunBudget budget(options, provenance["prices"], store);
  outcome.cancelled =
      !send_run(store, options.out_dir, options, task, options.endpoints, false, io, executions.get(), budget);
  outcome.stopped_at_budget = store_budget_note(store, budget);
  if (!outcome.cancelled) wait_for_executions(executions.get(), io);
  analyse_and_report(store, options, task, options.out_dir, io, executions.get(), outcome);
  return outcome;
}

RunOutcome resume_run(const std::filesystem::path& dir, const ResumeOptions& resume, const RunIo& io) {
  for (const auto& endpoint : resume.endpoints) {
    if (auto problem = base::endpoint_url_problem(endpoint); !problem.empty())
      throw std::invalid_argument("--endpoint: " + problem);
  }
  if (!std::filesystem::exists(dir / store::kStoreFileName))
    throw store::StoreError("no run in " + dir.string() + ": " + (dir / store::kStoreFileName).string() +
                            " does not exist (a run killed before it stored its plan; start it again with --out)");
  const auto lock = store::RunLock::acquire(dir, "codebias run --resume");
  auto store = store::RunStore::open(dir);
  RunOptions options = run_options_from_json(store.provenance().at("options"));
  if (options.endpoints.empty() && !resume.endpoints.empty()) {
    throw std::invalid_argument("this run was made with the built-in model; it resumes without --endpoint");
  }
  check_api_keys(options);
  nlohmann::json provenance = store.provenance();
  if (redact_keyed_urls(provenance)) {
    if (resume.endpoints.empty())
      throw std::invalid_argument("this run's stored endpoint URL carries credentials or a query (an older codebias "
                                  "stored it); resume with --endpoint BASE_URL and the key in --api-key-env's variable");
    options = run_options_from_json(provenance.at("options"));
  }
  const auto endpoints = resume.endpoints.empty() ? options.endpoints : resume.endpoints;
  if (!resume.endpoints.empty()) provenance["endpoints_on_resume"] = resume.endpoints;
  if (apply_budget_on_resume(resume.budget, options, provenance) || !resume.endpoints.empty())
    store.update_provenance(provenance);
  RunOutcome outcome;
  outcome.dir = dir;
  const tasks::Task& task = tasks::find_task(options.task);
  auto executions = executions_for(options, task);
  RunBudget budget(options, provenance.value("prices", nlohmann::json()), store);
  outcome.cancelled = !send_run(store, dir, options, task, endpoints, resume.retry_errors, io, executions.get(), budget);
  outcome.stopped_at_budget = store_budget_note(store, budget);
  if (!outcome.cancelled) wait_for_executions(executions.get(), io);
  analyse_and_report(store, options, task, dir, io, executions.get(), outcome);
  return outcome;
}

}  // namespace codebias::run
