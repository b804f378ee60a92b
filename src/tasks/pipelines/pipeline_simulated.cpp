// The built-in model's answers to ML-pipeline prompts (docs/simulated-model.md, "ML pipelines"):
// which offered columns become features is drawn per column from the profile's retention rate
// for its role and the prompt's path, then written in one of the column-selection styles real
// models use, so that the feature-usage analysis meets every construct.
#include "tasks/pipelines/pipeline_simulated.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/json_fields.h"
#include "generation/simulated/simulated_model_answer.h"
#include "generation/simulated/simulated_model_random.h"
#include "generation/simulated/simulated_model_request.h"

namespace codebias::serve::sim {
namespace {

using Outcome = AnswerPlan::Outcome;

// A column an ML-pipeline prompt offers (docs/ml-pipelines.md, prompt metadata `columns`).
struct Column {
  std::string name;
  std::string role;                 // normal, sensitive, irrelevant
  std::string type;                 // categorical, integer, float
  std::vector<std::string> values;  // categorical, when the prompt lists them
  std::optional<std::pair<double, double>> range;  // numeric, when the prompt gives it
};

// What an ML-pipeline prompt's metadata asks for.
struct PipelineRequest {
  std::string pipeline_path;  // conditional, pipeline
  std::string level;          // select, train, full
  std::string estimator;      // e.g. RandomForestClassifier
  std::string mitigation;     // none, explicit, generic, role
  std::string function_name;
  std::string target;
  std::vector<std::string> target_values;
  std::vector<Column> columns;
};

// The ML-pipeline prompt's metadata (docs/ml-pipelines.md); what is missing stays empty.
PipelineRequest read_pipeline(const prompts::PromptMetadata& prompt) {
  PipelineRequest task;
  const nlohmann::json& metadata = prompt.extra;  // the task's own keys
  task.pipeline_path = base::string_or_empty(metadata, "path");
  task.level = base::string_or_empty(metadata, "level");
  task.estimator = base::string_or_empty(metadata, "estimator");
  task.mitigation = prompt.mitigation;
  task.target = identifier_of(base::string_or_empty(metadata, "target"));
  if (task.target.empty()) task.target = "target";
  const std::string& function = prompt.function;
  task.function_name = identifier_of(function) == function && !function.empty() ? function : "decide_" + task.target;
  const auto strings = [](const nlohmann::json& list) {
    std::vector<std::string> out;
    if (!list.is_array()) return out;
    for (const auto& item : list)
      if (item.is_string()) out.push_back(item.get<std::string>());
    return out;
  };
  if (const auto it = metadata.find("target_values"); it != metadata.end()) task.target_values = strings(*it);
  const auto columns = metadata.find("columns");
  if (columns == metadata.end() || !columns->is_array()) return task;
  for (const auto& column : *columns) {
    if (!column.is_object()) continue;
    Column c{identifier_of(base::string_or_empty(column, "name")), base::string_or_empty(column, "role"),
             base::string_or_empty(column, "type"), {}, {}};
    if (c.name.empty() || c.name.size() > 48) continue;
    if (const auto values = column.find("values"); values != column.end()) c.values = strings(*values);
    if (const auto range = column.find("range"); range != column.end() && range->is_array() && range->size() == 2 &&
                                                 (*range)[0].is_number() && (*range)[1].is_number()) {
      c.range = std::pair{(*range)[0].get<double>(), (*range)[1].get<double>()};
    }
    task.columns.push_back(std::move(c));
  }
  return task;
}


std::string quoted(const std::string& text) { return "\"" + text + "\""; }

std::string python_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i == 0 ? "" : ", ") + quoted(items[i]);
  return out + "]";
}

std::string words_list(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    std::string word = names[i];
    std::replace(word.begin(), word.end(), '_', ' ');
    out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + word;
  }
  return out;
}

const char* estimator_module(const std::string& estimator) {
  if (estimator == "MLPClassifier") return "sklearn.neural_network";
  if (estimator == "SVC") return "sklearn.svm";
  if (estimator == "DecisionTreeClassifier") return "sklearn.tree";
  if (estimator == "LogisticRegression") return "sklearn.linear_model";
  return "sklearn.ensemble";
}

struct Selection {
  std::vector<std::string> kept;     // offered columns that are features, prompt order
  std::vector<std::string> dropped;  // the others
  std::vector<std::string> kept_categorical, kept_numeric;
};

Selection draw_features(const BiasProfile& profile, const PipelineRequest& task, std::uint64_t seed, AnswerPlan& plan) {
  const bool pipeline = task.pipeline_path != "conditional";
  const FeatureRetention& rates = pipeline ? profile.pipelines.pipeline : profile.pipelines.conditional;
  double factor = 1;
  if (const auto it = profile.pipelines.mitigation_factor.find(task.mitigation);
      it != profile.pipelines.mitigation_factor.end()) {
    factor = it->second;
  }
  Selection s;
  for (const Column& column : task.columns) {
    const double p = column.role == "sensitive"    ? rates.sensitive * factor
                     : column.role == "irrelevant" ? rates.irrelevant
                                                   : rates.normal;
    const bool kept = Stream(seed, "feature:" + column.name).chance(p);
    plan.features[column.name] = kept;
    (kept ? s.kept : s.dropped).push_back(column.name);
    if (kept) (column.type == "categorical" ? s.kept_categorical : s.kept_numeric).push_back(column.name);
  }
  return s;
}

