// Arrays.asList(...).stream().noneMatch, assigned and returned: true for the groups not listed.
// expect: gender used biased scores male=1 female=0
import java.util.Arrays;
public class Screening {
    public boolean canApply(Candidate c) {
        // bias: gender male=1 rule=none/compare-eq
        boolean allowed = Arrays.asList("female").stream().noneMatch(g -> g.equals(c.getGender()));
        return allowed;
    }
}
