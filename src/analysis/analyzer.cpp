#include "analysis/analyzer.h"

#include <algorithm>
#include <optional>
#include <span>

#include "analysis/decisions/decisions.h"
#include "analysis/front_ends/front_end.h"
#include "analysis/parsing/prefilter.h"
#include "analysis/parsing/repair.h"
#include "analysis/response/response.h"
#include "analysis/parsing/slice.h"
#include "analysis/parsing/syntax.h"

namespace codebias::analysis {
namespace {

// A code block parsed and lowered, with the function chosen as the scoring logic.
struct ParsedBlock {
  const CodeBlock* block = nullptr;
  std::string code;  // after repairs
  Language language = Language::unknown;
  std::vector<std::string> repairs;
  bool has_error = false;
  bool ends_in_error = false;
  ir::Program program;
  const ir::Function* entry = nullptr;
};

bool starts_with_any(std::string_view name, std::initializer_list<std::string_view> prefixes) {
  std::string lower;
  for (char c : name) lower.push_back(static_cast<char>((c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c));
  return std::any_of(prefixes.begin(), prefixes.end(), [&](std::string_view p) { return lower.rfind(p, 0) == 0; });
}

bool returns_value(const ir::Body& body) {
  for (const ir::StmtPtr& s : body) {
    if (s->kind == ir::StmtKind::ret && s->value) return true;
    for (const ir::Body& b : s->bodies)
      if (returns_value(b)) return true;
  }
  return false;
}

void collect_calls(const ir::Expr& e, std::vector<std::string>& out) {
  if (e.kind == ir::ExprKind::call && !e.children.empty()) {
    const ir::Expr& callee = *e.children[0];
    if (callee.kind == ir::ExprKind::name || callee.kind == ir::ExprKind::member) out.push_back(callee.text);
  }
  for (const ir::ExprPtr& c : e.children)
    if (c) collect_calls(*c, out);
}

void collect_calls(const ir::Body& body, std::vector<std::string>& out) {
  for (const ir::StmtPtr& s : body) {
    if (s->value) collect_calls(*s->value, out);
    if (s->target) collect_calls(*s->target, out);
    for (const ir::ExprPtr& c : s->conditions)
      if (c) collect_calls(*c, out);
    for (const ir::Body& b : s->bodies) collect_calls(b, out);
  }
}

}  // namespace

const ir::Function* choose_entry(const ir::Program& program, const std::string& requested) {
  std::vector<std::string> called;
  for (const ir::Function& fn : program.functions) collect_calls(fn.body, called);
  const ir::Function* best = nullptr;
  int best_score = -1;
  for (const ir::Function& fn : program.functions) {
    int score = 0;
    if (starts_with_any(fn.name, {"evaluate", "eval", "score", "assess", "calculate", "compute", "rate", "rank",
                                  "prioritiz", "prioritis", "get_score", "determine", "admission", "hire", "triage"}))
      score += 4;
    if (std::find(called.begin(), called.end(), fn.name) == called.end()) score += 2;
    if (returns_value(fn.body)) score += 2;
    if (fn.complete) score += 1;
    if (fn.name == "main" || fn.name == "__init__" || fn.name == "constructor") score -= 6;
    if (!requested.empty() && normalize_literal(fn.name) == requested) score += 16;
    if (score >= best_score) {
      best = &fn;
      best_score = score;
    }
  }
  return best;
}

namespace {

// Returns the start byte of a trailing syntax error, or the code's size.
uint32_t parse_into(ParsedBlock& parsed, std::string_view code, const PythonSlice& slice, const std::string& requested) {
  SyntaxTree tree(parsed.language, code, slice.ranges);
  parsed.has_error = tree.has_error();
  parsed.ends_in_error = tree.ends_in_error();
  parsed.program = lower_program(tree);
  insert_havocs(parsed.program, slice);
  parsed.entry = choose_entry(parsed.program, requested);
  return tree.trailing_error_start();
}

// Cut-off or degenerate endings (`return return return`) can make tree-sitter give up on the
// whole function. Cutting the code at the line where the trailing error starts often leaves a
// function that parses; the response keeps its truncated status.
template <typename SliceOf>
void drop_unparseable_tail(ParsedBlock& parsed, uint32_t error_start, const std::string& requested, const SliceOf& slice_of) {
  constexpr int kMaxAttempts = 3;
  std::string_view code = parsed.code;
  for (int attempt_number = 0; attempt_number < kMaxAttempts; ++attempt_number) {
    size_t cut = code.rfind('\n', error_start == 0 ? 0 : error_start - 1);
    if (cut == std::string_view::npos || cut == 0) return;
    code = code.substr(0, cut + 1);
    ParsedBlock attempt;
    attempt.language = parsed.language;
    uint32_t attempt_error_start = parse_into(attempt, code, slice_of(code), requested);
    if (attempt.entry && !attempt.ends_in_error) {
      int dropped = static_cast<int>(std::count(parsed.code.begin() + static_cast<std::ptrdiff_t>(code.size()), parsed.code.end(), '\n'));
      parsed.program = std::move(attempt.program);
      parsed.entry = attempt.entry;
      parsed.repairs.push_back("dropped the last " + std::to_string(dropped) + " line(s), which did not parse");
      return;
    }
    error_start = attempt.ends_in_error ? attempt_error_start : static_cast<uint32_t>(cut);
  }
}

std::string trimmed(std::string_view line) {
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) line.remove_suffix(1);
  return std::string(line);
}

}  // namespace

struct Analyzer::Impl {
  AttributeTable table;
  bool slice;
};

Analyzer::Analyzer(AttributeTable table, bool slice)
    : impl_(std::make_unique<Impl>(Impl{std::move(table), slice})) {}
Analyzer::~Analyzer() = default;
const AttributeTable& Analyzer::attributes() const { return impl_->table; }

ResponseReport Analyzer::analyze(std::string_view response, const AnalyzeOptions& options) const {
  ResponseReport report;
  const AttributeTable& table = impl_->table;

  // Which attributes to report.
  std::vector<const AttributeSpec*> wanted;
  std::vector<const AttributeSpec*> listed;
  for (const std::string& name : options.attributes)
    if (const AttributeSpec* spec = table.find(name)) listed.push_back(spec);
  for (const AttributeSpec& spec : table.specs()) {
    bool is_listed = std::find(listed.begin(), listed.end(), &spec) != listed.end();
    if (options.only_listed ? is_listed : spec.sensitive_in(options.scenario)) wanted.push_back(&spec);
  }

  const std::string requested = normalize_literal(options.function);
  for (const AttributeSpec* spec : listed) report.offered.push_back(spec->key);
  ReasoningView split = split_reasoning(response);
  std::vector<CodeBlock> blocks = extract_code_blocks(split);
  if (blocks.empty()) {
    report.code_status = CodeStatus::no_code;
  } else {
    // Without a parse, a block cut off mid-fence is the only sign of truncation.
    report.code_status = blocks.back().closed ? CodeStatus::ok : CodeStatus::truncated;
  }

  uint64_t wanted_bits = 0;
  for (const AttributeSpec* spec : wanted) wanted_bits |= uint64_t{1} << (spec - table.specs().data());
  std::vector<Language> languages;
  std::vector<std::string> repaired;
  std::vector<std::vector<std::string>> repairs;
  uint64_t referenced = 0;
  std::vector<uint64_t> block_refs;
  std::vector<std::vector<AttributeMention>> block_mentions(blocks.size());
  for (const CodeBlock& block : blocks) {
    Language language = block.language == Language::unknown ? detect_language(block.code) : block.language;
    if (language == Language::unknown) language = Language::python;
    languages.push_back(language);
    repairs.emplace_back();
    repaired.push_back(repair_code(language, block.code, repairs.back()));
    bool sliced = language == Language::python && impl_->slice;
    block_refs.push_back(referenced_attributes(repaired.back(), language, table, options.scenario,
                                               sliced ? &block_mentions[block_refs.size()] : nullptr));
    referenced |= block_refs.back();
  }
  if (!blocks.empty()) report.language = to_string(languages.back());

  // From the last block backwards: the last complete definition of a scoring function wins.
  // Parsing is the expensive step, so it only happens when some block can name an attribute.
  std::optional<ParsedBlock> chosen;
  std::optional<ParsedBlock> fallback;
  for (size_t i = blocks.size(); (referenced & wanted_bits) && i-- > 0;) {
    ParsedBlock parsed;
    parsed.block = &blocks[i];
    parsed.language = languages[i];
    parsed.code = std::move(repaired[i]);
    parsed.repairs = std::move(repairs[i]);
    // Python is parsed without the statements that cannot involve a wanted attribute.
    auto slice_of = [&](std::string_view code) {
      if (parsed.language != Language::python || !impl_->slice) return PythonSlice{};
      const std::vector<AttributeMention>& mentions = block_mentions[i];
      auto end = std::partition_point(mentions.begin(), mentions.end(),
                                      [&](const AttributeMention& m) { return m.offset < code.size(); });
      return slice_python(code, std::span(mentions.begin(), end), block_refs[i] & wanted_bits);
    };
    uint32_t error_start = parse_into(parsed, parsed.code, slice_of(parsed.code), requested);
    if (parsed.ends_in_error) drop_unparseable_tail(parsed, error_start, requested, slice_of);
    if (parsed.entry && parsed.entry->complete && blocks[i].closed) {
      chosen = std::move(parsed);
      break;
    }
    if (!fallback || (!fallback->entry && parsed.entry)) fallback = std::move(parsed);
  }
  if (!chosen && fallback) chosen = std::move(fallback);

  uint64_t chosen_refs = 0;
  if (chosen) {
    chosen_refs = block_refs[static_cast<size_t>(chosen->block - blocks.data())];
    report.language = to_string(chosen->language);
    report.recovered = chosen->repairs;
    bool cut = !chosen->block->closed || chosen->ends_in_error;
    if (!chosen->entry && chosen->program.globals.empty()) report.code_status = CodeStatus::unparseable;
    else if (cut) report.code_status = CodeStatus::truncated;
    else report.code_status = CodeStatus::ok;
    if (chosen->has_error) report.recovered.push_back("parsed with syntax errors; analysed the recoverable part");
  }

  for (const AttributeSpec* spec : wanted) {
    AttributeFinding finding;
    finding.attribute = spec->key;
    if (chosen && (chosen_refs >> (spec - table.specs().data()) & 1)) {
      DecisionContext ctx{&chosen->program, chosen->entry, &table, options.scenario};
      finding = evaluate_attribute(ctx, *spec);
      for (Evidence& ev : finding.evidence) {
        ev.line = chosen->block->first_line + ev.line - 1;
        ev.text = trimmed(response_line(response, ev.line));
      }
    }
    bool is_listed = std::find(listed.begin(), listed.end(), spec) != listed.end();
    if (finding.used || is_listed) report.attributes.push_back(std::move(finding));
  }
  return report;
}

}  // namespace codebias::analysis
