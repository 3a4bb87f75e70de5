// errdex merge SHARD... --db CATALOG: folds shards (`errdex scan ... -o
// shard.errdex`, or any catalog) into a SQLite or PostgreSQL catalog,
// idempotently (store/merge.h). Exit 0 merged (or nothing to do), 2 error.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "store/catalog_store.h"
#include "store/merge.h"

namespace errdex::cli {
namespace {

struct MergeOptions {
  std::vector<std::string> shards;
  std::string db;
  bool json = false;
};

int RunMerge(const MergeOptions& o) {
  auto into = CatalogStore::Open(o.db, /*create=*/true);
  if (!into.ok()) {
    std::fprintf(stderr, "errdex: error: cannot open catalog %s: %s\n", o.db.c_str(), into.status().message().c_str());
    return 2;
  }
  store::MergeStats total;
  for (const std::string& shard : o.shards) {
    auto from = CatalogStore::Open(shard, /*create=*/false);
    if (!from.ok()) {
      std::fprintf(stderr, "errdex: error: cannot open shard %s: %s\n", shard.c_str(), from.status().message().c_str());
      return 2;
    }
    store::MergeStats st;
    if (Status s = store::MergeCatalog(**from, **into, &st); !s.ok()) {
      std::fprintf(stderr, "errdex: error: merging %s: %s\n", shard.c_str(), s.message().c_str());
      return 2;
    }
    total.scans += st.scans;
    total.scans_written += st.scans_written;
    total.scans_same += st.scans_same;
    total.units_read += st.units_read;
  }
  char buf[512];
  if (o.json)
    std::snprintf(buf, sizeof buf,
                  "{\"type\":\"summary\",\"data\":{\"shards\":%zu,\"scans\":%lld,\"written\":%lld,\"unchanged\":%lld,"
                  "\"unitsRead\":%lld}}\n",
                  o.shards.size(), static_cast<long long>(total.scans), static_cast<long long>(total.scans_written),
                  static_cast<long long>(total.scans_same), static_cast<long long>(total.units_read));
  else
    std::snprintf(buf, sizeof buf, "merged %zu shard(s) into %s: %lld scan(s), %lld written, %lld already there\n",
                  o.shards.size(), o.db.c_str(), static_cast<long long>(total.scans),
                  static_cast<long long>(total.scans_written), static_cast<long long>(total.scans_same));
  std::fputs(buf, stdout);
  return 0;
}

}  // namespace

void RegisterMergeCommands(CLI::App& app, CommandTable& table) {
  auto o = std::make_shared<MergeOptions>();
  CLI::App* sub = app.add_subcommand(
      "merge", "Fold shards (errdex scan ... -o shard.errdex) into a catalog; merging a shard twice changes nothing");
  sub->add_option("SHARD", o->shards, "shard files (or any errdex catalog)")->required();
  sub->add_option("--db", o->db, "catalog (file or postgresql:// URL), created when missing")->required();
  sub->add_flag("--json", o->json, "print the summary as JSON");
  table.emplace_back(sub, [o] { return RunMerge(*o); });
}

}  // namespace errdex::cli
