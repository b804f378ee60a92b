// Front ends lower a tree-sitter tree into the language-neutral ir::Program.
#pragma once

#include <span>
#include <string_view>

#include "analysis/ir/ir.h"
#include "analysis/parsing/syntax.h"

namespace codebias::analysis {

ir::Program lower_program(const SyntaxTree& tree);

namespace front_ends {
ir::Program lower_python(const SyntaxTree& tree);
ir::Program lower_c_family(const SyntaxTree& tree);  // C and C++
ir::Program lower_javascript(const SyntaxTree& tree);  // JavaScript and TypeScript
ir::Program lower_java(const SyntaxTree& tree);
}  // namespace front_ends

// Shared by the front ends: building expressions, and reading literals.
namespace lowering {
ir::ExprPtr make(ir::ExprKind kind, int line, std::string text = {});
ir::ExprPtr make_unknown(int line);
ir::ExprPtr make_number(double value, int line);
ir::ExprPtr make_binary(ir::ExprKind kind, std::string op, ir::ExprPtr left, ir::ExprPtr right, int line);
ir::ExprPtr make_boolean(bool value, int line);
// object.name
ir::ExprPtr make_member(ir::ExprPtr object, std::string name, int line);
// A number literal's value (parse_number); unknown when it is not one.
ir::ExprPtr make_number_literal(std::string_view text, int line);
// Parses "1_000", "0x1F", "2.5f", "10L"; false when it is not a number.
bool parse_number(std::string_view text, double& value);
// The value of a quoted literal: strips prefixes (r, b, f, u, L, @), quotes (', ", `, triple) and
// resolves simple escapes.
std::string unquote(std::string_view literal);
// "x += 1" -> "+"; "=" -> "".
std::string assignment_operator(std::string_view op);

// A front end's library: each name, as it stands in the lowered ir, with its ir::Library bits.
struct LibraryName {
  std::string_view name;
  unsigned meaning;
};
struct LibraryTable {
  std::span<const LibraryName> methods;    // receiver.name(...); fields receiver.name keep kSameValue
  std::span<const LibraryName> functions;  // name(...)
};
// Sets ir::Expr::library on every call and field of `program` that has none yet, from `table`.
void tag_library(ir::Program& program, const LibraryTable& table);
}  // namespace lowering

}  // namespace codebias::analysis
