// A conditional expression returned directly.
// expect: race used biased scores white=3 black=0 asian=0 hispanic=0
public class Scorer {
    public int bonus(Applicant a) {
        // bias: race white=3 rule=conditional/compare-eq
        return "white".equals(a.getRace()) ? 3 : 0;
    }
}
