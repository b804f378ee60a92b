// Iterable.forEach with a block lambda that adds the women to the result.
// expect: gender used biased scores female=1
import java.util.ArrayList;
import java.util.List;
public class Selector {
    public static List<Candidate> select(List<Candidate> candidates) {
        List<Candidate> selected = new ArrayList<>();
        candidates.forEach(c -> {
            if (c.getGender().equals("female")) {
                // bias: gender female=1 rule=if-chain/compare-eq
                selected.add(c);
            }
        });
        return selected;
    }
}
