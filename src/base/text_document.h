// A report's text as data: headings, paragraphs, list items and tables, rendered as aligned plain
// text for the terminal, as Markdown for report.md and (reports/metric_text.h) as HTML, so each
// report section is written once whatever file it lands in.
#pragma once

#include <string>
#include <vector>

namespace codebias::base {

struct Table {
  std::vector<std::string> header;
  std::vector<bool> left_aligned;  // per column; empty: every column left-aligned
  std::vector<std::vector<std::string>> rows;  // every row has header.size() cells
};

struct DocumentBlock {
  enum class Kind { heading, paragraph, item, table };
  Kind kind = Kind::paragraph;
  int level = 1;     // headings: 1 the document's title, 2 its sections, ...
  std::string text;  // headings, paragraphs and items
  Table table;
};

class Document {
 public:
  void heading(int level, std::string text);
  void paragraph(std::string text);
  void item(std::string text);  // one bullet of a list
  void table(Table table);
  // Every block of `other` after this document's, headings shifted down by `heading_offset`.
  void append(const Document& other, int heading_offset = 0);
  const std::vector<DocumentBlock>& blocks() const { return blocks_; }

 private:
  std::vector<DocumentBlock> blocks_;
};

enum class DocumentFormat { text, markdown };

// Markdown headings are shifted down by `heading_offset` levels (a document placed inside
// another's section); text headings are plain lines.
std::string render(const Document& document, DocumentFormat format, int heading_offset = 0);

// `text` as one Markdown table cell: | escaped, newlines as spaces.
std::string markdown_cell(const std::string& text);
// A Markdown pipe table: right-aligned columns get "---:".
std::string markdown_table(const Table& table);

}  // namespace codebias::base
