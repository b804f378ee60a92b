// libFuzzer target: arbitrary bytes as an LLM response through Analyzer::analyze and the JSON
// output line, as a `codebias score` input line, and as the code whose inputs counterfactual
// execution reads (Python and JavaScript). Nothing may crash, hang or leak, and the output must
// stay valid JSON.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include <nlohmann/json.hpp>

#include "analysis/analyzer.h"
#include "analysis/batch.h"
#include "analysis/counterfactual/function_inputs.h"
#include "analysis/findings/report_json.h"

namespace {

using namespace codebias::analysis;

const Analyzer& analyzer() {
  static const Analyzer instance(AttributeTable::builtin());
  return instance;
}

void check_json(const std::string& line) {
  if (!nlohmann::json::accept(line)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);

  // The first byte picks the scenario and whether the attribute list is fixed, so the fuzzer
  // explores every AnalyzeOptions path too.
  AnalyzeOptions options;
  if (!bytes.empty()) {
    static const char* const scenarios[] = {"", "job", "edu", "med"};
    options.scenario = scenarios[static_cast<unsigned char>(bytes[0]) % 4];
    if (bytes[0] & 0x10) {
      options.attributes = {"gender", "age"};
      options.only_listed = (bytes[0] & 0x20) != 0;
    }
  }
  ResponseReport report = analyzer().analyze(bytes, options);
  check_json(report_json_line(report, "fuzz"));

  for (const Language language : {Language::python, Language::javascript})
    if (const auto inputs = read_function_inputs(bytes, language, options.scenario))
      check_json(to_json(*inputs, language == Language::python).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));

  auto parsed = parse_score_line(bytes, 1, analyzer().attributes(), options);
  if (auto* error = std::get_if<codebias::base::LineError>(&parsed)) check_json(error_json_line(*error));
  return 0;
}
