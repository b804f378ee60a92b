// Code quality as ProbeDebias measures it (ProbeDebias, §3.6 "Evaluation Metrics", item 3 "Code
// Quality": "PyLint analyzes code ... and reports a final score ranging from 0 to 1"): pylint's
// score (0..10) divided by 10, clamped to 0..1. pylint runs once per batch of files, in the
// sandbox; each file's score is pylint's own evaluation formula applied to that module's
// message counts and statements, which is what pylint reports for the file linted alone (the
// cross-module checks duplicate-code and cyclic-import are disabled for that reason).
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "execution/sandbox.h"

namespace codebias::quality {

struct PylintOptions {
  std::string pylint = "/usr/bin/pylint";  // Debian package `pylint`
  std::size_t batch_size = 50;             // files per pylint process
  SandboxLimits limits = batch_limits();   // per batch
  std::filesystem::path temp_root;

  static SandboxLimits batch_limits() {
    SandboxLimits limits;
    limits.wall_time = std::chrono::minutes(5);
    limits.memory_bytes = std::size_t{2} << 30;
    limits.max_output_bytes = std::size_t{16} << 20;  // the report of a whole batch
    return limits;
  }
};

struct QualityScore {
  bool scored = false;
  // Unscored: "no_statements" (pylint counted nothing to rate) or "pylint_failed: ..." (the
  // batch's pylint run ended without a report). The caller adds "no_code" / "not_python:...".
  std::string not_scored_reason;
  double score = 0;                  // 0..1
  std::optional<double> pylint_note; // pylint's 0..10 note; unset for unparseable code (score 0)
  bool syntax_error = false;         // pylint could not parse the file: scored 0
  long statements = 0;
  std::map<std::string, long> counts;    // fatal, error, warning, refactor, convention, info
  std::map<std::string, long> messages;  // message symbol -> occurrences
};

// Throws std::runtime_error naming the path and the Debian package when pylint is missing.
void require_pylint(const PylintOptions& options);

// One score per source, in order. Sources are linted batch_size at a time, one pylint process
// per batch. Throws std::runtime_error when pylint cannot be started.
std::vector<QualityScore> pylint_scores(const std::vector<std::string>& sources, const PylintOptions& options);

// ProbeDebias's scaling: note / 10, clamped to 0..1.
double quality_from_pylint_note(double note);

}  // namespace codebias::quality
