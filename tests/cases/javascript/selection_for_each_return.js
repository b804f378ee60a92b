// forEach whose callback returns early for one gender: the return ends that person's run, so
// the push that follows selects the others.
// expect: gender used biased scores female=1
function selectCandidates(people) {
  const selected = [];
  people.forEach(p => {
    if (p.gender === 'male') return;
    // bias: gender female=1 rule=if-chain/after:compare-eq
    selected.push(p);
  });
  return selected;
}
