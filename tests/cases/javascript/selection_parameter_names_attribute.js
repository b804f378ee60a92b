// The attribute read through a parameter that names it, inside a filter: p[ethnicity] is the race.
// options: attributes=race
// expect: race used biased scores white=1
function findWhitePeople(people, ethnicity) {
  // bias: race white=1 rule=selection/compare-eq
  return people.filter(p => p[ethnicity] === 'white');
}
