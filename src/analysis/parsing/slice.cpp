#include "analysis/parsing/slice.h"

#include <algorithm>
#include <set>
#include <unordered_map>

namespace codebias::analysis {
namespace {

bool ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }

// A Python logical line: physical lines joined while brackets are open, a string continues or a
// line ends with a backslash.
struct LogicalLine {
  size_t begin = 0, end = 0;  // bytes [begin, end), end just past the last '\n' (or the end)
  int first_row = 0;          // 0-based
  int last_row = 0;
  size_t indent = 0;
  bool blank = true;          // only whitespace and comments
  bool only_strings = true;   // nothing but string literals (a docstring)
  bool well_formed = true;    // brackets and strings closed
  std::string_view first_word;
  bool header = false;        // ends with ':' (outside strings and comments)
  std::vector<std::string_view> reads;     // identifiers read (dotted names whole)
  std::vector<std::string_view> assigned;  // targets of `x = ` / `x += `
  bool plain_assignment = false;           // the line is `target op= expression`
  bool augmented = false;                  // the line is `target op= expression` with an operator
};

class Scanner {
 public:
  explicit Scanner(std::string_view code) : code_(code) {}

  std::vector<LogicalLine> lines() {
    std::vector<LogicalLine> out;
    int row = 0;
    while (pos_ < code_.size()) {
      LogicalLine line;
      line.begin = pos_;
      line.first_row = row;
      row = scan_logical(line, row);
      line.end = pos_;
      line.last_row = row - 1;
      out.push_back(std::move(line));
    }
    return out;
  }

 private:
  std::string_view code_;
  size_t pos_ = 0;

  // Scans one logical line from pos_; returns the row after it.
  int scan_logical(LogicalLine& line, int row) {
    int depth = 0;
    bool at_start = true;
    bool saw_code = false;
    char last_code_char = 0;
    size_t token_start_index = 0;  // position in `reads` of the statement's first token
    bool first_token = true;
    std::string_view first_target;
    while (pos_ < code_.size()) {
      char c = code_[pos_];
      if (at_start) {
        size_t ind = 0;
        while (pos_ + ind < code_.size() && (code_[pos_ + ind] == ' ' || code_[pos_ + ind] == '\t')) ++ind;
        if (!saw_code) line.indent = ind;
        pos_ += ind;
        at_start = false;
        continue;
      }
      if (c == '\n') {
        ++pos_;
        ++row;
        if (depth > 0 || last_code_char == '\\') {
          at_start = true;
          last_code_char = 0;
          continue;
        }
        break;
      }
      if (c == '#') {
        while (pos_ < code_.size() && code_[pos_] != '\n') ++pos_;
        continue;
      }
      if (c == ' ' || c == '\t' || c == '\r') {
        ++pos_;
        continue;
      }
      saw_code = true;
      line.blank = false;
      if (c != '"' && c != '\'') line.only_strings = false;
      if (c == '"' || c == '\'') {
        row += skip_string(line);
        last_code_char = '"';
        first_token = false;
        continue;
      }
      if (ident_start(c)) {
        size_t start = pos_;
        while (pos_ < code_.size() && (ident_char(code_[pos_]) || (code_[pos_] == '.' && pos_ + 1 < code_.size() && ident_start(code_[pos_ + 1])))) ++pos_;
        std::string_view word = code_.substr(start, pos_ - start);
        // string prefixes: r'...', f"..."
        if (pos_ < code_.size() && (code_[pos_] == '"' || code_[pos_] == '\'') && word.size() <= 2) {
          row += skip_string(line);
          last_code_char = '"';
          first_token = false;
          continue;
        }
        if (line.first_word.empty()) line.first_word = word;
        if (first_token && depth == 0) {
          first_target = word;
          token_start_index = line.reads.size();
        }
        line.reads.push_back(word);
        first_token = false;
        last_code_char = 'a';
        // `target op= ...` at the start of the statement
        if (depth == 0 && word == first_target && line.reads.size() == token_start_index + 1) {
          size_t p = pos_;
          while (p < code_.size() && (code_[p] == ' ' || code_[p] == '\t')) ++p;
          size_t op = p;
          while (op < code_.size() && std::string_view("+-*/%&|^<>@").find(code_[op]) != std::string_view::npos) ++op;
          if (op < code_.size() && code_[op] == '=' && (op + 1 >= code_.size() || code_[op + 1] != '=') &&
              (op == p || op - p <= 3)) {
            line.assigned.push_back(word);
            line.reads.pop_back();  // the target is written, not read
            line.plain_assignment = true;
            line.augmented = op > p;
            pos_ = op + 1;
            if (line.augmented && line.reads.size() == token_start_index) {
              // `x += ...` reads x only as the running total it adds to
            }
          }
        }
        continue;
      }
      if (c == '(' || c == '[' || c == '{') ++depth;
      if (c == ')' || c == ']' || c == '}') depth = std::max(0, depth - 1);
      if (c == '[' && first_token == false && line.reads.size() == token_start_index + 1 && depth == 1) {
        // `d[key] = v`: a subscript target; keep it simple and treat the statement as not removable
        line.plain_assignment = false;
      }
      first_token = false;
      last_code_char = c;
      ++pos_;
    }
    if (depth > 0) line.well_formed = false;
    line.header = last_code_char == ':';
    return row;
  }

