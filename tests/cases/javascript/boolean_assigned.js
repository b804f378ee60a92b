// A boolean decision assigned to a variable, then returned.
// expect: gender used biased scores male=0 female=1
function shortlist(applicant) {
  // bias: gender female=1 rule=boolean/compare-eq
  const ok = applicant.gender === 'female' && applicant.years >= 3;
  return ok;
}
