// A conditional expression returned directly.
// expect: race used biased scores white=0 black=0 asian=0 hispanic=5
interface Applicant { race: string; skill: number }
export function evaluate(applicant: Applicant): number {
  // bias: race hispanic=5 rule=conditional/compare-eq
  return applicant.race === 'hispanic' ? 5 : 0;
}
