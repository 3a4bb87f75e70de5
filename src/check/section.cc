// check/section.cc: the section's JSON (see section.h). Tested by section_test.cc.
#include "check/section.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <nlohmann/json.hpp>

#include <zstd.h>

#include "document/json_dump.h"
#include "model/json_bounded.h"
#include "model/record.h"
#include "store/codec.h"

namespace errdex::check {

namespace {

using nlohmann::json;

// A flag and an environment variable of the table, written directly (json_dump.h:
// the bytes of the nlohmann DOM this replaced), and read back by FlagFrom/EnvFrom.
void AppendFlag(std::string& out, const doc::Flag& f) {
  namespace jd = doc::jsondump;
  jd::Object o;
  jd::StringArray(o.Member("o"), f.options);
  jd::String(o.Member("d"), f.dest);
  jd::String(o.Member("t"), f.type);
  jd::String(o.Member("a"), f.action);
  jd::String(o.Member("n"), f.nargs);
  jd::String(o.Member("g"), f.origin);
  jd::String(o.Member("f"), f.file);
  jd::Int(o.Member("l"), f.line);
  if (!f.choices.empty()) jd::StringArray(o.Member("c"), f.choices);
  if (f.default_value) jd::String(o.Member("v"), *f.default_value), jd::Bool(o.Member("vl"), f.default_is_literal);
  if (!f.negative.empty()) jd::String(o.Member("neg"), f.negative);
  if (!f.env.empty()) jd::String(o.Member("env"), f.env);
  if (!f.class_name.empty()) jd::String(o.Member("cls"), f.class_name);
  if (f.kwargs) jd::Bool(o.Member("kw"), true);
  o.AppendTo(out);
}
void AppendEnv(std::string& out, const doc::EnvVar& e) {
  namespace jd = doc::jsondump;
  jd::Object o;
  jd::String(o.Member("n"), e.name);
  jd::String(o.Member("t"), e.type);
  jd::String(o.Member("r"), e.reader);
  jd::String(o.Member("f"), e.file);
  jd::Int(o.Member("l"), e.line);
  if (e.default_value) jd::String(o.Member("v"), *e.default_value);
  if (!e.choices.empty()) jd::StringArray(o.Member("c"), e.choices);
  o.AppendTo(out);
}

doc::Flag FlagFrom(const json& o) {
  doc::Flag f;
  f.options = o.value("o", std::vector<std::string>{});
  f.dest = o.value("d", "");
  f.type = o.value("t", "");
  f.action = o.value("a", "");
  f.nargs = o.value("n", "");
  f.origin = o.value("g", "");
  f.file = o.value("f", "");
  f.line = IntFieldOr(o, "l", 0);
  f.choices = o.value("c", std::vector<std::string>{});
  if (o.contains("v")) f.default_value = o["v"].get<std::string>(), f.default_is_literal = o.value("vl", false);
  f.negative = o.value("neg", "");
  f.env = o.value("env", "");
  f.class_name = o.value("cls", "");
  f.kwargs = o.value("kw", false);
  return f;
}

doc::EnvVar EnvFrom(const json& o) {
  doc::EnvVar e;
  e.name = o.value("n", "");
  e.type = o.value("t", "");
  e.reader = o.value("r", "");
  e.file = o.value("f", "");
  e.line = IntFieldOr(o, "l", 0);
  if (o.contains("v")) e.default_value = o["v"].get<std::string>();
  e.choices = o.value("c", std::vector<std::string>{});
  return e;
}

constexpr char kB64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// Written in place (one resize, no append per group): this runs over the
// compressed text of every Python file a scan stores (check's section).
std::string Base64(std::string_view in) {
  std::string out((in.size() + 2) / 3 * 4, '=');
  char* o = out.data();
  const uint8_t* p = reinterpret_cast<const uint8_t*>(in.data());
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3, o += 4) {
    uint32_t v = (uint32_t{p[i]} << 16) | (uint32_t{p[i + 1]} << 8) | p[i + 2];
    o[0] = kB64[v >> 18];
    o[1] = kB64[(v >> 12) & 63];
    o[2] = kB64[(v >> 6) & 63];
    o[3] = kB64[v & 63];
  }
  if (i < in.size()) {  // one or two bytes left: the '=' padding is there already
    uint32_t v = (uint32_t{p[i]} << 16) | (i + 1 < in.size() ? uint32_t{p[i + 1]} << 8 : 0);
    o[0] = kB64[v >> 18];
    o[1] = kB64[(v >> 12) & 63];
    if (i + 1 < in.size()) o[2] = kB64[(v >> 6) & 63];
  }
  return out;
}

bool Unbase64(std::string_view in, std::string* out) {
  static const std::array<int8_t, 256> table = [] {
    std::array<int8_t, 256> t;
    t.fill(-1);
    for (int k = 0; k < 64; ++k) t[(uint8_t)kB64[k]] = (int8_t)k;
    return t;
  }();
  if (in.size() % 4) return false;
  out->clear();
  out->reserve(in.size() / 4 * 3);
  for (size_t i = 0; i < in.size(); i += 4) {
    int a = table[(uint8_t)in[i]], b = table[(uint8_t)in[i + 1]];
    int c = in[i + 2] == '=' ? 0 : table[(uint8_t)in[i + 2]], d = in[i + 3] == '=' ? 0 : table[(uint8_t)in[i + 3]];
    if (a < 0 || b < 0 || c < 0 || d < 0) return false;
    uint32_t v = (uint32_t)(a << 18 | b << 12 | c << 6 | d);
    out->push_back((char)(v >> 16));
    if (in[i + 2] != '=') out->push_back((char)(v >> 8));
    if (in[i + 3] != '=') out->push_back((char)v);
  }
  return true;
}

void AppendStoredFile(const StoredFile& f, std::string* out) {
  std::string& o = *out;
  if (!f.entry.empty()) {
    o += f.entry;
    return;
  }
  o += "{\"path\":";
  AppendJsonString(o, f.path);
  o += ",\"src\":\"";
  o += f.source;  // base64: nothing to escape
  o += "\",\"sites\":[";
  for (size_t i = 0; i < f.sites.size(); ++i) {
    const SiteRef& st = f.sites[i];
    if (i) o.push_back(',');
    o.push_back('[');
    AppendJsonString(o, st.id);
    o += "," + std::to_string(st.line) + ",";
    AppendJsonString(o, st.kind);
    o.push_back(',');
    AppendJsonString(o, st.error_class);
    o.push_back(']');
  }
  o += "]}";
}

Section::File FromProgram(FileProgram p) {
  Section::File f;
  f.path = std::move(p.path);
  f.module_body = std::move(p.module_body);
  f.functions = std::move(p.functions);
  f.classes = std::move(p.classes);
  f.imports = std::move(p.imports);
  f.sites = std::move(p.sites);
  f.add_arguments = std::move(p.add_arguments);
  f.dynamic_import = p.dynamic_import;
  f.subcommands = p.subcommands;
  for (auto& fn : f.functions) {
    fn.defaults.resize(fn.params.size());
    fn.annotations.resize(fn.params.size());
  }
  return f;
}

// A stored file's facts: its source unpacked and built.
bool BuildStored(const json& o, const std::string& path, Section::File* out) {
  std::string packed, text;
  if (!Unbase64(o.at("src").get<std::string>(), &packed)) return false;
  unsigned long long size = ZSTD_getFrameContentSize(packed.data(), packed.size());
  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size > kMaxStoredFileBytes) return false;
  text.resize((size_t)size);
  size_t got = ZSTD_decompress(text.data(), text.size(), packed.data(), packed.size());
  if (ZSTD_isError(got) || got != size) return false;
  std::vector<SiteRef> sites;
  for (const json& a : o.value("sites", json::array()))
    sites.push_back({a.at(0).get<std::string>(), IntOr(a.at(1), 0), a.at(2).get<std::string>(), a.at(3).get<std::string>()});
  *out = FromProgram(BuildFileProgram(path, text, sites));
  return true;
}

}  // namespace

