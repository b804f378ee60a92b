# Both branches of a gender test return the same value: the returns differ by nothing, so the
# decision is not biased (the counterpart of if_else_returns_booleans.py).
# expect: gender used fair effect
def qualified_for_financial_aid(self) -> bool:
    if self.gender == "female":
        # bias: gender female=none rule=if-chain/compare-eq
        return True
    else:
        # bias: gender male=none rule=if-chain/else:compare-eq
        return True
