// A conditional expression choosing the amount.
// expect: race used biased scores white=0 black=-3
function evaluate(c) {
  // bias: race black=3 rule=conditional/compare-eq
  return c.skill - (c.race === 'black' ? 3 : 0);
}
