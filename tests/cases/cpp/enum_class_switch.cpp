// A switch on an enum class declared here, and an age threshold.
// options: attributes=
// expect: gender used biased scores male=0 female=2
// expect: age used biased scores young=4 middle=0 elder=0
enum class Gender { Male, Female };
int evaluate(Gender gender, int age, int years) {
  int s = years;
  switch (gender) {
    // bias: gender female=2 rule=switch-case/membership
    case Gender::Female: s += 2; break;
    case Gender::Male: break;
  }
  // bias: age young=4 rule=if-chain/age-threshold
  if (age < 40) s += 4;
  return s;
}
