// A for-each loop adding the white candidates to the result.
// expect: race used biased scores white=1
import java.util.ArrayList;
import java.util.List;
public class Selector {
    public static List<Candidate> selectCandidates(List<Candidate> candidates) {
        List<Candidate> selected = new ArrayList<>();
        for (Candidate c : candidates) {
            if (c.getRace().equals("white")) {
                // bias: race white=1 rule=if-chain/compare-eq
                selected.add(c);
            }
        }
        return selected;
    }
}
