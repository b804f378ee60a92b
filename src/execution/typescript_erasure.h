// TypeScript made runnable by node (execution stage): the types erased from the parsed tree, the
// few constructs that emit code (enums, constructor parameter properties) rewritten as the
// TypeScript compiler emits them. No Debian package ships a TypeScript compiler that runs offline
// in the sandbox, and erasing is what node's own --experimental-strip-types does.
#pragma once

#include <string>
#include <string_view>

namespace codebias::quality {

struct ErasedTypeScript {
  // The JavaScript: every line where it was in the TypeScript, so a stack trace's line numbers
  // are the answer's own. Empty when `unsupported` is set.
  std::string javascript;
  // A construct with no plain-JavaScript meaning that erasing cannot keep (a decorator, a
  // namespace, `import x = require(...)`, an enum member set by an expression), with its line:
  // "decorator at line 3". Empty when the code was erased.
  std::string unsupported;
};

ErasedTypeScript erase_typescript(std::string_view code);

}  // namespace codebias::quality
