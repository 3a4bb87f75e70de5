// scan/unit_key.cc: see unit_key.h. Tested by unit_key_test.cc and, end to end,
// by tests/store_history_e2e_test.cc (an incremental scan equals a fresh one).
#include "scan/unit_key.h"

#include <xxhash.h>

#include <algorithm>

#include "document/knowledge.h"
#include "pipeline_fingerprint.h"
#include "store/codec.h"

namespace errdex {

namespace {

constexpr std::string_view kKeyVersion = "errdex-unit-1";

void Common(store::ByteWriter& w, const KeyConfig& c) {
  w.Bytes(kKeyVersion);
  w.Bytes(PipelineFingerprint());
  w.Bytes(c.repo);
  w.Varint(c.limits.max_sites);
  w.Varint(c.limits.max_excerpt_bytes);
  w.Varint(c.limits.max_guards);
  w.Varint(c.limits.max_guard_bytes);
  w.Varint(c.max_file_size);
  w.Byte(c.document ? 1 : 0);
}

}  // namespace

std::string_view PipelineFingerprint() { return ERRDEX_PIPELINE_FINGERPRINT; }

std::string UnitKeyOf(const KeyConfig& config, std::string_view path, std::string_view blob_id,
                      std::string_view cpp_table) {
  std::string bytes;
  store::ByteWriter w(&bytes);
  Common(w, config);
  w.Byte('f');
  w.Bytes(path);
  w.Bytes(blob_id);
  w.Bytes(cpp_table);
  return store::ContentHash(bytes);
}

std::string UnreadableKeyOf(const KeyConfig& config, std::string_view path, std::string_view why) {
  std::string bytes;
  store::ByteWriter w(&bytes);
  Common(w, config);
  w.Byte('u');
  w.Bytes(path);
  w.Bytes(why);
  return store::ContentHash(bytes);
}

std::string CppTableDigest(const std::vector<std::pair<std::string, cpp::LexResult>>& files) {
  std::vector<const std::pair<std::string, cpp::LexResult>*> sorted;
  for (const auto& f : files) sorted.push_back(&f);
  std::sort(sorted.begin(), sorted.end(), [](const auto* a, const auto* b) { return a->first < b->first; });
  std::string bytes;
  store::ByteWriter w(&bytes);
  for (const auto* f : sorted) {
    w.Bytes(f->first);
    w.Varint(f->second.includes.size());
    for (const std::string& inc : f->second.includes) w.Bytes(inc);
    w.Varint(f->second.macros.size());
    for (const cpp::MacroDef& m : f->second.macros) {
      w.Bytes(m.name);
      w.Byte(static_cast<uint8_t>((m.function_like ? 1 : 0) | (m.variadic ? 2 : 0)));
      w.Varint(m.params.size());
      for (const std::string& p : m.params) w.Bytes(p);
      w.Varint(m.body.size());
      for (const cpp::Token& t : m.body) {
        w.Bytes(t.text);
        w.Byte(static_cast<uint8_t>(t.type) | (t.space_before ? 0x80 : 0));
      }
    }
  }
  return store::ContentHash(bytes);
}

std::string EncodeDeps(const std::vector<std::pair<std::string, std::string>>& used) {
  std::vector<std::pair<std::string, std::string>> sorted = used;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  std::string out;
  store::ByteWriter w(&out);
  w.Varint(sorted.size());
  for (const auto& [kind, name] : sorted) {
    w.Bytes(kind);
    w.Bytes(name);
  }
  return out;
}

DocDeps DecodeDeps(std::string_view bytes) {
  DocDeps deps;
  store::ByteReader r(bytes);
  uint64_t n = r.Varint();
  for (uint64_t i = 0; i < n && r.ok(); ++i) {
    std::string kind(r.Bytes());
    std::string name(r.Bytes());
    if (r.ok()) deps.used.emplace_back(std::move(kind), std::move(name));
  }
  return deps;
}

uint64_t DepsVariant(const RepoKnowledge& knowledge, const DocDeps& deps, std::string_view path) {
  // HashDeps looks class bases up repository-wide; a record's prose looks them up
  // from its own file (a class defined differently in two files), so those
  // answers are hashed too.
  XXH64_state_t* st = XXH64_createState();
  XXH64_reset(st, 0x65727264);
  uint64_t h = knowledge.HashDeps(deps);
  XXH64_update(st, &h, sizeof h);
  if (const doc::KnowledgeIndex* idx = doc::AsIndex(knowledge)) {
    for (const auto& [kind, name] : deps.used) {
      if (kind != "class") continue;
      std::string base = idx->ExternalBase(name, path);
      XXH64_update(st, name.data(), name.size());
      XXH64_update(st, "\0", 1);
      XXH64_update(st, base.data(), base.size());
      XXH64_update(st, "\0", 1);
    }
  }
  uint64_t out = XXH64_digest(st);
  XXH64_freeState(st);
  return out == 0 || out == kNoDocsVariant ? out + 2 : out;
}

}  // namespace errdex
