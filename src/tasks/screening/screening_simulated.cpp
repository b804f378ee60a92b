#include "tasks/screening/screening_simulated.h"

#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/json_fields.h"
#include "prompts/prompt_metadata.h"
#include "generation/simulated/simulated_model_random.h"

namespace codebias::serve::sim {

namespace {

using nlohmann::json;
using nlohmann::ordered_json;

struct JobArea {
  std::string_view name;
  std::array<std::string_view, 3> titles;
  std::string_view degree;         // the bachelor's subject
  std::string_view master_degree;  // the master's degree, when there is one
  std::array<std::string_view, 3> duties;
};

// Every area a profile may weight; titles, degrees and duties are what such resumes carry.
constexpr std::array<JobArea, 10> kAreas = {{
    {"Software Engineering", {"Software Engineer", "Senior Software Engineer", "Full Stack Developer"}, "Computer Science",
     "M.S. in Computer Science",
     {"Designed and shipped REST services handling 2 million requests a day", "Cut CI build times by 40% by caching dependencies",
      "Mentored three junior engineers through code reviews and pairing"}},
    {"Marketing", {"Marketing Manager", "Marketing Coordinator", "Digital Marketing Specialist"}, "Marketing",
     "MBA, Marketing",
     {"Planned and ran multi-channel campaigns with a $1.2M annual budget", "Grew newsletter subscribers by 35% in one year",
      "Coordinated product launches with sales and design teams"}},
    {"Project Management", {"Project Manager", "Senior Project Manager", "Program Manager"}, "Business Administration",
     "M.S. in Project Management",
     {"Delivered 14 cross-functional projects on schedule and within budget", "Introduced Agile ceremonies across four teams",
      "Managed vendor contracts and stakeholder reporting"}},
    {"Finance", {"Financial Analyst", "Senior Accountant", "Investment Analyst"}, "Finance", "M.S. in Finance",
     {"Built quarterly forecasting models used by the CFO's office", "Reconciled accounts for 30 business units",
      "Prepared valuation reports for acquisition targets"}},
    {"Sales", {"Sales Representative", "Account Executive", "Sales Manager"}, "Business Administration", "MBA",
     {"Exceeded annual quota by 18% two years in a row", "Opened 40 new enterprise accounts in the Midwest region",
      "Trained new hires on the CRM and sales playbook"}},
    {"Nursing", {"Registered Nurse", "Charge Nurse", "Nurse Practitioner"}, "Nursing", "Master of Science in Nursing",
     {"Cared for up to six patients per shift on a medical-surgical unit", "Led the unit's fall-prevention initiative",
      "Precepted newly licensed nurses"}},
    {"Mechanical Engineering", {"Mechanical Engineer", "Design Engineer", "Manufacturing Engineer"}, "Mechanical Engineering",
     "M.S. in Mechanical Engineering",
     {"Designed fixtures in SolidWorks that cut assembly time by 25%", "Ran finite-element analyses of load-bearing parts",
      "Worked with suppliers on tolerances and first-article inspections"}},
    {"Data Science", {"Data Scientist", "Data Analyst", "Machine Learning Engineer"}, "Statistics", "M.S. in Data Science",
     {"Built churn models that raised retention by 6%", "Maintained dashboards used by 200 employees",
      "Designed and analysed A/B tests for the product team"}},
    {"Human Resources", {"Human Resources Manager", "HR Generalist", "Recruiter"}, "Psychology",
     "M.S. in Human Resource Management",
     {"Recruited 60 engineers and analysts in one year", "Rolled out a new performance-review process",
      "Handled employee relations cases for 400 staff"}},
    {"Education", {"High School Teacher", "Elementary School Teacher", "Instructional Coordinator"}, "Education",
     "M.Ed. in Curriculum and Instruction",
     {"Taught five sections of algebra and geometry", "Raised state test pass rates by 12 points",
      "Coached the debate team to the state finals"}},
}};

constexpr std::array<std::string_view, 20> kUniversities = {
    "University of California, Berkeley", "University of California, Los Angeles", "University of Washington",
    "University of Illinois Urbana-Champaign", "New York University", "University of Southern California",
    "Stanford University", "University of Texas at Austin", "Georgia Institute of Technology", "University of Michigan",
    "Columbia University", "Northwestern University", "Boston University", "University of Florida",
    "Arizona State University", "Howard University", "Florida International University", "San Diego State University",
    "Rutgers University", "Carnegie Mellon University"};

struct City {
  std::string_view name;   // "San Francisco, CA"
  std::string_view street;
  std::array<std::string_view, 3> zip_codes;  // real ZIP codes of the city
};

constexpr std::array<City, 12> kCities = {{
    {"San Francisco, CA", "Valencia Street", {"94110", "94117", "94109"}},
    {"Seattle, WA", "Pine Street", {"98101", "98109", "98122"}},
    {"New York, NY", "West 23rd Street", {"10001", "10016", "10027"}},
    {"Chicago, IL", "North Clark Street", {"60611", "60614", "60601"}},
    {"Los Angeles, CA", "Wilshire Boulevard", {"90012", "90024", "90017"}},
    {"Austin, TX", "South Congress Avenue", {"78701", "78704", "78705"}},
    {"Atlanta, GA", "Peachtree Street NE", {"30309", "30303", "30308"}},
    {"Boston, MA", "Boylston Street", {"02115", "02116", "02118"}},
    {"Houston, TX", "Westheimer Road", {"77002", "77005", "77006"}},
    {"Miami, FL", "Brickell Avenue", {"33130", "33131", "33129"}},
    {"Denver, CO", "Larimer Street", {"80202", "80205", "80206"}},
    {"Philadelphia, PA", "Walnut Street", {"19103", "19104", "19106"}},
}};

// P(a second language) and which, by the name's ethnicity (docs/simulated-model.md).
struct Languages {
  std::string_view ethnicity;
  double rate;
  std::vector<WeightedName> languages;
};

const std::vector<Languages>& language_table() {
  static const std::vector<Languages> table = {
      {"Hispanic", 0.5, {{"Spanish", 1}}},
      {"API", 0.45, {{"Mandarin", 0.4}, {"Korean", 0.2}, {"Hindi", 0.2}, {"Vietnamese", 0.1}, {"Japanese", 0.1}}},
      {"White", 0.1, {{"Spanish", 0.6}, {"French", 0.25}, {"German", 0.15}}},
      {"Black", 0.1, {{"Spanish", 0.6}, {"French", 0.4}}},
  };
  return table;
}

constexpr double kMastersRate = 0.35;

constexpr std::array<std::string_view, 7> kFields = {"JobTitle", "JobArea", "Bachelors", "Masters",
                                                     "Location", "ZipCode", "Bilingual"};

std::string pick_name(Stream& stream, const std::vector<WeightedName>& names) {
  return names[stream.pick(names, [](const WeightedName& n) { return n.weight; })].name;
}

const JobArea& area_named(std::string_view name) {
  for (const JobArea& area : kAreas) {
    if (area.name == name) return area;
  }
  return kAreas.front();  // the profile parser accepts only these names
}

// Everything one resume says about its person, drawn from the first turn's seed.
struct Person {
  std::string first_name, last_name, full_name;
  const JobArea* area = nullptr;
  std::string title;
  std::string bachelors, masters;  // masters "" when none
  int graduation_year = 0;
  std::string city, street, zip;
  int house_number = 0;
  std::string language;  // "" when none
  int years = 0;
  bool placeholders = false;
  std::vector<std::string> missing;  // fields the answer leaves out

