// Membership through Array.prototype.includes.
// expect: race used biased scores white=1 asian=1
const FAVOURED = ['white', 'asian'];
function evaluate(c) {
  let s = 0;
  // bias: race white=1 asian=1 rule=if-chain/membership
  if (FAVOURED.includes(c.race)) s += 1;
  return s;
}
