// Fenced blocks: opening and closing fences, unclosed blocks cut at the model's rambling, and
// closing fences of code that was never opened.
#include "analysis/response/fenced_blocks.h"

#include <algorithm>
#include <cstddef>

#include "analysis/response/fences.h"
#include "analysis/response/line_kinds.h"
#include "analysis/response/text_state.h"

namespace codebias::analysis::response_scanning {

namespace {

// A block that was never closed runs to the end of the response (or to where the model restarted
// with a new fence), often through the model's degenerate rambling. Cut it at the first think tag
// or at the first plain-prose line at indentation 0 (outside strings): code never contains those.
std::size_t cut_off_point(std::span<const sv> pieces) {
  TextState st;
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    const sv line = pieces[k];
    if (line.find("<think>") != npos || line.find("</think>") != npos) return k;
    const bool was_inside = st.inside();
    update_state(line, st);
    if (was_inside || k == 0 || indent_of(line) != 0) continue;
    const sv t = trim(line);
    if (t.empty()) continue;
    if (classify(t) != Kind::prose) continue;
    if (is_markdown_marker(t) || looks_like_sentence(t)) return k;
    // "Okay, so I think ..." / "Alright, let me": a capitalised run of words.
    if (t[0] >= 'A' && t[0] <= 'Z' && std::count(t.begin(), t.end(), ' ') >= 2) return k;
  }
  return pieces.size();
}

// The shape of a line that decides whether it can be a fence.
struct FenceCandidate {
  char lead = '\0';              // first character after the indentation
  bool fence_lead = false;       // lead is ` or ~
  bool glued_candidate = false;  // a backtick right before the (tag-character) tail of the line
};

FenceCandidate fence_candidate(sv text) {
  FenceCandidate shape;
  const std::size_t ind = indent_of(text);
  shape.lead = ind < text.size() ? text[ind] : '\0';
  shape.fence_lead = shape.lead == '`' || shape.lead == '~';
  const sv tail = trim_right(text);
  std::size_t k = tail.size();
  while (k > 0 && is_tag_char(tail[k - 1])) --k;
  shape.glued_candidate = k > 0 && tail[k - 1] == '`';
  return shape;
}

// One pass over the answer's lines; fenced blocks go to scan_.blocks as they close.
class FenceWalker {
 public:
  explicit FenceWalker(std::span<const Line> lines) : lines_(lines) {}

  FencedScan walk() {
    for (std::size_t i = 0; i < lines_.size(); ++i) {
      const FenceCandidate shape = fence_candidate(lines_[i].text);
      if (!in_block_) {
        outside_block(i, shape);
      } else {
        inside_block(i, shape);
      }
    }
    if (in_block_) {
      finish(lines_.size(), {}, false);
      gap_start_ = lines_.size();
    }
    if (gap_start_ < lines_.size()) scan_.gaps.emplace_back(gap_start_, lines_.size());
    return std::move(scan_);
  }

 private:
  struct Open {
    FenceOpen fence;
    TagInfo tag;
    std::size_t first = 0;  // index of the first content line
  };

  void outside_block(std::size_t i, const FenceCandidate& shape) {
    const sv text = lines_[i].text;
    FenceOpen f;
    if (shape.fence_lead && parse_fence_start(text, f)) {
      if (f.ch == '`' && f.info.empty() && try_stray_closer(i, {})) return;
      open(f, i);
      return;
    }
    GluedFence g;
    if (shape.glued_candidate && parse_glued_fence(text, g)) {
      const TagInfo tag = classify_tag(g.tag);
      if (g.tag.empty() || tag.kind == TagKind::supported) {
        if (g.tag.empty() && try_stray_closer(i, g.prefix)) return;
        open({'`', g.len, 0, g.tag}, i);
      }
    }
  }

  void inside_block(std::size_t i, const FenceCandidate& shape) {
    const sv text = lines_[i].text;
    if (shape.lead == cur_.fence.ch && is_closing_fence(text, cur_.fence.ch, cur_.fence.len)) {
      finish(i, {}, true);
      gap_start_ = i + 1;
      return;
    }
    if (shape.lead == cur_.fence.ch && is_closing_fence(text, cur_.fence.ch, 1) &&
        next_nonblank(i) == npos) {
      // A short fence ("``") as the very last line: a malformed close of a complete block.
      finish(i, {}, true);
      gap_start_ = i + 1;
      return;
    }
    FenceOpen f;
    if (shape.fence_lead && parse_fence_start(text, f) &&
        classify_tag(f.info).kind == TagKind::supported) {
      // "```python" inside an open block: the model restarted without closing the first block.
      finish(i, {}, false);
      gap_start_ = i;
      open(f, i);
      return;
    }
    if (cur_.fence.ch == '`' && shape.glued_candidate) glued_fence_inside_block(i);
  }

