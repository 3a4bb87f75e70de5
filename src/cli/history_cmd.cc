// history_cmd.cc: the commands over a catalog of many commits -- diff (what
// changed between two stored commits), history (the commits that hold a
// record) and gc (space back after scans were deleted). Exit codes: 0 found
// (differences, a record), 1 none, 2 error. Tested by
// tests/store_revisions_e2e_test.cc.
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/terminal.h"
#include "model/record.h"
#include "store/catalog_diff.h"
#include "store/catalog_store.h"

namespace errdex::cli {
namespace {

int Fail(const std::string& msg) {
  std::fprintf(stderr, "errdex: error: %s\n", msg.c_str());
  return 2;
}

void Out(const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

std::string JsonStr(std::string_view s) {
  std::string out;
  AppendJsonString(out, s);
  return out;
}
std::string JsonOpt(const std::optional<std::string>& s) { return s ? JsonStr(*s) : "null"; }

std::string Short(const std::string& sha) { return sha.size() > 12 ? sha.substr(0, 12) : sha; }

// The scan of `repo` whose sha is `rev` or starts with it (4+ characters).
Result<ScanInfo> ScanOf(CatalogStore& store, const std::string& repo, const std::string& rev) {
  auto scans = store.ListScans();
  if (!scans.ok()) return scans.status();
  std::vector<const ScanInfo*> found;
  for (const ScanInfo& s : *scans) {
    if (s.repo != repo) continue;
    if (s.sha == rev || (rev.size() >= 4 && s.sha.compare(0, rev.size(), rev) == 0)) found.push_back(&s);
  }
  if (found.empty()) return Status::NotFound("no scan of " + repo + "@" + rev + " in the catalog (errdex scans lists them)");
  if (found.size() > 1) return Status::InvalidArgument("'" + rev + "' names several scanned commits of " + repo);
  return *found.front();
}

// ---------------------------------------------------------------- diff

struct DiffOptions {
  std::string db, repo, from, to;
  bool json = false;
  std::string color = "auto";
};

std::string Side(const std::optional<CatalogLine>& l) {
  if (!l) return "null";
  const Record& r = l->record;
  return "{\"id\":" + JsonStr(r.id) + ",\"file\":" + JsonStr(r.file_path) + ",\"line\":" + std::to_string(r.line_number) +
         ",\"errorClass\":" + JsonOpt(r.error_class) + ",\"errorMessage\":" + JsonOpt(r.error_message) + "}";
}

const char* KindName(RecordChange::Kind k) {
  switch (k) {
    case RecordChange::Kind::kAdded: return "added";
    case RecordChange::Kind::kRemoved: return "removed";
    case RecordChange::Kind::kChanged: return "changed";
    case RecordChange::Kind::kMoved: return "moved";
  }
  return "changed";
}

std::string What(const Record& r) {
  return Printable(r.error_class.value_or("error")) + ": \"" + Printable(r.error_message.value_or("")) + "\"";
}

int RunDiff(const DiffOptions& o) {
  auto store = CatalogStore::Open(o.db, /*create=*/false);
  if (!store.ok()) return Fail(store.status().message());
  auto from = ScanOf(**store, o.repo, o.from);
  if (!from.ok()) return Fail(from.status().message());
  auto to = ScanOf(**store, o.repo, o.to);
  if (!to.ok()) return Fail(to.status().message());
  auto diff = DiffScans(**store, from->scan_id, to->scan_id);
  if (!diff.ok()) return Fail(diff.status().message());
  const CatalogDiff& d = *diff;
  std::string out;
  if (o.json) {
    for (const RecordChange& c : d.changes) {
      out += "{\"type\":\"";
      out += KindName(c.kind);
      out += "\",\"data\":{\"before\":" + Side(c.before) + ",\"after\":" + Side(c.after) + ",\"changed\":[";
      for (size_t i = 0; i < c.changed.size(); ++i) out += (i ? "," : "") + JsonStr(c.changed[i]);
      char sim[32];
      std::snprintf(sim, sizeof sim, "%.3f", c.similarity);
      out += "],\"moved\":" + std::string(c.moved ? "true" : "false") + ",\"similarity\":" + sim + "}}\n";
    }
    out += "{\"type\":\"summary\",\"data\":{\"repo\":" + JsonStr(o.repo) + ",\"from\":" + JsonStr(d.from.sha) +
           ",\"to\":" + JsonStr(d.to.sha) + ",\"added\":" + std::to_string(d.added) +
           ",\"removed\":" + std::to_string(d.removed) + ",\"changed\":" + std::to_string(d.changed) +
           ",\"moved\":" + std::to_string(d.moved) + ",\"unchanged\":" + std::to_string(d.unchanged) +
           ",\"unitsShared\":" + std::to_string(d.units_shared) + "}}\n";
  } else {
    Palette p;
    p.on = UseColor(o.color, STDOUT_FILENO);
    char head[512];
    std::snprintf(head, sizeof head, "%s %s..%s: %lld added, %lld removed, %lld changed, %lld moved (%lld unchanged)\n",
                  Printable(o.repo).c_str(), Short(d.from.sha).c_str(), Short(d.to.sha).c_str(),
                  static_cast<long long>(d.added), static_cast<long long>(d.removed),
                  static_cast<long long>(d.changed), static_cast<long long>(d.moved),
                  static_cast<long long>(d.unchanged));
    out += p.Bold(head);
    for (const RecordChange& c : d.changes) {
      const Record* a = c.before ? &c.before->record : nullptr;
      const Record* b = c.after ? &c.after->record : nullptr;
      std::string where = b ? Printable(b->file_path) + ":" + std::to_string(b->line_number)
                            : Printable(a->file_path) + ":" + std::to_string(a->line_number);
      switch (c.kind) {
        case RecordChange::Kind::kAdded: out += p.Wrap("32", "+ added    ") + What(*b) + "  " + p.Dim(where) + "\n"; break;
        case RecordChange::Kind::kRemoved: out += p.Wrap("31", "- removed  ") + What(*a) + "  " + p.Dim(where) + "\n"; break;
        case RecordChange::Kind::kMoved:
          out += p.Wrap("36", "> moved    ") + What(*b) + "  " +
                 p.Dim(Printable(a->file_path) + ":" + std::to_string(a->line_number) + " -> " + where) + "\n";
          break;
        case RecordChange::Kind::kChanged: {
          std::string parts;
          for (const std::string& w : c.changed) parts += (parts.empty() ? "" : ",") + w;
          out += p.Wrap("33", "~ changed  ") + parts + "  ";
          if (a->error_message != b->error_message)
            out += What(*a) + " -> \"" + Printable(b->error_message.value_or("")) + "\"";
          else
            out += What(*b);
          out += "  " + p.Dim(c.moved ? Printable(a->file_path) + ":" + std::to_string(a->line_number) + " -> " + where
                                      : where) +
                 "\n";
          break;
        }
      }
    }
  }
  Out(out);
  return d.changes.empty() ? 1 : 0;
}

// ---------------------------------------------------------------- history

struct HistoryOptions {
  std::string db, key;
  bool json = false;
  std::string color = "auto";
};

int RunHistory(const HistoryOptions& o) {
  auto store = CatalogStore::Open(o.db, /*create=*/false);
  if (!store.ok()) return Fail(store.status().message());
  auto histories = HistoryOf(**store, o.key);
  if (!histories.ok()) return Fail(histories.status().message());
  if (histories->empty()) {
    std::fprintf(stderr, "errdex: no record with id or slug \"%s\" in %s\n", Printable(o.key).c_str(), o.db.c_str());
    return 1;
  }
  std::string out;
  Palette p;
  p.on = !o.json && UseColor(o.color, STDOUT_FILENO);
  auto seen_json = [](const RecordHistory::Seen& s) {
    return "{\"sha\":" + JsonStr(s.scan.sha) + ",\"commitTime\":" + JsonStr(s.scan.commit_time) +
           ",\"datasetVersion\":" + JsonStr(s.scan.dataset_version) + ",\"file\":" + JsonStr(s.file) +
           ",\"line\":" + std::to_string(s.line) + ",\"errorMessage\":" + JsonOpt(s.message) + "}";
  };
  for (const RecordHistory& h : *histories) {
    const auto& first = h.commits.front();
    const auto& last = h.commits.back();
    if (o.json) {
      out += "{\"type\":\"history\",\"data\":{\"id\":" + JsonStr(h.id) + ",\"repo\":" + JsonOpt(h.newest.repo) +
             ",\"slug\":" + JsonOpt(h.newest.slug) + ",\"errorClass\":" + JsonOpt(h.newest.error_class) +
             ",\"errorMessage\":" + JsonOpt(h.newest.error_message) + ",\"firstSeen\":" + seen_json(first) +
             ",\"lastSeen\":" + seen_json(last) + ",\"commits\":[";
      for (size_t i = 0; i < h.commits.size(); ++i) out += (i ? "," : "") + seen_json(h.commits[i]);
      out += "],\"absentFrom\":[";
      for (size_t i = 0; i < h.absent_from.size(); ++i)
        out += (i ? "," : "") + std::string("{\"sha\":") + JsonStr(h.absent_from[i].sha) +
               ",\"commitTime\":" + JsonStr(h.absent_from[i].commit_time) + "}";
      out += "]}}\n";
      continue;
    }
    out += p.Bold(h.id) + "  " + p.Error(Printable(h.newest.error_class.value_or("error"))) + ": \"" +
           Printable(h.newest.error_message.value_or("")) + "\"  " + p.Dim(Printable(h.newest.repo.value_or(""))) + "\n";
    auto line = [&](const char* label, const RecordHistory::Seen& s) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "  %-11s ", label);
      return p.Label(buf) + Short(s.scan.sha) + "  " + p.Dim(Printable(s.scan.commit_time.empty() ? s.scan.dataset_version
                                                                                                : s.scan.commit_time)) +
             "  " + Printable(s.file) + ":" + std::to_string(s.line) + "\n";
    };
    out += line("first seen", first);
    out += line("last seen", last);
    out += "  " + std::to_string(h.commits.size()) + (h.commits.size() == 1 ? " commit" : " commits") + ":\n";
    for (const auto& s : h.commits)
      out += "    " + Short(s.scan.sha) + "  " + Printable(s.file) + ":" + std::to_string(s.line) + "\n";
    if (!h.absent_from.size()) continue;
    out += "  absent from " + std::to_string(h.absent_from.size()) + " scanned commit(s) in between:";
    for (const ScanInfo& s : h.absent_from) out += " " + Short(s.sha);
    out += "\n";
  }
  Out(out);
  return 0;
}

// ---------------------------------------------------------------- gc

struct GcOptions {
  std::string db;
  int64_t grace = 600;
  bool json = false;
};

int RunGc(const GcOptions& o) {
  auto store = CatalogStore::Open(o.db, /*create=*/false);
  if (!store.ok()) return Fail(store.status().message());
  auto gc = (*store)->CollectGarbage(o.grace == 0 ? -1 : o.grace);  // 0: even what was written this second
  if (!gc.ok()) return Fail(gc.status().message());
  char buf[512];
  if (o.json)
    std::snprintf(buf, sizeof buf,
                  "{\"type\":\"summary\",\"data\":{\"units\":%lld,\"entries\":%lld,\"bytesBefore\":%lld,\"bytesAfter\":%lld}}\n",
                  static_cast<long long>(gc->units), static_cast<long long>(gc->entries),
                  static_cast<long long>(gc->bytes_before), static_cast<long long>(gc->bytes_after));
  else
    std::snprintf(buf, sizeof buf, "removed %lld unit(s) and %lld search entr%s no scan holds; %s: %.1f MB -> %.1f MB\n",
                  static_cast<long long>(gc->units), static_cast<long long>(gc->entries),
                  gc->entries == 1 ? "y" : "ies", o.db.c_str(), gc->bytes_before / 1e6, gc->bytes_after / 1e6);
  Out(buf);
  return 0;
}

}  // namespace

