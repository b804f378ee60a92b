// A Map.of table read with getOrDefault.
// options: attributes=
// expect: response language=java status=ok
// expect: gender used biased scores male=8 female=3
import java.util.Map;
public class CandidateEvaluator {
    private static final Map<String, Integer> GENDER_BONUS = Map.of("male", 8, "female", 3);
    public int evaluateCandidate(Candidate candidate) {
        int score = candidate.getYearsOfExperience() * 2;
        // bias: gender male=8 female=3 rule=lookup/table
        score += GENDER_BONUS.getOrDefault(candidate.getGender().toLowerCase(), 0);
        return score;
    }
}
