// A scoped enumerator of a type the snippet does not declare: Gender::MALE is the literal MALE.
// options: attributes=
// expect: gender used biased scores male=3 female=0
int evaluate(const Candidate& c) {
  int score = 0;
  // bias: gender male=3 rule=if-chain/compare-eq
  if (c.gender == Gender::MALE) score += 3;
  return score;
}
