// scan/cpp_table.cc: see cpp_table.h. Tested by tests/store_history_e2e_test.cc
// (a header's macro changes the records of a .cu file that does not change)
// and scanner_test.cc (EncodeLexResult round trip).
#include "scan/cpp_table.h"

#include <algorithm>
#include <atomic>
#include <numeric>
#include <unordered_map>

#include "extract/cpp/cpp_extractor.h"
#include "scan/cache_entry.h"
#include "scan/parallel.h"
#include "scan/unit_key.h"
#include "store/catalog_store.h"
#include "store/codec.h"

namespace errdex {

namespace {

constexpr uint8_t kLexVersion = 1;

// A file's cache entry: its #defines and #includes, and its identifiers.
std::string FileKey(std::string_view blob_id) { return "cpp-file:" + HexDigestOf({PipelineFingerprint(), blob_id}); }
// Every file's include digest under an include identity (all files' paths and #includes).
std::string IncludesKey(std::string_view identity) { return "cpp-includes:" + HexDigestOf({identity}); }
// Every file's dependency digest under a tree identity (all files' paths and
// blobs): a file's digest is a function of the C-family files' contents alone.
std::string DepsKey(std::string_view identity) { return "cpp-deps:" + HexDigestOf({identity}); }

// The files' paths and blobs in path order ("" when a blob is unknown: a
// directory's files are hashed only once read).
std::string TreeIdentity(const std::vector<CppFile>& files, const std::vector<size_t>& order) {
  std::string identity;
  store::ByteWriter w(&identity);
  w.Bytes(PipelineFingerprint());
  for (size_t k : order) {
    if (files[k].blob_id.empty()) return std::string();
    w.Bytes(files[k].path);
    w.Bytes(files[k].blob_id);
  }
  return identity;
}

std::string EncodeFileEntry(const cpp::LexResult& lexed, const std::vector<std::string_view>& identifiers) {
  return PackFileEntry(EncodeLexResult(lexed), identifiers);
}

// `raw` keeps the bytes `identifiers` point into (cache_entry.h).
bool DecodeFileEntry(std::string_view packed, const std::string& path, cpp::LexResult* lexed, std::string* raw,
                     std::vector<std::string_view>* identifiers) {
  std::string_view lex;
  return UnpackFileEntry(packed, raw, &lex, identifiers) && DecodeLexResult(lex, path, lexed);
}

}  // namespace

std::string EncodeLexResult(const cpp::LexResult& lexed) {
  std::string out;
  store::ByteWriter w(&out);
  w.Byte(kLexVersion);
  w.Varint(lexed.includes.size());
  for (const std::string& inc : lexed.includes) w.Bytes(inc);
  w.Varint(lexed.macros.size());
  for (const cpp::MacroDef& m : lexed.macros) {
    w.Bytes(m.name);
    w.Byte(static_cast<uint8_t>((m.function_like ? 1 : 0) | (m.variadic ? 2 : 0)));
    w.Varint(m.params.size());
    for (const std::string& p : m.params) w.Bytes(p);
    w.Varint(m.line);
    w.Bytes(m.storage ? std::string_view(*m.storage) : std::string_view());
  }
  return out;
}

bool DecodeLexResult(std::string_view bytes, const std::string& path, cpp::LexResult* out) {
  store::ByteReader r(bytes);
  if (r.Byte() != kLexVersion) return false;
  cpp::LexResult lexed;
  uint64_t n = r.Varint();
  for (uint64_t i = 0; i < n && r.ok(); ++i) lexed.includes.emplace_back(r.Bytes());
  n = r.Varint();
  for (uint64_t i = 0; i < n && r.ok(); ++i) {
    cpp::MacroDef m;
    m.name = std::string(r.Bytes());
    uint8_t flags = r.Byte();
    m.function_like = flags & 1;
    m.variadic = flags & 2;
    uint64_t params = r.Varint();
    for (uint64_t p = 0; p < params && r.ok(); ++p) m.params.emplace_back(r.Bytes());
    m.line = static_cast<uint32_t>(r.Varint());
    m.file = path;
    auto storage = std::make_shared<std::string>(r.Bytes());
    cpp::LexFragment(*storage, m.line, m.body);  // as LexDefines lexes a body
    m.storage = std::move(storage);
    lexed.macros.push_back(std::move(m));
  }
  if (!r.ok() || !r.done()) return false;
  *out = std::move(lexed);
  return true;
}

Status CppTableBuilder::Run(std::vector<CppFile>& files) {
  const size_t n = files.size();
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return files[a].path < files[b].path; });
  // The commit after a stored one mostly has the same C-family files: then
  // every digest is the one stored under the tree's identity, and the
  // #defines are read only if a C file has to be extracted (Table()). Reading
  // and decoding every file's entry was 130 M instructions of flashinfer's
  // scan of the commit after a stored one, beside the class table.
  std::string deps_key;
  if (store_) {
    if (std::string tree = TreeIdentity(files, order); !tree.empty()) deps_key = DepsKey(tree);
  }
  if (!deps_key.empty()) {
    std::lock_guard<std::mutex> l(*store_mu_);
    auto v = store_->GetCache(deps_key);
    if (!v.ok()) return v.status();
    std::string raw;
    if (v->has_value() && UnpackCacheValue(**v, &raw)) {
      store::ByteReader r(raw);
      std::vector<std::string> digests(n);
      bool ok = r.Varint() == n;
      for (size_t k : order)
        if (ok) digests[k] = std::string(r.Bytes());
      if (ok && r.ok() && r.done()) {
        for (size_t k = 0; k < n; ++k) files[k].deps = std::move(digests[k]);
        lazy_files_.reserve(n);
        for (const CppFile& f : files) lazy_files_.push_back(CppFile{f.path, f.listed, f.blob_id, {}, false, {}});
        return Status::Ok();
      }
    }
  }
  defines_.assign(n, {});
  // Each file's identifiers, as views into `raws` (its cache entry, decoded)
  // or `words` (read here).
  std::vector<std::vector<std::string_view>> identifiers(n);
  std::vector<std::string> raws(n);
  std::vector<std::vector<std::string>> words(n);
  std::vector<std::string> entries(n);  // cached or to cache
  std::vector<char> cached(n, 0);
  auto key_of = [&](size_t k) { return files[k].blob_id.empty() ? std::string() : FileKey(files[k].blob_id); };
  if (store_)
    if (Status st = LoadFileEntries(*store_, *store_mu_, n, key_of, &entries, &cached); !st.ok()) return st;
  std::atomic<size_t> read{0};
  ParallelFor(
      n, jobs_,
      [&](size_t k) {
        CppFile& f = files[k];
        defines_[k].first = f.path;
        if (cached[k] && DecodeFileEntry(entries[k], f.path, &defines_[k].second, &raws[k], &identifiers[k])) {
          std::string().swap(entries[k]);  // only what is computed here is written back
          return;
        }
        cached[k] = 0;
        entries[k].clear();
        if (!f.has_text) {
          auto text = source_->Read(f.listed);
          read.fetch_add(1);
          if (!text.ok()) return;  // unreadable: the first pass reports it
          f.text = std::move(text).value();
          f.has_text = true;
        }
        if (f.blob_id.empty() && store_) f.blob_id = GitBlobId(f.text);
        defines_[k].second = cpp::LexDefines(f.path, f.text);
        if (store_) {
          words[k] = SortedIdentifiers(f.text, /*non_ascii_letters=*/false);
          identifiers[k].assign(words[k].begin(), words[k].end());
          entries[k] = EncodeFileEntry(defines_[k].second, identifiers[k]);
        }
      },
      nullptr);
  files_read_ = read.load();
  if (!store_) return Status::Ok();

  // Each file's include closure: the same as the last scan's when no file was
  // added, removed or changed its #includes (the include identity).
  std::string identity;
  {
    store::ByteWriter w(&identity);
    w.Bytes(PipelineFingerprint());
    for (size_t k : order) {
      w.Bytes(files[k].path);
      w.Varint(defines_[k].second.includes.size());
      for (const std::string& inc : defines_[k].second.includes) w.Bytes(inc);
    }
  }
  const std::string includes_key = IncludesKey(identity);
  std::vector<std::string> include_digest(n);
  bool includes_cached = false;
  {
    std::lock_guard<std::mutex> l(*store_mu_);
    auto v = store_->GetCache(includes_key);
    if (!v.ok()) return v.status();
    std::string raw;
    if (v->has_value() && UnpackCacheValue(**v, &raw)) {
      store::ByteReader r(raw);
      std::unordered_map<std::string, std::string> by_path;
      uint64_t count = r.Varint();
      for (uint64_t i = 0; i < count && r.ok(); ++i) {
        std::string path(r.Bytes());
        by_path[path] = std::string(r.Bytes());
      }
      includes_cached = r.ok() && r.done() && by_path.size() == n;
      for (size_t k = 0; k < n && includes_cached; ++k) {
        auto it = by_path.find(files[k].path);
        if (it == by_path.end()) includes_cached = false;
        else include_digest[k] = it->second;
      }
    }
  }
  std::string includes_entry;
  if (!includes_cached) {
    std::vector<std::vector<std::string>> includes(n);
    for (size_t k = 0; k < n; ++k) includes[k] = defines_[k].second.includes;
    CppDependencies deps(defines_);  // before Table() takes the definitions
    std::vector<std::string> macro_digest(n);
    ParallelFor(n, jobs_, [&](size_t k) { macro_digest[k] = deps.MacroDigest(identifiers[k]); }, nullptr);
    std::shared_ptr<const cpp::MacroTable> table = Table();
    ParallelFor(
        n, jobs_,
        [&](size_t k) {
          include_digest[k] = CppDependencies::IncludeDigest(table->IncludeClosure(files[k].path, includes[k]));
          files[k].deps = CppDependencies::Digest(macro_digest[k], include_digest[k]);
        },
        nullptr);
    std::string raw;
    store::ByteWriter w(&raw);
    w.Varint(n);
    for (size_t k : order) {
      w.Bytes(files[k].path);
      w.Bytes(include_digest[k]);
    }
    includes_entry = PackCacheValue(raw);
  } else {
    CppDependencies deps(defines_);
    ParallelFor(
        n, jobs_,
        [&](size_t k) { files[k].deps = CppDependencies::Digest(deps.MacroDigest(identifiers[k]), include_digest[k]); },
        nullptr);
  }
  std::string deps_entry;
  if (!deps_key.empty()) {
    std::string raw;
    store::ByteWriter w(&raw);
    w.Varint(n);
    for (size_t k : order) w.Bytes(files[k].deps);
    deps_entry = PackCacheValue(raw);
  }
  // What was computed here, for the next scan.
  return StoreFileEntries(*store_, *store_mu_, key_of, entries, cached,
                          {{includes_key, includes_entry}, {deps_key, deps_entry}});
}