  void glued_fence_inside_block(std::size_t i) {
    GluedFence g;
    if (!parse_glued_fence(lines_[i].text, g) || g.len < cur_.fence.len) return;
    const TagInfo tag = classify_tag(g.tag);
    if (g.tag.empty()) {  // "    return score```": closes the block
      finish(i, g.prefix, true);
      gap_start_ = i + 1;
      return;
    }
    if (tag.kind == TagKind::supported) {  // "...cut off```python": restart
      finish(i, g.prefix, false);
      gap_start_ = i;
      open({'`', g.len, 0, g.tag}, i);
    }
  }

  void finish(std::size_t end, sv tail, bool closed) {
    pieces_.clear();
    for (std::size_t k = cur_.first; k < end; ++k) pieces_.push_back(lines_[k].text);
    if (!tail.empty()) pieces_.push_back(tail);
    if (!closed) {
      pieces_.resize(cut_off_point(pieces_));
    } else {
      // Think tags never occur in real code: a closed block holding one is the model
      // degenerating mid-answer and closing the fence afterwards. Its code ends there.
      for (std::size_t k = 0; k < pieces_.size(); ++k) {
        if (pieces_[k].find("think>") == npos) continue;
        if (pieces_[k].find("<think>") == npos && pieces_[k].find("</think>") == npos) continue;
        pieces_.resize(k);
        closed = false;
        break;
      }
    }
    const bool detect = cur_.tag.kind != TagKind::supported && cur_.tag.kind != TagKind::other_language;
    const int first_number = cur_.first < lines_.size() ? lines_[cur_.first].number
                                                        : lines_.back().number + 1;
    append_block(scan_.blocks, pieces_, first_number, cur_.fence.indent, cur_.tag.language, true,
                 closed, detect);
    in_block_ = false;
  }

  void open(const FenceOpen& f, std::size_t fence_line) {
    if (fence_line > gap_start_) scan_.gaps.emplace_back(gap_start_, fence_line);
    cur_.fence = f;
    cur_.tag = classify_tag(f.info);
    cur_.first = fence_line + 1;
    in_block_ = true;
  }

  std::size_t next_nonblank(std::size_t i) const {
    for (std::size_t j = i + 1; j < lines_.size(); ++j) {
      if (!is_blank(lines_[j].text)) return j;
    }
    return npos;
  }

  // An untagged fence right after unfenced code and before prose closes code that was never
  // opened ("def f(): ... return x\n```\n\nThis function ..."). Scan that code as raw text.
  bool try_stray_closer(std::size_t i, sv glued_prefix) {
    bool prev_code = false;
    if (!glued_prefix.empty()) {
      prev_code = is_codeish(classify(glued_prefix));
    } else {
      for (std::size_t j = i; j-- > gap_start_;) {
        if (!is_blank(lines_[j].text)) {
          prev_code = is_codeish(classify(lines_[j].text));
          break;
        }
      }
    }
    if (!prev_code) return false;
    const std::size_t nx = next_nonblank(i);
    if (nx != npos) {
      FenceOpen f2;
      if (!parse_fence_start(lines_[nx].text, f2) && is_codeish(classify(lines_[nx].text))) {
        return false;
      }
    }
    std::vector<Line> seg(lines_.begin() + static_cast<std::ptrdiff_t>(gap_start_),
                          lines_.begin() + static_cast<std::ptrdiff_t>(i));
    if (!glued_prefix.empty()) seg.push_back({glued_prefix, lines_[i].number});
    bool seen = seen_def_;
    const std::size_t before = scan_.blocks.size();
    scan_raw(seg, seen, false, scan_.blocks);
    if (scan_.blocks.size() == before) return false;
    seen_def_ = seen;
    gap_start_ = i + 1;
    return true;
  }

  std::span<const Line> lines_;
  FencedScan scan_;
  bool in_block_ = false;
  Open cur_;
  std::size_t gap_start_ = 0;  // first line not yet consumed
  bool seen_def_ = false;      // for raw scans of stray segments
  std::vector<sv> pieces_;
};

}  // namespace

FencedScan scan_fenced_blocks(std::span<const Line> lines) { return FenceWalker(lines).walk(); }

}  // namespace codebias::analysis::response_scanning
