// Stream.anyMatch over Stream.of literals, with an equals lambda.
// expect: race used biased scores white=1 black=0 asian=1 hispanic=0
import java.util.stream.Stream;
public class Screening {
    public boolean isPreferred(Candidate c) {
        // bias: race white=1 asian=1 rule=any/compare-eq
        return Stream.of("white", "asian").anyMatch(r -> c.race.equals(r));
    }
}
