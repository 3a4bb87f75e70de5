// Fuzz target: every JSON errdex reads back from a catalog or an import -- a
// catalog line (record + facts, model/record.h), a bare record, a site context
// and a repository knowledge blob (document/: what `errdex document` reads).
// The first byte picks the reader.
// Property: whatever parses is written back as JSON that parses to the same
// thing (written twice, the bytes agree).
#include "document/documenter.h"
#include "document/site_context.h"
#include "fuzz/fuzz_util.h"
#include "model/record.h"

using namespace errdex;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const fuzz::Split in = fuzz::TakeSelector(fuzz::Bytes(data, size));
  const uint8_t selector = in.selector;
  const std::string_view text = in.rest;
  switch (selector % 4) {
    case 0: {
      auto line = ParseCatalogLine(text);
      if (!line.ok()) break;
      std::string once = CatalogLineToJson(*line);
      auto back = ParseCatalogLine(once);
      fuzz::Check(back.ok(), "a written catalog line parses");
      fuzz::Check(CatalogLineToJson(*back) == once, "a catalog line reads back the same");
      break;
    }
    case 1: {
      auto rec = RecordFromJson(text);
      if (!rec.ok()) break;
      std::string once = RecordToJson(*rec);
      auto back = RecordFromJson(once);
      fuzz::Check(back.ok(), "a written record parses");
      fuzz::Check(RecordToJson(*back) == once, "a record reads back the same");
      break;
    }
    case 2: {
      SiteContext c = SiteContextFromJson(text);
      std::string once = SiteContextToJson(c);
      fuzz::Check(SiteContextToJson(SiteContextFromJson(once)) == once, "a site context reads back the same");
      break;
    }
    default: {
      std::unique_ptr<RepoKnowledge> k = RepoKnowledge::Deserialize(text);
      std::string once = k->Serialize();
      fuzz::Check(RepoKnowledge::Deserialize(once)->Serialize() == once, "a knowledge blob reads back the same");
      (void)k->SettingsJson();
      break;
    }
  }
  return 0;
}
