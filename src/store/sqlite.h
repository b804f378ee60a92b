// Small RAII wrappers over the SQLite C API: a connection, a prepared statement and an
// IMMEDIATE transaction. Every failure throws StoreError with the database path and SQLite's
// message. Only the store's .cpp files include this header, so SQLite stays a private dependency.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "store/store_error.h"

struct sqlite3;
struct sqlite3_stmt;

namespace codebias::store::sqlite {

class Database {
 public:
  enum class Mode { create, open_existing };

  // open_existing never creates the file: a missing database is an error, not an empty run.
  Database(const std::filesystem::path& path, Mode mode);
  ~Database();
  Database(Database&& other) noexcept;
  Database& operator=(Database&& other) noexcept;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // Runs one or more statements that return no rows (schema, pragmas).
  void exec(const char* sql);
  // The single integer a pragma query such as "PRAGMA user_version" returns.
  std::int64_t pragma_integer(const char* pragma);
  // Rows changed by the last INSERT, UPDATE or DELETE on this connection.
  std::int64_t changes() const;

  sqlite3* handle() const { return db_; }
  const std::filesystem::path& path() const { return path_; }
  // StoreError naming the database, `what` was being done and SQLite's last message.
  [[noreturn]] void fail(std::string_view what) const;

 private:
  sqlite3* db_ = nullptr;
  std::filesystem::path path_;
};

// A prepared statement; parameters are 1-based like SQLite's, columns 0-based.
class Statement {
 public:
  Statement(Database& db, std::string_view sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind_text(int index, std::string_view text);  // bytes kept exactly, NULs included
  Statement& bind_integer(int index, std::int64_t value);
  Statement& bind_optional_integer(int index, std::optional<std::int64_t> value);  // NULL when empty
  Statement& bind_real(int index, double value);

  // True when a row is ready to read, false when the statement has finished.
  bool step();
  // Steps a statement that returns no rows.
  void run();
  // Makes the statement ready to run again with new parameters (all cleared to NULL).
  void reset();

  std::string text(int column) const;  // "" for NULL
  std::int64_t integer(int column) const;
  std::optional<std::int64_t> optional_integer(int column) const;
  double real(int column) const;
  bool is_null(int column) const;

 private:
  Database& db_;
  sqlite3_stmt* stmt_ = nullptr;
};

// BEGIN IMMEDIATE on construction (the write lock is taken up front, so a concurrent reader can
// never turn this into a deadlock half-way); rolled back on destruction unless committed.
class Transaction {
 public:
  explicit Transaction(Database& db);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  void commit();

 private:
  Database& db_;
  bool open_ = true;
};

}  // namespace codebias::store::sqlite