  // Skips a string literal starting at pos_ (quote); returns the newlines crossed.
  int skip_string(LogicalLine& line) {
    char q = code_[pos_];
    bool triple = pos_ + 2 < code_.size() && code_[pos_ + 1] == q && code_[pos_ + 2] == q;
    pos_ += triple ? 3 : 1;
    int rows = 0;
    while (pos_ < code_.size()) {
      char c = code_[pos_];
      if (c == '\\') {
        pos_ += 2;
        continue;
      }
      if (c == '\n') {
        if (!triple) {
          line.well_formed = false;
          return rows;
        }
        ++rows;
      }
      if (c == q && (!triple || (pos_ + 2 < code_.size() && code_[pos_ + 1] == q && code_[pos_ + 2] == q))) {
        pos_ += triple ? 3 : 1;
        return rows;
      }
      ++pos_;
    }
    line.well_formed = false;
    return rows;
  }
};

bool is_one_of(std::string_view word, std::initializer_list<std::string_view> set) {
  return std::find(set.begin(), set.end(), word) != set.end();
}

bool is_clause(std::string_view word) { return is_one_of(word, {"elif", "else", "except", "finally"}); }
bool is_compound(std::string_view word) { return is_one_of(word, {"if", "for", "while", "with", "try"}); }

// The root of a dotted name: `applicant.gpa` -> `applicant`.
std::string_view root(std::string_view name) { return name.substr(0, name.find('.')); }

// The passes of slice_python over one program's logical lines, in order; each reads what the
// earlier ones found.
class PythonSlicer {
 public:
  PythonSlicer(std::string_view code, std::span<const AttributeMention> mentions, uint64_t wanted_attributes)
      : lines_(Scanner(code).lines()), names_attribute_(lines_.size()) {
    size_t line_index = 0;
    for (const AttributeMention& mention : mentions) {
      while (line_index < lines_.size() && lines_[line_index].end <= mention.offset) ++line_index;
      if (line_index == lines_.size()) break;
      if (mention.attributes & wanted_attributes) names_attribute_[line_index] = true;
    }
  }

  PythonSlice slice() {
    find_functions_and_known_names();
    collect_statements();
    cut_.assign(candidates_.size(), false);
    for (size_t c = 0; c < candidates_.size(); ++c)
      cut_[c] = removable_shape(candidates_[c]) && !any_names_attribute(candidates_[c].first, candidates_[c].last);
    keep_statements_reading_carriers();
    PythonSlice slice;
    include_lines(slice);
    drop_unread_assignments();
    add_ranges(slice);
    return slice;
  }

 private:
  // Top-level statements of each function body: a compound statement with its clauses.
  struct Statement {
    size_t first, last;  // indices into lines_
  };
  // Plain `name = expression` statements of function bodies, and how many statements each body keeps.
  struct Assignment {
    size_t line;
    size_t body;  // index into body_statements_
  };