StoredFile StoreFile(std::string_view path, std::string_view text, std::vector<SiteRef> sites) {
  StoredFile f;
  f.path = std::string(path);
  f.sites = std::move(sites);
  // The store's compressor: one zstd context per thread (ZSTD_compress made and
  // freed one per file, costlier than compressing a small file); a plain frame
  // with its size, as ZSTD_decompress above reads it.
  auto packed = store::Compress(text, {}, 1);
  if (!packed.ok()) return f;
  f.source = Base64(*packed);
  return f;
}

std::string BuildSection(const CheckFacts& facts, const doc::SettingsData* settings) {
  std::vector<const StoredFile*> files;
  for (const StoredFile& p : facts.files) files.push_back(&p);
  std::sort(files.begin(), files.end(), [](const StoredFile* a, const StoredFile* b) { return a->path < b->path; });
  json scripts = json::array();
  auto sorted_scripts = facts.scripts;
  std::sort(sorted_scripts.begin(), sorted_scripts.end());
  sorted_scripts.erase(std::unique(sorted_scripts.begin(), sorted_scripts.end()), sorted_scripts.end());
  for (const auto& [n, t] : sorted_scripts) scripts.push_back(json::array({n, t}));
  // Sized near its end (9.7 MB of file entries on flashinfer): grown by doubling,
  // the entries were copied again and again into fresh pages.
  size_t estimate = 4096;
  for (const StoredFile* f : files)
    estimate += f->entry.empty() ? 64 + 2 * f->path.size() + f->source.size() + 128 * f->sites.size() : f->entry.size() + 1;
  if (settings) estimate += 256 * (settings->flags.size() + settings->envs.size());
  std::string out;
  out.reserve(estimate);
  out += "{\"version\":" + std::to_string(kSectionVersion) + ",\"flags\":[";
  // The flag table written directly: the same bytes as the dump of FlagJson's
  // and EnvJson's DOM (json_dump.h), without building it for every scan.
  bool first = true;
  if (settings)
    for (const doc::Flag& f : settings->flags)
      if (f.origin != "mentioned") {
        if (!first) out.push_back(',');
        first = false;
        AppendFlag(out, f);
      }
  out += "],\"envs\":[";
  if (settings)
    for (size_t i = 0; i < settings->envs.size(); ++i) {
      if (i) out.push_back(',');
      AppendEnv(out, settings->envs[i]);
    }
  out += "]";
  out += ",\"scripts\":" + scripts.dump(-1, ' ', false, json::error_handler_t::replace);
  out += ",\"files\":[";
  for (size_t i = 0; i < files.size(); ++i) {
    if (i) out.push_back(',');
    AppendStoredFile(*files[i], &out);
  }
  out += "]}";
  return out;
}

