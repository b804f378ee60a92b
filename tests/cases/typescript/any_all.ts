// Array.prototype.some over a module-level list, with a typed arrow function parameter.
// expect: race used biased scores white=1 black=0 asian=1 hispanic=0
const PREFERRED: string[] = ['white', 'asian'];
export function isPreferred(applicant: { race: string }): boolean {
  // bias: race white=1 asian=1 rule=any/compare-eq
  return PREFERRED.some((r: string) => applicant.race === r);
}
