#include "store/sqlite.h"

#include <sqlite3.h>

#include <utility>

namespace codebias::store::sqlite {

namespace {

// How long a connection waits for another process's lock (a report reading a live run) before
// giving up with SQLITE_BUSY.
constexpr int kBusyTimeoutMs = 10'000;

}  // namespace

Database::Database(const std::filesystem::path& path, Mode mode) : path_(path) {
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE;
  if (mode == Mode::create) flags |= SQLITE_OPEN_CREATE;
  int rc = sqlite3_open_v2(path.c_str(), &db_, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close(db_);
    db_ = nullptr;
    throw StoreError("cannot open " + path.string() + ": " + message);
  }
  sqlite3_busy_timeout(db_, kBusyTimeoutMs);
}

Database::~Database() { sqlite3_close(db_); }

Database::Database(Database&& other) noexcept : db_(std::exchange(other.db_, nullptr)), path_(std::move(other.path_)) {}

Database& Database::operator=(Database&& other) noexcept {
  if (this != &other) {
    sqlite3_close(db_);
    db_ = std::exchange(other.db_, nullptr);
    path_ = std::move(other.path_);
  }
  return *this;
}

void Database::fail(std::string_view what) const {
  throw StoreError(path_.string() + ": " + std::string(what) + ": " + sqlite3_errmsg(db_));
}

void Database::exec(const char* sql) {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &message) != SQLITE_OK) {
    std::string text = message ? message : "unknown error";
    sqlite3_free(message);
    throw StoreError(path_.string() + ": " + text);
  }
}

std::int64_t Database::pragma_integer(const char* pragma) {
  Statement statement(*this, pragma);
  if (!statement.step()) fail(std::string(pragma) + " returned no row");
  return statement.integer(0);
}

std::int64_t Database::changes() const { return sqlite3_changes64(db_); }

Statement::Statement(Database& db, std::string_view sql) : db_(db) {
  if (sqlite3_prepare_v2(db.handle(), sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr) != SQLITE_OK) {
    db.fail("cannot prepare \"" + std::string(sql.substr(0, 60)) + "\"");
  }
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement& Statement::bind_text(int index, std::string_view text) {
  // SQLITE_TRANSIENT: SQLite copies the bytes, so the caller's buffer may die before step().
  if (sqlite3_bind_text64(stmt_, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8) != SQLITE_OK) {
    db_.fail("cannot bind parameter " + std::to_string(index));
  }
  return *this;
}

Statement& Statement::bind_integer(int index, std::int64_t value) {
  if (sqlite3_bind_int64(stmt_, index, value) != SQLITE_OK) db_.fail("cannot bind parameter " + std::to_string(index));
  return *this;
}

Statement& Statement::bind_optional_integer(int index, std::optional<std::int64_t> value) {
  if (value) return bind_integer(index, *value);
  if (sqlite3_bind_null(stmt_, index) != SQLITE_OK) db_.fail("cannot bind parameter " + std::to_string(index));
  return *this;
}

Statement& Statement::bind_real(int index, double value) {
  if (sqlite3_bind_double(stmt_, index, value) != SQLITE_OK) db_.fail("cannot bind parameter " + std::to_string(index));
  return *this;
}

bool Statement::step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  db_.fail("statement failed");
}

void Statement::run() {
  while (step()) {
  }
}

void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

std::string Statement::text(int column) const {
  const auto* bytes = static_cast<const char*>(sqlite3_column_blob(stmt_, column));
  int size = sqlite3_column_bytes(stmt_, column);
  return bytes ? std::string(bytes, static_cast<std::size_t>(size)) : std::string();
}

std::int64_t Statement::integer(int column) const { return sqlite3_column_int64(stmt_, column); }

std::optional<std::int64_t> Statement::optional_integer(int column) const {
  if (is_null(column)) return std::nullopt;
  return integer(column);
}

double Statement::real(int column) const { return sqlite3_column_double(stmt_, column); }

bool Statement::is_null(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }

Transaction::Transaction(Database& db) : db_(db) { db_.exec("BEGIN IMMEDIATE"); }

Transaction::~Transaction() {
  // A failed COMMIT or an exception: undo; errors here cannot be reported from a destructor.
  if (open_) sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
  db_.exec("COMMIT");
  open_ = false;
}

}  // namespace codebias::store::sqlite
