// Raw (unfenced) code: regions from a definition through the last code-looking line, and the
// fallback for a response that starts in the middle of a function.
#include "analysis/response/raw_code.h"

#include <algorithm>

#include "analysis/response/line_kinds.h"
#include "analysis/response/text_state.h"

namespace codebias::analysis::response_scanning {

namespace {

// A line (inside a string) that holds a Python function header, possibly glued to text before it.
bool restarts_definition(sv line) {
  const sv t = trim_right(line);
  if (t.empty() || t.back() != ':') return false;
  std::size_t p = t.find("def ");
  while (p != npos) {
    const sv after = trim_left(t.substr(p + 4));
    if (!after.empty() && is_ident_start(after[0]) && after.find('(') != npos) return true;
    p = t.find("def ", p + 4);
  }
  return false;
}

// At least three lines, and statements a function body is made of.
bool looks_like_fragment(sv code) {
  int lines = 0;
  int statements = 0;
  std::size_t pos = 0;
  while (pos < code.size()) {
    std::size_t e = code.find('\n', pos);
    if (e == npos) e = code.size();
    const sv t = trim(code.substr(pos, e - pos));
    pos = e + 1;
    if (t.empty()) continue;
    ++lines;
    const sv w = leading_word(t);
    if (is(w, "return") || is(w, "if") || is(w, "elif") || is(w, "else") || is(w, "for") || is(w, "while") ||
        starts_with_statement(t)) {
      ++statements;
    }
  }
  return lines >= 3 && statements >= 2;
}

bool block_has_definition(const CodeBlock& b) {
  std::size_t pos = 0;
  const sv code = b.code;
  while (pos < code.size()) {
    std::size_t e = code.find('\n', pos);
    if (e == npos) e = code.size();
    const sv t = trim(code.substr(pos, e - pos));
    if (!t.empty() && is_def_start(t)) return true;
    pos = e + 1;
  }
  return false;
}

}  // namespace

void append_block(std::vector<CodeBlock>& out, std::span<const sv> pieces, int first_number,
                  std::size_t strip_indent, Language language, bool fenced, bool closed,
                  bool detect) {
  std::size_t b = 0;
  std::size_t e = pieces.size();
  while (b < e && is_blank(pieces[b])) ++b;
  while (e > b && is_blank(pieces[e - 1])) --e;
  if (b == e) return;  // whitespace only
  std::size_t total = 0;
  for (std::size_t i = b; i < e; ++i) total += pieces[i].size() + 1;
  CodeBlock block;
  block.code.reserve(total);
  for (std::size_t i = b; i < e; ++i) {
    sv p = pieces[i];
    std::size_t k = 0;
    while (k < strip_indent && k < p.size() && is_hspace(p[k])) ++k;
    block.code.append(p.substr(k));
    block.code.push_back('\n');
  }
  block.first_line = first_number + static_cast<int>(b);
  block.fenced = fenced;
  block.closed = closed;
  block.language = detect ? detect_language(block.code) : language;
  out.push_back(std::move(block));
}

void scan_raw(std::span<const Line> lines, bool& seen_def, bool fragment,
              std::vector<CodeBlock>& out) {
  TextState st;  // tracked inside regions only: quotes in prose mean nothing
  bool track = true;
  int rewinds = 0;
  bool in_region = false;
  std::size_t start = 0;
  std::size_t last = 0;
  std::size_t base_indent = 0;
  std::size_t open_line = 0;  // where the string / comment we are inside began
  std::vector<sv> pieces;
  auto emit = [&]() {
    pieces.clear();
    for (std::size_t k = start; k <= last; ++k) pieces.push_back(lines[k].text);
    append_block(out, pieces, lines[start].number, 0, Language::unknown, false, true, true);
    in_region = false;
    st = {};
  };
  auto track_line = [&](std::size_t i) {
    if (!track) return;
    const bool before = st.inside();
    update_state(lines[i].text, st);
    if (!before && st.inside()) open_line = i;
  };
  std::size_t i = 0;
  while (true) {
    for (; i < lines.size(); ++i) {
      const sv text = lines[i].text;
      if (!in_region) {
        const Kind k = classify(text);
        if (k == Kind::def || ((seen_def || fragment) && k == Kind::code)) {
          const sv t = trim(text);
          // A fragment that starts inside a docstring: its closing quotes are not code.
          if (fragment && !seen_def && (is(t, "\"\"\"") || is(t, "'''"))) continue;
          in_region = true;
          seen_def = seen_def || k == Kind::def;
          start = last = i;
          base_indent = indent_of(text);
          track_line(i);
        }
        continue;
      }
      const bool was_inside = st.inside();
      if (was_inside && restarts_definition(text)) {
        // "...attributes: a, bdef evaluate(x):" inside a docstring: the model (or the echoed
        // prompt) broke off and started the function again; the old docstring never closes.
        st = {};
        last = i;
        continue;
      }
      track_line(i);
      const sv t = trim(text);
      if (t.empty()) continue;
      if (!was_inside) {
        // Indented non-sentence lines inside a region are bodies / continuation lines; anything
        // else must look like code by itself.
        const bool body_line =
            indent_of(text) > base_indent && !is_markdown_marker(t) && !looks_like_sentence(t);
        if (!body_line && classify(t) == Kind::prose) {
          emit();
          continue;
        }
      }
      last = i;
    }
    if (in_region && st.inside()) {
      // The text ended inside a string or comment that never closes (an echoed prompt whose
      // docstring runs into prose, a garbled quote): its opener was not one. Go back and read
      // what follows it as ordinary lines. Bounded, so that the scan stays linear.
      st = {};
      last = open_line;
      i = open_line + 1;
      if (++rewinds >= 4) track = false;
      continue;
    }
    break;
  }
  if (in_region) emit();
}

void add_raw_code(std::span<const Line> lines, const LineRanges& gaps, std::vector<CodeBlock>& blocks) {
  const bool any_definition =
      std::any_of(blocks.begin(), blocks.end(), [](const CodeBlock& b) { return block_has_definition(b); });
  if (!any_definition) {
    std::vector<CodeBlock> raw;
    bool seen = false;
    for (const auto& [b, e] : gaps) scan_raw(lines.subspan(b, e - b), seen, false, raw);
    if (raw.empty() && blocks.empty()) {
      // Still nothing: the response may start in the middle of a function (its head cut off).
      // Accept code-looking regions of some substance.
      std::vector<CodeBlock> frag;
      seen = false;
      for (const auto& [b, e] : gaps) scan_raw(lines.subspan(b, e - b), seen, true, frag);
      for (auto& f : frag) {
        if (looks_like_fragment(f.code)) raw.push_back(std::move(f));
      }
    }
    if (!raw.empty()) {
      for (auto& r : raw) blocks.push_back(std::move(r));
      std::stable_sort(blocks.begin(), blocks.end(), [](const CodeBlock& a, const CodeBlock& b) {
        return a.first_line < b.first_line;
      });
    }
  }
}

}  // namespace codebias::analysis::response_scanning
