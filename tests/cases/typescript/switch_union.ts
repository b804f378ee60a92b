// A switch on a string union type, with a default.
// expect: gender used biased scores male=1 female=4
type Gender = 'male' | 'female';
export function evaluate(c: { gender: Gender; skill: number }): number {
  let s = c.skill;
  switch (c.gender) {
    case 'female':
      // bias: gender female=4 rule=switch-case/membership
      s += 4;
      break;
    default:
      // bias: gender male=1 rule=switch-case/else:membership
      s += 1;
  }
  return s;
}