std::string WithCheckSection(std::string_view knowledge, std::string_view section) {
  size_t b = 0;
  while (b < knowledge.size() && (knowledge[b] == ' ' || knowledge[b] == '\n')) ++b;
  std::string out;
  // Sized once: the blob is ~11 MB on flashinfer, and growing it by doubling
  // copied the section again into fresh pages.
  out.reserve(16 + section.size() + knowledge.size());
  out += "{\"check\":";
  out += section;
  size_t e = knowledge.size();
  while (e > b && (knowledge[e - 1] == ' ' || knowledge[e - 1] == '\n')) --e;
  if (b >= e || knowledge[b] != '{' || knowledge[e - 1] != '}') {
    out += "}";
    return out;
  }
  std::string_view rest = knowledge.substr(b + 1);
  size_t k = 0;
  while (k < rest.size() && (rest[k] == ' ' || rest[k] == '\n')) ++k;
  if (k < rest.size() && rest[k] != '}') out += ",";
  out += rest;
  return out;
}

namespace {

// Skips JSON whitespace from `pos`.
size_t SkipWs(std::string_view s, size_t pos) {
  while (pos < s.size() && (s[pos] == ' ' || s[pos] == '\n' || s[pos] == '\t' || s[pos] == '\r')) ++pos;
  return pos;
}

// The end of the JSON string starting at s[pos] (a quote), npos when unterminated.
size_t StringEnd(std::string_view s, size_t pos) {
  for (size_t i = pos + 1; i < s.size();) {
    const void* q = std::memchr(s.data() + i, '"', s.size() - i);
    if (!q) return std::string_view::npos;
    size_t at = (size_t)((const char*)q - s.data());
    size_t bs = 0;  // backslashes right before the quote
    while (at - bs > pos + 1 && s[at - bs - 1] == '\\') ++bs;
    if (bs % 2 == 0) return at + 1;
    i = at + 1;
  }
  return std::string_view::npos;
}

// The end of the JSON value (object, array, string, number, literal) at s[pos].
size_t AnyValueEnd(std::string_view s, size_t pos) {
  if (pos >= s.size()) return std::string_view::npos;
  char c = s[pos];
  if (c == '"') return StringEnd(s, pos);
  if (c != '{' && c != '[') {
    size_t e = pos;
    while (e < s.size() && s[e] != ',' && s[e] != '}' && s[e] != ']' && s[e] != ' ' && s[e] != '\n') ++e;
    return e;
  }
  int depth = 0;
  for (size_t i = pos; i < s.size();) {
    char d = s[i];
    if (d == '"') {
      i = StringEnd(s, i);
      if (i == std::string_view::npos) return i;
      continue;
    }
    if (d == '{' || d == '[') ++depth;
    else if ((d == '}' || d == ']') && --depth == 0) return i + 1;
    ++i;
  }
  return std::string_view::npos;
}

template <typename T>
bool ParseInto(std::string_view text, T* out) {
  json j = json::parse(text.begin(), text.end(), nullptr, false);
  if (j.is_discarded()) return false;
  try {
    *out = j;
  } catch (const std::exception&) {
    return false;
  }
  return true;
}

}  // namespace

