// A stream filter on the gender, collected to a list: the kept group is selected.
// expect: gender used biased scores male=1
import java.util.List;
import java.util.stream.Collectors;
public class Selector {
    public static List<Candidate> selectCandidates(List<Candidate> candidates) {
        return candidates.stream()
            // bias: gender male=1 rule=selection/compare-eq
            .filter(c -> c.getGender().equals("male"))
            .collect(Collectors.toList());
    }
}
