// Suites as the CLI and a run load them (tasks stage): the shared parts parsed by suites/, each
// task's part by its registry row (Task::suite_part), so a bad part fails when the suite is
// loaded.
#pragma once

#include <filesystem>
#include <string_view>

#include "suites/suite.h"

namespace codebias::tasks {

// Parses and checks a suite; throws as suites::parse_suite.
suites::Suite parse_suite(std::string_view json_text, std::string_view origin);

// Reads, parses and checks a suite file; errors name the path.
suites::Suite load_suite_file(const std::filesystem::path& path);

// A suite built into the binary (suites::builtin_suite_names()), parsed once per process.
// Throws std::invalid_argument listing the known names.
const suites::Suite& builtin_suite(std::string_view name);

}  // namespace codebias::tasks
