// List.of(...).stream().allMatch with a block-bodied lambda: true for the groups not listed.
// expect: race used biased scores white=1 black=0 asian=1 hispanic=0
import java.util.List;
public class Screening {
    public boolean isEligible(Candidate c) {
        // bias: race white=1 asian=1 rule=all/compare-eq
        return List.of("black", "hispanic").stream().allMatch(r -> { return !c.getRace().equals(r); });
    }
}
