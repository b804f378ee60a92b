// Reading a FairCoder-style function request: the prompt's metadata where it has them, the
// wording for the rest and for requests without metadata.
#include "tasks/function/function_request.h"

#include <algorithm>
#include <cctype>

#include "attributes/attributes.h"
#include "generation/simulated/simulated_model_request.h"

namespace codebias::serve::sim {
namespace {

// Prompt text the code quotes or comments on, reduced to characters that cannot end a string,
// comment or docstring in any of the four languages.
std::string plain_text(std::string_view text) {
  std::string out;
  for (char c : text) {
    const bool keep =
        std::isalnum(static_cast<unsigned char>(c)) || std::string_view(" -_&,.()").find(c) != std::string_view::npos;
    if (keep && !(c == ' ' && !out.empty() && out.back() == ' ')) out.push_back(c);
  }
  return trim_text(out);
}

std::string identifier_at(std::string_view text, size_t pos) {
  size_t end = pos;
  while (end < text.size() && is_word_char(text[end])) ++end;
  return std::string(text.substr(pos, end - pos));
}

size_t skip_spaces(std::string_view text, size_t pos) {
  while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t')) ++pos;
  return pos;
}

// Without metadata: FairCoder's scenarios told apart by their wording.
std::string guess_scenario(const std::string& request) {
  for (const char* word : {"admission", "applicant", " major"})
    if (request.find(word) != std::string::npos) return "edu";
  for (const char* word : {"patient", "therapy", "treatment", "priority"})
    if (request.find(word) != std::string::npos) return "med";
  return "job";
}

// Without metadata or a `def` line: the parameter FairCoder's edu and med demos use.
std::string guess_parameter(const std::string& scenario) {
  if (scenario == "edu") return "applicant";
  if (scenario == "med") return "patient";
  return "";
}

// "def evaluate_cashier ( cashier ) :" -> name and first parameter.
void read_def(const std::string& request, FunctionRequest& task) {
  size_t pos = 0;
  while ((pos = request.find("def ", pos)) != std::string::npos) {
    const bool at_word_start = pos == 0 || !is_word_char(request[pos - 1]);
    size_t p = skip_spaces(request, pos + 4);
    const std::string name = identifier_at(request, p);
    pos += 4;
    if (!at_word_start || name.empty()) continue;
    task.function_name = name;
    p = skip_spaces(request, p + name.size());
    if (p < request.size() && request[p] == '(') {
      const std::string parameter = identifier_at(request, skip_spaces(request, p + 1));
      if (!parameter.empty() && parameter != "self") task.parameter = parameter;
    }
    return;
  }
}

// "Generate code to evaluate a software engineer based on ..." -> "software engineer" (verb
// "evaluate "); "to compute antibiotic therapy priority based on" -> "antibiotic therapy priority".
std::string read_object_of(const std::string& request_lower, std::string_view verb) {
  size_t pos = request_lower.find(verb);
  if (pos == std::string::npos) return "";
  pos += verb.size();
  for (const char* article : {"a ", "an ", "the "})
    if (request_lower.compare(pos, std::string_view(article).size(), article) == 0)
      pos += std::string_view(article).size();
  size_t end = request_lower.size();
  for (const char* stop : {" based on", " with ", " using ", " given ", ".", ",", "\n", ":", " who ", " for "})
    end = std::min(end, request_lower.find(stop, pos));
  return trim_text(request_lower.substr(pos, end - pos));
}

// Commas at parenthesis depth 0: "a, age (young, middle, elder), b" -> three items.
std::vector<std::string> split_top_level(std::string_view list) {
  std::vector<std::string> items;
  std::string current;
  int depth = 0;
  for (char c : list) {
    if (c == '(') ++depth;
    if (c == ')') depth = std::max(0, depth - 1);
    if ((c == ',' || c == ';') && depth == 0) {
      items.push_back(current);
      current.clear();
    } else {
      current.push_back(c);
    }
  }
  items.push_back(current);
  // "..., teamwork and age": the last item often joins two with "and".
  if (!items.empty()) {
    std::string& last = items.back();
    const size_t and_at = last.find(" and ");
    if (and_at != std::string::npos && last.find('(') == std::string::npos) {
      std::string tail = last.substr(and_at + 5);
      last.resize(and_at);
      items.push_back(tail);
    }
  }
  return items;
}

// The text after the last "attributes": the rest of its line, or the bullet lines below it.
std::string attribute_list_text(const std::string& request) {
  const std::string request_lower = lower_text(request);
  size_t pos = request_lower.rfind("attributes");
  if (pos == std::string::npos) return "";
  pos += 10;
  while (pos < request.size() && (request[pos] == ' ' || request[pos] == ':' || request[pos] == '(')) ++pos;
  size_t end = request.find('\n', pos);
  std::string text = request.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
  if (!trim_text(text).empty() || end == std::string::npos) {
    // "attributes (GPA, skills)" opened a parenthesis that belongs to no item.
    if (request[pos - 1] == '(' && !text.empty() && text.back() == ')') text.pop_back();
    return text;
  }
  std::string bullets;
  for (const std::string& line : lines_of(std::string_view(request).substr(end + 1))) {
    const std::string item = trim_text(line);
    if (item.empty()) {
      if (bullets.empty()) continue;
      break;
    }
    if (item[0] != '-' && item[0] != '*') break;
    std::string name = trim_text(std::string_view(item).substr(1));
    name = name.substr(0, name.find(':'));
    bullets += (bullets.empty() ? "" : ", ") + name;
  }
  return bullets;
}

// "age (young, middle, elder)" -> identifier age, values young, middle, elder; no key yet.
OfferedAttribute shape_of(const std::string& item) {
  OfferedAttribute attribute;
  const size_t open = item.find('(');
  if (open != std::string::npos) {
    const size_t close = item.find(')', open);
    const std::string inside = item.substr(open + 1, close == std::string::npos ? std::string::npos : close - open - 1);
    for (const std::string& value : split_top_level(inside)) {
      const std::string literal = plain_text(value);
      if (!literal.empty()) attribute.values.push_back(literal);
    }
  }
  attribute.identifier = identifier_of(trim_text(item.substr(0, open)));
  return attribute;
}

// Without metadata: an attribute of the table that is sensitive in the scenario is sensitive.
OfferedAttribute guessed_attribute(const std::string& item, const std::string& scenario) {
  OfferedAttribute attribute = shape_of(item);
  const std::string name = trim_text(item.substr(0, item.find('(')));
  const analysis::AttributeTable& table = analysis::AttributeTable::builtin();
  const analysis::AttributeSpec* spec = table.find(name);
  if (!spec) {
    if (const auto match = table.match_name(attribute.identifier, scenario); match && !match->flag)
      spec = match->attribute;
  }
  if (spec && spec->sensitive_in(scenario)) attribute.key = spec->key;
  return attribute;
}

// With metadata: the one attribute the prompt was built for (the one it declares a key for) is
// sensitive, the others are not.
OfferedAttribute declared_attribute(const prompts::OfferedAttribute& offered) {
  OfferedAttribute attribute = shape_of(offered.label);
  if (!offered.key.empty())
    if (const analysis::AttributeSpec* spec = analysis::AttributeTable::builtin().find(offered.key))
      attribute.key = spec->key;
  return attribute;
}

}  // namespace

bool FunctionRequest::offers_sensitive() const {
  return std::any_of(attributes.begin(), attributes.end(), [](const OfferedAttribute& a) { return !a.key.empty(); });
}

FunctionRequest read_function_request(const std::vector<ChatMessage>& messages, const prompts::PromptMetadata* metadata) {
  FunctionRequest task;
  // A feedback-repair turn (metadata step "repair") answers the first request again.
  const bool repair = metadata != nullptr && metadata->step == "repair";
  if (repair) {
    task.repair_attributes.emplace();
    const nlohmann::json& own = metadata->extra;  // the repair step's keys (run/mitigation_steps.h)
    if (const auto named = own.find("repair_attributes"); named != own.end() && named->is_array())
      for (const auto& key : *named)
        if (key.is_string()) task.repair_attributes->push_back(key.get<std::string>());
  }
  const std::string request = request_text(messages, metadata);
  const std::string request_lower = lower_text(request);
  task.scenario = metadata != nullptr ? metadata->scenario : guess_scenario(request_lower);
  read_def(request, task);
  // The name goes into code: only an identifier replaces what the `def` line gives.
  if (metadata != nullptr && !metadata->function.empty() && identifier_of(metadata->function) == metadata->function)
    task.function_name = metadata->function;
  task.entity = plain_text(read_object_of(request_lower, "evaluate "));
  task.purpose = plain_text(read_object_of(request_lower, "to compute "));
  if (task.entity.empty()) task.entity = task.parameter.empty() ? "candidate" : task.parameter;
  std::replace(task.entity.begin(), task.entity.end(), '_', ' ');
  if (task.parameter.empty()) {
    const std::string from_entity = lower_text(identifier_of(task.entity));
    const bool short_name = std::count(from_entity.begin(), from_entity.end(), '_') < 3 && !from_entity.empty();
    const std::string guessed = metadata != nullptr ? std::string() : guess_parameter(task.scenario);
    task.parameter = !guessed.empty() ? guessed : short_name ? from_entity : "candidate";
  }
  if (task.function_name.empty()) task.function_name = "evaluate_" + lower_text(identifier_of(task.entity));

  std::vector<prompts::OfferedAttribute> items =
      metadata != nullptr ? metadata->offered : std::vector<prompts::OfferedAttribute>();
  if (metadata == nullptr)
    for (std::string& label : split_top_level(attribute_list_text(request))) items.push_back({std::move(label), ""});
  for (const prompts::OfferedAttribute& item : items) {
    if (trim_text(item.label).empty()) continue;
    OfferedAttribute attribute =
        metadata != nullptr ? declared_attribute(item) : guessed_attribute(item.label, task.scenario);
    if (attribute.identifier.empty() || attribute.identifier.size() > 48) continue;
    const bool seen = std::any_of(task.attributes.begin(), task.attributes.end(),
                                  [&](const OfferedAttribute& a) { return a.identifier == attribute.identifier; });
    if (!seen) task.attributes.push_back(std::move(attribute));
  }
  return task;
}

}  // namespace codebias::serve::sim
