// Small-group warnings in a run's reports: the cells whose rates rest on fewer than the run's
// --min-group-n (default 30) of the task's n (programs with code, test-case blocks, decision
// answers with code, pipeline answers with use decided, résumés in an area, answered cat items),
// in summary.json ("small_groups") and as a marked paragraph of report.md and report.html. The
// tables give n next to a rate; this says which n are too small to read a rate from.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "reports/run_report.h"

namespace codebias::reports {

// {"min_n", "n_of": what n counts, "cells": [{"cell", "n"}]} ("n_with_code" and "n_prompts" in
// place of "n" for the function task); null for a task of its own folder.
nlohmann::ordered_json small_groups_json(const RunReportInput& input);

// "" when no cell is small (or the task has none).
std::string small_groups_markdown(const RunReportInput& input);

}  // namespace codebias::reports
