// Enum constants of a type the snippet does not declare: Gender.FEMALE is the literal FEMALE,
// and the capitalised type name is not the attribute itself.
// The evidence amount of `-=` is the amount subtracted, as written.
// options: attributes=
// expect: gender used biased scores male=0 female=2
// expect: race used biased scores white=0 black=-1 asian=0 hispanic=0
public class Screening {
  public static int evaluate(Candidate a) {
    int score = 0;
    // bias: gender female=2 rule=if-chain/compare-eq
    if (a.getGender() == Gender.FEMALE) { score += 2; }
    // bias: race black=-1 rule=if-chain/compare-eq
    if (a.getRace() == Race.BLACK) score -= 1;
    return score;
  }
}
