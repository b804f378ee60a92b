// Array.prototype.every with an arrow function whose body is a block of one return.
// expect: race used biased scores white=1 black=0 asian=1 hispanic=0
function isEligible(c) {
  const excluded = ['black', 'hispanic'];
  // bias: race white=1 asian=1 rule=all/compare-ne
  return excluded.every((r) => { return c.race !== r; });
}
