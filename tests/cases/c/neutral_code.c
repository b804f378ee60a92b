// Code that decides on no attribute: none is reported when none is offered.
// options: attributes=
// expect: response status=ok
// expect: gender absent
int evaluate(const Candidate* c) {
  int s = 0;
  if (c->years > 5) s += 10;
  return s;
}
