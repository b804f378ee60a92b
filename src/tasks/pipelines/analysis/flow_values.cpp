#include "tasks/pipelines/analysis/flow_values.h"

#include <set>

#include "attributes/attributes.h"

namespace codebias::analysis::pipelines::flow {

Steps push_step(const Steps& steps, int line, const char* rule, Mask kept, Mask dropped) {
  if ((kept | dropped) == 0) return steps;
  int depth = steps ? steps->depth + 1 : 1;
  if (depth > kMaxSteps) return steps;
  return std::make_shared<const StepNode>(StepNode{line, rule, kept, dropped, steps, depth});
}

Steps join_steps(const Steps& earlier, const Steps& later) {
  if (!later) return earlier;
  if (!earlier || earlier == later) return later;
  std::vector<const StepNode*> nodes;
  for (const StepNode* n = later.get(); n; n = n->previous.get()) {
    if (n == earlier.get()) break;
    nodes.push_back(n);
  }
  Steps out = earlier;
  for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) out = push_step(out, (*it)->line, (*it)->rule, (*it)->kept, (*it)->dropped);
  return out;
}

Ref make(Kind kind) {
  auto v = std::make_shared<Value>();
  v->kind = kind;
  return v;
}

std::string normalize_label(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c >= 'A' && c <= 'Z') out.push_back(static_cast<char>(c - 'A' + 'a'));
    else if (c == '-' || c == '.' || c == ' ') out.push_back('_');
    else out.push_back(c);
  }
  return out;
}

unsigned dtype_class(std::string_view text) {
  std::string t = normalize_label(text);
  if (size_t dot = t.rfind('_'); dot != std::string::npos && (t.rfind("np_", 0) == 0 || t.rfind("numpy_", 0) == 0))
    t = t.substr(dot + 1);
  static const std::set<std::string> categorical = {"object", "o", "category", "str", "string", "categorical"};
  static const std::set<std::string> numeric = {"number", "numeric", "int", "int64", "int32", "integer", "float",
                                                "float64", "float32", "floating", "int8", "int16", "uint8"};
  if (categorical.count(t)) return kCategoricalClass;
  if (numeric.count(t)) return kNumericClass;
  return 0;
}

bool has_token(std::string_view name, std::initializer_list<std::string_view> tokens) {
  for (const std::string& t : identifier_tokens(name))
    for (std::string_view want : tokens)
      if (t == want) return true;
  return false;
}

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

}  // namespace codebias::analysis::pipelines::flow
