#include "analysis/front_ends/front_end.h"

#include <charconv>
#include <cstdlib>
#include <string>
#include <vector>

namespace codebias::analysis {

ir::Program lower_program(const SyntaxTree& tree) {
  switch (tree.language()) {
    case Language::c:
    case Language::cpp: return front_ends::lower_c_family(tree);
    case Language::javascript:
    case Language::typescript: return front_ends::lower_javascript(tree);
    case Language::java: return front_ends::lower_java(tree);
    case Language::python:
    case Language::unknown: break;
  }
  return front_ends::lower_python(tree);
}

namespace lowering {

ir::ExprPtr make(ir::ExprKind kind, int line, std::string text) {
  auto e = std::make_unique<ir::Expr>();
  e->kind = kind;
  e->line = line;
  e->text = std::move(text);
  return e;
}

ir::ExprPtr make_unknown(int line) { return make(ir::ExprKind::unknown, line); }

ir::ExprPtr make_number(double value, int line) {
  auto e = make(ir::ExprKind::number, line);
  e->value = value;
  return e;
}

ir::ExprPtr make_binary(ir::ExprKind kind, std::string op, ir::ExprPtr left, ir::ExprPtr right, int line) {
  auto e = make(kind, line, std::move(op));
  e->children.push_back(left ? std::move(left) : make_unknown(line));
  e->children.push_back(right ? std::move(right) : make_unknown(line));
  return e;
}

ir::ExprPtr make_boolean(bool value, int line) {
  auto e = make(ir::ExprKind::boolean, line);
  e->value = value ? 1 : 0;
  return e;
}

ir::ExprPtr make_member(ir::ExprPtr object, std::string name, int line) {
  auto e = make(ir::ExprKind::member, line, std::move(name));
  e->children.push_back(std::move(object));
  return e;
}

ir::ExprPtr make_number_literal(std::string_view text, int line) {
  double value = 0;
  return parse_number(text, value) ? make_number(value, line) : make_unknown(line);
}

bool parse_number(std::string_view text, double& value) {
  std::string clean;
  for (char c : text)
    if (c != '_' && c != '\'') clean.push_back(c);
  while (!clean.empty() && (clean.back() == 'f' || clean.back() == 'F' || clean.back() == 'l' ||
                            clean.back() == 'L' || clean.back() == 'u' || clean.back() == 'U' ||
                            clean.back() == 'd' || clean.back() == 'D' || clean.back() == 'n'))
    clean.pop_back();
  if (clean.empty()) return false;
  if (clean.size() > 2 && clean[0] == '0' && (clean[1] == 'x' || clean[1] == 'X')) {
    char* end = nullptr;
    value = static_cast<double>(std::strtoull(clean.c_str() + 2, &end, 16));
    return end && *end == '\0';
  }
  char* end = nullptr;
  value = std::strtod(clean.c_str(), &end);
  return end && *end == '\0';
}

std::string unquote(std::string_view s) {
  while (!s.empty() && (s.front() == 'r' || s.front() == 'R' || s.front() == 'b' || s.front() == 'B' ||
                        s.front() == 'f' || s.front() == 'F' || s.front() == 'u' || s.front() == 'U' ||
                        s.front() == 'L' || s.front() == '@'))
    s.remove_prefix(1);
  if (s.size() >= 6 && (s.substr(0, 3) == "\"\"\"" || s.substr(0, 3) == "'''")) {
    s = s.substr(3);
    if (s.size() >= 3) s.remove_suffix(3);
  } else if (!s.empty() && (s.front() == '"' || s.front() == '\'' || s.front() == '`')) {
    char q = s.front();
    s.remove_prefix(1);
    if (!s.empty() && s.back() == q) s.remove_suffix(1);
  }
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      char n = s[++i];
      out.push_back(n == 'n' ? '\n' : n == 't' ? '\t' : n);
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

std::string assignment_operator(std::string_view op) {
  if (op.size() >= 2 && op.back() == '=' && op != "==" && op != "!=" && op != "<=" && op != ">=") {
    op.remove_suffix(1);
    return std::string(op);
  }
  return {};
}

namespace {

unsigned meaning_of(std::span<const LibraryName> names, std::string_view name) {
  for (const LibraryName& entry : names)
    if (entry.name == name) return entry.meaning;
  return 0;
}

// Without recursion: lowered programs nest as deep as their input.
class LibraryTagger {
 public:
  explicit LibraryTagger(const LibraryTable& table) : table_(table) {}

  void tag(ir::Program& program) {
    for (ir::Function& fn : program.functions) {
      for (ir::ExprPtr& d : fn.param_defaults) push(d);
      push(fn.body);
    }
    push(program.globals);
    while (!bodies_.empty() || !exprs_.empty()) {
      if (!bodies_.empty()) {
        ir::Body& body = *bodies_.back();
        bodies_.pop_back();
        for (ir::StmtPtr& s : body) {
          push(s->target);
          push(s->value);
          for (ir::ExprPtr& c : s->conditions) push(c);
          for (ir::Body& b : s->bodies) push(b);
        }
        continue;
      }
      ir::Expr& e = *exprs_.back();
      exprs_.pop_back();
      if (e.library == 0 && !e.children.empty() && e.children[0]) {
        const ir::Expr& callee = *e.children[0];
        if (e.kind == ir::ExprKind::call && callee.kind == ir::ExprKind::member)
          e.library = meaning_of(table_.methods, callee.text);
        else if (e.kind == ir::ExprKind::call && callee.kind == ir::ExprKind::name)
          e.library = meaning_of(table_.functions, callee.text);
        else if (e.kind == ir::ExprKind::member)
          e.library = meaning_of(table_.methods, e.text) & ir::kSameValue;
      }
      for (ir::ExprPtr& c : e.children) push(c);
    }
  }

 private:
  void push(ir::ExprPtr& e) {
    if (e) exprs_.push_back(e.get());
  }
  void push(ir::Body& body) { bodies_.push_back(&body); }

  const LibraryTable& table_;
  std::vector<ir::Body*> bodies_;
  std::vector<ir::Expr*> exprs_;
};

}  // namespace

void tag_library(ir::Program& program, const LibraryTable& table) { LibraryTagger(table).tag(program); }

}  // namespace lowering
}  // namespace codebias::analysis