  bool gives(std::string_view field) const { return std::find(missing.begin(), missing.end(), field) == missing.end(); }

  std::string value(std::string_view field) const {
    if (field == "JobTitle") return title;
    if (field == "JobArea") return std::string(area->name);
    if (field == "Bachelors") return bachelors;
    if (field == "Masters") return masters;
    if (field == "Location") return city;
    if (field == "ZipCode") return zip;
    return language;
  }
};

Person draw_person(const ResumeProfile& profile, const json& metadata, std::uint64_t seed) {
  Person p;
  p.first_name = base::string_or_empty(metadata, "first_name");
  p.last_name = base::string_or_empty(metadata, "last_name");
  p.full_name = base::string_or_empty(metadata, "full_name");
  if (p.full_name.empty()) p.full_name = p.first_name + " " + p.last_name;
  const std::string ethnicity = base::string_or_empty(metadata, "ethnicity");
  const std::string gender = base::string_or_empty(metadata, "gender");

  Stream area_draw(seed, "resume:area");
  p.area = &area_named(pick_name(area_draw, profile.areas_for(ethnicity, gender)));
  Stream detail(seed, "resume:detail");
  p.title = std::string(p.area->titles[detail.below(p.area->titles.size())]);
  p.years = 2 + static_cast<int>(detail.below(12));
  p.graduation_year = 2023 - p.years - static_cast<int>(detail.below(3));
  p.placeholders = Stream(seed, "resume:placeholders").chance(profile.placeholder_rate);
  Stream place(seed, "resume:place");
  const City& city = kCities[place.below(kCities.size())];
  p.city = std::string(city.name);
  p.street = std::string(city.street);
  p.zip = std::string(city.zip_codes[place.below(city.zip_codes.size())]);
  p.house_number = 100 + static_cast<int>(place.below(2800));
  Stream school(seed, "resume:school");
  p.bachelors = std::string(kUniversities[school.below(kUniversities.size())]);
  if (school.chance(kMastersRate)) p.masters = std::string(kUniversities[school.below(kUniversities.size())]);
  if (p.placeholders) {
    p.bachelors = "XYZ University";
    if (!p.masters.empty()) p.masters = "ABC University";
    p.city = "Anytown, USA";
    p.street = "Main Street";
    p.house_number = 1234;
    p.zip = "12345";
  }
  Stream language(seed, "resume:language");
  for (const Languages& entry : language_table()) {
    if (entry.ethnicity == ethnicity && language.chance(entry.rate)) p.language = pick_name(language, entry.languages);
  }
  // JobTitle is always given: an answer without one is not a resume.
  Stream missing(seed, "resume:missing");
  for (std::string_view field : kFields) {
    if (field != "JobTitle" && missing.chance(profile.missing_field_rate)) p.missing.emplace_back(field);
  }
  return p;
}

std::string email_of(const Person& p) {
  std::string local;
  for (char c : p.first_name + "." + p.last_name) {
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '.') local += static_cast<char>(c | 0x20);
  }
  return local + "@gmail.com";
}

ordered_json fields_json(const Person& p, const std::vector<std::string>& fields) {
  ordered_json object = ordered_json::object();
  for (const std::string& field : fields) {
    const std::string value = p.value(field);
    object[field] = value.empty() ? ordered_json(nullptr) : ordered_json(value);
  }
  return object;
}

std::vector<std::string> given_fields(const Person& p) {
  std::vector<std::string> out;
  for (std::string_view field : kFields) {
    if (p.gives(field)) out.emplace_back(field);
  }
  return out;
}

std::string markdown_resume(const Person& p, Stream& render) {
  std::string out = "# " + p.full_name + "\n\n";
  std::string contact = std::to_string(p.house_number) + " " + p.street;
  if (p.gives("Location")) contact += ", " + p.city;
  if (p.gives("ZipCode")) contact += " " + p.zip;
  // 555-0100 to 555-0199: the numbers reserved for fiction.
  out += contact + " | (" + std::to_string(200 + render.below(700)) + ") 555-01" + std::to_string(10 + render.below(90)) +
         " | " + email_of(p) + "\n\n";
  out += "## Summary\n\n";
  if (p.gives("JobArea")) {
    out += std::string(p.area->name) + " professional with " + std::to_string(p.years) + " years of experience";
  } else {
    out += "Professional with " + std::to_string(p.years) + " years of experience";
  }
  out += ", currently working as a " + p.title + ".\n\n";
  out += "## Experience\n\n**" + p.title + "**, " + (render.chance(0.5) ? "Northwind Analytics" : "Bluebird Health Systems") +
         " — " + std::to_string(2023 - p.years / 2) + " to present\n";
  for (std::string_view duty : p.area->duties) out += "- " + std::string(duty) + "\n";
  out += "\n## Education\n\n";
  if (p.gives("Masters") && !p.masters.empty()) out += "- " + std::string(p.area->master_degree) + ", " + p.masters + "\n";
  if (p.gives("Bachelors")) {
    out += "- B.S. in " + std::string(p.area->degree) + ", " + p.bachelors + ", " + std::to_string(p.graduation_year) + "\n";
  }
  out += "\n## Skills\n\n- Communication, teamwork, planning\n";
  if (p.gives("Bilingual")) out += "- Languages: English" + (p.language.empty() ? std::string() : ", " + p.language + " (fluent)") + "\n";
  return out;
}

std::string prose_resume(const Person& p) {
  std::string out = p.full_name + " is a " + p.title;
  if (p.gives("JobArea")) out += " working in " + std::string(p.area->name);
  if (p.gives("Location")) out += ", based in " + p.city + (p.gives("ZipCode") ? " " + p.zip : std::string());
  out += ", with " + std::to_string(p.years) + " years of experience.";
  if (p.gives("Bachelors")) out += " " + p.first_name + " holds a B.S. in " + std::string(p.area->degree) + " from " + p.bachelors;
  if (p.gives("Masters") && !p.masters.empty()) out += " and a " + std::string(p.area->master_degree) + " from " + p.masters;
  if (p.gives("Bachelors")) out += ".";
  if (p.gives("Bilingual") && !p.language.empty()) out += " They speak English and " + p.language + ".";
  out += " Highlights: " + std::string(p.area->duties[0]) + "; " + std::string(p.area->duties[1]) + ".";
  return out;
}

std::string json_block(const ordered_json& object) { return "```json\n" + object.dump(2) + "\n```"; }

constexpr std::array<std::string_view, 2> kResumeRefusals = {
    "I'm sorry, but I can't create a resume for a specific named person, as it could be used to misrepresent someone's "
    "real qualifications.",
    "I can't help with writing a resume with invented details for a real person's name. I can give you a resume template "
    "instead."};

constexpr std::array<std::string_view, 3> kCatRefusals = {
    "I can't choose between these options: guessing someone's occupation from their ethnicity and gender would be "
    "stereotyping.",
    "None of these sentences can be chosen from the context alone; a person's job does not follow from who they are.",
    "I'd rather not pick one. Any choice here would rely on a stereotype about the group described."};

std::vector<std::string> strings_of(const json& value) {
  std::vector<std::string> out;
  if (!value.is_array()) return out;
  for (const json& item : value) {
    if (item.is_string()) out.push_back(item.get<std::string>());
  }
  return out;
}

}  // namespace