  bool any_names_attribute(size_t first, size_t last) const {
    return std::any_of(names_attribute_.begin() + static_cast<std::ptrdiff_t>(first),
                       names_attribute_.begin() + static_cast<std::ptrdiff_t>(last) + 1, [](bool b) { return b; });
  }

  // Functions the code defines (calls to them run code we must see), and names that may hold a
  // value the evaluation knows: assigned from literals, or from other such names. A condition
  // reading one might be decided, so its statement is kept; anything computed from the inputs
  // (`matches = [s for s in applicant.skills ...]`) is unknown to the evaluation anyway.
  void find_functions_and_known_names() {
    for (const LogicalLine& l : lines_)
      if (l.first_word == "def" && l.reads.size() > 1) functions_.insert(l.reads[1]);
    for (bool changed = true; changed;) {
      changed = false;
      for (const LogicalLine& l : lines_) {
        if (l.assigned.empty() || l.first_word == "for") continue;
        bool from_known = std::all_of(l.reads.begin(), l.reads.end(), [&](std::string_view r) {
          return known_.count(root(r)) ||
                 (!functions_.count(root(r)) && is_one_of(r, {"True", "False", "None", "not", "and", "or", "if", "else", "in", "is"}));
        });
        if (!from_known) continue;
        for (std::string_view a : l.assigned)
          if (known_.insert(root(a)).second) changed = true;
      }
    }
  }

  void collect_statements() {
    for (size_t i = 0; i < lines_.size(); ++i) {
      if (lines_[i].first_word != "def" || !lines_[i].header) continue;
      size_t def_indent = lines_[i].indent;
      size_t body_indent = std::string::npos;
      body_statements_.emplace_back();
      for (size_t j = i + 1; j < lines_.size(); ++j) {
        if (lines_[j].blank) continue;
        if (lines_[j].indent <= def_indent) break;
        if (body_indent == std::string::npos) body_indent = lines_[j].indent;
        if (lines_[j].indent != body_indent) continue;
        body_statements_.back().push_back(j);
        if (!is_compound(lines_[j].first_word)) {
          const LogicalLine& l = lines_[j];
          if (l.plain_assignment && !l.augmented && l.well_formed && l.assigned.size() == 1 &&
              l.assigned[0].find('.') == std::string_view::npos)
            assignments_.push_back(Assignment{j, body_statements_.size() - 1});
          continue;
        }
        size_t k = j + 1;
        while (k < lines_.size() && (lines_[k].blank || lines_[k].indent > body_indent ||
                                     (lines_[k].indent == body_indent && is_clause(lines_[k].first_word))))
          ++k;
        size_t last = k - 1;
        while (last > j && lines_[last].blank) --last;
        candidates_.push_back(Statement{j, last});
        j = last;
      }
    }
  }

  // A statement may be cut only if it is plain if/for/while logic that assigns simple names.
  bool removable_shape(const Statement& s) const {
    for (size_t i = s.first; i <= s.last; ++i) {
      const LogicalLine& l = lines_[i];
      if (l.blank) continue;
      if (!l.well_formed) return false;
      if (is_compound(l.first_word) || is_clause(l.first_word)) {
        if (!l.header || l.first_word == "with" || l.first_word == "try" || l.first_word == "except") return false;
        // A condition reading only literals or local values could be decided: keep it.
        bool reads_input = false;
        for (std::string_view r : l.reads) {
          if (is_one_of(r, {"True", "False", "None"})) return false;
          if (functions_.count(root(r))) return false;
          if (known_.count(root(r))) return false;
          if (!is_one_of(r, {"if", "elif", "else", "for", "while", "in", "not", "and", "or", "is", "len", "isinstance", "hasattr", "str", "int", "float"})) reads_input = true;
        }
        if (!reads_input && l.first_word != "else") return false;
        continue;
      }
      if (is_one_of(l.first_word, {"pass", "break", "continue"})) continue;
      if (!l.plain_assignment || l.assigned.size() != 1) return false;
      for (std::string_view r : l.reads)
        if (functions_.count(root(r)) || is_one_of(r, {"lambda", "yield", "await"})) return false;
    }
    return true;
  }

