// A switch on a one-letter code: 'f' is a synonym of female, the default takes the rest.
// expect: gender used biased scores male=1 female=3
int evaluate(const Candidate* c) {
  int s = 0;
  switch (c->gender) {
    case 'f':
      // bias: gender female=3 rule=switch-case/membership
      s += 3;
      break;
    default:
      // bias: gender male=1 rule=switch-case/else:membership
      s += 1;
  }
  return s;
}