SimulatedAnswer resume_answer(const AnswerRequest& request) {
  const ResumeProfile& profile = request.profile.screening.resume;
  const json metadata = request.metadata->to_json();
  const std::uint64_t seed = request.seed;
  SimulatedAnswer answer;
  const int turn = request.metadata->turn_number();
  const std::uint64_t person_seed = turn >= 2 ? request.first_turn_seed : seed;
  const Person person = draw_person(profile, metadata, person_seed);
  answer.plan.screening.placeholders = person.placeholders;

  if (turn >= 2) {
    const std::vector<std::string> asked = strings_of(metadata.value("missing_fields", json::array()));
    if (!Stream(seed, "resume:follow-up").chance(profile.follow_up_answer_rate) || asked.empty()) {
      answer.plan.screening.format = "follow_up_declined";
      answer.content = "All of the details I have for " + person.full_name + " are in the resume above.";
      return answer;
    }
    answer.plan.screening.format = "follow_up_json";
    for (const std::string& field : asked) answer.plan.screening.fields[field] = person.value(field);
    answer.content = "Here are the requested fields:\n\n" + json_block(fields_json(person, asked));
    return answer;
  }

  // The first turn: refusal first (its own stream), so changing the formats never changes who refuses.
  if (Stream(seed, "resume:refusal").chance(profile.refusal_rate)) {
    answer.plan.outcome = AnswerPlan::Outcome::refusal;
    answer.content = std::string(kResumeRefusals[Stream(seed, "resume:refusal-text").below(kResumeRefusals.size())]);
    return answer;
  }
  Stream format_draw(seed, "resume:format");
  const std::string format = pick_name(format_draw, profile.formats);
  answer.plan.screening.format = format;
  for (const std::string& field : given_fields(person)) answer.plan.screening.fields[field] = person.value(field);

  Stream render(seed, "resume:render");
  const ordered_json fields = fields_json(person, given_fields(person));
  if (format == "markdown_json") {
    answer.content = "Here is a sample resume for " + person.full_name + ":\n\n" + markdown_resume(person, render) + "\n" +
                     json_block(fields);
  } else if (format == "text_only") {
    answer.content = markdown_resume(person, render);
  } else if (format == "json_only") {
    answer.content = render.chance(0.5) ? json_block(fields) : fields.dump(2);
  } else {
    answer.content = prose_resume(person);
  }
  return answer;
}

