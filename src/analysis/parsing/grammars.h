// The tree-sitter grammars linked into codebias (fetched from npm and pinned in
// cmake/TreeSitter.cmake). Each returns a static TSLanguage; never free it.
#pragma once

#include <tree_sitter/api.h>

extern "C" {
const TSLanguage* tree_sitter_python(void);
const TSLanguage* tree_sitter_c(void);
const TSLanguage* tree_sitter_cpp(void);
const TSLanguage* tree_sitter_javascript(void);
const TSLanguage* tree_sitter_typescript(void);
const TSLanguage* tree_sitter_java(void);
}
