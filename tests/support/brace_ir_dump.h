// Test helper for the C/C++, JavaScript/TypeScript and Java front-end tests: lowers a snippet and
// prints ir compactly, so a test can state the expected lowering in one line.
//
//   expressions: 1  "male"  true  null  name  obj.field  obj[key]  f(a, b)  (not x)  (a + b)
//                (a == b)  (a and b)  (a in [x, y])  (c ? a : b)  [a, b]  {k: v}  (r => e)
//                [e for r in v if c]  ?
//   statements:  x = e   x += e   expr e   return e   raise   loop {..}   for r in v {..}   block {..}
//                if c {..} elif c {..} else {..}  (prefixed by `rule:` for switches)
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "analysis/front_ends/front_end.h"
#include "analysis/ir/ir.h"
#include "analysis/parsing/syntax.h"

namespace codebias::analysis::test_ir {

inline std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

inline std::string dump(const ir::Expr* e) {
  using ir::ExprKind;
  if (!e) return "<null>";
  auto kid = [&](size_t i) { return i < e->children.size() ? dump(e->children[i].get()) : std::string("<missing>"); };
  switch (e->kind) {
    case ExprKind::number: return number_text(e->value);
    case ExprKind::string: return "\"" + e->text + "\"";
    case ExprKind::boolean: return e->value != 0 ? "true" : "false";
    case ExprKind::null: return "null";
    case ExprKind::name: return e->text;
    case ExprKind::member: return kid(0) + "." + e->text;
    case ExprKind::index: return kid(0) + "[" + kid(1) + "]";
    case ExprKind::call: {
      std::string out = kid(0) + "(";
      for (size_t i = 1; i < e->children.size(); ++i) out += (i > 1 ? ", " : "") + kid(i);
      return out + ")";
    }
    case ExprKind::unary: return "(" + e->text + " " + kid(0) + ")";
    case ExprKind::binary:
    case ExprKind::compare:
    case ExprKind::logical:
    case ExprKind::membership: return "(" + kid(0) + " " + e->text + " " + kid(1) + ")";
    case ExprKind::conditional: return "(" + kid(0) + " ? " + kid(1) + " : " + kid(2) + ")";
    case ExprKind::list: {
      std::string out = "[";
      for (size_t i = 0; i < e->children.size(); ++i) out += (i ? ", " : "") + kid(i);
      return out + "]";
    }
    case ExprKind::dict: {
      std::string out = "{";
      for (size_t i = 0; i + 1 < e->children.size(); i += 2) out += (i ? ", " : "") + kid(i) + ": " + kid(i + 1);
      return out + "}";
    }
    case ExprKind::lambda: return "(" + e->text + " => " + kid(0) + ")";
    case ExprKind::comprehension: {
      std::string out = "[" + kid(0) + " for " + e->text + " in " + kid(1);
      for (size_t i = 2; i < e->children.size(); ++i) out += " if " + kid(i);
      return out + "]";
    }
    case ExprKind::unknown: return "?";
  }
  return "?";
}

inline std::string dump(const ir::ExprPtr& e) { return dump(e.get()); }

inline std::string dump(const ir::Body& body);

inline std::string dump(const ir::Stmt& s) {
  using ir::StmtKind;
  auto braces = [&](size_t i) { return i < s.bodies.size() ? "{" + dump(s.bodies[i]) + "}" : std::string("{}"); };
  switch (s.kind) {
    case StmtKind::expression: return "expr " + dump(s.value);
    case StmtKind::assign: return dump(s.target) + " " + s.op + "= " + dump(s.value);
    case StmtKind::if_chain: {
      std::string out = s.rule.empty() ? "" : s.rule + ": ";
      for (size_t i = 0; i < s.conditions.size(); ++i)
        out += (i ? " elif " : "if ") + dump(s.conditions[i]) + " " + braces(i);
      if (s.bodies.size() > s.conditions.size())
        out += (s.conditions.empty() ? "else " : " else ") + braces(s.conditions.size());
      return out;
    }
    case StmtKind::loop:
      return s.target ? "for " + dump(s.target) + " in " + dump(s.value) + " " + braces(0) : "loop " + braces(0);
    case StmtKind::ret: return s.value ? "return " + dump(s.value) : "return";
    case StmtKind::raise: return "raise";
    case StmtKind::skip: return "continue";
    case StmtKind::block: return "block " + braces(0);
    case StmtKind::havoc: {
      std::string out = "havoc";
      for (const std::string& n : s.names) out += " " + n;
      return out;
    }
    case StmtKind::other: return "other";
  }
  return "?";
}

inline std::string dump(const ir::Body& body) {
  std::string out;
  for (size_t i = 0; i < body.size(); ++i) out += (i ? "; " : "") + dump(*body[i]);
  return out;
}

// Keeps the source alive as long as the tree and program that point into it.
struct Lowered {
  std::string code;
  std::unique_ptr<SyntaxTree> tree;
  ir::Program program;

  const ir::Function* function(std::string_view name) const {
    for (const ir::Function& f : program.functions)
      if (f.name == name) return &f;
    return nullptr;
  }
  // The body of the named function, dumped; "<no function NAME>" when it was not lowered.
  std::string body(std::string_view name) const {
    const ir::Function* f = function(name);
    return f ? dump(f->body) : "<no function " + std::string(name) + ">";
  }
  std::string globals() const { return dump(program.globals); }
  std::string names() const {
    std::string out;
    for (const ir::Function& f : program.functions) out += (out.empty() ? "" : " ") + f.name;
    return out;
  }
};

inline Lowered lower(Language language, std::string code) {
  Lowered l;
  l.code = std::move(code);
  l.tree = std::make_unique<SyntaxTree>(language, l.code);
  l.program = lower_program(*l.tree);
  return l;
}

}  // namespace codebias::analysis::test_ir
