// Parsing a code block with tree-sitter, and the small helpers every front end needs.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

#include "analysis/response/response.h"

namespace codebias::analysis {

class SyntaxTree {
 public:
  // Parses `code` (kept by reference: it must outlive the tree). Never fails: tree-sitter's
  // error-tolerant tree is returned for broken code, with has_error() set.
  SyntaxTree(Language language, std::string_view code);
  // Parses only `ranges` of `code` (positions stay those of the whole code).
  SyntaxTree(Language language, std::string_view code, const std::vector<TSRange>& ranges);
  ~SyntaxTree();
  SyntaxTree(const SyntaxTree&) = delete;
  SyntaxTree& operator=(const SyntaxTree&) = delete;

  Language language() const { return language_; }
  TSNode root() const { return ts_tree_root_node(tree_); }
  bool has_error() const { return ts_node_has_error(root()); }
  // The code ends inside a syntax error or with a missing token: it was cut off.
  bool ends_in_error() const;
  // Start byte of that trailing error (meaningful when ends_in_error()).
  uint32_t trailing_error_start() const;
  std::string_view text(TSNode node) const;
  std::string_view source() const { return code_; }

 private:
  Language language_;
  std::string_view code_;
  TSTree* tree_ = nullptr;
};

// The node's named children, in order.
std::vector<TSNode> named_children(TSNode node);
// Whether `type` (a node's type) is one of `types`.
bool one_of(std::string_view type, std::initializer_list<std::string_view> types);

// 1-based line of a node's first byte.
inline int line_of(TSNode node) { return static_cast<int>(ts_node_start_point(node).row) + 1; }
inline std::string_view type_of(TSNode node) { return ts_node_type(node); }
// The child in field `name`, which must be a string literal: ids are remembered by its address.
TSNode field(TSNode node, const char* name);

}  // namespace codebias::analysis