const Section::File& Section::Get(int i) const {
  static const File kNone;
  if (i < 0 || (size_t)i >= paths.size()) return kNone;
  if (cache_.size() < paths.size()) cache_.resize(paths.size());
  std::unique_ptr<File>& slot = cache_[(size_t)i];
  if (!slot) {
    slot = std::make_unique<File>();
    slot->path = paths[(size_t)i];
    if ((size_t)i < ranges_.size()) {
      auto [b, e] = ranges_[(size_t)i];
      json o = json::parse(text_.begin() + (long)b, text_.begin() + (long)e, nullptr, false);
      if (!o.is_discarded() && o.is_object()) {
        try {
          if (!BuildStored(o, paths[(size_t)i], slot.get())) *slot = File();
        } catch (const std::exception&) {
          *slot = File();
        }
        slot->path = paths[(size_t)i];
      }
    }
  }
  return *slot;
}

int Section::Find(std::string_view path) const {
  auto it = std::lower_bound(paths.begin(), paths.end(), path, [](const std::string& a, std::string_view b) { return a < b; });
  return it != paths.end() && *it == path ? (int)(it - paths.begin()) : -1;
}

std::string_view Section::Entry(int i) const {
  if (i < 0 || static_cast<size_t>(i) >= ranges_.size()) return {};
  auto [b, e] = ranges_[i];
  return std::string_view(text_).substr(b, e - b);
}

size_t Section::decoded() const {
  size_t n = 0;
  for (const auto& c : cache_) n += c != nullptr;
  return n;
}

namespace {

// A JSON string's bytes when they need no decoding (printable ASCII, no
// escape): every path a scan writes but the odd non-ASCII one, which goes
// through the JSON parser.
bool PlainJsonString(std::string_view quoted, std::string* out) {
  if (quoted.size() < 2 || quoted.front() != '"' || quoted.back() != '"') return false;
  std::string_view inner = quoted.substr(1, quoted.size() - 2);
  for (unsigned char c : inner)
    if (c < 0x20 || c >= 0x80 || c == '\\' || c == '"') return false;
  out->assign(inner);
  return true;
}

}  // namespace

