// A typed Record table indexed by the attribute, with ?? 0.
// expect: race used biased scores white=2 asian=1
const RACE_POINTS: Record<string, number> = { white: 2, asian: 1 };
export function evaluate(c: { race: string; skill: number }): number {
  // bias: race white=2 asian=1 rule=lookup/table
  return c.skill + (RACE_POINTS[c.race] ?? 0);
}
