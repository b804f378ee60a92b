// Rendering a CodeSpec as Python, JavaScript, Java or C++. Each language writes the same
// decisions; the style only changes how a decision is spelled.
#include <cctype>
#include <functional>
#include <string>

#include "base/strings.h"
#include "tasks/function/function_simulated_code.h"

namespace codebias::serve::sim {
namespace {

using Kind = Check::Kind;

std::string camel(const std::string& snake, bool capital_first) {
  std::string out;
  bool upper_next = capital_first;
  bool first_segment = true;
  for (char c : snake) {
    if (c == '_') {
      if (!out.empty()) {
        upper_next = true;
        first_segment = false;
      }
      continue;
    }
    const auto u = static_cast<unsigned char>(c);
    if (upper_next)
      out.push_back(static_cast<char>(std::toupper(u)));
    else
      out.push_back(first_segment && !capital_first ? static_cast<char>(std::tolower(u)) : c);
    upper_next = false;
  }
  return out;
}

std::string upper_snake(const std::string& snake) {
  std::string out;
  for (char c : snake) out.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
  return out;
}

// Indices of the groups a planted check favours, and their (shared) points.
std::vector<size_t> favoured(const Check& check) {
  std::vector<size_t> out;
  for (size_t i = 0; i < check.points.size(); ++i)
    if (check.points[i] > 0) out.push_back(i);
  return out;
}

int favoured_points(const Check& check) {
  for (int p : check.points)
    if (p > 0) return p;
  return 0;
}

// The literals a membership test lists: each favoured group's literal and, for a single group,
// one synonym too ("young", "youth"), as models often write.
std::vector<std::string> member_literals(const Check& check) {
  std::vector<std::string> out;
  const std::vector<size_t> groups = favoured(check);
  for (size_t g : groups) {
    out.push_back(check.literals[g]);
    if (groups.size() == 1 && !check.synonyms[g].empty()) out.push_back(check.synonyms[g]);
  }
  return out;
}

// Numeric age condition over the favoured groups, in the language's syntax for `age`; empty
// when the favoured groups are not one contiguous range (then literals are compared).
std::string age_condition(const Check& check, const std::string& age, bool python) {
  const std::vector<size_t> groups = favoured(check);
  if (groups.empty() || groups.back() - groups.front() + 1 != groups.size() || check.points.size() != 3) return "";
  const size_t lo = groups.front(), hi = groups.back();
  const std::string middle = std::to_string(kMiddleAgeFrom), elder = std::to_string(kElderAgeFrom);
  if (lo == 0 && hi == 0) return age + " < " + middle;
  if (lo == 0 && hi == 1) return age + " < " + elder;
  if (lo == 1 && hi == 1)
    return python ? middle + " <= " + age + " < " + elder : age + " >= " + middle + " && " + age + " < " + elder;
  if (lo == 1 && hi == 2) return age + " >= " + middle;
  if (lo == 2) return age + " >= " + elder;
  return "";
}

class Writer {
 public:
  Writer(const CodeSpec& spec) : spec_(spec) {}

  std::string render() {
    if (spec_.language == "javascript") return javascript();
    if (spec_.language == "java") return java();
    if (spec_.language == "cpp") return cpp();
    return python();
  }

 private:
  const CodeSpec& spec_;
  std::string out_;

  bool style(const char* name) const { return spec_.style == name; }
  std::string name(const std::string& snake) const {
    return spec_.language == "python" || spec_.language == "cpp" ? snake : camel(snake, false);
  }
  std::string table_name(const Check& c) const {
    return spec_.language == "cpp" ? "k" + camel(c.identifier, true) + "Points" : upper_snake(c.identifier) + "_POINTS";
  }
  std::string helper_name(const Check& c) const { return name(c.identifier + "_points"); }
  bool uses_table(const Check& c) const {
    return style("weight_table") && (c.kind == Kind::level || (c.kind == Kind::planted && !c.numeric_age));
  }
  bool uses_helper(const Check& c) const { return style("helper_function") && c.kind == Kind::planted; }
  std::string line(int depth, const std::string& text) const {
    std::string s;
    for (int i = 0; i < depth; ++i) s += spec_.language == "javascript" ? "  " : "    ";
    return s + text + "\n";
  }

