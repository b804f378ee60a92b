// Benchmarks: analyze() per response (Google Benchmark), and responses/s + peak RSS of the
// `codebias score` pipeline (analysis::score_jsonl, all cores) over a JSONL corpus.
//
//   build/codebias_bench                                  micro-benchmarks on examples/
//   build/codebias_bench --corpus FILE [--repeat N] [--threads N]   whole-corpus throughput
//   CODEBIAS_BENCH_CORPUS=FILE build/codebias_bench       micro-benchmarks on another corpus
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <benchmark/benchmark.h>
#ifdef CODEBIAS_MIMALLOC
#include <mimalloc.h>
#endif
#include <nlohmann/json.hpp>

#include "analysis/analyzer.h"
#include "analysis/batch.h"

namespace {

using codebias::analysis::AnalyzeOptions;
using codebias::analysis::Analyzer;
using codebias::analysis::AttributeTable;

struct Sample {
  std::string id;
  std::string response;
  AnalyzeOptions options;
};

std::string corpus_path() {
  const char* path = std::getenv("CODEBIAS_BENCH_CORPUS");
  return path && *path ? path : CODEBIAS_DEFAULT_CORPUS;
}

std::vector<Sample> load_samples(const std::string& path, std::size_t limit) {
  std::vector<Sample> samples;
  std::ifstream in(path, std::ios::binary);
  long number = 0;
  for (std::string line; samples.size() < limit && std::getline(in, line);) {
    auto parsed = codebias::analysis::parse_score_line(line, ++number, AttributeTable::builtin(), {});
    if (auto* request = std::get_if<codebias::analysis::ScoreRequest>(&parsed)) {
      samples.push_back({request->id, std::move(request->response), request->options});
    }
  }
  return samples;
}

const Analyzer& analyzer() {
  static const Analyzer instance(AttributeTable::builtin());
  return instance;
}

void BM_Analyze(benchmark::State& state, const Sample& sample) {
  std::size_t findings = 0;
  for (auto _ : state) {
    auto report = analyzer().analyze(sample.response, sample.options);
    findings += report.attributes.size();
    benchmark::DoNotOptimize(report);
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(sample.response.size()));
  state.counters["findings"] = static_cast<double>(findings) / static_cast<double>(state.iterations());
}

// The whole pipeline on one thread: parse line, analyse, serialise.
void BM_ScoreJsonl(benchmark::State& state, const std::string& text, long lines) {
  codebias::analysis::BatchOptions options;
  options.threads = 1;
  options.keep_going = true;
  for (auto _ : state) {
    std::istringstream in(text);
    std::size_t bytes = 0;
    codebias::analysis::score_jsonl(in, "bench", analyzer(), options,
                                    [&](codebias::analysis::ScoredLine& line) { bytes += line.json.size(); });
    benchmark::DoNotOptimize(bytes);
  }
  state.SetItemsProcessed(state.iterations() * lines);
}

// Which malloc this process really runs with (see cmake/Allocator.cmake).
const char* allocator_in_use() {
#ifdef CODEBIAS_MIMALLOC
  void* probe = std::malloc(64);
  bool mimalloc = mi_is_in_heap_region(probe);
  std::free(probe);
  return mimalloc ? "mimalloc" : "C library malloc (mimalloc linked but not in effect)";
#else
  return "C library malloc";
#endif
}

long peak_rss_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;  // KiB on Linux
}

int run_corpus(const std::string& path, int repeat, unsigned threads) {
  std::ifstream probe(path, std::ios::binary | std::ios::ate);
  if (!probe) {
    std::cerr << "codebias_bench: cannot open " << path << '\n';
    return 2;
  }
  const double megabytes = static_cast<double>(probe.tellg()) / 1e6;
  codebias::analysis::BatchOptions options;
  options.threads = threads;
  options.keep_going = true;
  const unsigned used_threads = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
  std::printf("corpus %s (%.1f MB), %u threads, %d repeats, %s\n", path.c_str(), megabytes, used_threads, repeat,
              allocator_in_use());
  double best = 0;
  for (int round = 1; round <= repeat; ++round) {
    std::ifstream in(path, std::ios::binary);
    std::size_t output_bytes = 0;
    auto start = std::chrono::steady_clock::now();
    auto stats = codebias::analysis::score_jsonl(
        in, path, analyzer(), options,
        [&](codebias::analysis::ScoredLine& line) { output_bytes += line.json.size() + 1; });
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    double rate = static_cast<double>(stats.responses) / seconds;
    best = std::max(best, rate);
    std::printf("round %d: %ld responses (%ld errors) in %.3f s: %.0f responses/s, %.1f MB/s in, %.2f MB out\n",
                round, stats.responses, stats.errors, seconds, rate, megabytes / seconds,
                static_cast<double>(output_bytes) / 1e6);
  }
  std::printf("best %.0f responses/s; peak RSS %.1f MiB\n", best, static_cast<double>(peak_rss_kib()) / 1024.0);
  if (best == 0) std::printf("no line was scored: each needs a string \"response\" field\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string corpus;
  int repeat = 3;
  unsigned threads = 0;
  std::vector<char*> rest{argv[0]};
  for (int index = 1; index < argc; ++index) {
    std::string arg = argv[index];
    auto value = [&](const char* name) -> const char* {
      if (index + 1 >= argc) {
        std::cerr << "codebias_bench: " << name << " needs a value\n";
        std::exit(2);
      }
      return argv[++index];
    };
    if (arg == "--corpus") corpus = value("--corpus");
    else if (arg == "--repeat") repeat = std::max(1, std::atoi(value("--repeat")));
    else if (arg == "--threads") threads = static_cast<unsigned>(std::max(0, std::atoi(value("--threads"))));
    else rest.push_back(argv[index]);
  }
  if (!corpus.empty()) return run_corpus(corpus, repeat, threads);

  // Micro-benchmarks over the first responses of the corpus.
  static const auto samples = load_samples(corpus_path(), 8);
  if (samples.empty()) {
    std::cerr << "codebias_bench: no usable responses in " << corpus_path() << '\n';
    return 2;
  }
  for (const auto& sample : samples) {
    benchmark::RegisterBenchmark(("BM_Analyze/" + sample.id).c_str(), BM_Analyze, std::cref(sample));
  }
  static std::string text;
  {
    std::ifstream in(corpus_path(), std::ios::binary);
    std::ostringstream buffer;
    buffer << in.rdbuf();
    text = buffer.str();
  }
  benchmark::RegisterBenchmark("BM_ScoreJsonl/1thread", BM_ScoreJsonl, std::cref(text),
                               static_cast<long>(samples.size()));
  int bench_argc = static_cast<int>(rest.size());
  benchmark::Initialize(&bench_argc, rest.data());
  if (benchmark::ReportUnrecognizedArguments(bench_argc, rest.data())) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
