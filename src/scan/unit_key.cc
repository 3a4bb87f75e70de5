// scan/unit_key.cc: see unit_key.h. Tested by unit_key_test.cc and, end to end,
// by tests/store_history_e2e_test.cc (an incremental scan equals a fresh one).
#include "scan/unit_key.h"

#include <xxhash.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <unordered_set>

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

namespace {

constexpr size_t kFilterBits = size_t{1} << 16;

uint32_t FilterBit(std::string_view w) {
  uint32_t h = static_cast<uint32_t>(w.size()) * 0x9E3779B1u;
  h ^= static_cast<unsigned char>(w[0]) * 0x85EBCA77u;
  h ^= static_cast<unsigned char>(w[w.size() - 1]) * 0xC2B2AE3Du;
  if (w.size() > 2) h ^= static_cast<unsigned char>(w[w.size() / 2]) * 0x27D4EB2Fu;
  return (h ^ (h >> 15)) % kFilterBits;
}

}  // namespace

CppDependencies::CppDependencies(const std::vector<std::pair<std::string, cpp::LexResult>>& files) {
  // A name's definitions in a fixed order (by file, then as written), whatever
  // order the files came in.
  std::vector<std::pair<const std::string*, const cpp::MacroDef*>> defs;
  for (const auto& [path, lexed] : files)
    for (const cpp::MacroDef& m : lexed.macros) defs.emplace_back(&path, &m);
  std::stable_sort(defs.begin(), defs.end(), [](const auto& a, const auto& b) { return *a.first < *b.first; });
  std::map<std::string, std::pair<std::string, std::vector<std::string>>> by_name;  // bytes, mentions
  for (const auto& [path, m] : defs) {
    auto& [b, mentions] = by_name[m->name];
    store::ByteWriter w(&b);
    w.Bytes(*path);
    w.Byte(static_cast<uint8_t>((m->function_like ? 1 : 0) | (m->variadic ? 2 : 0)));
    w.Varint(m->params.size());
    for (const std::string& p : m->params) w.Bytes(p);
    w.Varint(m->body.size());
    for (const cpp::Token& t : m->body) {
      w.Bytes(t.text);
      w.Byte(static_cast<uint8_t>(t.type) | (t.space_before ? 0x80 : 0));
      if (t.type == cpp::TokType::kIdent) mentions.emplace_back(t.text);
    }
  }
  names_.reserve(by_name.size());
  for (auto& [name, v] : by_name) names_.push_back(Name{name, store::ContentHash(v.first), {}});
  filter_.assign(kFilterBits / 64, 0);
  for (uint32_t i = 0; i < names_.size(); ++i) {
    index_.emplace(names_[i].name, i);
    uint32_t bit = FilterBit(names_[i].name);
    filter_[bit / 64] |= uint64_t{1} << (bit % 64);
  }
  uint32_t i = 0;
  for (auto& [name, v] : by_name) {
    for (const std::string& m : v.second)
      if (uint32_t id = Find(m); id != kNone) names_[i].mentions.push_back(id);
    std::sort(names_[i].mentions.begin(), names_[i].mentions.end());
    names_[i].mentions.erase(std::unique(names_[i].mentions.begin(), names_[i].mentions.end()), names_[i].mentions.end());
    ++i;
  }
}

uint32_t CppDependencies::Find(std::string_view word) const {
  uint32_t bit = FilterBit(word);
  if (!(filter_[bit / 64] >> (bit % 64) & 1)) return kNone;
  auto it = index_.find(word);
  return it == index_.end() ? kNone : it->second;
}

