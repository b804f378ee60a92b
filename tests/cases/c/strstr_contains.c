// strstr finds a literal inside the attribute's text: not read as a decision yet.
// expect: response language=c status=ok
// todo-expect: race used biased scores black=-2
#include <string.h>
int evaluate(const Applicant* a) {
  int s = a->gpa * 10;
  // todo-bias: race black=2 rule=if-chain/contains
  if (strstr(a->race, "black") != NULL) s -= 2;
  return s;
}
