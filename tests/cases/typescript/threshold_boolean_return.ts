// A boolean on a score the attribute changed, other inputs unknown, TypeScript.
// expect: gender used biased effect
interface Applicant { gender: string; years: number }
export function isEligible(applicant: Applicant): boolean {
  let score: number = applicant.years;
  if (applicant.gender === 'male') {
    // bias: gender male=2 rule=if-chain/compare-eq
    score += 2;
  }
  // bias: gender male=none rule=boolean/threshold
  return score > 4;
}
