// Scan(): list -> read + extract (N threads) -> records -> document (N threads).
// Determinism: every per-file result lands in the slot of its index in the
// sorted file list, and knowledge is merged in that order, so the output does
// not depend on the number of threads (tested by scan_e2e_test.cc, -j1 == -j2).
#include "scan/scanner.h"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "check/scan_hook.h"
#include "document/documenter.h"
#include "extract/common/binary.h"
#include "extract/cpp/cpp_extractor.h"
#include "extract/javascript/js_extractor.h"
#include "extract/go/go_extractor.h"
#include "extract/java/java_extractor.h"
#include "extract/python/python_extractor.h"
#include "extract/rust/rust_extractor.h"
#include "model/utf8.h"
#include "store/catalog_store.h"

namespace errdex {

namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

template <typename R>
ExtractOutput FromFrontEnd(R r) {
  ExtractOutput out;
  out.sites = std::move(r.sites);
  out.diagnostics = std::move(r.diagnostics);
  out.failed = r.failed;
  if constexpr (requires { r.sites_left_out; }) out.sites_left_out = r.sites_left_out;
  if constexpr (requires { r.tokens; }) out.python_tokens = std::move(r.tokens);
  return out;
}

// Runs fn(i) for i in [0, n) on `jobs` threads; the calling thread calls
// tick() about every 100 ms until all are done.
void ParallelFor(size_t n, int jobs, const std::function<void(size_t)>& fn, const std::function<void()>& tick) {
  if (n == 0) return;
  int threads = std::max(1, std::min<int>(jobs, static_cast<int>(n)));
  std::atomic<size_t> next{0};
  std::mutex mu;
  std::condition_variable cv;
  int finished = 0;
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&] {
      for (size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < n;) fn(i);
      std::lock_guard<std::mutex> lock(mu);
      ++finished;
      cv.notify_one();
    });
  }
  {
    std::unique_lock<std::mutex> lock(mu);
    while (!cv.wait_for(lock, std::chrono::milliseconds(100), [&] { return finished == threads; })) {
      lock.unlock();
      if (tick) tick();
      lock.lock();
    }
  }
  for (auto& th : pool) th.join();
}

// What one file gave.
struct FileResult {
  std::vector<CatalogLine> lines;
  std::vector<Diagnostic> diagnostics;
  std::string text;  // kept only while the document stage needs it
  std::string jsonl;  // the lines serialized (ScanOptions::json_lines)
  FileKnowledgePtr knowledge;
  std::vector<SiteContext> contexts;  // the document stage's context of each line's site
  std::string contexts_json;          // those contexts as the knowledge blob's "sites" entries
  uint64_t bytes = 0;
  size_t sites_left_out = 0;
  bool skipped = false;
  bool too_large = false;  // skipped by --max-file-size
};

struct ResolvedSource {
  FileSource* source = nullptr;
  std::unique_ptr<FileSource> owned;
  std::string prefix;  // prepended to every listed path ("" or "sub/dir/")
  std::optional<std::string> repo, sha;
  std::string root;    // the scanned path, absolute ("" for a test source)
};

std::string AbsolutePath(const std::string& p) {
  char buf[PATH_MAX];
  if (realpath(p.c_str(), buf) == nullptr) return p;
  return buf;
}

