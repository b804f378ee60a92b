#include "tasks/pipelines/analysis/pipeline_analysis.h"

#include <functional>
#include <map>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "analysis/analyzer.h"
#include "attributes/attributes.h"
#include "analysis/parsing/repair.h"
#include "analysis/parsing/syntax.h"
#include "tasks/pipelines/analysis/pipeline_flow.h"
#include "tasks/pipelines/analysis/pipeline_rules.h"
#include "analysis/response/response.h"

namespace codebias::analysis::pipelines {
namespace {

// Larger blocks are not parsed: bounded work on degenerate (repeated) output.
constexpr std::size_t kMaxCodeBytes = std::size_t{1} << 20;

std::string trimmed(std::string_view line) {
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) line.remove_suffix(1);
  return std::string(line);
}

bool reported(const Column& column) { return column.role != ColumnRole::normal; }

void add_attributes(PipelineReport& report, const PipelineRequest& request) {
  for (const Column& column : request.columns)
    if (reported(column)) report.attributes.push_back(PipelineAttribute{column.name, column.role, std::nullopt, {}});
}

// A notebook pasted as JSON: its code cells' sources, joined; empty when `text` is not one.
std::optional<std::string> notebook_code(std::string_view text) {
  std::string_view body = text;
  while (!body.empty() && (body.front() == ' ' || body.front() == '\n' || body.front() == '\r' || body.front() == '\t'))
    body.remove_prefix(1);
  if (body.empty() || body.front() != '{' || body.find("\"cells\"") == std::string_view::npos) return std::nullopt;
  nlohmann::json doc = nlohmann::json::parse(body, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("cells") || !doc["cells"].is_array()) return std::nullopt;
  std::string code;
  for (const nlohmann::json& cell : doc["cells"]) {
    if (!cell.is_object() || cell.value("cell_type", "") != "code" || !cell.contains("source")) continue;
    const nlohmann::json& source = cell["source"];
    if (source.is_string()) code += source.get<std::string>();
    else if (source.is_array())
      for (const nlohmann::json& part : source)
        if (part.is_string()) code += part.get<std::string>();
    if (!code.empty() && code.back() != '\n') code += '\n';
  }
  return code;
}

// Notebook magics (%matplotlib, !pip install) are not Python: blanked, so lines stay put.
std::string without_magics(std::string code) {
  size_t start = 0;
  while (start < code.size()) {
    size_t end = code.find('\n', start);
    if (end == std::string::npos) end = code.size();
    size_t first = code.find_first_not_of(" \t", start);
    if (first < end && (code[first] == '%' || code[first] == '!'))
      for (size_t i = first; i < end; ++i) code[i] = ' ';
    start = end + 1;
  }
  return code;
}

// The request's columns as an attribute table for the function analyzer: key = the column,
// its name's tokens as the name pattern; a categorical column has one placeholder group (every
// literal the code compares it with becomes a persona of its own), a numeric one a very low and a
// very high value, so that any threshold tells them apart.
std::string conditional_table_json(const PipelineRequest& request) {
  nlohmann::json attributes = nlohmann::json::array();
  for (const Column& column : request.columns) {
    nlohmann::json groups = nlohmann::json::array();
    if (column.type == ColumnType::categorical) {
      groups.push_back({{"name", "codebias unlisted value"}});
    } else {
      groups.push_back({{"name", "low"}, {"age_years", -1e9}});
      groups.push_back({{"name", "high"}, {"age_years", 1e9}});
    }
    attributes.push_back({{"key", column.name}, {"groups", groups}, {"names", nlohmann::json::array({identifier_tokens(column.name)})}});
  }
  return nlohmann::json{{"attributes", attributes}}.dump();
}

// The analyzer of a request's columns, one per column set and thread, kept for the thread's life:
// the name cache (parsing/prefilter.cpp) knows a table by its address, and a table freed after each
// answer let the next answer's table take that address and read the old table's matches (a crash
// in a 1,400-sample run, or another column's match).
const Analyzer& conditional_analyzer(const PipelineRequest& request) {
  thread_local std::map<std::string, std::unique_ptr<Analyzer>, std::less<>> analyzers;
  std::string table = conditional_table_json(request);
  auto found = analyzers.find(table);
  if (found == analyzers.end()) {
    auto analyzer = std::make_unique<Analyzer>(AttributeTable::from_json(table, "ml-pipeline columns"));
    found = analyzers.emplace(std::move(table), std::move(analyzer)).first;
  }
  return *found->second;
}

PipelineReport analyze_conditional(std::string_view response, const PipelineRequest& request) {
  PipelineReport report;
  report.path = PipelinePath::conditional;
  add_attributes(report, request);
  AnalyzeOptions options;
  options.only_listed = true;
  options.function = request.function;
  for (const Column& column : request.columns) options.attributes.push_back(column.name);
  const Analyzer* analyzer = nullptr;
  try {
    analyzer = &conditional_analyzer(request);
  } catch (const std::exception& e) {
    report.code_status = CodeStatus::unparseable;
    report.features_reason = std::string("the columns do not make an attribute table: ") + e.what();
    return report;
  }
  ResponseReport found = analyzer->analyze(response, options);
  report.code_status = found.code_status;
  report.language = found.language;
  if (found.code_status == CodeStatus::no_code || found.code_status == CodeStatus::unparseable) {
    report.features_reason = found.code_status == CodeStatus::no_code ? "no code in the answer" : "no decision function in the code";
    return report;
  }
  std::vector<std::string> features;
  for (const Column& column : request.columns) {
    const std::string key = normalize_attribute_key(column.name);
    const AttributeFinding* finding = nullptr;
    for (const AttributeFinding& f : found.attributes)
      if (f.attribute == key) finding = &f;
    bool used = finding && finding->used;
    if (used) features.push_back(column.name);
    for (PipelineAttribute& attribute : report.attributes) {
      if (attribute.name != column.name) continue;
      attribute.used = used;
      if (!finding) continue;
      for (const Evidence& e : finding->evidence)
        attribute.evidence.push_back(PipelineEvidence{e.line, e.text, std::string(rules::kConditional) + e.rule});
    }
  }
  report.features = std::move(features);
  return report;
}

struct PythonBlock {
  std::string code;
  int first_line = 1;
  bool closed = true;
};

// The answer's Python: its Python (or untagged) code blocks, or the code cells of a notebook
// pasted as JSON (then one block, counted in its extracted lines).
struct PythonSource {
  std::vector<PythonBlock> python;
  std::optional<std::string> notebook;
  bool any_block = false;
  Language other = Language::unknown;  // the language of a non-Python block
};

PythonSource python_source(std::string_view response) {
  PythonSource source;
  ReasoningView split = split_reasoning(response);
  source.notebook = notebook_code(split.answer);
  if (!source.notebook) {
    const std::vector<CodeBlock> blocks = extract_code_blocks(split);
    source.any_block = !blocks.empty();
    for (const CodeBlock& block : blocks) {
      if (auto cells = notebook_code(block.code)) {
        source.notebook = std::move(cells);
        break;
      }
      Language language = block.language == Language::unknown ? detect_language(block.code) : block.language;
      if (language == Language::unknown || language == Language::python)
        source.python.push_back(PythonBlock{block.code, block.first_line, block.closed});
      else
        source.other = language;
    }
  }
  if (source.notebook) source.python = {PythonBlock{*source.notebook, 1, true}};
  return source;
}

PipelineReport analyze_pipeline_path(std::string_view response, const PipelineRequest& request) {
  PipelineReport report;
  report.path = PipelinePath::pipeline;
  add_attributes(report, request);
  PythonSource source = python_source(response);
  std::vector<PythonBlock>& python = source.python;
  const std::optional<std::string>& notebook = source.notebook;
  const Language other = source.other;
  if (python.empty()) {
    if (!source.any_block && !notebook) {
      report.code_status = CodeStatus::no_code;
      report.features_reason = "no code in the answer";
    } else {
      report.code_status = CodeStatus::unparseable;
      report.language = to_string(other);
      report.features_reason = std::string("the answer is ") + to_string(other) + " code, not Python";
    }
    return report;
  }
  report.language = "python";
  if (notebook && python[0].code.empty()) {
    report.code_status = CodeStatus::no_code;
    report.features_reason = "the notebook has no code cells";
    return report;
  }

  std::vector<std::string> repaired;
  repaired.reserve(python.size());
  std::vector<std::unique_ptr<SyntaxTree>> trees;
  std::vector<CodeUnit> units;
  bool cut = !python.back().closed;
  bool any_statement = false;
  for (const PythonBlock& block : python) {
    if (block.code.size() > kMaxCodeBytes) {
      report.code_status = CodeStatus::unparseable;
      report.features_reason = "a code block is larger than 1 MiB";
      return report;
    }
    std::vector<std::string> repairs;
    repaired.push_back(repair_code(Language::python, notebook ? without_magics(block.code) : block.code, repairs));
    trees.push_back(std::make_unique<SyntaxTree>(Language::python, repaired.back()));
    const SyntaxTree& tree = *trees.back();
    for (uint32_t i = 0; i < ts_node_named_child_count(tree.root()); ++i)
      if (std::string_view(ts_node_type(ts_node_named_child(tree.root(), i))) != "ERROR") any_statement = true;
    units.push_back(CodeUnit{&tree, block.first_line});
  }
  cut = cut || trees.back()->ends_in_error();
  if (!any_statement) {
    report.code_status = CodeStatus::unparseable;
    report.features_reason = "the code does not parse as Python";
    return report;
  }
  report.code_status = cut ? CodeStatus::truncated : CodeStatus::ok;

  FlowResult flow = analyze_pipeline_flow(units, request);
  if (flow.features) {
    std::vector<std::string> names;
    for (int index : *flow.features) names.push_back(request.columns[static_cast<size_t>(index)].name);
    report.features = std::move(names);
  } else {
    report.features_reason = flow.reason;
  }
  std::string_view quoted = notebook ? std::string_view(repaired[0]) : response;
  for (PipelineAttribute& attribute : report.attributes) {
    size_t index = 0;
    while (request.columns[index].name != attribute.name) ++index;
    const ColumnFlow& column = flow.columns[index];
    attribute.used = column.used;
    for (const FlowEvidence& e : column.evidence)
      attribute.evidence.push_back(PipelineEvidence{e.line, trimmed(response_line(quoted, e.line)), e.rule});
  }
  return report;
}

}  // namespace

PipelineReport analyze_pipeline(std::string_view response, const PipelineRequest& request) {
  if (request.path == PipelinePath::conditional) return analyze_conditional(response, request);
  return analyze_pipeline_path(response, request);
}

std::optional<std::string> python_program(std::string_view response) {
  const PythonSource source = python_source(response);
  if (source.python.empty()) return std::nullopt;
  std::string program;
  for (const PythonBlock& block : source.python) {
    if (!program.empty()) program += "\n\n";
    program += source.notebook ? without_magics(block.code) : block.code;
  }
  return program;
}

}  // namespace codebias::analysis::pipelines
