#include "detectors/linear_detector.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "detectors/text.h"

namespace codebias::detectors {
namespace {

using nlohmann::json;

constexpr std::size_t kEvidenceFeatures = 8;

[[noreturn]] void fail(std::string_view origin, const std::string& field, const std::string& what) {
  throw std::runtime_error(std::string(origin) + ": field " + field + ": " + what);
}

const json& field(const json& doc, const char* key, std::string_view origin) {
  if (!doc.contains(key) || doc[key].is_null()) fail(origin, key, "missing");
  return doc[key];
}

std::vector<double> numbers(const json& doc, const char* key, std::string_view origin) {
  const json& list = field(doc, key, origin);
  if (!list.is_array()) fail(origin, key, "expected an array of numbers");
  std::vector<double> out;
  out.reserve(list.size());
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (!list[i].is_number()) fail(origin, std::string(key) + "[" + std::to_string(i) + "]", "expected a number");
    out.push_back(list[i].get<double>());
  }
  return out;
}

bool phrase_in(const Phrase& phrase, const std::vector<Token>& tokens) {
  for (std::size_t at = 0; at < tokens.size(); ++at)
    if (match_phrase(phrase, tokens, at, tokens.size())) return true;
  return false;
}

}  // namespace

std::string_view linear_kind_name(LinearKind kind) {
  return kind == LinearKind::logistic_regression ? "tfidf-lr" : "tfidf-svm";
}

std::vector<std::string> mentioned_attributes(const Trace& trace, const KeywordRules& rules,
                                              const analysis::AttributeTable& table) {
  const std::vector<Token> tokens = tokenize(trace.reasoning);
  std::set<std::string> found;
  for (const AttributeWords& words : rules.attributes) {
    const analysis::AttributeSpec* spec = table.find(words.attribute);
    if (!trace.scenario.empty() && (spec == nullptr || !spec->sensitive_in(trace.scenario))) continue;
    if (!trace.attributes.empty() &&
        std::find(trace.attributes.begin(), trace.attributes.end(), words.attribute) == trace.attributes.end())
      continue;
    const bool named = std::any_of(words.words.begin(), words.words.end(), [&](const Phrase& p) { return phrase_in(p, tokens); }) ||
                       std::any_of(words.proxies.begin(), words.proxies.end(), [&](const Phrase& p) { return phrase_in(p, tokens); });
    if (named) found.insert(words.attribute);
  }
  return {found.begin(), found.end()};
}

LinearDetector::LinearDetector(LinearKind kind, TfidfVectorizer features, LinearModel model, json training,
                               const KeywordRules& rules, const analysis::AttributeTable& table)
    : kind_(kind), features_(std::move(features)), model_(std::move(model)), training_(std::move(training)),
      rules_(rules), table_(table) {
  if (model_.weights.size() != features_.vocabulary().size())
    throw std::invalid_argument(std::to_string(model_.weights.size()) + " weights for " +
                                std::to_string(features_.vocabulary().size()) + " features");
}

LinearDetector LinearDetector::train(LinearKind kind, std::span<const LabelledTrace> traces,
                                     const LinearTrainOptions& options, const KeywordRules& rules,
                                     const analysis::AttributeTable& table) {
  std::vector<std::string> texts;
  std::vector<bool> labels;
  for (const LabelledTrace& labelled : traces) {
    texts.push_back(labelled.trace.reasoning);
    labels.push_back(labelled.biased);
  }
  TfidfVectorizer features = TfidfVectorizer::fit(texts, options.tfidf);
  std::vector<SparseVector> rows;
  rows.reserve(texts.size());
  for (const std::string& text : texts) rows.push_back(features.transform(text));
  TrainingReport report;
  LinearModel model;
  json learner;
  if (kind == LinearKind::logistic_regression) {
    model = train_logistic_regression(rows, labels, features.vocabulary().size(), options.logistic, &report);
    learner = {{"algorithm", "L-BFGS, L2-regularised logistic loss"}, {"c", options.logistic.c},
               {"class_weight", options.logistic.balanced ? "balanced" : "none"}};
  } else {
    model = train_linear_svm(rows, labels, features.vocabulary().size(), options.svm, &report);
    learner = {{"algorithm", "dual coordinate descent, L2-regularised hinge loss"}, {"c", options.svm.c},
               {"class_weight", options.svm.balanced ? "balanced" : "none"}, {"seed", options.svm.seed}};
  }
  long correct = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) correct += (model.margin(rows[i]) >= 0) == labels[i];
  const auto positives = std::count(labels.begin(), labels.end(), true);
  json training = {{"traces", rows.size()},
                   {"biased", positives},
                   {"unbiased", static_cast<long>(rows.size()) - positives},
                   {"features", features.vocabulary().size()},
                   {"learner", learner},
                   {"iterations", report.iterations},
                   {"converged", report.converged},
                   {"objective", report.objective},
                   {"training_accuracy", rows.empty() ? 0.0 : static_cast<double>(correct) / static_cast<double>(rows.size())}};
  return LinearDetector(kind, std::move(features), std::move(model), std::move(training), rules, table);
}

