#include "base/text_document.h"

#include <utility>

#include "base/strings.h"
#include "base/text_table.h"

namespace codebias::base {
namespace {

bool left_at(const Table& table, std::size_t column) {
  return table.left_aligned.empty() || table.left_aligned[column];
}

}  // namespace

void Document::heading(int level, std::string text) {
  blocks_.push_back({DocumentBlock::Kind::heading, level, std::move(text), {}});
}
void Document::paragraph(std::string text) { blocks_.push_back({DocumentBlock::Kind::paragraph, 0, std::move(text), {}}); }
void Document::item(std::string text) { blocks_.push_back({DocumentBlock::Kind::item, 0, std::move(text), {}}); }
void Document::table(Table table) { blocks_.push_back({DocumentBlock::Kind::table, 0, {}, std::move(table)}); }

void Document::append(const Document& other, int heading_offset) {
  for (auto block : other.blocks_) {
    if (block.kind == DocumentBlock::Kind::heading) block.level += heading_offset;
    blocks_.push_back(std::move(block));
  }
}

std::string markdown_cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

std::string markdown_table(const Table& table) {
  std::string out = "|";
  for (const auto& h : table.header) out += " " + markdown_cell(h) + " |";
  out += "\n|";
  for (std::size_t c = 0; c < table.header.size(); ++c) out += left_at(table, c) ? "---|" : "---:|";
  out += "\n";
  for (const auto& row : table.rows) {
    out += "|";
    for (const auto& cell : row) out += " " + markdown_cell(cell) + " |";
    out += "\n";
  }
  return out;
}

std::string render(const Document& document, DocumentFormat format, int heading_offset) {
  const bool markdown = format == DocumentFormat::markdown;
  std::string out;
  const auto& blocks = document.blocks();
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    const auto& block = blocks[i];
    const bool list_goes_on = i + 1 < blocks.size() && blocks[i + 1].kind == DocumentBlock::Kind::item;
    switch (block.kind) {
      case DocumentBlock::Kind::heading:
        out += markdown ? std::string(static_cast<std::size_t>(block.level + heading_offset), '#') + " " + block.text
                        : block.text;
        out += "\n\n";
        break;
      case DocumentBlock::Kind::paragraph:
        out += block.text + "\n\n";
        break;
      case DocumentBlock::Kind::item:
        out += (markdown ? "- " : "  ") + block.text + "\n";
        if (!list_goes_on) out += "\n";
        break;
      case DocumentBlock::Kind::table: {
        std::vector<bool> left(block.table.header.size());
        for (std::size_t c = 0; c < left.size(); ++c) left[c] = left_at(block.table, c);
        out += (markdown ? markdown_table(block.table) : text_table(block.table.header, left, block.table.rows)) + "\n";
        break;
      }
    }
  }
  // Both formats end up on a terminal or in Markdown: user and model text keeps no control bytes.
  return printable(out);
}

}  // namespace codebias::base
