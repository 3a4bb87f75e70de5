// pg_store.cc: the PostgreSQL backend (not yet built).
#include "store/sql_catalog.h"

namespace errdex::store {

Result<std::unique_ptr<CatalogStore>> OpenPostgresStore(const std::string& url, bool create) {
  return Status::InvalidArgument("PostgreSQL catalogs are not supported by this build: " + url);
}

}  // namespace errdex::store
