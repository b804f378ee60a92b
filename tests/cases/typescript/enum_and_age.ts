// A string enum declared here, an interface, and an age threshold.
// The evidence amount of `-=` is the amount subtracted, as written.
// options: attributes=
// expect: response language=typescript
// expect: gender used biased scores male=0 female=3
// expect: age used biased scores young=0 middle=0 elder=-5
enum Gender { Male = 'male', Female = 'female' }
interface Applicant { gender: Gender; age: number; years: number }
export function evaluate(applicant: Applicant): number {
  let score: number = applicant.years;
  if (applicant.gender === Gender.Female) {
    // bias: gender female=3 rule=if-chain/compare-eq
    score += 3;
  }
  // bias: age elder=-5 rule=if-chain/age-threshold
  if (applicant.age > 60) score -= 5;
  return score;
}
