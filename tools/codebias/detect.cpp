// `codebias detect`: reasoning-bias detectors over reasoning traces (docs/reasoning-detectors.md):
// score traces, train a detector's model file (`detect train`), evaluate detectors against labels
// (`detect eval`).
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "attributes/attributes.h"
#include "base/text_table.h"
#include "commands.h"
#include "number_flags.h"
#include "endpoint_flag.h"
#include "detectors/detect_jsonl.h"
#include "detectors/evaluate.h"
#include "detectors/registry.h"
#include "detectors/trace_input.h"

namespace codebias::cli {

namespace {

constexpr const char* kName = "codebias detect";

// Where the detectors that ask a model (probe) send their requests.
struct EngineArgs {
  std::string endpoint;
  std::string endpoint_model;
  std::string api_key_env;
  int concurrency = 8;

  detectors::EngineConfig config() const {
    detectors::EngineConfig engine;
    engine.endpoint = endpoint;
    engine.model = endpoint_model;
    engine.api_key_env = api_key_env;
    engine.concurrency = concurrency;
    return engine;
  }
};

void add_engine_options(CLI::App* app, EngineArgs& engine) {
  app->add_option("--endpoint", engine.endpoint,
                  "judge, probe: the OpenAI-compatible base URL of the judge, or of the target model (vLLM, SGLang)")
      ->check(endpoint_url_check());
  app->add_option("--endpoint-model", engine.endpoint_model,
                  "judge, probe: the model name the endpoint serves (probe default: the model file's)");
  app->add_option("--api-key-env", engine.api_key_env, "judge, probe: the environment variable holding the endpoint's API key");
  app->add_option("--concurrency", engine.concurrency, "judge, probe: requests in flight (default 8)")->check(at_least(1));
}

struct DetectArgs {
  EngineArgs engine;
  std::string detector;
  std::string model;
  std::string input;
  std::string output = "-";
  unsigned threads = 0;
  bool keep_going = false;
};

struct TrainArgs {
  EngineArgs engine;
  std::string detector;
  std::string labels;
  std::string out;
  std::uint64_t seed = 1;
};

struct EvalArgs {
  EngineArgs engine;
  std::vector<std::string> detectors;
  std::string model;
  bool no_split = false;
  std::vector<std::string> labels;  // files read one after the other
  double train_fraction = 0.5;
  std::uint64_t seed = 1;
  std::vector<std::string> test_models;
  std::vector<std::string> test_sources;
  int resamples = stats::kDefaultBootstrapResamples;
  std::string json;
};

int fail(const std::string& message, int code = 2) {
  std::cerr << kName << ": " << message << '\n';
  return code;
}

// Runs `body`, mapping the library's errors to exit codes: bad input or usage 2, others 1.
template <class Body>
int guarded(Body&& body) {
  try {
    return body();
  } catch (const detectors::DetectorUnavailable& error) {
    return fail(error.what());
  } catch (const base::InputError& error) {
    return fail(error.what());
  } catch (const std::invalid_argument& error) {
    return fail(error.what());
  } catch (const std::runtime_error& error) {
    return fail(error.what());
  }
}

std::vector<detectors::LabelledTrace> read_labels(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error("cannot open labels " + path);
  return detectors::read_labelled_traces(file, path, analysis::AttributeTable::builtin());
}

int run_detect(const DetectArgs& args) {
  if (args.detector.empty()) return fail("--detector is required");
  if (args.input.empty()) return fail("--input is required");
  return guarded([&] {
    const std::unique_ptr<detectors::Detector> detector = detectors::make_detector(args.detector, {args.model, args.engine.config()});
    std::ifstream input_file;
    std::istream* in = &std::cin;
    std::string origin = "<stdin>";
    if (args.input != "-") {
      input_file.open(args.input, std::ios::binary);
      if (!input_file) return fail("cannot open input " + args.input);
      in = &input_file;
      origin = args.input;
    }
    std::ofstream output_file;
    std::ostream* out = &std::cout;
    if (args.output != "-") {
      output_file.open(args.output, std::ios::binary | std::ios::trunc);
      if (!output_file) return fail("cannot write output " + args.output);
      out = &output_file;
    }
    base::JsonlOptions options;
    options.threads = args.threads;
    options.keep_going = args.keep_going;
    base::JsonlStats stats;
    try {
      stats = detectors::detect_jsonl(*in, origin, *detector, analysis::AttributeTable::builtin(), options,
                                      [&](const std::string& line) { *out << line << '\n'; });
    } catch (...) {
      out->flush();
      throw;
    }
    out->flush();
    if (!*out) return fail("error writing output", 1);
    if (stats.errors > 0) std::cerr << kName << ": " << stats.errors << " input line(s) were errors\n";
    return 0;
  });
}

int run_train(const TrainArgs& args) {
  return guarded([&] {
    const detectors::DetectorInfo& info = detectors::require_detector(args.detector);
    if (info.train == nullptr) return fail("detector " + args.detector + " is not trained");
    const std::vector<detectors::LabelledTrace> labels = read_labels(args.labels);
    const detectors::TrainedDetector trained =
        detectors::train_detector(args.detector, labels, {args.seed, args.engine.config()});
    std::ofstream file(args.out, std::ios::binary | std::ios::trunc);
    file << trained.model_file.dump() << '\n';
    file.flush();
    if (!file) return fail("cannot write model file " + args.out, 1);
    const nlohmann::json& training = trained.model_file["training"];
    std::cerr << kName << " train: " << args.detector << " on " << training["traces"] << " traces ("
              << training["biased"] << " biased), ";
    if (training.contains("youden_j"))
      std::cerr << "loss threshold " << trained.model_file["threshold_loss"] << " (Youden's J " << training["youden_j"]
                << ")";
    else
      std::cerr << training["features"] << " features, "
                << (training["converged"].get<bool>() ? "converged" : "NOT converged") << " after "
                << training["iterations"] << " iterations";
    std::cerr << "; wrote " << args.out << '\n';
    return 0;
  });
}

std::string with_interval(const detectors::IntervalEstimate& value) {
  if (!std::isfinite(value.estimate)) return "n/a";
  char text[64];
  if (std::isfinite(value.lower))
    std::snprintf(text, sizeof text, "%.3f [%.3f, %.3f]", value.estimate, value.lower, value.upper);
  else
    std::snprintf(text, sizeof text, "%.3f", value.estimate);
  return text;
}

int run_eval(const EvalArgs& args) {
  return guarded([&] {
    detectors::EvaluationPlan plan;
    plan.detectors = args.detectors;
    plan.engine = args.engine.config();
    // By default every detector this build runs; those that ask a model only when --endpoint says where.
    if (plan.detectors.empty())
      for (const detectors::DetectorInfo& info : detectors::detector_table())
        if (info.make != nullptr && (!info.needs_engine || !plan.engine.endpoint.empty()))
          plan.detectors.emplace_back(info.name);
    plan.model_path = args.model;
    plan.no_split = args.no_split;
    plan.train_fraction = args.train_fraction;
    plan.seed = args.seed;
    plan.test_models = args.test_models;
    plan.test_sources = args.test_sources;
    plan.bootstrap.resamples = args.resamples;
    plan.bootstrap.seed = args.seed;
    for (const std::string& name : plan.detectors) detectors::require_detector(name);
    std::vector<detectors::LabelledTrace> labels;
    for (const std::string& path : args.labels) {
      std::vector<detectors::LabelledTrace> more = read_labels(path);
      labels.insert(labels.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
    }
    const detectors::EvaluationRun run = detectors::evaluate_detectors(labels, plan);
    std::cout << "split: " << run.split;
    if (run.split == "stratified") std::cout << " (train fraction " << args.train_fraction << ", seed " << args.seed << ")";
    if (!run.test_models.empty()) {
      std::cout << " (test models:";
      for (const std::string& model : run.test_models) std::cout << ' ' << model;
      std::cout << ')';
    }
    if (!run.test_sources.empty()) {
      std::cout << " (test sources:";
      for (const std::string& source : run.test_sources) std::cout << ' ' << source;
      std::cout << ')';
    }
    std::cout << "; train " << run.train_traces << " traces, test " << run.test_traces << " traces\n";
    std::cout << "bootstrap: " << plan.bootstrap.resamples << " resamples of the test traces, "
              << plan.bootstrap.confidence * 100 << "% percentile intervals\n\n";
    std::vector<std::vector<std::string>> rows, source_rows;
    for (const detectors::DetectorEvaluation& e : run.detectors) {
      rows.push_back({e.detector, std::to_string(e.traces), std::to_string(e.undecided), std::to_string(e.biased),
                      with_interval(e.accuracy), with_interval(e.precision), with_interval(e.recall),
                      with_interval(e.f1), with_interval(e.auroc)});
      for (const detectors::DetectorEvaluation& s : e.by_source)
        source_rows.push_back({e.detector, s.source, std::to_string(s.traces), std::to_string(s.biased),
                               with_interval(s.precision), with_interval(s.recall), with_interval(s.f1)});
    }
    std::cout << base::text_table(
        {"detector", "traces", "undecided", "biased", "accuracy", "precision", "recall", "F1", "AUROC"},
        {true, false, false, false, false, false, false, false, false}, rows);
    if (!source_rows.empty()) {
      std::cout << "\nby source (the test traces of each):\n";
      std::cout << base::text_table({"detector", "source", "traces", "biased", "precision", "recall", "F1"},
                                    {true, true, false, false, false, false, false}, source_rows);
    }
    if (!args.json.empty()) {
      std::ofstream file(args.json, std::ios::binary | std::ios::trunc);
      file << run.to_json().dump(2) << '\n';
      if (!file) return fail("cannot write --json " + args.json, 1);
    }
    return 0;
  });
}

}  // namespace

Command add_detect_command(CLI::App& parent) {
  auto detect = std::make_shared<DetectArgs>();
  auto train = std::make_shared<TrainArgs>();
  auto eval = std::make_shared<EvalArgs>();
  const std::string names = detectors::detector_names();
  CLI::App* app = parent.add_subcommand(
      "detect", "Reasoning-bias detectors (ProbeDebias Table 5): a score in [0, 1], a verdict and evidence per "
                "reasoning trace. Subcommands: train (a detector's model file), eval (metrics against labels).");
  app->require_subcommand(0, 1);
  app->add_option("--detector", detect->detector, "one of: " + names);
  app->add_option("--model", detect->model, "the model file of a trained detector (codebias detect train)");
  app->add_option("--input", detect->input, "JSONL traces: id, reasoning (or a whole response), scenario, attributes (- for stdin)");
  app->add_option("--out,--output", detect->output, "one JSON line per trace (default: stdout)");
  app->add_option("--threads", detect->threads, "Worker threads (0: one per core)")->check(at_least(0));
  app->add_flag("--keep-going", detect->keep_going, "Write an error object for a malformed line and go on");
  add_engine_options(app, detect->engine);

  CLI::App* train_app = app->add_subcommand("train", "Train a detector on labelled traces and write its model file.");
  train_app->add_option("--detector", train->detector,
                        "a trainable detector: tfidf-lr, tfidf-svm, steps-lr, probe (its threshold, on --endpoint's losses)")
      ->required();
  train_app->add_option("--labels", train->labels, "JSONL labelled traces: the input fields plus label (biased|unbiased)")->required();
  train_app->add_option("--out", train->out, "the model file to write")->required();
  train_app->add_option("--seed", train->seed, "training seed (SVM coordinate order; default 1)")->check(at_least(0));
  add_engine_options(train_app, train->engine);

  CLI::App* eval_app = app->add_subcommand(
      "eval", "Accuracy, precision, recall, F1 and AUROC of detectors against labels, with bootstrap intervals: the "
              "trainable ones trained on one side of a split and every one tested on the other.");
  eval_app->add_option("--detector", eval->detectors, "a detector to evaluate (repeatable; default: every one this build runs)");
  eval_app->add_option("--model", eval->model, "evaluate this model file of the one --detector on every trace (no split)");
  eval_app->add_flag("--no-split", eval->no_split, "test every trace (detectors that need no training, e.g. keywords)");
  eval_app->add_option("--labels", eval->labels,
                       "JSONL labelled traces (repeatable; optional fields model for --test-models, source for --test-sources "
                       "and the figures by source)")
      ->required();
  eval_app->add_option("--train-fraction", eval->train_fraction, "stratified split: share of each label trained on (default 0.5)")
      ->check(open_fraction());
  eval_app->add_option("--seed", eval->seed, "split, training and bootstrap seed (default 1)")->check(at_least(0));
  eval_app->add_option("--test-models", eval->test_models, "cross-model split: test on these models' traces, train on the rest")
      ->delimiter(',');
  eval_app->add_option("--test-sources", eval->test_sources,
                       "cross-source split: test on these sources' traces (the labels' source field), train on the rest")
      ->delimiter(',');
  eval_app->add_option("--bootstrap-resamples", eval->resamples, "bootstrap resamples (default 2000)")->check(at_least(1));
  eval_app->add_option("--json", eval->json, "also write the evaluation as JSON to this file");
  add_engine_options(eval_app, eval->engine);

  return {app, [=] {
            if (train_app->parsed()) return run_train(*train);
            if (eval_app->parsed()) return run_eval(*eval);
            return run_detect(*detect);
          }};
}

}  // namespace codebias::cli
