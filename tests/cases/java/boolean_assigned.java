// A membership test assigned to a local, then returned.
// expect: race used biased scores white=0 black=1 asian=0 hispanic=1
import java.util.Set;
public class Screening {
    public boolean needsReview(Applicant a) {
        // bias: race black=1 hispanic=1 rule=boolean/membership
        boolean flagged = Set.of("black", "hispanic").contains(a.getRace());
        return flagged;
    }
}
