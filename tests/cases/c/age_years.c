// An integer age compared with a threshold; the evidence amount of `-=` is the amount subtracted.
// expect: age used biased scores young=0 middle=-3 elder=-3
int evaluate(int age, int years) {
  int s = years * 2;
  // bias: age middle=-3 elder=-3 rule=if-chain/age-threshold
  if (age > 40) s -= 3;
  return s;
}
