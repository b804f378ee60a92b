// Python code as Python's own ast module gives it, built from tree-sitter's tree: the nodes that
// reading a function's inputs looks at (python_inputs.cpp), with every other node kept as `other`
// so that walks visit what ast.NodeVisitor visits, in the same order (an If's test, body, orelse;
// an Assign's targets, then its value; a Dict's keys, then its values; a Call's arguments, then
// its keywords) and at the same depth (ast.walk).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace codebias::analysis::python_ast {

enum class Kind {
  module,
  function_def,  // text: name; params, defaults, decorators; kids: arguments, body, decorators, returns
  class_def,     // text: name; kids: bases, keywords, body [body_begin, body_end), decorators
  assign,        // kids: targets [0, split), value
  aug_assign,    // kids: target, value
  for_loop,      // kids: target, iter, body, orelse (an `async for` is `other`: ast.AsyncFor)
  while_loop,    // kids: test, body, orelse
  if_statement,  // kids: test, body, orelse (an elif is an if_statement in orelse)
  if_expression, // kids: test, body, orelse
  bool_op,       // kids: values
  unary_op,      // text: "-", "+", "~" or "not"; kids: operand
  compare,       // ops: "Eq", "Lt", "In", ...; kids: left, comparators
  bin_op,        // kids: left, right
  call,          // kids: func, args [1, 1 + split), keywords
  attribute,     // text: attr; kids: value
  subscript,     // kids: value, slice
  name,          // text: id
  constant,      // value: a str, int, float, bool or None (bytes, complex and ... are `other`)
  list,          // kids: elts (also a Tuple and a Set: literals reads them alike)
  dict,          // kids: keys [0, split) (an `absent` key for **d), values
  ret,           // kids: value, if any
  absent,        // a None in one of ast's lists: never visited
  other,         // any other node: only its kids are visited
};

struct Node {
  Kind kind = Kind::other;
  std::string text;
  nlohmann::json value;
  std::vector<std::string> ops;
  std::vector<Node> kids;
  std::size_t split = 0;
  // function_def: positional parameters as written (posonlyargs + args), how many have defaults,
  // whether it is `async def`, and the names its decorators end with ("property", "setter").
  std::vector<std::string> params;
  std::size_t defaults = 0;
  std::vector<std::string> decorators;
  int line = 0;
  // class_def: its body's kids.
  std::size_t body_begin = 0;
  std::size_t body_end = 0;
};

// The module of `code`. Code tree-sitter cannot parse gives what it recovered.
Node parse(std::string_view code);

// Python's own `normalize` (function_calls.py): the words of a name, lower case, space separated;
// "maritalStatus" and "marital_status" both give "marital status".
std::string normalize_name(std::string_view name);

}  // namespace codebias::analysis::python_ast
