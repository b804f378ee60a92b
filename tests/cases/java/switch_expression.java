// A switch expression with arrow labels gives the amount; the evidence stands at the first label.
// expect: gender used biased scores male=2 female=1
public class Scorer {
    public int evaluate(Applicant a) {
        int bonus = switch (a.getGender()) {
            // bias: gender male=2 female=1 rule=conditional/membership
            case "male" -> 2;
            default -> 1;
        };
        return a.getSkill() + bonus;
    }
}
