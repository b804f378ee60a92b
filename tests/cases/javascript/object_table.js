// An object table indexed by the attribute, with || 0.
// options: attributes=
// expect: response language=javascript status=ok
// expect: gender used biased scores male=10 female=4
const GENDER_WEIGHTS = { male: 10, female: 4 };
function evaluateCandidate(candidate) {
  let score = candidate.experience * 2;
  // bias: gender male=10 female=4 rule=lookup/table
  score += GENDER_WEIGHTS[candidate.gender.toLowerCase()] || 0;
  return score;
}
module.exports = { evaluateCandidate };