std::vector<std::string> SortedIdentifiers(std::string_view text, bool non_ascii_letters) {
  // Byte classes: 1 starts a name (and continues it), 2 only continues it (a digit).
  struct Classes {
    uint8_t c[256];
    explicit Classes(bool non_ascii) {
      for (int b = 0; b < 256; ++b)
        c[b] = (static_cast<unsigned>((b | 0x20) - 'a') < 26u || b == '_' || (non_ascii && b >= 0x80)) ? 1
               : (static_cast<unsigned>(b - '0') < 10u ? 2 : 0);
    }
  };
  static const Classes kPython(true), kC(false);
  const uint8_t* cls = non_ascii_letters ? kPython.c : kC.c;
  // Deduplicated as views in a flat open-addressed table: a file repeats its
  // words (self, x, return) many times; a string per occurrence, then a node
  // per distinct word (std::unordered_set), were most of the identifiers' cost
  // and the identifiers a quarter of the `scan --db` work over `-o` (perf, the
  // stdlib and dist-packages).
  struct Slot {
    const char* p = nullptr;
    uint32_t n = 0;
    uint32_t h = 0;
  };
  size_t cap = 64;
  while (cap < text.size() / 16) cap <<= 1;
  std::vector<Slot> table(cap);
  size_t used = 0;
  auto insert = [&](const char* p, uint32_t n, uint32_t h) {
    size_t mask = table.size() - 1;
    for (size_t k = h & mask;; k = (k + 1) & mask) {
      Slot& s = table[k];
      if (!s.p) {
        s = Slot{p, n, h};
        ++used;
        return;
      }
      if (s.h == h && s.n == n && std::memcmp(s.p, p, n) == 0) return;
    }
  };
  const char* d = text.data();
  const size_t n = text.size();
  for (size_t i = 0; i < n;) {
    uint8_t c = cls[static_cast<unsigned char>(d[i])];
    if (c == 1) {
      size_t j = i + 1;
      while (j < n && cls[static_cast<unsigned char>(d[j])]) ++j;
      if ((used + 1) * 2 > table.size()) {
        std::vector<Slot> old(table.size() * 2);
        old.swap(table);
        used = 0;
        for (const Slot& s : old)
          if (s.p) insert(s.p, s.n, s.h);
      }
      uint32_t len = static_cast<uint32_t>(j - i);
      insert(d + i, len, static_cast<uint32_t>(XXH3_64bits(d + i, len)));
      i = j;
    } else if (c == 2) {
      while (i < n && cls[static_cast<unsigned char>(d[i])]) ++i;  // a number's letters are no name
    } else {
      ++i;
    }
  }
  // Sorted as views: sorting the strings themselves moved each one per swap.
  std::vector<std::string_view> words;
  words.reserve(used);
  for (const Slot& s : table)
    if (s.p) words.emplace_back(s.p, s.n);
  std::sort(words.begin(), words.end());
  return std::vector<std::string>(words.begin(), words.end());
}

std::string CppDependencies::MacroDigest(const std::vector<std::string_view>& identifiers) const {
  std::vector<char> seen(names_.size(), 0);
  std::vector<uint32_t> reached;
  auto visit = [&](uint32_t id) {
    if (id == kNone || seen[id]) return;
    seen[id] = 1;
    reached.push_back(id);
  };
  for (std::string_view word : identifiers) visit(Find(word));
  for (size_t k = 0; k < reached.size(); ++k)
    for (uint32_t m : names_[reached[k]].mentions) visit(m);
  std::sort(reached.begin(), reached.end());  // ids sort as names
  std::string bytes;
  store::ByteWriter w(&bytes);
  w.Varint(reached.size());
  for (uint32_t id : reached) {
    w.Bytes(names_[id].name);
    w.Bytes(names_[id].digest);
  }
  return store::ContentHash(bytes);
}

std::string CppDependencies::IncludeDigest(const std::unordered_map<std::string_view, int>& visible) {
  std::vector<std::pair<std::string_view, int>> closure(visible.begin(), visible.end());
  std::sort(closure.begin(), closure.end());
  std::string bytes;
  store::ByteWriter w(&bytes);
  w.Varint(closure.size());
  for (const auto& [file, rank] : closure) {
    w.Bytes(file);
    w.Signed(rank);
  }
  return store::ContentHash(bytes);
}

std::string CppDependencies::Digest(std::string_view macro_digest, std::string_view include_digest) {
  std::string bytes(macro_digest);
  bytes.append(include_digest);
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
