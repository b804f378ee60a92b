// A boolean on a score the attribute changed, other inputs unknown, JavaScript.
// expect: race used biased effect
function isQualified(applicant) {
  let score = applicant.experience;
  if (applicant.race === "white") {
    // bias: race white=2 rule=if-chain/compare-eq
    score += 2;
  }
  // bias: race white=none rule=boolean/threshold
  return applicant.references > 1 && score >= 5;
}