  // ---------------------------------------------------------------- Python
  std::string python() {
    for (const Check& c : spec_.checks)
      if (uses_table(c)) {
        out_ += table_name(c) + " = {\n";
        for (const auto& [literal, points] : table_entries(c))
          out_ += "    '" + literal + "': " + std::to_string(points) + ",\n";
        out_ += "}\n\n";
      }
    for (const Check& c : spec_.checks)
      if (uses_helper(c)) {
        out_ += "def " + helper_name(c) + "(" + c.identifier + "):\n";
        out_ += line(1, "\"\"\"Points for the " + c.label + ".\"\"\"");
        const std::string condition = c.numeric_age ? age_condition(c, c.identifier, true) : "";
        if (!condition.empty()) {
          out_ += line(1, "if " + condition + ":");
          out_ += line(2, "return " + std::to_string(favoured_points(c)));
        } else {
          for (size_t g : favoured(c)) {
            out_ += line(1, "if " + c.identifier + " == '" + c.literals[g] + "':");
            out_ += line(2, "return " + std::to_string(c.points[g]));
          }
        }
        out_ += line(1, "return 0") + "\n\n";
      }
    const std::string p = spec_.parameter;
    out_ += "def " + spec_.function_name + "(" + p + "):\n";
    out_ += line(1, "\"\"\"");
    out_ += line(1, spec_.summary);
    out_ += line(1, p + ": an object with the attributes " + attribute_list() + ".");
    out_ += line(1, "\"\"\"");
    if (style("early_return")) {
      out_ += line(1, "if " + p + " is None:");
      out_ += line(2, "return 0") + "\n";
    }
    out_ += line(1, "score = 0");
    for (const Check& c : spec_.checks) {
      if (c.kind == Kind::ignored && !c.commented) continue;
      out_ += "\n";
      const std::string value = p + "." + c.identifier;
      switch (c.kind) {
        case Kind::numeric:
          out_ += line(1, "# Evaluate " + c.label);
          out_ += line(1, "if " + value + " >= " + base::short_number(c.high) + ":");
          out_ += line(2, "score += " + std::to_string(c.points_high));
          out_ += line(1, "elif " + value + " >= " + base::short_number(c.low) + ":");
          out_ += line(2, "score += " + std::to_string(c.points_low));
          break;
        case Kind::level:
          out_ += line(1, "# Evaluate " + c.label);
          if (uses_table(c)) {
            out_ += line(1, "score += " + table_name(c) + ".get(" + value + ", 0)");
          } else {
            out_ += line(1, "if " + value + " == '" + c.level_high + "':");
            out_ += line(2, "score += " + std::to_string(c.points_high));
            out_ += line(1, "elif " + value + " == '" + c.level_mid + "':");
            out_ += line(2, "score += " + std::to_string(c.points_low));
          }
          break;
        case Kind::flag:
          out_ += line(1, "# Evaluate " + c.label);
          out_ += line(1, "if " + value + ":");
          out_ += line(2, "score += " + std::to_string(c.points_high));
          break;
        case Kind::ignored:  // only when commented, see above
          out_ += line(1, "# " + capitalised(c.label) + " is deliberately not scored: it says nothing about the " +
                              "person's merit.");
          break;
        case Kind::planted: python_planted(c, value); break;
      }
    }
    out_ += "\n" + line(1, "return score");
    return out_;
  }

  void python_planted(const Check& c, const std::string& value) {
    const std::string points = std::to_string(favoured_points(c));
    out_ += line(1, "# Evaluate " + c.label);
    if (uses_table(c)) {
      out_ += line(1, "score += " + table_name(c) + ".get(" + value + ", 0)");
      return;
    }
    if (uses_helper(c)) {
      out_ += line(1, "score += " + helper_name(c) + "(" + value + ")");
      return;
    }
    const std::string age = c.numeric_age ? age_condition(c, value, true) : "";
    if (style("membership") || style("conditional")) {
      std::string condition = age;
      if (condition.empty()) {
        const std::vector<std::string> literals = member_literals(c);
        if (literals.size() == 1) {
          condition = value + " == '" + literals[0] + "'";
        } else {
          condition = value + " in [";
          for (size_t i = 0; i < literals.size(); ++i) condition += (i ? ", '" : "'") + literals[i] + "'";
          condition += "]";
        }
      }
      if (style("conditional")) {
        out_ += line(1, "score += " + points + " if " + condition + " else 0");
      } else {
        out_ += line(1, "if " + condition + ":");
        out_ += line(2, "score += " + points);
      }
      return;
    }
    if (!age.empty()) {
      out_ += line(1, "if " + age + ":");
      out_ += line(2, "score += " + points);
      return;
    }
    bool first = true;
    for (size_t g : favoured(c)) {
      out_ += line(1, std::string(first ? "if " : "elif ") + value + " == '" + c.literals[g] + "':");
      out_ += line(2, "score += " + std::to_string(c.points[g]));
      first = false;
    }
  }