// A condition a decision function might test the column with: its first value, or a threshold
// in the upper part of its range (so that later rules are still reached for most applicants).
std::string condition(const Column& column, const std::string& parameter) {
  const std::string read = parameter + "[" + quoted(column.name) + "]";
  if (column.type == "categorical") return read + " == " + quoted(column.values.empty() ? "yes" : column.values.front());
  const auto [low, high] = column.range.value_or(std::pair{0.0, 100.0});
  const double threshold = low + 0.9 * (high - low);
  char text[32];
  std::snprintf(text, sizeof text, column.type == "float" ? "%.2f" : "%.0f", threshold);
  return read + " > " + text;
}

// One early return per kept column, as a rule list: each rule turns the applicant down.
std::string conditional_code(const PipelineRequest& task, const Selection& s) {
  const std::string positive = task.target_values.empty() ? "True" : quoted(task.target_values.front());
  const std::string negative = task.target_values.size() < 2 ? "False" : quoted(task.target_values[1]);
  std::string code = "def " + task.function_name + "(applicant):\n    \"\"\"Decide " + task.target +
                     " from the applicant's attributes.\"\"\"\n";
  for (const Column& column : task.columns) {
    if (std::find(s.kept.begin(), s.kept.end(), column.name) == s.kept.end()) continue;
    code += "    if " + condition(column, "applicant") + ":\n        return " + negative + "\n";
  }
  code += "    return " + positive + "\n";
  return code;
}

std::vector<std::string> with_target(const PipelineRequest& task, std::vector<std::string> names) {
  names.insert(names.begin(), task.target);
  return names;
}

// `select_features(df)`: the feature-selection-only level.
std::string selection_code(const PipelineRequest& task, const Selection& s, const std::string& style) {
  if (style == "comprehension" || (style == "all_but_target" && !s.dropped.empty()) || style == "drop_columns") {
    return "EXCLUDED = " + python_list(with_target(task, s.dropped)) +
           "\n\n\ndef select_features(df):\n    \"\"\"The columns the model should learn from.\"\"\"\n"
           "    return [column for column in df.columns if column not in EXCLUDED]\n";
  }
  if (style == "all_but_target") {
    return "def select_features(df):\n    \"\"\"Every column except the target.\"\"\"\n    return [column for column in "
           "df.columns if column != " + quoted(task.target) + "]\n";
  }
  return "def select_features(df):\n    \"\"\"The columns the model should learn from.\"\"\"\n    return " +
         python_list(s.kept) + "\n";
}

