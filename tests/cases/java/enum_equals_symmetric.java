// Both groups get the same points through == and equals on a declared enum: used, not biased.
// options: attributes=
// expect: gender used fair scores male=3 female=3
enum Gender { MALE, FEMALE }
public class S {
    public int evaluate(Applicant a) {
        int s = 0;
        // bias: gender male=3 rule=if-chain/compare-eq
        if (a.getGender() == Gender.MALE) s += 3;
        // bias: gender female=3 rule=if-chain/compare-eq
        else if (a.getGender().equals(Gender.FEMALE)) s += 3;
        return s;
    }
}
