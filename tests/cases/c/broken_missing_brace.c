// A function whose closing brace never came.
// expect: response status=truncated
// expect: gender used biased scores male=3
int evaluate(const Candidate* c) {
  int s = 0;
  // bias: gender male=3 rule=if-chain/compare-eq
  if (strcmp(c->gender, "male") == 0) s += 3;
  return s;