void RegisterHistoryCommands(CLI::App& app, CommandTable& table) {
  {
    auto o = std::make_shared<DiffOptions>();
    CLI::App* sub = app.add_subcommand(
        "diff", "What changed between two scanned commits of a repository: errors added, removed, changed "
                "(message, class, guards, prose) and moved. Exit 0 when something changed, 1 when nothing did");
    sub->add_option("--db", o->db, "catalog (file or postgresql:// URL)")->required();
    sub->add_option("REPO", o->repo, "OWNER/NAME as scanned")->required();
    sub->add_option("REV_A", o->from, "the older commit: a scanned sha or a prefix of 4+ characters")->required();
    sub->add_option("REV_B", o->to, "the newer commit")->required();
    sub->add_flag("--json", o->json, "JSON Lines: {\"type\":\"added|removed|changed|moved|summary\",\"data\":{...}}");
    sub->add_option("--color", o->color, "auto, always or never")->check(CLI::IsMember({"auto", "always", "never"}));
    table.emplace_back(sub, [o] { return RunDiff(*o); });
  }
  {
    auto o = std::make_shared<HistoryOptions>();
    CLI::App* sub = app.add_subcommand(
        "history", "Every scanned commit that holds a record: first seen, last seen, its line in each");
    sub->add_option("--db", o->db, "catalog (file or postgresql:// URL)")->required();
    sub->add_option("ID", o->key, "record id (16 hex) or slug")->required();
    sub->add_flag("--json", o->json, "JSON Lines: {\"type\":\"history\",\"data\":{...}}");
    sub->add_option("--color", o->color, "auto, always or never")->check(CLI::IsMember({"auto", "always", "never"}));
    table.emplace_back(sub, [o] { return RunHistory(*o); });
  }
  {
    auto o = std::make_shared<GcOptions>();
    CLI::App* sub = app.add_subcommand(
        "gc", "Remove what no scan holds any more (after errdex scans --delete) and give the space back");
    sub->add_option("--db", o->db, "catalog (file or postgresql:// URL)")->required();
    sub->add_option("--grace", o->grace,
                    "keep what was written in the last SECONDS (default 600): a scan may be about to use it")
        ->check(CLI::NonNegativeNumber);
    sub->add_flag("--json", o->json, "print the summary as JSON");
    table.emplace_back(sub, [o] { return RunGc(*o); });
  }
}

}  // namespace errdex::cli