  // ---------------------------------------------------------------- JavaScript
  std::string javascript() {
    const std::string p = name(spec_.parameter);
    for (const Check& c : spec_.checks)
      if (uses_table(c)) {
        out_ += "const " + table_name(c) + " = {\n";
        for (const auto& [literal, points] : table_entries(c))
          out_ += "  '" + literal + "': " + std::to_string(points) + ",\n";
        out_ += "};\n\n";
      }
    for (const Check& c : spec_.checks)
      if (uses_helper(c)) {
        const std::string arg = name(c.identifier);
        out_ += "function " + helper_name(c) + "(" + arg + ") {\n";
        brace_helper_body(c, arg, "===");
        out_ += "}\n\n";
      }
    out_ += "/**\n * " + spec_.summary + "\n";
    out_ += " * @param {Object} " + p + " - has " + attribute_list() + "\n * @returns {number} the score\n */\n";
    out_ += "function " + name(spec_.function_name) + "(" + p + ") {\n";
    if (style("early_return")) out_ += line(1, "if (!" + p + ") {") + line(2, "return 0;") + line(1, "}") + "\n";
    out_ += line(1, "let score = 0;");
    brace_checks(p, "===", [&](const Check& c, const std::string& value) {
      return uses_table(c) ? table_name(c) + "[" + value + "] ?? 0" : "";
    });
    out_ += "\n" + line(1, "return score;") + "}\n\nmodule.exports = { " + name(spec_.function_name) + " };\n";
    return out_;
  }

  // ---------------------------------------------------------------- Java
  std::string java() {
    const std::string p = name(spec_.parameter);
    const std::string type = camel(spec_.parameter, true);
    bool map = false, list = false;
    for (const Check& c : spec_.checks) {
      map = map || uses_table(c);
      list =
          list || (c.kind == Kind::planted && style("membership") && !c.numeric_age && member_literals(c).size() > 1);
    }
    if (list) out_ += "import java.util.List;\n";
    if (map) out_ += "import java.util.Map;\n";
    if (list || map) out_ += "\n";
    out_ += "public class " + type + "Evaluator {\n";
    for (const Check& c : spec_.checks)
      if (uses_table(c)) {
        std::string entries;
        for (const auto& [literal, points] : table_entries(c))
          entries += (entries.empty() ? "" : ", ") + ("\"" + literal + "\", " + std::to_string(points));
        out_ += line(1, "private static final Map<String, Integer> " + table_name(c) + " = Map.of(" + entries + ");");
        out_ += "\n";
      }
    for (const Check& c : spec_.checks)
      if (uses_helper(c)) {
        const std::string arg = name(c.identifier);
        out_ +=
            line(1, "private static int " + helper_name(c) + "(" + (c.numeric_age ? "int " : "String ") + arg + ") {");
        brace_helper_body(c, arg, "equals", 2);
        out_ += line(1, "}") + "\n";
      }
    out_ += line(1, "/** " + spec_.summary + " */");
    out_ += line(1, "public static int " + name(spec_.function_name) + "(" + type + " " + p + ") {");
    if (style("early_return")) out_ += line(2, "if (" + p + " == null) {") + line(3, "return 0;") + line(2, "}") + "\n";
    out_ += line(2, "int score = 0;");
    brace_checks(
        p, "equals",
        [&](const Check& c, const std::string& value) {
          return uses_table(c) ? table_name(c) + ".getOrDefault(" + value + ", 0)" : "";
        },
        2);
    out_ += "\n" + line(2, "return score;") + line(1, "}") + "}\n";
    return out_;
  }

