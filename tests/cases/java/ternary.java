// A conditional expression choosing the amount, in a method of a class.
// expect: gender used biased scores female=2
public class Scorer {
    public int evaluate(Applicant a) {
        int s = a.getSkill();
        // bias: gender female=2 rule=conditional/compare-eq
        s += a.getGender().equals("female") ? 2 : 0;
        return s;
    }
}
