#include "tasks/screening/screening_suite.h"

#include <any>
#include <set>
#include <string>
#include <utility>

#include "suites/suite_reader.h"

namespace codebias::suites {

const CatItem* CatPart::find_item(std::string_view id) const {
  for (const auto& item : items) {
    if (item.id == id) return &item;
  }
  return nullptr;
}

std::string_view to_string(CatLabel label) {
  switch (label) {
    case CatLabel::stereotype: return "stereotype";
    case CatLabel::anti_stereotype: return "anti-stereotype";
    case CatLabel::neutral: return "neutral";
  }
  return "neutral";
}

}  // namespace codebias::suites

namespace codebias::tasks {
namespace {

using nlohmann::json;
using namespace suites;

NameSelectionRules name_rules(const SuiteReader& reader, const json& object, const std::string& path) {
  reader.check_object(
      object, path,
      {"list", "names_per_group", "first_name_share", "gender_probability", "surname_share", "step", "floor"});
  NameSelectionRules rules;
  const std::string list = reader.optional_string(object, "list", path);
  if (!list.empty()) {
    if (list != "selected" && list != "paper")
      reader.fail(path + ".list", "expected \"selected\" or \"paper\", got \"" + list + "\"");
    rules.list = list;
  }
  rules.names_per_group = reader.positive_int_field(object, "names_per_group", path, rules.names_per_group);
  rules.first_name_share = reader.fraction_field(object, "first_name_share", path, rules.first_name_share);
  rules.gender_probability = reader.fraction_field(object, "gender_probability", path, rules.gender_probability);
  rules.surname_share = reader.fraction_field(object, "surname_share", path, rules.surname_share);
  rules.step = reader.fraction_field(object, "step", path, rules.step);
  if (rules.step == 0) reader.fail(path + ".step", "must be above 0");
  rules.floor = reader.fraction_field(object, "floor", path, rules.floor);
  for (auto [name, value] :
       {std::pair{"first_name_share", rules.first_name_share}, std::pair{"surname_share", rules.surname_share}}) {
    if (rules.floor > value) reader.fail(path + ".floor", std::string("must not exceed ") + name);
  }
  return rules;
}

ResumePart resume(const SuiteReader& reader, const json& object, const std::string& path) {
  reader.check_object(object, path, {"source", "request", "fields", "follow_up", "names"});
  ResumePart part;
  part.source = reader.string_field(object, "source", path);
  part.request = reader.string_field(object, "request", path);
  reader.check_template(part.request, path + ".request", {{"full_name", ""}, {"first_name", ""}, {"last_name", ""}});
  if (part.request.find("{full_name}") == std::string::npos && part.request.find("{first_name}") == std::string::npos) {
    reader.fail(path + ".request", "must name the person: {full_name} or {first_name}");
  }
  part.fields = reader.strings(object, "fields", path);
  const json& follow_up = reader.require(object, "follow_up", path);
  const std::string follow_path = path + ".follow_up";
  reader.check_object(follow_up, follow_path, {"max_turns", "text"});
  part.follow_up.max_turns = reader.positive_int_field(follow_up, "max_turns", follow_path, part.follow_up.max_turns);
  part.follow_up.text = reader.string_field(follow_up, "text", follow_path);
  reader.check_template(part.follow_up.text, follow_path + ".text", {{"fields", ""}});
  if (part.follow_up.text.find("{fields}") == std::string::npos)
    reader.fail(follow_path + ".text", "must name the missing fields: {fields}");
  if (const json* names = reader.find(object, "names")) part.names = name_rules(reader, *names, path + ".names");
  return part;
}

CatLabel cat_label(const SuiteReader& reader, const json& object, const std::string& path) {
  const std::string label = reader.string_field(object, "label", path);
  if (label == "stereotype") return CatLabel::stereotype;
  if (label == "anti-stereotype") return CatLabel::anti_stereotype;
  if (label == "neutral") return CatLabel::neutral;
  reader.fail(path + ".label", "expected \"stereotype\", \"anti-stereotype\" or \"neutral\", got \"" + label + "\"");
}

CatItem cat_item(const SuiteReader& reader, const json& object, const std::string& path) {
  reader.check_object(object, path,
                      {"id", "source", "gender", "ethnicity", "domain", "target", "context", "options", "evidence"});
  CatItem item;
  item.id = reader.string_field(object, "id", path);
  item.source = reader.string_field(object, "source", path);
  item.gender = reader.one_of(object, "gender", path, {"Male", "Female"});
  item.ethnicity = reader.one_of(object, "ethnicity", path, {"White", "Black", "API", "Hispanic"});
  item.domain = reader.string_field(object, "domain", path);
  item.target = reader.string_field(object, "target", path);
  item.context = reader.string_field(object, "context", path);
  item.evidence = reader.optional_string(object, "evidence", path);
  const json& options = reader.array_field(object, "options", path);
  std::set<CatLabel> labels;
  std::set<std::string> texts;
  for (std::size_t i = 0; i < options.size(); ++i) {
    const std::string here = path + ".options[" + std::to_string(i) + "]";
    reader.check_object(options[i], here, {"text", "occupation", "label", "cps_occupation", "representation"});
    CatOption option;
    option.text = reader.string_field(options[i], "text", here);
    option.occupation = reader.string_field(options[i], "occupation", here);
    option.label = cat_label(reader, options[i], here);
    option.cps_occupation = reader.optional_string(options[i], "cps_occupation", here);
    if (const json* ratio = reader.find(options[i], "representation")) {
      option.representation = reader.number_at(*ratio, here + ".representation");
      if (*option.representation < 0) reader.fail(here + ".representation", "must not be negative");
    }
    if (!labels.insert(option.label).second)
      reader.fail(here + ".label", "a second " + std::string(to_string(option.label)) + " option");
    if (!texts.insert(option.text).second) reader.fail(here + ".text", "duplicate option text");
    item.options.push_back(std::move(option));
  }
  if (item.options.size() != 3)
    reader.fail(path + ".options", "expected 3 options (stereotype, anti-stereotype, neutral)");
  return item;
}

CatPart cat(const SuiteReader& reader, const json& object, const std::string& path) {
  reader.check_object(object, path, {"source", "question", "items"});
  CatPart part;
  part.source = reader.string_field(object, "source", path);
  part.question = reader.string_field(object, "question", path);
  reader.check_template(part.question, path + ".question",
                        {{"domain", ""}, {"target", ""}, {"context", ""}, {"options", ""}});
  for (std::string_view slot : {"{context}", "{options}"}) {
    if (part.question.find(slot) == std::string::npos)
      reader.fail(path + ".question", "must show " + std::string(slot));
  }
  const json& items = reader.array_field(object, "items", path);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string here = path + ".items[" + std::to_string(i) + "]";
    CatItem item = cat_item(reader, items[i], here);
    if (part.find_item(item.id) != nullptr) reader.fail(here + ".id", "duplicate item '" + item.id + "'");
    part.items.push_back(std::move(item));
  }
  return part;
}

std::any parse_resume_part(const SuiteReader& reader, const json& part, const Suite&) {
  return resume(reader, part, std::string(ResumePart::kSuiteKey));
}

std::any parse_cat_part(const SuiteReader& reader, const json& part, const Suite&) {
  return cat(reader, part, std::string(CatPart::kSuiteKey));
}

}  // namespace

const suites::TaskPartParser kResumeSuitePart{ResumePart::kSuiteKey, false, &parse_resume_part};
const suites::TaskPartParser kCatSuitePart{CatPart::kSuiteKey, false, &parse_cat_part};

}  // namespace codebias::tasks
