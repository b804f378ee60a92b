// Tree-sitter keeps the actions of most parse states in a compressed table: per state, lists of
// symbols grouped by their action, which every lookup scans. In the Python grammar that scan is
// about a tenth of parsing time. A grammar is static data, so the same table can be laid out
// dense once per process: state_count x symbol_count entries (1.5 MB for Python). Lookups then
// take tree-sitter's other path, a single read, and give the same actions.
//
// This needs tree-sitter's internal TSLanguage layout (lib/src/parser.h of the pinned core),
// which is only valid for grammars of the core's own ABI version.
#include "analysis/parsing/dense_parse_table.h"

#include <stdlib.h>
#include <string.h>

#include "parser.h"

const TSLanguage* codebias_dense_language(const TSLanguage* language) {
  if (language->abi_version != TREE_SITTER_LANGUAGE_VERSION || language->large_state_count >= language->state_count)
    return language;
  const size_t symbols = language->symbol_count;
  uint16_t* table = calloc((size_t)language->state_count * symbols, sizeof(uint16_t));
  TSLanguage* dense = malloc(sizeof(TSLanguage));
  if (!table || !dense) {
    free(table);
    free(dense);
    return language;
  }
  memcpy(table, language->parse_table, (size_t)language->large_state_count * symbols * sizeof(uint16_t));
  for (uint32_t state = language->large_state_count; state < language->state_count; ++state) {
    const uint16_t* data = &language->small_parse_table[language->small_parse_table_map[state - language->large_state_count]];
    uint16_t* row = &table[state * symbols];
    uint16_t group_count = *data++;
    for (uint16_t group = 0; group < group_count; ++group) {
      uint16_t value = *data++;
      uint16_t symbol_count = *data++;
      // The first group that lists a symbol is the one a lookup finds.
      for (uint16_t i = 0; i < symbol_count; ++i, ++data)
        if (row[*data] == 0) row[*data] = value;
    }
  }
  *dense = *language;
  dense->parse_table = table;
  dense->large_state_count = language->state_count;
  return dense;
}
