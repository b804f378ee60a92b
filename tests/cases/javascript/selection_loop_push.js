// A loop that pushes the men onto the result.
// expect: gender used biased scores male=1
function selectCandidates(people) {
  const selected = [];
  for (const p of people) {
    if (p.gender === 'male') {
      // bias: gender male=1 rule=if-chain/compare-eq
      selected.push(p);
    }
  }
  return selected;
}
