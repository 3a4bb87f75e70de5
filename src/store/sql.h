// store/sql: the little SQL interface the catalog's logic (sql_catalog.cc) is
// written against, so SQLite and PostgreSQL run the same statements. SQL text
// uses $1..$N parameters on both; each backend maps errors to a Status that
// names the catalog.
//
// Thread-compatible: a SqlDb and its statements belong to one thread.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "model/status.h"

namespace errdex::store {

// A prepared statement, cached by its connection and reused: bind, Step until
// it returns false, then Reset (Query does that).
class SqlStmt {
 public:
  virtual ~SqlStmt() = default;
  virtual void BindInt(int i, int64_t v) = 0;
  virtual void BindDouble(int i, double v) = 0;
  virtual void BindText(int i, std::string_view v) = 0;
  virtual void BindBlob(int i, std::string_view v) = 0;
  virtual void BindNull(int i) = 0;
  void BindOptText(int i, const std::optional<std::string>& v) {
    if (v) BindText(i, *v);
    else BindNull(i);
  }
  // Runs the statement (first call) or moves to its next row; true when a row is there.
  virtual Result<bool> Step() = 0;
  // Steps to the end (statements that return no rows, or whose rows are not wanted).
  Status Run() {
    for (;;) {
      auto r = Step();
      if (!r.ok()) return r.status();
      if (!*r) return Status::Ok();
    }
  }
  virtual bool IsNull(int col) = 0;
  virtual int64_t Int(int col) = 0;
  virtual double Double(int col) = 0;
  // Text and blob columns alike: the bytes, valid until the next Step or Reset.
  virtual std::string_view View(int col) = 0;
  std::string Text(int col) { return std::string(View(col)); }
  std::optional<std::string> OptText(int col) {
    if (IsNull(col)) return std::nullopt;
    return Text(col);
  }
  virtual void Reset() = 0;
};

class SqlDb {
 public:
  virtual ~SqlDb() = default;
  // A statement for `sql`, prepared once per connection (the pointer is the
  // cache key: pass literals).
  virtual Result<SqlStmt*> Prepare(const char* sql) = 0;
  // Runs one or more statements without parameters.
  virtual Status Exec(const char* sql, std::string_view what) = 0;
  // True inside a transaction.
  virtual bool InTransaction() = 0;
  // Starts a write transaction (SQLite: BEGIN IMMEDIATE; PostgreSQL: BEGIN).
  virtual Status BeginWrite() = 0;
  // For messages: the catalog's path or URL (without a password).
  virtual const std::string& name() const = 0;
  // How many write transactions (or savepoints) were rolled back on this
  // connection: rows they inserted are gone and their ids will be handed out
  // again, so whatever was cached by id since must be forgotten.
  uint64_t rollbacks() const { return rollbacks_; }
  void NoteRollback() { ++rollbacks_; }

 private:
  uint64_t rollbacks_ = 0;
};

// A prepared statement in use: Reset when it goes out of scope.
class Query {
 public:
  Query(SqlDb& db, const char* sql) {
    auto s = db.Prepare(sql);
    if (s.ok()) stmt_ = *s;
    else status_ = s.status();
  }
  ~Query() {
    if (stmt_) stmt_->Reset();
  }
  Query(const Query&) = delete;
  Query& operator=(const Query&) = delete;
  bool ok() const { return stmt_ != nullptr; }
  const Status& status() const { return status_; }
  SqlStmt* operator->() { return stmt_; }
  SqlStmt& operator*() { return *stmt_; }

 private:
  SqlStmt* stmt_ = nullptr;
  Status status_;
};

// A write transaction: BEGIN when none is open, else a SAVEPOINT (or, with
// savepoint=false, nothing: the outer transaction is all or nothing already --
// PostgreSQL slows every reader once a transaction holds more than 64
// subtransactions); rolled back by the destructor unless Commit() succeeded.
class WriteTxn {
 public:
  explicit WriteTxn(SqlDb& db, bool savepoint = true) : db_(db), savepoint_(savepoint) {}
  ~WriteTxn();
  WriteTxn(const WriteTxn&) = delete;
  WriteTxn& operator=(const WriteTxn&) = delete;
  Status Begin();
  Status Commit();
  bool nested() const { return nested_; }

 private:
  SqlDb& db_;
  bool savepoint_;
  bool nested_ = false, begun_ = false, done_ = false;
};

}  // namespace errdex::store