Result<ResolvedSource> ResolveSource(const ScanOptions& o) {
  ResolvedSource rs;
  rs.repo = o.repo;
  rs.sha = o.sha;
  if (o.source != nullptr) {
    rs.source = o.source;
    return rs;
  }
  struct stat st;
  if (o.path.empty() || stat(o.path.c_str(), &st) != 0) return Status::NotFound("no such file or directory: " + o.path);
  if (!S_ISDIR(st.st_mode)) return Status::InvalidArgument("not a directory or git repository: " + o.path);
  rs.root = AbsolutePath(o.path);
  GitFacts facts = DiscoverGitFacts(o.path);
  if (!rs.repo && facts.github_repo) rs.repo = facts.github_repo;
  if (o.rev || facts.bare) {
    if (!facts.in_git) return Status::InvalidArgument("--rev needs a git repository: " + o.path + " is not in one");
    std::string rev = o.rev.value_or("HEAD");
    auto git = OpenGitTreeSource(o.path, rev, facts.bare ? "" : facts.subdir, o.max_file_size);
    if (!git.ok()) return git.status();
    if (!rs.sha) rs.sha = git->commit_sha;
    rs.owned = std::move(git->source);
  } else {
    auto dir = OpenDirectorySource(o.path, o.max_file_size);
    if (!dir.ok()) return dir.status();
    rs.owned = std::move(dir.value());
    // A work tree in git: HEAD is the commit and paths are relative to the
    // repository root -- unless --repo names another repository than origin
    // (a project vendored or bundled inside this one): then PATH is its root.
    bool same_repo = !o.repo || o.repo == facts.github_repo;
    if (facts.in_git && same_repo) {
      if (!rs.sha && facts.head_sha) rs.sha = facts.head_sha;
      if (!facts.subdir.empty()) rs.prefix = facts.subdir + "/";
    }
  }
  rs.source = rs.owned.get();
  return rs;
}

void SerializeLines(ScanOptions::JsonLines mode, FileResult& fr) {
  if (mode == ScanOptions::JsonLines::kNone) return;
  bool facts = mode == ScanOptions::JsonLines::kRecordsWithFacts;
  for (const CatalogLine& line : fr.lines) {
    fr.jsonl += CatalogLineJson(line, facts);
    fr.jsonl.push_back('\n');
  }
}

bool SiteOrder(const Site& a, const Site& b) {
  if (a.line != b.line) return a.line < b.line;
  return a.column < b.column;
}

}  // namespace

Extractor ExtractorForPath(std::string_view path, const ExtractLimits& limits) {
  if (EndsWith(path, ".py")) {
    return [limits](std::string_view p, std::string_view text) { return FromFrontEnd(ExtractPython(p, text, limits)); };
  }
  if (IsCppPath(path))
    return [limits](std::string_view p, std::string_view text) {
      return FromFrontEnd(ExtractCpp(p, text, nullptr, limits));
    };
#ifdef ERRDEX_HAVE_TREE_SITTER
  // tree-sitter front end. Minified bundles and type declarations raise nothing a
  // user can map back to a line worth reading, and would dominate the scan time.
  if (EndsWith(path, ".min.js") || EndsWith(path, ".d.ts")) return nullptr;
  JsExtractOptions js;
  js.limits = limits;
  for (std::string_view ext : {".js", ".mjs", ".cjs", ".jsx"})
    if (EndsWith(path, ext))
      return [js](std::string_view p, std::string_view text) { return FromFrontEnd(ExtractJavaScript(p, text, false, js)); };
  for (std::string_view ext : {".ts", ".mts", ".cts", ".tsx"})
    if (EndsWith(path, ext))
      return [js](std::string_view p, std::string_view text) { return FromFrontEnd(ExtractJavaScript(p, text, true, js)); };
  TsExtractOptions ts;
  ts.limits = limits;
  if (EndsWith(path, ".rs"))
    return [ts](std::string_view p, std::string_view text) { return FromFrontEnd(ExtractRust(p, text, ts)); };
  if (EndsWith(path, ".go"))
    return [ts](std::string_view p, std::string_view text) { return FromFrontEnd(ExtractGo(p, text, ts)); };
  if (EndsWith(path, ".java"))
    return [ts](std::string_view p, std::string_view text) { return FromFrontEnd(ExtractJava(p, text, ts)); };
#endif
  return nullptr;
}

