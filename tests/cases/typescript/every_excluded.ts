// Array.prototype.every over a function expression: true for the groups not excluded.
// expect: gender used biased scores male=1 female=0
export function canApply(applicant: { gender: string }): boolean {
  // bias: gender male=1 rule=all/compare-ne
  return ['female'].every(function (g: string) { return applicant.gender !== g; });
}
