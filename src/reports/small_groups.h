// Small-group warnings in a run's reports: the function task's cells whose rates rest on fewer
// programs with code than the run's --min-group-n (default 30), in summary.json ("small_groups")
// and as a marked paragraph of report.md and report.html. The tables give n next to every rate
// (prompts, programs with code, biased); this says which n are too small to read a rate from.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "reports/run_report.h"

namespace codebias::reports {

// {"min_n", "cells": [{"cell", "n_with_code", "n_prompts"}]}; null for a task without such cells.
nlohmann::ordered_json small_groups_json(const RunReportInput& input);

// "" when no cell is small (or the task has none).
std::string small_groups_markdown(const RunReportInput& input);

}  // namespace codebias::reports
