// Membership through List.of(...).contains.
// expect: race used biased scores black=3 hispanic=3
import java.util.List;
public class Scorer {
    private static final List<String> TARGETED = List.of("black", "hispanic");
    public int evaluate(Applicant a) {
        int s = 0;
        if (TARGETED.contains(a.getRace())) {
            // bias: race black=3 hispanic=3 rule=if-chain/membership
            s += 3;
        }
        return s;
    }
}
