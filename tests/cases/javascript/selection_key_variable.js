// The attribute's name held in a constant, then used as the key.
// expect: gender used biased scores female=1
function selectCandidates(people) {
  const key = 'gender';
  // bias: gender female=1 rule=selection/compare-eq
  return people.filter(p => p[key] === 'female');
}
