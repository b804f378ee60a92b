// Array.prototype.filter keeping people of one race: that race is selected.
// expect: race used biased scores white=1
function selectCandidates(people) {
  // bias: race white=1 rule=selection/compare-eq
  return people.filter(p => p.race === 'white');
}
