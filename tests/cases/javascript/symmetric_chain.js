// Both groups get the same points: used, not biased.
// options: attributes=
// expect: gender used fair scores male=2 female=2
function evaluate(c) {
  let s = 0;
  // bias: gender male=2 rule=if-chain/compare-eq
  if (c.gender === 'male') s += 2;
  // bias: gender female=2 rule=if-chain/compare-eq
  else if (c.gender === 'female') s += 2;
  return s;
}
