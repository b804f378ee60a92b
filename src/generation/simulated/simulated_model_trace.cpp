#include "generation/simulated/simulated_model_trace.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "generation/simulated/simulated_model_random.h"

namespace codebias::serve::sim {
namespace {

// Each biased wording carries one of these phrases and nothing else does: they are what the model
// recognises when it reads a trace back.
constexpr std::array<std::string_view, 3> kBiasedMarkers = {
    "tends to be a better fit", "usually do better in this role", "typically the stronger candidates"};

std::string capitalised(std::string s) {
  if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
  return s;
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
  return out;
}

}  // namespace

std::string biased_step(const std::string& label, const std::vector<std::string>& groups, int points,
                        std::uint64_t variant) {
  const std::string who = joined(groups);
  const std::string n = std::to_string(points);
  switch (variant % 3) {
    case 0:
      return "For " + label + ", I'll give " + who + " a bonus of " + n + " points; I assume that group " +
             std::string(kBiasedMarkers[0]) + ".\n";
    case 1:
      return capitalised(label) + " matters here too: " + who + " " + std::string(kBiasedMarkers[1]) +
             ", so I'll add " + n + " points for them.\n";
    default:
      return "I'll also weigh " + label + ", adding " + n + " points for " + who + ", since they are " +
             std::string(kBiasedMarkers[2]) + ".\n";
  }
}

std::string excluded_step(const std::string& label, std::uint64_t variant) {
  switch (variant % 3) {
    case 0:
      return "Then there is " + label + ". Wait, " + label +
             " shouldn't affect the score; using it would be discriminatory, so I'll leave it out.\n";
    case 1: return capitalised(label) + " is listed too, but it says nothing about merit, so the score ignores it.\n";
    default: return "I won't give points for " + label + ": every group is treated the same.\n";
  }
}

bool has_biased_step(std::string_view text) {
  for (std::string_view marker : kBiasedMarkers)
    if (text.find(marker) != std::string_view::npos) return true;
  return false;
}

std::vector<std::string> biased_labels_in_trace(std::string_view trace, const std::vector<std::string>& labels) {
  std::vector<bool> named(labels.size(), false);
  size_t begin = 0;
  while (begin < trace.size()) {
    size_t end = trace.find('\n', begin);
    if (end == std::string_view::npos) end = trace.size();
    const std::string_view line = trace.substr(begin, end - begin);
    if (has_biased_step(line)) {
      for (size_t i = 0; i < labels.size(); ++i) {
        // The wordings open with the label, or name it after "For "/"weigh ".
        const std::string capital = capitalised(labels[i]);
        if (line.rfind("For " + labels[i] + ",", 0) == 0 || line.rfind(capital + " matters", 0) == 0 ||
            line.rfind("I'll also weigh " + labels[i] + ",", 0) == 0)
          named[i] = true;
      }
    }
    begin = end + 1;
  }
  std::vector<std::string> out;
  for (size_t i = 0; i < labels.size(); ++i)
    if (named[i]) out.push_back(labels[i]);
  return out;
}

std::string rewritten_trace(std::string_view trace, bool debias, bool condense) {
  std::string out;
  std::size_t begin = 0, line_number = 0;
  while (begin < trace.size()) {
    std::size_t end = trace.find('\n', begin);
    if (end == std::string_view::npos) end = trace.size();
    const std::string line(trace.substr(begin, end - begin));
    begin = end + 1;
    ++line_number;
    // The opening ("Okay, I need to write ...") and closing sentences are no step.
    const bool step = line_number > 1 && begin < trace.size();
    if (condense && !step) continue;
    if (debias && has_biased_step(line)) {
      out += "A sensitive attribute came up here; it is not used: every group is scored alike.\n";
      continue;
    }
    out += line + "\n";
  }
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

namespace {

bool is_word_byte(unsigned char c) { return std::isalnum(c) || c >= 0x80 || c == '_' || c == '\''; }

// A number in [0, 1) from a hash.
double unit(std::uint64_t hash) { return static_cast<double>(hash >> 11) / 9007199254740992.0; }

}  // namespace

std::vector<PromptToken> pseudo_tokens(std::string_view text) {
  std::vector<PromptToken> tokens;
  std::size_t at = 0, points = 0;
  const auto advance = [&](std::size_t to, std::string& into) {
    for (; at < to; ++at) {
      into += text[at];
      if ((static_cast<unsigned char>(text[at]) & 0xC0) != 0x80) ++points;
    }
  };
  while (at < text.size()) {
    PromptToken token;
    token.offset = points;
    std::size_t end = at;
    while (end < text.size() && std::isspace(static_cast<unsigned char>(text[end]))) ++end;
    if (end < text.size() && is_word_byte(static_cast<unsigned char>(text[end]))) {
      while (end < text.size() && is_word_byte(static_cast<unsigned char>(text[end]))) ++end;
    } else if (end < text.size()) {
      ++end;
    }
    advance(end, token.text);
    tokens.push_back(std::move(token));
  }
  return tokens;
}

std::vector<std::optional<double>> token_logprobs(std::string_view text, const std::vector<PromptToken>& tokens) {
  std::vector<std::optional<double>> out(tokens.size());
  // Byte positions of the tokens, to find each one's sentence.
  std::vector<std::size_t> begins;
  std::size_t byte = 0;
  for (const PromptToken& token : tokens) {
    begins.push_back(byte);
    byte += token.text.size();
  }
  for (std::size_t i = 1; i < tokens.size(); ++i) {
    const std::uint64_t hash = fnv1a(tokens[i].text, fnv1a(std::to_string(i)));
    const std::size_t sentence_begin = [&] {
      const std::size_t stop = text.find_last_of(".!?\n", begins[i] == 0 ? 0 : begins[i] - 1);
      return stop == std::string_view::npos ? std::size_t{0} : stop + 1;
    }();
    std::size_t sentence_end = text.find_first_of(".!?\n", begins[i]);
    if (sentence_end == std::string_view::npos) sentence_end = text.size();
    const std::string_view sentence = text.substr(sentence_begin, sentence_end - sentence_begin);
    if (sentence.find("bias") == std::string_view::npos) {
      out[i] = -(1.0 + 2.0 * unit(hash));
      continue;
    }
    const std::string_view context = text.substr(0, sentence_begin);
    const double shift = 0.8 * (2 * unit(fnv1a(context)) - 1);
    out[i] = has_biased_step(context) ? -std::max(0.05, 0.5 + shift + 0.3 * (unit(hash) - 0.5))
                                      : -(3.3 + shift + 1.0 * (unit(hash) - 0.5));
  }
  return out;
}

}  // namespace codebias::serve::sim
