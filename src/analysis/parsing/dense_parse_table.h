// A faster copy of a tree-sitter grammar (see dense_parse_table.c).
#pragma once

#include <tree_sitter/api.h>

#ifdef __cplusplus
extern "C" {
#endif

// The same grammar with every parse state in tree-sitter's plain table, so that looking up an
// action is one read instead of a scan. Returns `language` itself when its layout is not the
// one this build knows (another ABI) or memory runs out. The copy lives until the process ends.
const TSLanguage* codebias_dense_language(const TSLanguage* language);

#ifdef __cplusplus
}
#endif