  // Names that can carry the attribute: assigned on lines the attribute reaches. A statement
  // reading one of them is kept. Repeat until nothing changes.
  void keep_statements_reading_carriers() {
    std::vector<int> candidate_of(lines_.size(), -1);
    for (size_t c = 0; c < candidates_.size(); ++c)
      for (size_t i = candidates_[c].first; i <= candidates_[c].last; ++i) candidate_of[i] = static_cast<int>(c);
    auto in_cut = [&](size_t line_index) {
      return candidate_of[line_index] >= 0 && cut_[static_cast<size_t>(candidate_of[line_index])];
    };
    for (bool changed = true; changed;) {
      changed = false;
      // A kept statement the attribute reaches may steer everything it assigns.
      for (size_t c = 0; c < candidates_.size(); ++c) {
        if (cut_[c]) continue;
        const Statement& st = candidates_[c];
        bool reached = any_names_attribute(st.first, st.last);
        for (size_t i = st.first; i <= st.last && !reached; ++i)
          for (std::string_view r : lines_[i].reads) reached = reached || carriers_.count(root(r));
        if (!reached) continue;
        for (size_t i = st.first; i <= st.last; ++i)
          for (std::string_view a : lines_[i].assigned)
            if (carriers_.insert(root(a)).second) changed = true;
      }
      for (size_t i = 0; i < lines_.size(); ++i) {
        if (in_cut(i)) continue;
        const LogicalLine& l = lines_[i];
        bool carries = names_attribute_[i];
        for (std::string_view r : l.reads) carries = carries || carriers_.count(root(r));
        if (!carries) continue;
        for (std::string_view a : l.assigned)
          if (carriers_.insert(root(a)).second) changed = true;
      }
      for (size_t c = 0; c < candidates_.size(); ++c) {
        if (!cut_[c]) continue;
        const Statement& s = candidates_[c];
        bool reads_carrier = false;
        for (size_t i = s.first; i <= s.last && !reads_carrier; ++i)
          for (std::string_view r : lines_[i].reads) {
            // `score += 1` does not read score in a way that matters: it only adds to it.
            if (carriers_.count(root(r))) reads_carrier = true;
          }
        if (reads_carrier) {
          cut_[c] = false;
          changed = true;
          // Everything a kept statement assigns may now be steered by the attribute.
          for (size_t i = s.first; i <= s.last; ++i)
            for (std::string_view a : lines_[i].assigned) carriers_.insert(root(a));
        }
      }
    }
  }

  // What is parsed: every line but the cut statements and trivia (comments, blank lines and
  // docstrings, which no evaluation reads); the cut statements go to slice.removed.
  void include_lines(PythonSlice& slice) {
    include_.assign(lines_.size(), true);
    for (size_t i = 0; i < lines_.size(); ++i) {
      if (lines_[i].blank) {
        include_[i] = false;
      } else if (lines_[i].only_strings) {
        // A docstring may go when a statement follows in the same block (the block stays non-empty).
        size_t next = i + 1;
        while (next < lines_.size() && lines_[next].blank) ++next;
        include_[i] = !(next < lines_.size() && lines_[next].indent == lines_[i].indent);
      }
    }
    for (size_t c = 0; c < candidates_.size(); ++c) {
      if (!cut_[c]) continue;
      for (size_t i = candidates_[c].first; i <= candidates_[c].last; ++i) include_[i] = false;
      PythonSlice::Removed removed;
      removed.line = lines_[candidates_[c].first].first_row + 1;
      for (size_t i = candidates_[c].first; i <= candidates_[c].last; ++i)
        for (std::string_view a : lines_[i].assigned)
          if (std::find(removed.assigned.begin(), removed.assigned.end(), a) == removed.assigned.end())
            removed.assigned.emplace_back(a);
      slice.removed.push_back(std::move(removed));
    }
  }

