#include "tasks/hiring_audit/hiring_prompts.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <string>

#include "tasks/hiring_audit/hiring_suite.h"

namespace codebias::tasks::hiring {
namespace {

using nlohmann::json;

struct Group {
  std::string sex;
  std::string race_ethnicity;
  std::vector<const Name*> names;
};

std::vector<Group> groups_of(const HiringPart& part) {
  std::vector<Group> groups;
  for (std::string_view race : kRaces)
    for (std::string_view sex : kSexes) {
      Group group{std::string(sex), std::string(race), {}};
      for (const Name& name : part.names)
        if (name.sex == sex && name.race_ethnicity == race) group.names.push_back(&name);
      if (group.names.empty())
        throw std::runtime_error("suite hiring_audit.names: no name for " + intersection(race, sex));
      groups.push_back(std::move(group));
    }
  return groups;
}

std::string slug(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return std::isalnum(c) ? std::tolower(c) : '-'; });
  return text;
}

std::string replaced(std::string text, std::string_view key, const std::string& value) {
  for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + value.size()))
    text.replace(at, key.size(), value);
  return text;
}

struct Placed {
  const Resume* resume;
  const Group* group;
  const Name* name;
};

prompts::Prompt make_prompt(const suites::Suite& suite, const HiringPart& part, const std::string& design,
                            const std::string& id, const std::vector<Placed>& slate, std::uint64_t seed) {
  const Resume& first = *slate.front().resume;
  const auto occupation = std::find_if(part.occupations.begin(), part.occupations.end(),
                                       [&](const Occupation& o) { return o.title == first.occupation; });
  std::string resumes;
  json candidates = json::array();
  for (std::size_t i = 0; i < slate.size(); ++i) {
    const Placed& placed = slate[i];
    const std::string full_name = placed.name->first_name + " " + placed.name->last_name;
    const std::string text = replaced(placed.resume->text, "{name}", full_name);
    if (!resumes.empty()) resumes += "\n\n";
    resumes += slate.size() > 1 ? "Candidate " + std::to_string(i + 1) + ":\n" + text : text;
    candidates.push_back({{"position", i + 1},
                          {"name", full_name},
                          {"sex", placed.group->sex},
                          {"race_ethnicity", placed.group->race_ethnicity},
                          {"resume_id", placed.resume->id},
                          {"level", placed.resume->level}});
  }
  std::string request = replaced(part.requests.at(design), "{occupation}", first.occupation);
  request = replaced(std::move(request), "{count}", std::to_string(slate.size()));
  request = replaced(std::move(request), "{resumes}", resumes);
  prompts::Prompt prompt;
  prompt.id = id;
  prompt.messages = {{"system", part.system}, {"user", request}};
  prompt.metadata = json{{"suite", suite.name},
                         {"task", "hiring-audit"},
                         {"design", design},
                         {"seed", seed},
                         {"occupation", first.occupation},
                         {"cps_occupation", occupation->cps_occupation},
                         {"occupation_typing", occupation->typing},
                         {"cps_shares", occupation->shares},
                         {"level", first.level},
                         {"candidates", std::move(candidates)}};
  return prompt;
}

// Each rate / advance résumé under one name of every group; the name rotates with the résumé.
void add_single_prompts(const suites::Suite& suite, const HiringPart& part, const std::vector<Group>& groups,
                        const std::string& design, std::uint64_t seed, std::vector<prompts::Prompt>& out) {
  std::size_t index = 0;
  for (const Resume& resume : part.resumes) {
    if (resume.variant > part.rate_variants) continue;
    for (const Group& group : groups) {
      const Name* name = group.names[(seed + index) % group.names.size()];
      out.push_back(make_prompt(
          suite, part, design,
          "hiring-audit/" + design + "/" + resume.id + "/" + slug(intersection(group.race_ethnicity, group.sex)),
          {{&resume, &group, name}}, seed));
    }
    ++index;
  }
}

// Per occupation x level, one slate per rotation r: position p holds group (p + r) and résumé
// variant (2p + r), so every group holds every position and sees every variant once.
void add_pick_prompts(const suites::Suite& suite, const HiringPart& part, const std::vector<Group>& groups,
                      std::uint64_t seed, std::vector<prompts::Prompt>& out) {
  const std::size_t k = groups.size();
  for (const Occupation& occupation : part.occupations)
    for (const std::string& level : part.levels) {
      std::vector<const Resume*> variants;
      for (const Resume& resume : part.resumes)
        if (resume.occupation == occupation.title && resume.level == level) variants.push_back(&resume);
      if (variants.empty()) continue;
      for (std::size_t r = 0; r < k; ++r) {
        std::vector<Placed> slate;
        for (std::size_t p = 0; p < k; ++p) {
          const Group& group = groups[(p + r) % k];
          slate.push_back(
              {variants[(2 * p + r) % variants.size()], &group, group.names[(seed + r) % group.names.size()]});
        }
        out.push_back(make_prompt(
            suite, part, "pick",
            "hiring-audit/pick/" + slug(occupation.title) + "/" + level + "/r" + std::to_string(r + 1), slate, seed));
      }
    }
}

}  // namespace

std::vector<prompts::Prompt> build_hiring_prompts(const suites::Suite& suite, const prompts::PromptOptions& options) {
  for (const std::string& design : options.designs)
    if (std::find(kDesigns.begin(), kDesigns.end(), design) == kDesigns.end())
      throw std::invalid_argument("--design must be rate, advance or pick, not \"" + design + "\"");
  const HiringPart& part = hiring_part(suite);
  const std::vector<Group> groups = groups_of(part);
  std::vector<prompts::Prompt> out;
  for (std::string_view design : kDesigns) {
    const std::string name(design);
    if (!options.designs.empty() &&
        std::find(options.designs.begin(), options.designs.end(), name) == options.designs.end())
      continue;
    if (name == "pick")
      add_pick_prompts(suite, part, groups, options.seed, out);
    else
      add_single_prompts(suite, part, groups, name, options.seed, out);
  }
  if (options.limit && out.size() > *options.limit) out.resize(*options.limit);
  return out;
}

}  // namespace codebias::tasks::hiring
