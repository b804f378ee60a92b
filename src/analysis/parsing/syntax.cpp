#include "analysis/parsing/syntax.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "analysis/parsing/dense_parse_table.h"
#include "analysis/parsing/grammars.h"

namespace codebias::analysis {
namespace {

// Each grammar's dense copy, made on first use (dense_parse_table.c).
template <const TSLanguage* (*original)()>
const TSLanguage* dense() {
  static const TSLanguage* const copy = codebias_dense_language(original());
  return copy;
}

const TSLanguage* grammar(Language language) {
  switch (language) {
    case Language::python: return dense<tree_sitter_python>();
    case Language::c: return dense<tree_sitter_c>();
    case Language::cpp: return dense<tree_sitter_cpp>();
    case Language::javascript: return dense<tree_sitter_javascript>();
    case Language::typescript: return dense<tree_sitter_typescript>();
    case Language::java: return dense<tree_sitter_java>();
    case Language::unknown: break;
  }
  return dense<tree_sitter_python>();
}

// One parser per thread and language: parsers are not thread-safe, and creating one per
// response would cost more than parsing a short snippet.
TSParser* parser_for(Language language) {
  struct Parsers {
    TSParser* by_language[7] = {};
    ~Parsers() {
      for (TSParser* p : by_language)
        if (p) ts_parser_delete(p);
    }
  };
  thread_local Parsers parsers;
  TSParser*& slot = parsers.by_language[static_cast<int>(language)];
  if (!slot) {
    slot = ts_parser_new();
    if (!ts_parser_set_language(slot, grammar(language)))
      throw std::runtime_error(std::string("tree-sitter grammar ABI mismatch for ") + to_string(language));
  }
  return slot;
}

}  // namespace

SyntaxTree::SyntaxTree(Language language, std::string_view code) : language_(language), code_(code) {
  tree_ = ts_parser_parse_string(parser_for(language), nullptr, code.data(), static_cast<uint32_t>(code.size()));
  if (!tree_) throw std::runtime_error("tree-sitter returned no tree");
}

SyntaxTree::SyntaxTree(Language language, std::string_view code, const std::vector<TSRange>& ranges)
    : language_(language), code_(code) {
  TSParser* parser = parser_for(language);
  if (!ranges.empty() && !ts_parser_set_included_ranges(parser, ranges.data(), static_cast<uint32_t>(ranges.size())))
    throw std::runtime_error("invalid parse ranges");
  tree_ = ts_parser_parse_string(parser, nullptr, code.data(), static_cast<uint32_t>(code.size()));
  ts_parser_set_included_ranges(parser, nullptr, 0);
  if (!tree_) throw std::runtime_error("tree-sitter returned no tree");
}

SyntaxTree::~SyntaxTree() { ts_tree_delete(tree_); }

std::string_view SyntaxTree::text(TSNode node) const {
  uint32_t start = ts_node_start_byte(node), end = ts_node_end_byte(node);
  if (start > code_.size() || end > code_.size() || end < start) return {};
  return code_.substr(start, end - start);
}

namespace {

// The outermost error or missing node on the path to the last token, or a null node.
TSNode trailing_error(TSNode node) {
  for (;;) {
    if (ts_node_is_error(node) || ts_node_is_missing(node)) return node;
    uint32_t n = ts_node_child_count(node);
    if (n == 0) return TSNode{};
    node = ts_node_child(node, n - 1);
  }
}

}  // namespace

bool SyntaxTree::ends_in_error() const { return !ts_node_is_null(trailing_error(root())); }

uint32_t SyntaxTree::trailing_error_start() const {
  TSNode error = trailing_error(root());
  return ts_node_is_null(error) ? static_cast<uint32_t>(code_.size()) : ts_node_start_byte(error);
}

TSNode field(TSNode node, const char* name) {
  // Looking a field's id up by name compares it with every field name of the grammar; callers
  // pass literals, so the id is remembered per (grammar, literal address).
  struct Entry {
    const TSLanguage* language = nullptr;
    const char* name = nullptr;
    TSFieldId id = 0;
  };
  thread_local std::array<Entry, 512> ids;
  const TSLanguage* language = ts_node_language(node);
  auto address = reinterpret_cast<std::uintptr_t>(name) ^ (reinterpret_cast<std::uintptr_t>(language) >> 4);
  Entry& entry = ids[(address ^ (address >> 9)) % ids.size()];
  if (entry.language != language || entry.name != name)
    entry = Entry{language, name, ts_language_field_id_for_name(language, name, static_cast<uint32_t>(std::strlen(name)))};
  return ts_node_child_by_field_id(node, entry.id);
}

std::vector<TSNode> named_children(TSNode node) {
  std::vector<TSNode> found;
  for (uint32_t i = 0; i < ts_node_named_child_count(node); ++i) found.push_back(ts_node_named_child(node, i));
  return found;
}

bool one_of(std::string_view type, std::initializer_list<std::string_view> types) {
  return std::find(types.begin(), types.end(), type) != types.end();
}

}  // namespace codebias::analysis
