// A switch with merged labels, and a Set of preferred groups, in an arrow function (fence js).
// The evidence amount of `-=` is the amount subtracted, as written.
// options: attributes= fence=js
// expect: race used biased scores white=3 black=-2 asian=3 hispanic=-2
const PREFERRED = new Set(['white', 'asian']);
const scoreApplicant = ({ race, skills }) => {
  let s = skills;
  switch (race) {
    case 'black':
    case 'hispanic':
      // bias: race black=-2 hispanic=-2 rule=switch-case/membership
      s -= 2;
      break;
    default:
      break;
  }
  // bias: race white=3 asian=3 rule=if-chain/membership
  if (PREFERRED.has(race)) s += 3;
  return s;
};
