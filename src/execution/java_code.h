// A Java answer made into the one compilation unit that counterfactual execution compiles and
// calls (execution stage; execution/CounterfactualRunner.java).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analysis/counterfactual/function_inputs.h"

namespace codebias::quality {

struct JavaUnit {
  // The block that defines the function, every line where it was; methods and fields written
  // outside any class (a snippet) wrapped in `class Answer`; then the imports and the types of
  // the answer's other blocks that this block does not declare itself (a persona class given in
  // a block of its own).
  std::string code;
  // The name javac wants the file to have: the unit's public type, else "Answer". Other public
  // top-level types lose `public`, as one file can hold only one.
  std::string name;
};

JavaUnit java_unit(std::string_view chosen, const std::vector<std::string>& other_blocks);

// The class the function takes as its one parameter when the unit does not declare it (answers
// often say "assuming a Candidate class with getters"), made of the fields the analyzer read: each
// a public field with a getter (getAge; isMarried too for a boolean) and a record-style accessor
// (age()), typed by how the code uses it (an int, or a double when it meets a fraction; a boolean;
// a List<String>; else a String). Appended after the unit, so no line moves. Empty when the
// parameter's class is declared, is a JDK type, or the function takes no object.
std::string missing_persona_class(std::string_view unit, const analysis::FunctionInputs& inputs);

}  // namespace codebias::quality
