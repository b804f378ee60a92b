// compareToIgnoreCase on a literal receiver is 0 when equal: `== 0` chooses that group.
// options: attributes=
// expect: gender used biased scores male=3 female=0
public class S {
    public int evaluate(Person p) {
        int s = 0;
        // bias: gender male=3 rule=if-chain/compare-eq
        if ("male".compareToIgnoreCase(p.getGender()) == 0) s += 3;
        return s;
    }
}
