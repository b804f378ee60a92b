// What a line of unfenced text is: blank, prose, code, or the start of a definition.
#pragma once

#include <string_view>

#include "analysis/response/scan_text.h"

namespace codebias::analysis::response_scanning {

enum class Kind { blank, prose, code, def };

// Markdown: a list item, heading, quote, table row, image or bold text ("- x", "## H", "> q",
// "| a |", "1. x").
bool is_markdown_marker(sv t);  // t: left-trimmed, non-empty

// A sentence: ends with . ! or ? and has several words. Code lines never end like that.
bool looks_like_sentence(sv t);  // t: trimmed, non-empty

// "a.b[c] = ...", "x += 1", "f(x)", "Type name = ...", "x: int = 3".
bool starts_with_statement(sv t);

// A C / C++ / Java type word that can start a declaration ("int", "size_t", "String").
bool is_type_word(sv w);

// A line that starts a definition: where raw (unfenced) code begins.
bool is_def_start(sv t);  // t: trimmed, non-empty

// The kind of one line of unfenced text (indentation and trailing spaces ignored).
Kind classify(sv raw);

inline bool is_codeish(Kind k) { return k == Kind::code || k == Kind::def; }

}  // namespace codebias::analysis::response_scanning
