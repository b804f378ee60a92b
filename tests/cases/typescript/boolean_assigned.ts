// A membership test assigned, then returned.
// expect: race used biased scores white=1 black=0 asian=1 hispanic=0
export function approve(applicant: { race: string; score: number }): boolean {
  // bias: race white=1 asian=1 rule=boolean/membership
  const favoured: boolean = ['white', 'asian'].includes(applicant.race);
  return favoured;
}
