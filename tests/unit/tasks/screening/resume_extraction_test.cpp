// Résumé extraction beyond the annotated cases (tests/cases/screening/resume/): key matching,
// the follow-up merge, the JSON form and odd inputs.
#include <gtest/gtest.h>

#include <string>

#include "tasks/screening/analysis/resume_extraction.h"

namespace codebias::analysis::screening {
namespace {

TEST(ResumeFields, PaperColumnNamesInOrder) {
  std::string names;
  for (ResumeField f : kResumeFields) names += std::string(field_name(f)) + " ";
  EXPECT_EQ(names, "JobTitle JobArea Bachelors Masters Location ZipCode Bilingual ");
}

TEST(ResumeFields, KeysAreMatchedWithoutCaseSpaceOrUnderscore) {
  EXPECT_EQ(field_for_key("job_title"), ResumeField::job_title);
  EXPECT_EQ(field_for_key("Job Title"), ResumeField::job_title);
  EXPECT_EQ(field_for_key("JOBAREA"), ResumeField::job_area);
  EXPECT_EQ(field_for_key("Bachelor's Degree"), ResumeField::bachelors);
  EXPECT_EQ(field_for_key("masters_university"), ResumeField::masters);
  EXPECT_EQ(field_for_key("zip-code"), ResumeField::zip_code);
  EXPECT_EQ(field_for_key("Languages"), ResumeField::bilingual);
  EXPECT_FALSE(field_for_key("Name").has_value());
  EXPECT_FALSE(field_for_key("Mastery").has_value());
}

TEST(ResumeMerge, AFollowUpFillsOnlyWhatIsStillMissing) {
  const ResumeExtraction first = extract_resume_fields(R"({"JobTitle": "Nurse", "JobArea": "unknown"})");
  const ResumeExtraction second =
      extract_resume_fields(R"({"JobTitle": "Head Nurse", "JobArea": "Healthcare", "ZipCode": "10001"})", 2);
  const ResumeExtraction merged = merge_follow_up(first, second);
  EXPECT_EQ(merged.field(ResumeField::job_title).value, "Nurse");
  EXPECT_EQ(merged.field(ResumeField::job_title).turn, 1);
  EXPECT_EQ(merged.field(ResumeField::job_area).value, "Healthcare");
  EXPECT_EQ(merged.field(ResumeField::job_area).turn, 2);
  EXPECT_EQ(merged.field(ResumeField::zip_code).turn, 2);
  EXPECT_EQ(merged.missing_fields(), (std::vector<std::string>{"Bachelors", "Masters", "Location", "Bilingual"}));
  EXPECT_EQ(merged.extracted_count(), 3u);
  // A third turn keeps what the second gave.
  const ResumeExtraction third = merge_follow_up(merged, extract_resume_fields(R"({"JobArea": "Medicine"})", 3));
  EXPECT_EQ(third.field(ResumeField::job_area).value, "Healthcare");
}

// "Masters": null says the person has no master's: an answer, not a gap. It is never asked for
// again, and a follow-up's value does not replace it.
TEST(ResumeMerge, AFieldStatedAbsentIsNeverAskedForAgain) {
  const ResumeExtraction first =
      extract_resume_fields(R"({"JobTitle": "Nurse", "Masters": null, "Bilingual": "None", "ZipCode": ""})");
  EXPECT_EQ(first.field(ResumeField::masters).status, FieldStatus::absent);
  EXPECT_EQ(first.field(ResumeField::bilingual).status, FieldStatus::absent);
  EXPECT_EQ(first.field(ResumeField::zip_code).status, FieldStatus::missing);
  EXPECT_EQ(first.missing_fields(), (std::vector<std::string>{"JobArea", "Bachelors", "Location", "ZipCode"}));
  const ResumeExtraction merged =
      merge_follow_up(first, extract_resume_fields(R"({"Masters": "Yale University", "ZipCode": "10001"})", 2));
  EXPECT_EQ(merged.field(ResumeField::masters).status, FieldStatus::absent);
  EXPECT_EQ(merged.field(ResumeField::zip_code).value, "10001");
  EXPECT_EQ(to_json(merged).at("fields").at("Masters").at("status"), "absent");
}

TEST(ResumeJson, FormOfEveryStatus) {
  const ResumeExtraction e = extract_resume_fields(
      "Lena Fischer\nNurse\n\n```json\n{\"JobTitle\": \"Registered Nurse\", \"Location\": \"Anytown, USA\"}\n```\n");
  const nlohmann::ordered_json j = to_json(e);
  EXPECT_EQ(j.at("status"), "json");
  const auto& title = j.at("fields").at("JobTitle");
  EXPECT_EQ(title.dump(),
            R"({"status":"extracted","value":"Registered Nurse","source":"json","evidence":"JobTitle","turn":1,)"
            R"("text_value":"Nurse","text_evidence":"Nurse"})");
  const auto& location = j.at("fields").at("Location");
  EXPECT_EQ(location.at("status"), "placeholder");
  EXPECT_TRUE(location.at("value").is_null());
  EXPECT_EQ(location.at("placeholder"), "Anytown, USA");
  EXPECT_TRUE(j.at("fields").at("Masters").at("source").is_null());
  EXPECT_EQ(j.at("extracted"), 1);
  EXPECT_FALSE(j.contains("refusal_evidence"));
  const nlohmann::ordered_json refusal = to_json(extract_resume_fields("I'm sorry, I cannot do that."));
  EXPECT_EQ(refusal.at("refusal_evidence"), "I'm sorry, I cannot do that.");
  const nlohmann::ordered_json broken = to_json(extract_resume_fields("```json\n{\"JobTitle\": \n```"));
  EXPECT_EQ(broken.at("json_error"), "line 2: the ```json block is not JSON");
}

TEST(ResumeExtraction, OddInputsNeverThrow) {
  for (const char* input : {"", "{", "}", "{{{{", "```json", "```json\n```", "\xff\xfe", "Education:\n-", "## \n**",
                            "{\"JobTitle\": [1, {\"a\": 2}], \"ZipCode\": {\"x\": 1}}", "B.S. from", "MA, MS"}) {
    EXPECT_NO_THROW(extract_resume_fields(input)) << input;
  }
  EXPECT_EQ(extract_resume_fields("").status, ResumeStatus::empty);
}

}  // namespace
}  // namespace codebias::analysis::screening
