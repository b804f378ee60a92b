// A switch on strings with merged labels and a default.
// options: attributes=
// expect: race used biased scores white=4 black=1 asian=4 hispanic=2
public class Scorer {
    public static double score(Applicant a) {
        double s = 0;
        switch (a.getRace()) {
            case "white":
            case "asian":
                // bias: race white=4 asian=4 rule=switch-case/membership
                s += 4;
                break;
            case "black":
                // bias: race black=1 rule=switch-case/membership
                s += 1;
                break;
            default:
                // bias: race hispanic=2 rule=switch-case/else:membership
                s += 2;
        }
        return s;
    }
}
