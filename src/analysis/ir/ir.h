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
  lambda,       // a function of one parameter given as a value: text = the parameter; children[0] = what it returns
  comprehension,  // [children[0] for text in children[1] if children[2] if ...]: a generator or list comprehension
  unknown,      // anything the front end does not model
};

// What a call of a library method or function does, in the evaluator's terms. Each front end
// maps its language's names onto these in one table (front_ends/*.cpp), so the evaluator reads no
// library name. A method name can mean several (`find` searches a text or a table's keys): the
// receiver's value tells which applies. "Receiver" is the callee's object; a function's operands
// are its arguments.
enum Library : unsigned {
  kSameValue = 1u << 0,   // the receiver under another spelling: x.lower(), x.trim(); also a field, x.value
  kEquals = 1u << 1,      // the receiver equals the argument, true or false: x.equals(y), x.startswith(y)
  kOrder = 1u << 2,       // compares the receiver and the argument, 0 when equal: x.compareTo(y);
                          // as a function its first two arguments: strcmp(x, y)
  kSubstring = 1u << 3,   // the argument occurs in the receiver's text: x.contains("m"), x.find("m")
  kHasItem = 1u << 4,     // the list holds the argument: v.includes(x), v.count(x)
  kHasKey = 1u << 5,      // the table has the key: m.containsKey(k), m.find(k)
  kPosition = 1u << 6,    // the argument's position in the list: v.index(x), v.indexOf(x)
  kEntry = 1u << 7,       // the table's entry for the key, else the default: d.get(k, 0), m.at(k)
  kValues = 1u << 8,      // the table's values: d.values()
  kField = 1u << 9,       // the field the argument names: o.get("gender"); as a function getattr(o, "gender")
  kAppend = 1u << 10,     // as a statement, adds the argument to the list: v.append(x), v.push_back(x)
  kConvert = 1u << 11,    // a function giving its argument's value: str(x), round(x)
  kParseNumber = 1u << 12,  // kConvert that also reads a number from a literal text: int("3"), parseInt
  kAbsolute = 1u << 13,   // kConvert that takes a known number's absolute value: abs(x)
  kMinimum = 1u << 14,    // min(a, b, ...) / min(list)
  kMaximum = 1u << 15,
  kSum = 1u << 16,        // sum(list)
  kRange = 1u << 17,      // range(n) / range(a, b): the numbers
  kOpaque = 1u << 18,     // a function whose result the evaluator does not follow: print(x)
  // Quantifiers over the items of a list: as a method, the receiver's items tested by the argument
  // (a lambda): v.some(f), s.anyMatch(f); as a function, the first argument's items tested by the
  // second, any_of(v, f), or with one argument the truths of its items: any(x == r for r in v).
  kAny = 1u << 19,        // some item passes
  kAll = 1u << 20,        // every item passes
  kNone = 1u << 21,       // no item passes
  kLength = 1u << 22,     // the number of items of a list or table: len(v), v.size(); as a method, of the receiver
  // The items of a list that pass a test (a lambda): as a method, the receiver's items, v.filter(f),
  // s.filter(f); as a function, the second argument's items tested by the first, filter(f, v).
  kFilter = 1u << 23,
  kPairs = 1u << 24,      // a table's (key, value) pairs, each a list of two: d.items()
  // Each item passed through a function: as a method, the receiver's items, v.map(f), s.map(f);
  // as a function, the second argument's, map(f, v).
  kMap = 1u << 25,
};

struct Expr {
  ExprKind kind = ExprKind::unknown;
  std::string text;
  double value = 0;
  int line = 0;  // 1-based line in the code block
  unsigned library = 0;  // Library bits of a call, by its callee's name; of a field, kSameValue only
  std::vector<std::unique_ptr<Expr>> children;
};
using ExprPtr = std::unique_ptr<Expr>;

enum class StmtKind {
  expression,  // value
  assign,      // target op= value; op is "" for plain assignment, else "+", "-", "*", "/", ...
  if_chain,    // conditions[i] guards bodies[i]; one extra body is the else branch
  loop,        // bodies[0] runs an unknown number of times; with a target (a name) and a value, once per
               // item of the value with the target bound to it: for r in v, for (auto& r : v)
  ret,         // value may be null
  raise,       // raise / throw
  block,       // bodies[0]: try blocks, nested braces
  havoc,       // names: statements left out of the parse assigned these on unknown inputs
  skip,        // continue: the rest of this run of the loop's body is skipped
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
  std::string owner;  // the class a JavaScript method belongs to (to call it); "" otherwise
  std::vector<std::string> params;
  std::vector<ExprPtr> param_defaults;  // parallel to params; null when none
  // JavaScript's f({gender, income}): `params` are the keys of the one object it takes.
  bool destructured_object = false;
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
