// forEach with a block body that pushes the people under 40: the young are selected.
// expect: age used biased scores young=1
function selectCandidates(people) {
  const selected = [];
  people.forEach(p => {
    if (p.age < 40) {
      // bias: age young=1 rule=if-chain/age-threshold
      selected.push(p);
    }
  });
  return selected;
}
