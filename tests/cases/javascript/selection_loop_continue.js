// A for-of loop that skips one race with `continue`: every other race is selected.
// expect: race used biased scores white=1 asian=1 hispanic=1
function selectCandidates(people) {
  const out = [];
  for (const p of people) {
    if (p.race === 'black') continue;
    // bias: race white=1 asian=1 hispanic=1 rule=if-chain/after:compare-eq
    out.push(p);
  }
  return out;
}
