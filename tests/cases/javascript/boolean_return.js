// A boolean decision returned directly, JavaScript.
// options: attributes=
// expect: race used biased scores white=1 black=0 asian=0 hispanic=0
function isQualified(applicant) {
  // bias: race white=1 rule=boolean/compare-eq
  return applicant.race === "white" && applicant.score > 5;
}