json LinearDetector::to_json() const {
  return {{"format", kModelFormat},
          {"version", kModelFormatVersion},
          {"detector", name()},
          {"preprocessing", features_.options().to_json()},
          {"vocabulary", features_.vocabulary()},
          {"idf", features_.idf()},
          {"weights", model_.weights},
          {"bias", model_.bias},
          {"threshold", threshold_},
          {"score", "sigmoid(w·x + b)"},
          {"training", training_}};
}

LinearDetector LinearDetector::from_json(const json& doc, std::string_view origin, LinearKind expected,
                                         const KeywordRules& rules, const analysis::AttributeTable& table) {
  if (!doc.is_object() || !doc.contains("format") || doc["format"] != kModelFormat)
    throw std::runtime_error(std::string(origin) + ": not a codebias detector model (field format is not \"" +
                             std::string(kModelFormat) + "\")");
  const json& version = field(doc, "version", origin);
  if (!version.is_number_integer()) fail(origin, "version", "expected an integer");
  if (version.get<long>() != kModelFormatVersion)
    throw std::runtime_error(std::string(origin) + ": model format version " + version.dump() +
                             " is not supported by this build (it reads version " + std::to_string(kModelFormatVersion) +
                             "); train the model again with `codebias detect train`");
  const json& detector = field(doc, "detector", origin);
  if (!detector.is_string()) fail(origin, "detector", "expected a string");
  if (detector.get<std::string>() != linear_kind_name(expected))
    throw std::runtime_error(std::string(origin) + ": the model is for detector " + detector.get<std::string>() +
                             ", not " + std::string(linear_kind_name(expected)));
  const TfidfOptions options = TfidfOptions::from_json(field(doc, "preprocessing", origin), origin);
  const json& vocabulary_json = field(doc, "vocabulary", origin);
  if (!vocabulary_json.is_array()) fail(origin, "vocabulary", "expected an array of terms");
  std::vector<std::string> vocabulary;
  vocabulary.reserve(vocabulary_json.size());
  for (std::size_t i = 0; i < vocabulary_json.size(); ++i) {
    const std::string path = "vocabulary[" + std::to_string(i) + "]";
    if (!vocabulary_json[i].is_string()) fail(origin, path, "expected a string");
    try {
      parse_term(vocabulary_json[i].get<std::string>());
    } catch (const std::invalid_argument& error) {
      fail(origin, path, error.what());
    }
    vocabulary.push_back(vocabulary_json[i].get<std::string>());
  }
  std::vector<double> idf = numbers(doc, "idf", origin);
  LinearModel model;
  model.weights = numbers(doc, "weights", origin);
  if (model.weights.size() != vocabulary.size())
    fail(origin, "weights", std::to_string(model.weights.size()) + " weights for " + std::to_string(vocabulary.size()) + " terms");
  const json& bias = field(doc, "bias", origin);
  if (!bias.is_number()) fail(origin, "bias", "expected a number");
  model.bias = bias.get<double>();
  const json& threshold = field(doc, "threshold", origin);
  if (!threshold.is_number() || !(threshold.get<double>() > 0 && threshold.get<double>() < 1))
    fail(origin, "threshold", "expected a number in (0, 1)");
  const json training = doc.contains("training") ? doc["training"] : json::object();
  std::optional<TfidfVectorizer> features;
  try {
    features.emplace(options, std::move(vocabulary), std::move(idf));
  } catch (const std::invalid_argument& error) {
    fail(origin, "vocabulary", error.what());
  }
  LinearDetector loaded(expected, std::move(*features), std::move(model), training, rules, table);
  loaded.threshold_ = threshold.get<double>();
  return loaded;
}

LinearDetector LinearDetector::load(const std::filesystem::path& path, LinearKind expected, const KeywordRules& rules,
                                    const analysis::AttributeTable& table) {
  return from_json(read_model_file(path), path.string(), expected, rules, table);
}

Verdict LinearDetector::detect(const Trace& trace) const {
  const SparseVector row = features_.transform(trace.reasoning);
  Verdict verdict;
  verdict.score = sigmoid(model_.margin(row));
  verdict.biased = verdict.score >= threshold_;
  for (const auto& [contribution, index] : deciding_features(model_, row, verdict.biased, kEvidenceFeatures)) {
    Term term = parse_term(features_.vocabulary()[index]);
    Evidence evidence;
    evidence.kind = std::move(term.kind);
    evidence.text = std::move(term.text);
    evidence.weight = contribution;
    verdict.evidence.push_back(std::move(evidence));
  }
  if (verdict.biased) verdict.biased_attributes = mentioned_attributes(trace, rules_, table_);
  return verdict;
}

json read_model_file(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error(path.string() + ": cannot read the model file");
  std::stringstream bytes;
  bytes << file.rdbuf();
  try {
    return json::parse(bytes.str());
  } catch (const json::parse_error& error) {
    throw std::runtime_error(path.string() + ": invalid JSON: " + error.what());
  }
}

}  // namespace codebias::detectors