// ReadSection, and ReadSectionFiles when `owned` (the blob, kept whole as the
// section's text: its entries are not copied) is given and `files_only`.
Result<Section> ReadSectionImpl(std::string_view blob, std::string* owned, bool files_only) {
  static constexpr std::string_view kPrefix = "{\"check\":";
  if (blob.substr(0, kPrefix.size()) != kPrefix) {
    // Not first in the blob (another writer): find the member by a full parse.
    json whole = json::parse(blob.begin(), blob.end(), nullptr, false);
    if (whole.is_discarded() || !whole.is_object()) return Status::ParseError("the catalog's knowledge blob is not JSON");
    if (!whole.contains("check")) return Status::NotFound("no check section");
    std::string inner = whole["check"].dump(-1, ' ', false, json::error_handler_t::replace);
    return ReadSectionImpl(std::string(kPrefix) + inner + "}", nullptr, files_only);
  }
  std::string_view s = blob.substr(kPrefix.size());
  size_t end = AnyValueEnd(s, 0);
  if (end == std::string_view::npos || s.empty() || s[0] != '{') return Status::ParseError("the catalog's check section is cut short");
  s = s.substr(0, end);
  Section out;
  int version = 0;
  // {"key":value,...}: the small members are parsed, "files" is indexed.
  size_t pos = SkipWs(s, 1);
  std::vector<std::pair<size_t, size_t>> file_ranges;
  while (pos < s.size() && s[pos] == '"') {
    size_t ke = StringEnd(s, pos);
    if (ke == std::string_view::npos) return Status::ParseError("the catalog's check section is malformed");
    std::string_view key = s.substr(pos + 1, ke - pos - 2);
    pos = SkipWs(s, ke);
    if (pos >= s.size() || s[pos] != ':') return Status::ParseError("the catalog's check section is malformed");
    pos = SkipWs(s, pos + 1);
    size_t ve = AnyValueEnd(s, pos);
    if (ve == std::string_view::npos) return Status::ParseError("the catalog's check section is malformed");
    std::string_view value = s.substr(pos, ve - pos);
    bool ok = true;
    if (key == "version") {
      ok = ParseInto(value, &version);
    } else if (files_only && (key == "flags" || key == "envs" || key == "scripts")) {
      // Not read: the caller copies entries alone (an incremental scan).
    } else if (key == "flags" || key == "envs" || key == "scripts") {
      json j = json::parse(value.begin(), value.end(), nullptr, false);
      ok = !j.is_discarded() && j.is_array();
      try {
        for (const json& x : ok ? j : json::array()) {
          if (key == "flags") out.flags.push_back(FlagFrom(x));
          else if (key == "envs") out.envs.push_back(EnvFrom(x));
          else out.scripts.emplace_back(x.at(0).get<std::string>(), x.at(1).get<std::string>());
        }
      } catch (const std::exception&) {
        ok = false;
      }
    } else if (key == "files") {
      if (value.empty() || value[0] != '[') return Status::ParseError("the catalog's check section is malformed");
      size_t p = SkipWs(value, 1);
      while (p < value.size() && value[p] == '{') {
        size_t fe = AnyValueEnd(value, p);
        if (fe == std::string_view::npos) return Status::ParseError("the catalog's check section is malformed");
        file_ranges.emplace_back(pos + p, pos + fe);
        p = SkipWs(value, fe);
        if (p < value.size() && value[p] == ',') p = SkipWs(value, p + 1);
      }
    }
    if (!ok) return Status::ParseError("the catalog's check section is malformed (" + std::string(key) + ")");
    pos = SkipWs(s, ve);
    if (pos < s.size() && s[pos] == ',') pos = SkipWs(s, pos + 1);
  }
  if (version != kSectionVersion)
    return Status::NotFound("the catalog's check section has version " + std::to_string(version) + "; this errdex reads version " +
                            std::to_string(kSectionVersion) + " (scan again)");
  // Each file's path is its object's first member ({"path":"...",...}).
  // The entries' offsets in text_: in the blob itself when it is kept, else
  // in a copy of the entries alone.
  const size_t base = static_cast<size_t>(s.data() - blob.data());
  if (!owned) out.text_.reserve(s.size());
  std::vector<std::pair<std::string, std::pair<size_t, size_t>>> files;
  for (auto [b, e] : file_ranges) {
    std::string_view obj = s.substr(b, e - b);
    static constexpr std::string_view kPath = "{\"path\":";
    if (obj.substr(0, kPath.size()) != kPath) return Status::ParseError("the catalog's check section is malformed (a file)");
    size_t pe = StringEnd(obj, kPath.size());
    if (pe == std::string_view::npos) return Status::ParseError("the catalog's check section is malformed (a file)");
    std::string path;
    std::string_view quoted = obj.substr(kPath.size(), pe - kPath.size());
    if (!PlainJsonString(quoted, &path) && !ParseInto(quoted, &path))
      return Status::ParseError("the catalog's check section is malformed (a path)");
    size_t at = base + b;
    if (!owned) {
      at = out.text_.size();
      out.text_.append(obj);
    }
    files.push_back({std::move(path), {at, at + obj.size()}});
  }
  if (owned) out.text_ = std::move(*owned);  // `blob` views it: its bytes stay where they are
  std::sort(files.begin(), files.end());
  for (auto& [path, range] : files) {
    out.paths.push_back(std::move(path));
    out.ranges_.push_back(range);
  }
  out.cache_.resize(out.paths.size());
  return out;
}

Result<Section> ReadSection(std::string_view blob) { return ReadSectionImpl(blob, nullptr, false); }

Result<Section> ReadSectionFiles(std::string blob) {
  std::string_view view(blob);
  return ReadSectionImpl(view, &blob, true);
}

}  // namespace errdex::check
