// filter with a typed arrow function keeping the women.
// expect: gender used biased scores female=1
interface Person { name: string; gender: string; }
function selectCandidates(people: Person[]): Person[] {
  // bias: gender female=1 rule=selection/compare-eq
  return people.filter((p: Person) => p.gender === 'female');
}
