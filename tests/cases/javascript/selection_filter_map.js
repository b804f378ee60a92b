// A filter then a map to the names: the names are still the people the filter kept.
// expect: gender used biased scores male=1
function selectNames(people) {
  return people
    // bias: gender male=1 rule=selection/compare-eq
    .filter(p => p.gender === 'male')
    .map(p => p.name);
}