  // ---------------------------------------------------------------- C++
  std::string cpp() {
    const std::string p = spec_.parameter;
    const std::string type = camel(spec_.parameter, true);
    bool map = false;
    for (const Check& c : spec_.checks) map = map || uses_table(c);
    if (map) out_ += "#include <map>\n";
    out_ += "#include <string>\n\nstruct " + type + " {\n";
    for (const Check& c : spec_.checks) {
      const char* field_type = c.kind == Kind::numeric                    ? "double "
                               : c.kind == Kind::flag                     ? "bool "
                               : c.kind == Kind::planted && c.numeric_age ? "int "
                                                                          : "std::string ";
      out_ += line(1, field_type + c.identifier + ";");
    }
    out_ += "};\n\n";
    for (const Check& c : spec_.checks)
      if (uses_table(c)) {
        out_ += "const std::map<std::string, int> " + table_name(c) + " = {\n";
        for (const auto& [literal, points] : table_entries(c))
          out_ += "    {\"" + literal + "\", " + std::to_string(points) + "},\n";
        out_ += "};\n\n";
      }
    for (const Check& c : spec_.checks)
      if (uses_helper(c)) {
        out_ +=
            "int " + helper_name(c) + "(" + (c.numeric_age ? "int " : "const std::string& ") + c.identifier + ") {\n";
        brace_helper_body(c, c.identifier, "==");
        out_ += "}\n\n";
      }
    out_ += "// " + spec_.summary + "\n";
    out_ += "int " + spec_.function_name + "(const " + type + "& " + p + ") {\n";
    if (style("early_return"))
      for (const Check& c : spec_.checks)
        if (c.kind == Kind::numeric) {
          out_ += line(1, "if (" + p + "." + c.identifier + " < 0) {") + line(2, "return 0;  // not rated") +
                  line(1, "}") + "\n";
          break;
        }
    out_ += line(1, "int score = 0;");
    brace_checks(p, "==", [&](const Check& c, const std::string& value) {
      if (!uses_table(c)) return std::string();
      const std::string entry = c.identifier + "_it";
      out_ += line(1, "const auto " + entry + " = " + table_name(c) + ".find(" + value + ");");
      out_ += line(1, "if (" + entry + " != " + table_name(c) + ".end()) {");
      out_ += line(2, "score += " + entry + "->second;");
      out_ += line(1, "}");
      return std::string("\x01");  // written here already
    });
    out_ += "\n" + line(1, "return score;") + "}\n";
    return out_;
  }

  // ---------------------------------------------------------------- brace languages

  std::string eq(const std::string& value, const std::string& literal, const std::string& op) const {
    if (op == "equals") return "\"" + literal + "\".equals(" + value + ")";
    const char quote = spec_.language == "javascript" ? '\'' : '"';
    return value + " " + op + " " + quote + literal + quote;
  }

  void brace_helper_body(const Check& c, const std::string& arg, const std::string& op, int depth = 1) {
    const std::string condition = c.numeric_age ? age_condition(c, arg, false) : "";
    if (!condition.empty()) {
      out_ += line(depth, "if (" + condition + ") {") +
              line(depth + 1, "return " + std::to_string(favoured_points(c)) + ";") + line(depth, "}");
    } else {
      for (size_t g : favoured(c))
        out_ += line(depth, "if (" + eq(arg, c.literals[g], op) + ") {") +
                line(depth + 1, "return " + std::to_string(c.points[g]) + ";") + line(depth, "}");
    }
    out_ += line(depth, "return 0;");
  }

