// The options of `codebias run`, declared once (as llama.cpp's common_arg): each row names the
// flag, the run file's YAML key and the provenance's JSON key, its help and validation, and the
// RunOptions field it reads and writes. The CLI, the run-file reader and the provenance iterate it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "run/run_options.h"

namespace codebias::run {

// The RunOptions field a row reads and writes; its type decides how flags, YAML and JSON parse it.
using RunOptionField = std::variant<
    bool RunOptions::*, std::string RunOptions::*, std::filesystem::path RunOptions::*, int RunOptions::*,
    std::uint64_t RunOptions::*, double RunOptions::*, std::optional<int> RunOptions::*,
    std::optional<std::size_t> RunOptions::*, std::optional<double> RunOptions::*,
    std::vector<std::string> RunOptions::*, std::vector<double> RunOptions::*,
    std::vector<int> RunOptions::*, nlohmann::json RunOptions::*>;

// What a field's type is, for the code that visits a RunOptionField.
template <typename T>
inline constexpr bool kIsOptional = false;
template <typename T>
inline constexpr bool kIsOptional<std::optional<T>> = true;
template <typename T>
inline constexpr bool kIsVector = false;
template <typename T>
inline constexpr bool kIsVector<std::vector<T>> = true;

// One end of a numeric range; `inclusive` false: the value itself is out of range.
struct RangeBound {
  double value = 0;
  bool inclusive = true;
};

struct RunOptionRow {
  std::string_view flag;        // "--temperature"; "" = only in run files (extra-body)
  std::string_view yaml_key;    // the run file's key, as the flag without dashes
  std::string_view json_key;    // the key in the provenance's "options"; "" = not stored (out)
  std::string_view value_hint;  // what --help shows as the value: N, S, URL, ...
  std::string_view expected;    // what a value is, in run-file errors: "a number"
  std::string_view help;
  RunOptionField field;
  std::span<const std::string_view> choices = {};  // non-empty: every value must be one of these
  std::optional<RangeBound> low = {};               // numbers: every value within [low, high]
  std::optional<RangeBound> high = {};
  bool comma_separated = false;   // a list flag that also splits "a,b"
  bool show_default = false;      // --help shows the field's default value
  bool applies_on_resume = false; // may be given with --resume (the others would change the plan)
};

// Every option, in the order --help and the provenance list them.
std::span<const RunOptionRow> run_option_table();

// The row with this YAML key, or nullptr.
const RunOptionRow* find_run_option(std::string_view yaml_key);

// The row's field of `options` as JSON (nullopt → null, path → string).
nlohmann::json field_json(const RunOptionRow& row, const RunOptions& options);
// Reads what field_json wrote back into `options`.
void read_field_json(const RunOptionRow& row, const nlohmann::json& value, RunOptions& options);
// Copies the row's field from one RunOptions to another (a flag given on the command line wins).
void copy_field(const RunOptionRow& row, const RunOptions& from, RunOptions& to);

}  // namespace codebias::run