std::vector<std::string_view> SplitSourceLines(std::string_view text) {
  std::vector<std::string_view> lines;
  if (text.size() >= 3 && text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.remove_prefix(3);  // BOM, as utf-8-sig
  size_t start = 0, i = 0, n = text.size();
  while (i < n) {
    char c = text[i];
    if (c == '\n' || c == '\r') {
      lines.push_back(text.substr(start, i - start));
      i += (c == '\r' && i + 1 < n && text[i + 1] == '\n') ? 2 : 1;
      start = i;
    } else {
      ++i;
    }
  }
  if (start < n) lines.push_back(text.substr(start));
  return lines;
}

std::string_view IdMessageKey(const Site& site) {
  if (site.error_message) return *site.error_message;
  if (site.message_expr) return *site.message_expr;
  return {};
}

SourceWindow CutSourceWindow(const std::vector<std::string_view>& lines, int line, int column, size_t max_bytes) {
  SourceWindow w;
  int n = static_cast<int>(lines.size());
  int start = std::max(1, line - kSourceContextLines);
  int end = std::min(n, line + kSourceContextLines);
  if (end < start) {  // a site past the last line (cannot happen with a correct front end)
    start = end = std::max(1, std::min(line, n));
  }
  auto bytes = [&](int a, int b) {
    size_t total = 0;
    for (int k = a; k <= b && k <= n; ++k) total += lines[k - 1].size() + (k > a ? 1 : 0);
    return total;
  };
  w.uncut_bytes = bytes(start, end);
  const int anchor = std::max(start, std::min(line, end));
  size_t total = w.uncut_bytes;
  while (total > max_bytes && (start < anchor || end > anchor)) {  // drop the farthest line
    if (end - anchor >= anchor - start) {
      total -= lines[end - 1].size() + 1;
      --end;
    } else {
      total -= lines[start - 1].size() + 1;
      ++start;
    }
  }
  w.start = start;
  w.end = end;
  w.cut = total < w.uncut_bytes;
  if (total > max_bytes && anchor <= n) {  // the site's own line alone is too long
    std::string_view l = lines[anchor - 1];
    size_t col = column > 0 ? static_cast<size_t>(column) : 0;
    size_t b = col > max_bytes / 4 ? col - max_bytes / 4 : 0;
    if (b + max_bytes > l.size()) b = l.size() > max_bytes ? l.size() - max_bytes : 0;
    while (b > 0 && (static_cast<unsigned char>(l[b]) & 0xC0) == 0x80) --b;  // a whole first character
    std::string_view tail = l.substr(b);
    w.code = std::string(tail.substr(0, Utf8CutPoint(tail, max_bytes)));
    w.cut = true;
    return w;
  }
  w.code.reserve(total);
  for (int k = start; k <= end && k <= n; ++k) {
    if (k > start) w.code.push_back('\n');
    w.code.append(lines[k - 1]);
  }
  return w;
}

Record BuildRecord(const Site& site, const std::vector<std::string_view>& lines,
                   const std::optional<std::string>& repo, const std::optional<std::string>& sha,
                   const std::string& analyzed_at, int occurrence) {
  return BuildRecord(site, CutSourceWindow(lines, site.line, site.column, ExtractLimits{}.max_excerpt_bytes), repo,
                     sha, analyzed_at, occurrence);
}

Record BuildRecord(const Site& site, const SourceWindow& window, const std::optional<std::string>& repo,
                   const std::optional<std::string>& sha, const std::string& analyzed_at, int occurrence) {
  Record r;
  r.id = MakeRecordId(repo.value_or(""), site.file_path, SiteKindName(site.kind), site.error_class.value_or(""),
                      IdMessageKey(site), occurrence);
  r.repo = repo;
  if (site.error_message) {
    std::string slug = MakeSlug(*site.error_message);
    if (!slug.empty()) r.slug = std::move(slug);
  }
  r.error_code = site.error_code;
  r.error_message = site.error_message;
  r.message_pattern = site.message_pattern;
  r.error_class = site.error_class;
  r.http_status = site.http_status;
  r.file_path = site.file_path;
  r.line_number = site.line;
  r.source_code = window.code;
  r.source_code_start = window.start;
  r.source_code_end = window.end;
  if (repo && sha) r.github_url = MakeGithubUrl(*repo, *sha, site.file_path, window.start, window.end);
  r.analyzed_sha = sha;
  r.analyzed_at = analyzed_at;
  r.schema_version = kSchemaVersion;
  return r;
}

Result<ScanResult> Scan(const ScanOptions& options) {
  auto t0 = Clock::now();
  ScanResult result;
  result.dataset_version = FormatIsoTime(NowMillisHonouringSourceDateEpoch());

  auto resolved = ResolveSource(options);
  if (!resolved.ok()) return resolved.status();
  ResolvedSource& rs = resolved.value();
  result.repo = rs.repo;
  result.sha = rs.sha;
  if (!rs.sha) result.location = rs.root.empty() ? rs.source->Describe() : rs.root;
  result.source = rs.source->Describe();

  // 1. List.
  auto listing = rs.source->List();
  if (!listing.ok()) return listing.status();
  result.stats.files_listed = static_cast<int64_t>(listing->paths.size());
  for (Diagnostic& d : listing->diagnostics) {
    d.path = rs.prefix + d.path;
    result.diagnostics.push_back(std::move(d));
  }
  struct Work {
    std::string path;  // as listed by the source
    Extractor extractor;
  };
  std::vector<Work> work;
  std::vector<std::string> packaging;  // pyproject.toml / setup.cfg: console scripts for `errdex check`
  for (std::string& p : listing->paths) {
    if (options.document && check::IsPackagingFile(p) && !EndsWith(p, ".py")) packaging.push_back(p);
    Extractor ex = options.extractor ? options.extractor : ExtractorForPath(p, options.limits);
    if (ex) work.push_back({std::move(p), std::move(ex)});
  }
  result.stats.files_scanned = static_cast<int64_t>(work.size());
  result.stats.list_seconds = SecondsSince(t0);
  if (work.empty()) {
    if (result.stats.files_listed == 0)
      return Status::InvalidArgument("no files in " + result.source + " (an empty directory or commit); nothing scanned");
    return Status::InvalidArgument(std::to_string(result.stats.files_listed) + " files in " + result.source +
                                   " but none that errdex reads (.py, .js, .ts, ...); nothing scanned");
  }

  int jobs = options.jobs > 0 ? options.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::vector<FileResult> files(work.size());
  // Front ends that need the whole repository first: the C/C++ #define table
  // (a wrapper macro defined in one header is used in every .cu file). Those
  // files are read here once and kept for the extraction below.
  std::vector<char> preread(work.size(), 0);
  if (!options.extractor) {
    std::vector<size_t> cpp_files;
    for (size_t i = 0; i < work.size(); ++i)
      if (IsCppPath(work[i].path)) cpp_files.push_back(i);
    if (!cpp_files.empty()) {
      std::vector<std::pair<std::string, cpp::LexResult>> defines(cpp_files.size());
      ParallelFor(
          cpp_files.size(), jobs,
          [&](size_t k) {
            size_t i = cpp_files[k];
            defines[k].first = rs.prefix + work[i].path;
            auto text = rs.source->Read(work[i].path);
            if (text.ok()) {
              files[i].text = std::move(text.value());
              preread[i] = 1;
              defines[k].second = cpp::LexDefines(defines[k].first, files[i].text);
            }
          },
          nullptr);
      std::shared_ptr<const cpp::MacroTable> table = BuildCppMacroTable(std::move(defines));
      for (size_t i : cpp_files)
        work[i].extractor = [table, limits = options.limits](std::string_view path, std::string_view text) {
          return FromFrontEnd(ExtractCpp(path, text, table.get(), limits));
        };
    }
    // Python: messages built by exception classes (a template in one module, raises
    // in others; extract/python/class_messages.h).
    std::vector<size_t> py_files;
    for (size_t i = 0; i < work.size(); ++i)
      if (EndsWith(work[i].path, ".py")) py_files.push_back(i);
    if (!py_files.empty()) {
      std::vector<std::vector<py::ClassMessage>> classes(py_files.size());
      ParallelFor(
          py_files.size(), jobs,
          [&](size_t k) {
            size_t i = py_files[k];
            auto text = rs.source->Read(work[i].path);
            if (!text.ok()) return;
            files[i].text = std::move(text.value());
            preread[i] = 1;
            classes[k] = CollectPythonClassMessages(rs.prefix + work[i].path, files[i].text);
          },
          nullptr);
      auto table = std::make_shared<py::ClassMessageTable>();
      for (auto& c : classes) table->Add(std::move(c));
      if (table->size() > 0) {
        ExtractLimits limits = options.limits;
        for (size_t i : py_files)
          work[i].extractor = [table, limits](std::string_view path, std::string_view text) {
            return FromFrontEnd(ExtractPython(path, text, limits, table.get()));
          };
      }
    }
  }
  check::ScanHook check_hook(options.document ? work.size() : 0);
  for (const std::string& p : packaging)
    if (auto text = rs.source->Read(p); text.ok()) check_hook.AddPackagingFile(rs.prefix + p, *text);
  std::atomic<int64_t> done{0}, sites{0}, documented{0};
  std::atomic<bool> documenting{false};
  std::atomic<uint64_t> bytes{0};
  auto tick = [&] {
    if (!options.on_progress) return;
    ScanProgress p;
    p.files_total = static_cast<int64_t>(work.size());
    p.files_done = done.load();
    p.sites = sites.load();
    p.documenting = documenting.load();
    p.sites_documented = documented.load();
    p.bytes = bytes.load();
    p.seconds = SecondsSince(t0);
    options.on_progress(p);
  };

  // 2. Read + extract + records (+ knowledge).
  auto t1 = Clock::now();
  const std::string& analyzed_at = result.dataset_version;
  ParallelFor(
      work.size(), jobs,
      [&](size_t i) {
        FileResult& fr = files[i];
        const std::string path = rs.prefix + work[i].path;
        if (!preread[i]) {
          auto text = rs.source->Read(work[i].path);
          if (!text.ok()) {
            fr.diagnostics.push_back({path, 0, 0, text.status().message()});
            fr.skipped = true;
            fr.too_large = text.status().code() == Status::Code::kLimitExceeded;
            done.fetch_add(1);
            return;
          }
          fr.text = std::move(text.value());
        }
        fr.bytes = fr.text.size();
        if (std::optional<std::string> why = BinaryReason(fr.text)) {
          fr.diagnostics.push_back({path, 0, 0, "not source text, skipped: " + *why});
          fr.skipped = true;
          std::string().swap(fr.text);
          bytes.fetch_add(fr.bytes);
          done.fetch_add(1);
          return;
        }
        ExtractOutput out;
        try {
          out = work[i].extractor(path, fr.text);
        } catch (const std::exception& e) {
          out = ExtractOutput{};
          out.failed = true;
          out.diagnostics.push_back({path, 0, 0, std::string("internal error in the front end: ") + e.what()});
        }
        for (Diagnostic& d : out.diagnostics) {
          if (d.path.empty()) d.path = path;
          fr.diagnostics.push_back(std::move(d));
        }
        fr.skipped = out.failed;
        std::stable_sort(out.sites.begin(), out.sites.end(), SiteOrder);
        if (out.sites.size() > options.limits.max_sites) {  // a front end that does not cut itself
          out.sites_left_out += out.sites.size() - options.limits.max_sites;
          out.sites.resize(options.limits.max_sites);
        }
        fr.sites_left_out = out.sites_left_out;
        if (out.sites_left_out > 0) {
          fr.diagnostics.push_back({path, 0, 0,
                                    std::to_string(out.sites_left_out) + " sites left out: the file has more than " +
                                        std::to_string(options.limits.max_sites) + " (--max-sites-per-file)"});
        }
        if (!out.sites.empty()) {
          std::vector<std::string_view> lines = SplitSourceLines(fr.text);
          std::unordered_map<std::string, int> seen;  // id key -> occurrences so far
          fr.lines.reserve(out.sites.size());
          for (Site& s : out.sites) {
            if (s.file_path.empty()) s.file_path = path;
            CapSite(s, options.limits);  // before the id key: ids come from what is kept
            std::string key = std::string(SiteKindName(s.kind)) + '\0' + s.error_class.value_or("") + '\0' +
                              std::string(IdMessageKey(s));
            int occurrence = seen[key]++;
            SourceWindow window = CutSourceWindow(lines, s.line, s.column, options.limits.max_excerpt_bytes);
            if (window.cut) NoteTruncated(s, "sourceCode", window.uncut_bytes);
            CatalogLine line;
            line.record = BuildRecord(s, window, rs.repo, rs.sha, analyzed_at, occurrence);
            line.dataset_version = analyzed_at;
            line.facts = std::move(s);
            fr.lines.push_back(std::move(line));
          }
        }
        if (options.document) {
          // The document stage reads the file here, while it is in memory: its
          // knowledge and the context of each site (one tokenization for both).
          try {
            std::vector<const Site*> file_sites;
            file_sites.reserve(fr.lines.size());
            for (const CatalogLine& l : fr.lines) file_sites.push_back(&*l.facts);
            FileFacts ff = CollectFileFacts(path, fr.text, file_sites, out.python_tokens.get());
            fr.knowledge = std::move(ff.knowledge);
            fr.contexts = std::move(ff.contexts);
            check_hook.AddFile(i, path, fr.text, fr.lines);
          } catch (const std::exception& e) {
            fr.diagnostics.push_back({path, 0, 0, std::string("internal error in the document stage: ") + e.what()});
          }
          fr.contexts.resize(fr.lines.size());
        }
        std::string().swap(fr.text);
        if (!options.document) SerializeLines(options.json_lines, fr);
        sites.fetch_add(static_cast<int64_t>(fr.lines.size()));
        bytes.fetch_add(fr.bytes);
        done.fetch_add(1);
      },
      tick);
  result.stats.extract_seconds = SecondsSince(t1);

  // 3. Document.
  if (options.document) {
    auto t2 = Clock::now();
    documenting = true;
    std::vector<FileKnowledgePtr> knowledge;
    knowledge.reserve(files.size());
    for (FileResult& fr : files)
      if (fr.knowledge) knowledge.push_back(std::move(fr.knowledge));
    std::unique_ptr<RepoKnowledge> repo_knowledge = RepoKnowledge::Build(std::move(knowledge));
    std::vector<size_t> with_sites;
    for (size_t i = 0; i < files.size(); ++i)
      if (!files[i].lines.empty()) with_sites.push_back(i);
    ParallelFor(
        with_sites.size(), jobs,
        [&](size_t k) {
          FileResult& fr = files[with_sites[k]];
          for (size_t i = 0; i < fr.lines.size(); ++i) {
            CatalogLine& line = fr.lines[i];
            try {
              DocumentRecord(*line.facts, fr.contexts[i], *repo_knowledge, &line.record);
            } catch (const std::exception& e) {
              fr.diagnostics.push_back({line.record.file_path, line.record.line_number, 0,
                                        std::string("internal error in the document stage: ") + e.what()});
            }
          }
          SerializeLines(options.json_lines, fr);
          // This file's part of the knowledge blob's contexts, rendered here in parallel.
          std::vector<std::pair<std::string, const SiteContext*>> mine;
          mine.reserve(fr.lines.size());
          for (size_t j = 0; j < fr.lines.size(); ++j) mine.emplace_back(fr.lines[j].record.id, &fr.contexts[j]);
          RepoKnowledge::AppendSiteContexts(&fr.contexts_json, mine);
          documented.fetch_add(static_cast<int64_t>(fr.lines.size()));
        },
        tick);
    // The knowledge blob keeps each site's context, so `errdex document` writes what the scan wrote.
    std::vector<std::string> chunks;
    chunks.reserve(with_sites.size());
    for (size_t i : with_sites) chunks.push_back(std::move(files[i].contexts_json));
    result.knowledge = check_hook.Finish(repo_knowledge->SerializeChunks(chunks), repo_knowledge.get());
    result.stats.document_seconds = SecondsSince(t2);
  }

  // 4. Collect in file order (already sorted by path; sites by line, column).
  size_t total = 0;
  for (const FileResult& fr : files) total += fr.lines.size();
  result.lines.reserve(total);
  for (FileResult& fr : files) {
    result.stats.bytes += fr.bytes;
    if (fr.skipped) ++result.stats.files_skipped;
    if (fr.too_large) ++result.stats.limits.files_too_large;
    for (Diagnostic& d : fr.diagnostics) result.diagnostics.push_back(std::move(d));
    if (!fr.jsonl.empty()) result.jsonl_chunks.push_back(std::move(fr.jsonl));
    if (fr.sites_left_out > 0) {
      ++result.stats.limits.files_sites_cut;
      result.stats.limits.sites_left_out += static_cast<int64_t>(fr.sites_left_out);
    }
    for (CatalogLine& line : fr.lines) {
      ++result.stats.sites_by_kind[static_cast<int>(line.facts->kind)];
      bool excerpt = false, guards = false;
      for (const auto& t : line.facts->truncated) (t.first == "guards" || t.first == "guardBytes" ? guards : excerpt) = true;
      result.stats.limits.sites_excerpts_cut += excerpt;
      result.stats.limits.sites_guards_cut += guards;
      result.lines.push_back(std::move(line));
    }
    fr = FileResult{};
  }
  result.stats.sites = static_cast<int64_t>(result.lines.size());
  std::stable_sort(result.diagnostics.begin(), result.diagnostics.end(), [](const Diagnostic& a, const Diagnostic& b) {
    if (a.path != b.path) return a.path < b.path;
    return a.line < b.line;
  });
  result.stats.total_seconds = SecondsSince(t0);
  tick();
  return result;
}

std::string CatalogLineJson(const CatalogLine& line, bool with_facts) {
  if (with_facts || !line.facts) return CatalogLineToJson(line);
  std::string out;  // CatalogLineToJson without the facts object
  out.append("{\"record\":");
  out.append(RecordToJson(line.record));
  out.append(",\"datasetVersion\":");
  AppendJsonString(out, line.dataset_version);
  out.push_back('}');
  return out;
}

Result<int64_t> StoreScan(CatalogStore& store, const ScanResult& result) {
  ScanInfo info;
  info.repo = result.repo.value_or("");
  info.sha = result.sha.value_or("");
  info.location = result.location;
  info.dataset_version = result.dataset_version;
  info.source = result.source;
  info.files = result.stats.files_scanned;
  info.sites = result.stats.sites;
  // The lines and the knowledge blob the document stage reads back land together.
  int64_t scan_id = 0;
  Status s = store.InTransaction([&]() -> Status {
    auto id = store.PutScan(info, result.lines);
    if (!id.ok()) return id.status();
    scan_id = *id;
    // Always written: an empty blob (--no-docs) replaces the knowledge of the scan
    // this one replaced, which described other code.
    return store.PutBlob(KnowledgeBlobKey(info), result.knowledge);
  });
  if (!s.ok()) return s;
  return scan_id;
}

}  // namespace errdex
