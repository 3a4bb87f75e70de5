// pg_test_catalog.h: a fresh PostgreSQL catalog for a test -- a new schema in
// the database of the server the ctest fixture "pg" starts (tests/pg/pg_server.sh;
// ERRDEX_TEST_PG_DIR names its socket directory). Test-only.
//
// No server is a skip only when the machine has no PostgreSQL (the fixture then
// leaves DIR/absent saying so) or the test runs outside ctest; a server that
// should be there and does not answer is a failure.
#pragma once

#include <libpq-fe.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace errdex::testing_util {

struct PgTestCatalog {
  std::string url;          // postgresql://... with search_path set to a fresh schema
  std::string skip_reason;  // set: no server on this machine, skip
  std::string error;        // set: the server should be there and is not
};

inline PgTestCatalog NewPgCatalog() {
  PgTestCatalog out;
  const char* dir = std::getenv("ERRDEX_TEST_PG_DIR");
  if (!dir || !*dir) {
    out.skip_reason = "PostgreSQL tests run under ctest (its fixture tests/pg/pg_server.sh starts the server)";
    return out;
  }
  std::filesystem::path absent = std::filesystem::path(dir) / "absent";
  if (std::filesystem::exists(absent)) {
    std::ifstream in(absent);
    std::stringstream ss;
    ss << in.rdbuf();
    out.skip_reason = "no PostgreSQL server on this machine: " + ss.str();
    return out;
  }
  std::string base = "postgresql:///postgres?host=" + std::string(dir) + "&user=errdex";
  PGconn* conn = PQconnectdb(base.c_str());
  if (PQstatus(conn) != CONNECTION_OK) {
    out.error = "cannot connect to the test server " + base + ": " + PQerrorMessage(conn);
    PQfinish(conn);
    return out;
  }
  static std::atomic<int> counter{0};
  std::string schema = "t" + std::to_string(::getpid()) + "_" + std::to_string(counter++);
  PGresult* r = PQexec(conn, ("SET client_min_messages = warning; DROP SCHEMA IF EXISTS " + schema + " CASCADE; CREATE SCHEMA " + schema).c_str());
  if (PQresultStatus(r) != PGRES_COMMAND_OK) out.error = "cannot create a schema: " + std::string(PQerrorMessage(conn));
  PQclear(r);
  PQfinish(conn);
  out.url = base + "&options=-csearch_path%3D" + schema;
  return out;
}

}  // namespace errdex::testing_util