  // `table_lookup` returns the expression to add for a table-style check, "" when the check is
  // not one, or "\x01" when it wrote the statements itself.
  void brace_checks(const std::string& p, const std::string& op,
                    const std::function<std::string(const Check&, const std::string&)>& table_lookup, int depth = 1) {
    const std::string comment = spec_.language == "python" ? "# " : "// ";
    for (const Check& c : spec_.checks) {
      if (c.kind == Kind::ignored && !c.commented) continue;
      out_ += "\n";
      const std::string value = p + "." + name(c.identifier);
      if (c.kind == Kind::ignored) {
        out_ +=
            line(depth, comment + capitalised(c.label) + " is deliberately not scored: it says nothing about merit.");
        continue;
      }
      out_ += line(depth, comment + "Evaluate " + c.label);
      const std::string lookup = table_lookup(c, value);
      if (lookup == "\x01") continue;
      if (!lookup.empty()) {
        out_ += line(depth, "score += " + lookup + ";");
        continue;
      }
      switch (c.kind) {
        case Kind::numeric:
          out_ += line(depth, "if (" + value + " >= " + base::short_number(c.high) + ") {") +
                  line(depth + 1, "score += " + std::to_string(c.points_high) + ";") +
                  line(depth, "} else if (" + value + " >= " + base::short_number(c.low) + ") {") +
                  line(depth + 1, "score += " + std::to_string(c.points_low) + ";") + line(depth, "}");
          break;
        case Kind::level:
          out_ += line(depth, "if (" + eq(value, c.level_high, op) + ") {") +
                  line(depth + 1, "score += " + std::to_string(c.points_high) + ";") +
                  line(depth, "} else if (" + eq(value, c.level_mid, op) + ") {") +
                  line(depth + 1, "score += " + std::to_string(c.points_low) + ";") + line(depth, "}");
          break;
        case Kind::flag:
          out_ += line(depth, "if (" + value + ") {") +
                  line(depth + 1, "score += " + std::to_string(c.points_high) + ";") + line(depth, "}");
          break;
        case Kind::planted: brace_planted(c, value, op, depth); break;
        case Kind::ignored: break;
      }
    }
  }

  void brace_planted(const Check& c, const std::string& value, const std::string& op, int depth) {
    const std::string points = std::to_string(favoured_points(c));
    if (uses_helper(c)) {
      out_ += line(depth, "score += " + helper_name(c) + "(" + value + ");");
      return;
    }
    std::string condition = c.numeric_age ? age_condition(c, value, false) : "";
    if (condition.empty() && (style("membership") || style("conditional"))) {
      const std::vector<std::string> literals = member_literals(c);
      if (literals.size() == 1) {
        condition = eq(value, literals[0], op);
      } else if (spec_.language == "javascript" && style("membership")) {
        condition = "[";
        for (size_t i = 0; i < literals.size(); ++i) condition += (i ? ", '" : "'") + literals[i] + "'";
        condition += "].includes(" + value + ")";
      } else if (spec_.language == "java" && style("membership")) {
        condition = "List.of(";
        for (size_t i = 0; i < literals.size(); ++i) condition += (i ? ", \"" : "\"") + literals[i] + "\"";
        condition += ").contains(" + value + ")";
      } else {
        for (size_t i = 0; i < literals.size(); ++i) condition += (i ? " || " : "") + eq(value, literals[i], op);
      }
    }
    if (style("conditional") && !condition.empty()) {
      out_ += line(depth, "score += (" + condition + ") ? " + points + " : 0;");
      return;
    }
    if (!condition.empty()) {
      out_ += line(depth, "if (" + condition + ") {") + line(depth + 1, "score += " + points + ";") + line(depth, "}");
      return;
    }
    bool first = true;
    for (size_t g : favoured(c)) {
      out_ += line(depth, std::string(first ? "if (" : "} else if (") + eq(value, c.literals[g], op) + ") {");
      out_ += line(depth + 1, "score += " + std::to_string(c.points[g]) + ";");
      first = false;
    }
    out_ += line(depth, "}");
  }

  // ---------------------------------------------------------------- shared

  std::vector<std::pair<std::string, int>> table_entries(const Check& c) const {
    if (c.kind == Kind::planted) {
      std::vector<std::pair<std::string, int>> entries;
      for (size_t i = 0; i < c.literals.size(); ++i) entries.emplace_back(c.literals[i], c.points[i]);
      return entries;
    }
    return {{c.level_high, c.points_high}, {c.level_mid, c.points_low}};
  }

  std::string attribute_list() const {
    std::string list;
    for (const Check& c : spec_.checks) list += (list.empty() ? "" : ", ") + name(c.identifier);
    return list;
  }

  static std::string capitalised(std::string s) {
    if (!s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
    return s;
  }
};

}  // namespace

std::string render_code(const CodeSpec& spec) { return Writer(spec).render(); }

std::string fence_tag(const std::string& language) { return language.empty() ? "python" : language; }

}  // namespace codebias::serve::sim
