// A boolean decision returned directly, TypeScript.
// expect: gender used biased scores male=1 female=0
interface Applicant { gender: string; years: number }
export function isEligible(applicant: Applicant): boolean {
  // bias: gender male=1 rule=boolean/compare-eq
  return applicant.gender === 'male' && applicant.years > 2;
}