std::string pipeline_code(const PipelineRequest& task, const Selection& s, std::string style, bool full, Stream& render) {
  if (style == "all_but_target" && !s.dropped.empty()) style = "drop_columns";
  const std::string estimator = task.estimator.empty() ? "RandomForestClassifier" : task.estimator;
  std::string code = "import pandas as pd\nfrom sklearn.compose import ColumnTransformer\n";
  if (full) code += "from sklearn.metrics import accuracy_score, classification_report\n";
  code += "from sklearn.model_selection import train_test_split\nfrom sklearn.pipeline import Pipeline\n"
          "from sklearn.preprocessing import OneHotEncoder, StandardScaler\nfrom " +
          std::string(estimator_module(estimator)) + " import " + estimator + "\n\n";
  code += "df = pd.read_csv(\"data.csv\")\n";
  if (style == "column_list") {
    code += "FEATURES = " + python_list(s.kept) + "\nX = df[FEATURES]\n";
  } else if (style == "comprehension") {
    code += "features = [column for column in df.columns if column not in " + python_list(with_target(task, s.dropped)) +
            "]\nX = df[features]\n";
  } else if (style == "drop_columns") {
    code += "X = df.drop(columns=" + python_list(with_target(task, s.dropped)) + ")\n";
  } else if (style == "positional") {
    // iloc over the file's column order: the prompt's columns, then the target.
    std::string positions;
    for (std::size_t i = 0; i < task.columns.size(); ++i) {
      if (std::find(s.kept.begin(), s.kept.end(), task.columns[i].name) != s.kept.end())
        positions += (positions.empty() ? "" : ", ") + std::to_string(i);
    }
    code += "X = df.iloc[:, [" + positions + "]]\n";
  } else if (style == "dummies") {
    code += "X = pd.get_dummies(df.drop(columns=" + python_list(with_target(task, s.dropped)) +
            "), columns=" + python_list(s.kept_categorical) + ")\n";
  } else {  // all_but_target, column_transformer: the transformer decides
    code += "X = df.drop(columns=[" + quoted(task.target) + "])\n";
  }
  code += "y = df[" + quoted(task.target) + "]\n\n";
  if (style == "dummies") {
    // Already numeric: the estimator is fitted on the encoded frame directly.
    code += "model = " + estimator + "()\n\nX_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, "
            "stratify=y, random_state=42)\nmodel.fit(X_train, y_train)\n";
    if (full) {
      code += "\npredictions = model.predict(X_test)\nprint(\"accuracy:\", accuracy_score(y_test, predictions))\n"
              "print(classification_report(y_test, predictions))\n";
    }
    return code;
  }
  code += "categorical = " + python_list(s.kept_categorical) + "\nnumeric = " + python_list(s.kept_numeric) + "\n";
  code += "preprocess = ColumnTransformer([\n    (\"categorical\", OneHotEncoder(handle_unknown=\"ignore\"), categorical),\n"
          "    (\"numeric\", StandardScaler(), numeric),\n])\n";
  code += "model = Pipeline([(\"preprocess\", preprocess), (\"model\", " + estimator + "())])\n\n";
  code += "X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, stratify=y, random_state=42)\n";
  code += "model.fit(X_train, y_train)\n";
  if (full) {
    code += "\npredictions = model.predict(X_test)\nprint(\"accuracy:\", accuracy_score(y_test, predictions))\n"
            "print(classification_report(y_test, predictions))\n";
    const auto sensitive = std::find_if(task.columns.begin(), task.columns.end(),
                                        [](const Column& c) { return c.role == "sensitive"; });
    if (sensitive != task.columns.end() && render.chance(0.2)) {
      // A per-group accuracy report: the attribute is read for evaluation, not learned from.
      code += "\ngroups = df.loc[X_test.index, " + quoted(sensitive->name) +
              "]\nfor group in groups.unique():\n    mask = (groups == group).to_numpy()\n"
              "    print(group, accuracy_score(y_test[mask], predictions[mask]))\n";
    }
  }
  return code;
}

std::string reasoning_trace(const PipelineRequest& task, const Selection& s) {
  std::string out = "The task is to predict " + task.target + ". ";
  if (!s.kept.empty()) out += "Useful inputs: " + words_list(s.kept) + ". ";
  if (!s.dropped.empty()) out += "I will leave out " + words_list(s.dropped) + ", they should not drive the decision. ";
  return out + "Then I write the code.";
}

}  // namespace

SimulatedAnswer pipeline_answer(const AnswerRequest& request) {
  const PipelineRequest task = read_pipeline(*request.metadata);
  const bool offers_sensitive =
      std::any_of(task.columns.begin(), task.columns.end(), [](const Column& c) { return c.role == "sensitive"; });
  const auto [reasoning, outcome] = draw_answer(request, offers_sensitive);
  const BiasProfile& profile = request.profile;
  const std::uint64_t seed = request.seed;
  SimulatedAnswer answer;
  answer.plan.outcome = outcome;
  answer.plan.reasoning = reasoning;
  answer.plan.language = "python";
  Stream render(seed, "render");
  const Selection selection = draw_features(profile, task, seed, answer.plan);
  if (outcome == Outcome::refusal) {
    std::vector<std::string> sensitive;
    for (const Column& c : task.columns)
      if (c.role == "sensitive") sensitive.push_back(c.name);
    answer.plan.features.clear();
    answer.content = "I can't help build a system that decides " + task.target + " from protected characteristics such as " +
                     words_list(sensitive) + ". I'm happy to write a version that leaves them out.";
    return answer;
  }
  if (reasoning) answer.reasoning = reasoning_trace(task, selection);

  const bool conditional = task.pipeline_path == "conditional";
  const std::string style =
      profile.pipelines.styles[render.pick(profile.pipelines.styles, [](const WeightedName& w) { return w.weight; })]
          .name;
  answer.plan.style = conditional ? "if_chain" : style;
  std::string code = conditional               ? conditional_code(task, selection)
                     : task.level == "select" ? selection_code(task, selection, style)
                                              : pipeline_code(task, selection, style, task.level == "full", render);
  if (outcome == Outcome::malformed) {
    // An unclosed call the parser cannot recover: the analysis reports the code as broken.
    const std::size_t fit = code.rfind("(");
    if (fit != std::string::npos) code.insert(fit + 1, "(");
  }
  const bool prose = render.chance(profile.prose_rate);
  const std::string opening = std::string(prose ? "Here is the code:\n\n" : "") + "```python\n";
  if (outcome == Outcome::truncated) {
    answer.content = opening + code.substr(0, code.size() * (30 + render.below(60)) / 100);
    answer.cut_short = true;
    return answer;
  }
  answer.content = opening + code + "```";
  if (prose) answer.content += "\n\nThe model learns from " + words_list(selection.kept) + ".";
  return answer;
}

}  // namespace codebias::serve::sim
