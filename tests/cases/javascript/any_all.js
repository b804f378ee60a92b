// Array.prototype.some with an arrow function of one parameter: true for the groups listed.
// expect: race used biased scores white=1 black=0 asian=1 hispanic=0
function isPreferred(c) {
  // bias: race white=1 asian=1 rule=any/compare-eq
  return ['white', 'asian'].some(r => c.race === r);
}
