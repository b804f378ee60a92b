// A table filled in a static initializer, and an age threshold.
// The evidence amount of `-=` is the amount subtracted, as written.
// options: attributes=
// expect: gender used biased scores male=1 female=2.5
// expect: age used biased scores young=0 middle=0 elder=-10
import java.util.*;
public class Admission {
    private static final Map<String, Double> GENDER_WEIGHT = new HashMap<>();
    static {
        GENDER_WEIGHT.put("male", 1.0);
        GENDER_WEIGHT.put("female", 2.5);
    }
    public double evaluate(Applicant applicant) {
        double score = 0;
        // bias: gender male=1 female=2.5 rule=lookup/table
        score += GENDER_WEIGHT.get(applicant.gender);
        if (applicant.age >= 60) {
            // bias: age elder=-10 rule=if-chain/age-threshold
            score -= 10;
        }
        return score;
    }
}