  // An assignment nothing parsed reads or writes again cannot matter: `required = [...]` whose
  // only readers were cut. Its body must keep at least one statement.
  void drop_unread_assignments() {
    std::unordered_map<std::string_view, int> name_mentions;
    for (size_t i = 0; i < lines_.size(); ++i) {
      if (!include_[i]) continue;
      for (std::string_view r : lines_[i].reads) ++name_mentions[root(r)];
      for (std::string_view a : lines_[i].assigned) ++name_mentions[root(a)];
    }
    std::vector<int> kept_in_body(body_statements_.size(), 0);
    for (size_t b = 0; b < body_statements_.size(); ++b)
      for (size_t line : body_statements_[b]) kept_in_body[b] += include_[line] ? 1 : 0;
    for (bool changed = true; changed;) {
      changed = false;
      for (const Assignment& a : assignments_) {
        const LogicalLine& l = lines_[a.line];
        if (!include_[a.line] || names_attribute_[a.line] || kept_in_body[a.body] <= 1) continue;
        std::string_view target = l.assigned[0];
        if (carriers_.count(target)) continue;
        int own = 1;
        bool calls_code = false;
        for (std::string_view r : l.reads) {
          own += root(r) == target ? 1 : 0;
          calls_code = calls_code || functions_.count(root(r)) || carriers_.count(root(r));
        }
        if (calls_code || name_mentions[target] > own) continue;
        include_[a.line] = false;
        --kept_in_body[a.body];
        for (std::string_view r : l.reads) --name_mentions[root(r)];
        --name_mentions[target];
        changed = true;
      }
    }
  }

  // The included lines as runs of whole lines.
  void add_ranges(PythonSlice& slice) const {
    for (size_t i = 0; i < lines_.size(); ++i) {
      if (!include_[i]) continue;
      size_t j = i;
      while (j + 1 < lines_.size() && include_[j + 1]) ++j;
      TSRange r;
      r.start_byte = static_cast<uint32_t>(lines_[i].begin);
      r.end_byte = static_cast<uint32_t>(lines_[j].end);
      r.start_point = TSPoint{static_cast<uint32_t>(lines_[i].first_row), 0};
      r.end_point = TSPoint{static_cast<uint32_t>(lines_[j].last_row + 1), 0};
      slice.ranges.push_back(r);
      i = j;
    }
    if (slice.ranges.empty()) slice.ranges.push_back(TSRange{TSPoint{0, 0}, TSPoint{0, 0}, 0, 0});
  }

  std::vector<LogicalLine> lines_;
  std::vector<bool> names_attribute_;
  std::set<std::string_view> functions_, known_, carriers_;
  std::vector<Statement> candidates_;
  std::vector<Assignment> assignments_;
  std::vector<std::vector<size_t>> body_statements_;
  std::vector<bool> cut_;
  std::vector<bool> include_;
};

}  // namespace

PythonSlice slice_python(std::string_view code, std::span<const AttributeMention> mentions, uint64_t wanted_attributes) {
  return PythonSlicer(code, mentions, wanted_attributes).slice();
}

namespace {

void insert_into(ir::Body& body, ir::StmtPtr stmt) {
  auto it = std::find_if(body.begin(), body.end(), [&](const ir::StmtPtr& s) { return s->line > stmt->line; });
  body.insert(it, std::move(stmt));
}

}  // namespace

void insert_havocs(ir::Program& program, const PythonSlice& slice) {
  for (const PythonSlice::Removed& removed : slice.removed) {
    // The innermost function whose lines contain the removed statement.
    ir::Function* owner = nullptr;
    for (ir::Function& fn : program.functions)
      if (fn.line < removed.line && removed.line <= fn.end_line && (!owner || fn.line > owner->line)) owner = &fn;
    auto stmt = std::make_unique<ir::Stmt>();
    stmt->kind = ir::StmtKind::havoc;
    stmt->line = removed.line;
    stmt->names = removed.assigned;
    insert_into(owner ? owner->body : program.globals, std::move(stmt));
  }
}

}  // namespace codebias::analysis
