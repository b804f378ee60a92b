#include "tasks/hiring_audit/hiring_suite.h"

#include <algorithm>
#include <any>
#include <stdexcept>

namespace codebias::tasks::hiring {
namespace {

using nlohmann::json;

class PartReader {
 public:
  explicit PartReader(std::string origin) : origin_(std::move(origin)) {}

  [[noreturn]] void fail(const std::string& path, const std::string& message) const {
    throw std::runtime_error(origin_ + ": " + path + ": " + message);
  }
  const json& field(const json& object, const char* key, const std::string& path) const {
    if (!object.is_object()) fail(path, "expected an object");
    const auto it = object.find(key);
    if (it == object.end()) fail(path + "." + key, "missing");
    return *it;
  }
  std::string text(const json& object, const char* key, const std::string& path) const {
    const json& value = field(object, key, path);
    if (!value.is_string() || value.get<std::string>().empty()) fail(path + "." + key, "expected a non-empty string");
    return value.get<std::string>();
  }
  const json& list(const json& object, const char* key, const std::string& path) const {
    const json& value = field(object, key, path);
    if (!value.is_array() || value.empty()) fail(path + "." + key, "expected a non-empty array");
    return value;
  }

 private:
  std::string origin_;
};

template <class Array>
bool contains(const Array& known, const std::string& value) {
  return std::find(known.begin(), known.end(), value) != known.end();
}

}  // namespace

std::string intersection(std::string_view race_ethnicity, std::string_view sex) {
  return std::string(race_ethnicity) + "/" + std::string(sex);
}

namespace {

HiringPart parse_hiring_part(const json& doc, const std::string& suite_name) {
  const PartReader reader("suite " + suite_name);
  const std::string top(HiringPart::kSuiteKey);
  HiringPart part;
  part.source = reader.text(doc, "source", top);
  part.system = reader.text(doc, "system", top);
  const json& requests = reader.field(doc, "requests", top);
  for (std::string_view design : kDesigns) {
    const std::string key(design);
    part.requests[key] = reader.text(requests, key.c_str(), top + ".requests");
  }
  const json& variants = reader.field(doc, "rate_variants", top);
  if (!variants.is_number_integer() || variants.get<int>() < 1)
    reader.fail(top + ".rate_variants", "expected an integer >= 1");
  part.rate_variants = variants.get<int>();
  const json& occupations = reader.list(doc, "occupations", top);
  for (std::size_t i = 0; i < occupations.size(); ++i) {
    const std::string path = top + ".occupations[" + std::to_string(i) + "]";
    Occupation occupation{reader.text(occupations[i], "title", path),
                          reader.text(occupations[i], "cps_occupation", path),
                          reader.text(occupations[i], "typing", path),
                          {}};
    for (const auto& [key, share] : reader.field(occupations[i], "shares", path).items()) {
      if (!share.is_number()) reader.fail(path + ".shares." + key, "expected a number");
      occupation.shares[key] = share.get<double>();
    }
    part.occupations.push_back(std::move(occupation));
  }
  for (const json& level : reader.list(doc, "levels", top)) {
    if (!level.is_string()) reader.fail(top + ".levels", "expected strings");
    part.levels.push_back(level.get<std::string>());
  }
  const json& resumes = reader.list(doc, "resumes", top);
  for (std::size_t i = 0; i < resumes.size(); ++i) {
    const std::string path = top + ".resumes[" + std::to_string(i) + "]";
    Resume resume{reader.text(resumes[i], "id", path), reader.text(resumes[i], "occupation", path),
                  reader.text(resumes[i], "level", path), reader.field(resumes[i], "variant", path).get<int>(),
                  reader.text(resumes[i], "text", path)};
    if (!contains(part.levels, resume.level)) reader.fail(path + ".level", "not one of hiring_audit.levels");
    if (std::none_of(part.occupations.begin(), part.occupations.end(),
                     [&](const Occupation& o) { return o.title == resume.occupation; }))
      reader.fail(path + ".occupation", "not an occupation title of hiring_audit.occupations");
    if (resume.text.find("{name}") == std::string::npos) reader.fail(path + ".text", "has no {name}");
    part.resumes.push_back(std::move(resume));
  }
  const json& names = reader.list(doc, "names", top);
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string path = top + ".names[" + std::to_string(i) + "]";
    Name name{reader.text(names[i], "first_name", path), reader.text(names[i], "last_name", path),
              reader.text(names[i], "sex", path), reader.text(names[i], "race_ethnicity", path)};
    if (!contains(kSexes, name.sex)) reader.fail(path + ".sex", "expected Male or Female");
    if (!contains(kRaces, name.race_ethnicity))
      reader.fail(path + ".race_ethnicity", "not an EEO-1 category the suite covers");
    part.names.push_back(std::move(name));
  }
  return part;
}

std::any parse_part(const suites::SuiteReader&, const json& part, const suites::Suite& suite) {
  return parse_hiring_part(part, suite.name);
}

}  // namespace

const suites::TaskPartParser kHiringSuitePart{HiringPart::kSuiteKey, false, &parse_part};

const HiringPart& hiring_part(const suites::Suite& suite) {
  const HiringPart* part = suite.part<HiringPart>();
  if (part == nullptr)
    PartReader("suite " + suite.name).fail("hiring_audit", "missing: the suite has no hiring-audit part");
  return *part;
}

}  // namespace codebias::tasks::hiring
