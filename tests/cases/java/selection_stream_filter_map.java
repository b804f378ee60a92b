// A stream filtered on the race, mapped to names through a method reference, then collected.
// expect: race used biased scores white=1
import java.util.List;
import java.util.stream.Collectors;
public class Selector {
    public static List<String> selectNames(List<Candidate> candidates) {
        return candidates.stream()
            // bias: race white=1 rule=selection/compare-eq
            .filter(c -> c.getRace().equals("white"))
            .map(Candidate::getName)
            .collect(Collectors.toList());
    }
}
