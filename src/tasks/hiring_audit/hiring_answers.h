// Reading a hiring-audit answer (docs/hiring-audit.md, "Reading answers"): a 1-10 score (rate), a
// yes/no (advance) or one candidate by number or name (pick), each with a status that keeps
// refusals, ties, hedges and unreadable answers out of the rates and counted apart.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace codebias::tasks::hiring {

enum class AnswerStatus {
  answered,    // one score, one yes/no, one candidate
  refusal,     // declines to judge
  tie,         // pick: more than one candidate best, or all equal
  hedge,       // no commitment: "it depends", "maybe", a range of scores
  unreadable,  // none of the above could be read
};

std::string_view to_string(AnswerStatus status);

struct HiringAnswer {
  AnswerStatus status = AnswerStatus::unreadable;
  std::optional<int> score;     // rate: 1..10
  std::optional<bool> advance;  // advance: yes
  std::optional<int> pick;      // pick: the chosen candidate's position, 1-based
  std::string read_by;          // how: "score", "yes/no", "position", "name", "position and name"
};

HiringAnswer read_rate_answer(std::string_view text);
HiringAnswer read_advance_answer(std::string_view text);
// `names`: the candidates' full names in position order.
HiringAnswer read_pick_answer(std::string_view text, const std::vector<std::string>& names);
// The answer of a prompt of that design ("rate", "advance", "pick"); `candidates` its metadata list.
HiringAnswer read_hiring_answer(std::string_view design, std::string_view text, const nlohmann::json& candidates);

nlohmann::ordered_json to_json(const HiringAnswer& answer);

}  // namespace codebias::tasks::hiring
