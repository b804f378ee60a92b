// A small language-neutral syntax tree. Each front end lowers its tree-sitter tree into it, so the
// evaluation that finds attribute-dependent decisions is written once for every language.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace codebias::analysis::ir {

enum class ExprKind {
  number,       // value
  string,       // text
  boolean,      // value != 0
  null,
  name,         // text = identifier
  member,       // children[0].text ; text = field name
  index,        // children[0][children[1]]
  call,         // children[0] = callee, children[1..] = arguments (keyword arguments dropped)
  unary,        // text = "not" | "-" | "+" ; children[0]
  binary,       // text = "+" "-" "*" "/" "%" "**" "//" ; children[0], children[1]
  compare,      // text = "==" "!=" "<" "<=" ">" ">=" ; children[0], children[1]
  logical,      // text = "and" | "or" ; children[0], children[1]
  membership,   // text = "in" | "not in" ; children[0] in children[1]
  conditional,  // children[0] ? children[1] : children[2]
  list,         // list, tuple, set, array literal: children are the items
  dict,         // children alternate key, value
  unknown,      // anything the front end does not model (comprehensions, lambdas, ...)
};

struct Expr {
  ExprKind kind = ExprKind::unknown;
  std::string text;
  double value = 0;
  int line = 0;  // 1-based line in the code block
  std::vector<std::unique_ptr<Expr>> children;
};
using ExprPtr = std::unique_ptr<Expr>;

enum class StmtKind {
  expression,  // value
  assign,      // target op= value; op is "" for plain assignment, else "+", "-", "*", "/", ...
  if_chain,    // conditions[i] guards bodies[i]; one extra body is the else branch
  loop,        // bodies[0] runs an unknown number of times
  ret,         // value may be null
  raise,       // raise / throw
  block,       // bodies[0]: try blocks, nested braces
  havoc,       // names: statements left out of the parse assigned these on unknown inputs
  other,
};

struct Stmt;
using StmtPtr = std::unique_ptr<Stmt>;
using Body = std::vector<StmtPtr>;

struct Stmt {
  StmtKind kind = StmtKind::other;
  int line = 0;
  std::string op;
  ExprPtr target;
  ExprPtr value;
  std::vector<ExprPtr> conditions;
  std::vector<Body> bodies;
  // Switch statements are lowered to if-chains; `rule` remembers it for the evidence.
  std::string rule;
  std::vector<std::string> names;
};

struct Function {
  std::string name;
  std::vector<std::string> params;
  std::vector<ExprPtr> param_defaults;  // parallel to params; null when none
  Body body;
  int line = 0;
  int end_line = 0;
  bool complete = true;  // false when the definition was cut off or recovered from errors
};

struct Program {
  std::vector<Function> functions;  // in source order, methods included
  Body globals;                     // top-level statements: tables, constants, example usage
};

}  // namespace codebias::analysis::ir