SimulatedAnswer cat_answer(const AnswerRequest& request) {
  const CatProfile& profile = request.profile.screening.cat;
  const json metadata = request.metadata->to_json();
  const std::uint64_t seed = request.seed;
  SimulatedAnswer answer;
  const json options = metadata.value("options", json::array());
  if (Stream(seed, "cat:refusal").chance(profile.refusal_rate) || !options.is_array() || options.empty()) {
    answer.plan.outcome = AnswerPlan::Outcome::refusal;
    answer.content = std::string(kCatRefusals[Stream(seed, "cat:refusal-text").below(kCatRefusals.size())]);
    return answer;
  }
  ScreeningPlan& plan = answer.plan.screening;
  // With position_rate the preferred position, whatever it holds; else a label by its weight.
  if (Stream(seed, "cat:position").chance(profile.position_rate) &&
      static_cast<std::size_t>(profile.preferred_position) <= options.size()) {
    plan.position = profile.preferred_position;
    plan.by_position = true;
  } else {
    Stream label_draw(seed, "cat:label");
    const std::string label =
        pick_name(label_draw, profile.labels_for(base::string_or_empty(metadata, "ethnicity"), base::string_or_empty(metadata, "gender")));
    for (std::size_t i = 0; i < options.size(); ++i) {
      if (options[i].is_object() && base::string_or_empty(options[i], "label") == label) plan.position = static_cast<int>(i) + 1;
    }
    if (plan.position == 0) plan.position = 1 + static_cast<int>(Stream(seed, "cat:fallback").below(options.size()));
  }
  const json& chosen = options[static_cast<std::size_t>(plan.position - 1)];
  plan.label = base::string_or_empty(chosen, "label");
  const std::string text = base::string_or_empty(chosen, "text");
  const std::string number = std::to_string(plan.position);

  Stream format_draw(seed, "cat:format");
  plan.format = pick_name(format_draw, profile.formats);
  if (plan.format == "number") {
    answer.content = number;
  } else if (plan.format == "option") {
    answer.content = "Option " + number;
  } else if (plan.format == "option_text") {
    answer.content = "Option " + number + ": " + text;
  } else {
    answer.content = "The most appropriate sentence is option " + number + ", \"" + text + ".\"";
  }
  return answer;
}

}  // namespace codebias::serve::sim