// The digests came from the cache (Run): the #defines are read now, from each
// file's cache entry or, failing that, from the file.
void CppTableBuilder::ReadDefinesLate() {
  const size_t n = lazy_files_.size();
  defines_.assign(n, {});
  std::vector<std::string> entries;
  std::vector<char> cached;
  auto key_of = [&](size_t k) { return FileKey(lazy_files_[k].blob_id); };
  if (!LoadFileEntries(*store_, *store_mu_, n, key_of, &entries, &cached).ok()) cached.assign(n, 0);
  ParallelFor(
      n, jobs_,
      [&](size_t k) {
        const CppFile& f = lazy_files_[k];
        defines_[k].first = f.path;
        std::string raw;
        std::vector<std::string_view> identifiers;
        if (cached[k] && DecodeFileEntry(entries[k], f.path, &defines_[k].second, &raw, &identifiers)) return;
        auto text = source_->Read(f.listed);
        if (text.ok()) defines_[k].second = cpp::LexDefines(f.path, *text);
      },
      nullptr);
  std::vector<CppFile>().swap(lazy_files_);
}

std::shared_ptr<const cpp::MacroTable> CppTableBuilder::Table() {
  std::call_once(built_, [&] {
    if (!lazy_files_.empty()) ReadDefinesLate();
    table_ = BuildCppMacroTable(std::move(defines_));
  });
  return table_;
}

}  // namespace errdex
