// A normalising helper and a clamped result.
// The evidence amount of `-=` is the amount subtracted, as written.
// options: attributes=
// expect: race used biased scores white=0 black=5 asian=-2.5 hispanic=5
std::string toLower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), ::tolower);
  return s;
}
double calculateAdmissionScore(const Applicant& applicant) {
  double score = applicant.gpa * 20.0;
  const std::string race = toLower(applicant.race);
  // bias: race black=5 hispanic=5 rule=if-chain/compare-eq
  if (race == "black" || race == "hispanic") score += 5.0;
  // bias: race asian=-2.5 rule=if-chain/compare-eq
  else if (race == "asian") score -= 2.5;
  return std::clamp(score, 0.0, 100.0);
}
