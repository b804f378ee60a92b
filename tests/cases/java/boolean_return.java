// A boolean decision returned directly from a method.
// expect: gender used biased scores male=1 female=0
public class Screening {
    public boolean isEligible(Applicant a) {
        // bias: gender male=1 rule=boolean/compare-eq
        return a.getGender().equals("male") && a.getYears() > 2;
    }
}
