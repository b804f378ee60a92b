// A boolean on a score the attribute changed, other inputs unknown, from a method.
// expect: gender used biased effect
public class Screening {
    public boolean isEligible(Applicant a) {
        int score = a.getYears();
        if (a.getGender().equals("female")) {
            // bias: gender female=-1 rule=if-chain/compare-eq
            score -= 1;
        }
        // bias: gender female=none rule=boolean/threshold
        return score >= 3;
    }
}
