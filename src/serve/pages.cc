// serve/pages.cc: catalog data -> mustache data -> HTML (pages.h). Tested by
// pages_test.cc (escaping, hostile records, links) and in a real browser by
// tests/web/browser.test.mjs.
#include "serve/pages.h"

#include <kainjow/mustache.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "serve/assets.h"
#include "serve/safe_text.h"

namespace errdex::serve {

namespace {

namespace km = kainjow::mustache;

// The parsed template `name` for this thread (kainjow's render is not const).
km::mustache& Template(const std::string& name) {
  thread_local std::map<std::string, std::unique_ptr<km::mustache>> cache;
  auto& t = cache[name];
  if (!t) t = std::make_unique<km::mustache>(std::string(AssetText("templates/" + name + ".mustache")));
  return *t;
}

std::string Render(const std::string& name, const km::data& d) {
  km::mustache& t = Template(name);
  if (!t.is_valid()) return "<!-- template " + name + ": " + t.error_message() + " -->";
  return t.render(d);
}

km::data Text(std::string_view s) { return km::data(VisibleText(s)); }

void SetIf(km::data& d, const char* key, const std::optional<std::string>& v) {
  if (v && !v->empty()) d.set(key, Text(*v));
}

km::data PartsList(const std::vector<TextPart>& parts) {
  km::data list{km::data::type::list};
  for (const TextPart& p : parts) {
    km::data item;
    item.set("text", Text(p.text));
    item.set("mark", km::data(p.mark));
    list.push_back(item);
  }
  return list;
}

km::data StringList(const std::vector<std::string>& v) {
  km::data list{km::data::type::list};
  for (const std::string& s : v) list.push_back(Text(s));
  return list;
}

std::string ShortSha(std::string_view s) { return std::string(s.substr(0, 12)); }

std::string Page(const PageContext& ctx, std::string_view title, const std::string& body, km::data d,
                 std::string_view q = "") {
  d.set("root", ctx.root);
  d.set("site", km::data(ctx.site));
  d.set("title", Text(title));
  d.set("q", Text(q));
  d.set("catalogVersion", Text(ctx.catalog_version.empty() ? "-" : ctx.catalog_version));
  if (!ctx.canonical.empty() && IsSafeHttpUrl(ctx.canonical)) d.set("canonical", ctx.canonical);
  return Render("head", d) + Render(body, d) + Render("foot", d);
}

std::string ErrorHref(const PageContext& ctx, const Record& r) {
  return ctx.root + ErrorPagePath(r, ctx.site) + "#r-" + PathSegment(r.id);
}

km::data RecordData(const PageContext& ctx, const CatalogSnapshot& snap, const EntryDetails& d) {
  const Record& r = d.record;
  km::data o;
  o.set("id", Text(r.id));
  SetIf(o, "errorClass", r.error_class);
  bool has_message = r.error_message && !r.error_message->empty();
  o.set("hasMessage", km::data(has_message));
  if (has_message) o.set("messageParts", PartsList(MessageParts(r)));
  SetIf(o, "severity", r.severity);
  if (r.severity) {
    std::string cls;
    for (char c : *r.severity)
      if (std::isalnum(static_cast<unsigned char>(c))) cls += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    o.set("severityClass", cls);
  }
  SetIf(o, "errorType", r.error_type);
  SetIf(o, "backgroundTag", r.background_tag);
  if (r.http_status) o.set("httpStatus", std::to_string(*r.http_status));
  SetIf(o, "errorCode", r.error_code);
  o.set("repo", Text(r.repo.value_or("(no repository)")));
  o.set("filePath", Text(r.file_path));
  o.set("lineNumber", std::to_string(r.line_number));
  o.set("onlyInOlder", km::data(d.only_in_older));
  SetIf(o, "documentation", r.documentation);
  SetIf(o, "triggerScenarios", r.trigger_scenarios);
  SetIf(o, "commonSituations", r.common_situations);
  if (r.solutions && !r.solutions->empty()) {
    o.set("hasSolutions", km::data(true));
    o.set("solutions", StringList(*r.solutions));
  }
  SetIf(o, "exampleFix", r.example_fix);
  SetIf(o, "handlingStrategy", r.handling_strategy);
  SetIf(o, "validationCode", r.validation_code);
  SetIf(o, "typeGuard", r.type_guard);
  SetIf(o, "tryCatchPattern", r.try_catch_pattern);
  if (r.prevention_tips && !r.prevention_tips->empty()) {
    o.set("hasTips", km::data(true));
    o.set("preventionTips", StringList(*r.prevention_tips));
  }
  if (r.tags && !r.tags->empty()) {
    o.set("hasTags", km::data(true));
    km::data tags{km::data::type::list};
    for (const std::string& t : *r.tags) {
      km::data td;
      td.set("tag", Text(t));
      td.set("query", QueryValue(t));
      tags.push_back(td);
    }
    o.set("tags", tags);
  }
  if (!r.source_code.empty()) {
    o.set("hasSource", km::data(true));
    o.set("sourceStart", std::to_string(r.source_code_start));
    o.set("sourceEnd", std::to_string(r.source_code_end));
    km::data lines{km::data::type::list};
    std::string_view src = r.source_code;
    int n = r.source_code_start;
    for (size_t pos = 0; pos <= src.size(); ++n) {
      size_t nl = src.find('\n', pos);
      if (nl == std::string_view::npos) nl = src.size();
      km::data l;
      l.set("n", std::to_string(n));
      l.set("recordId", Text(r.id));
      l.set("text", Text(src.substr(pos, nl - pos)));
      l.set("hl", km::data(n == r.line_number));
      lines.push_back(l);
      pos = nl + 1;
    }
    o.set("sourceLines", lines);
  }
  if (r.github_url && IsSafeHttpUrl(*r.github_url)) o.set("permalink", *r.github_url);
  if (!d.versions.empty()) {
    o.set("hasVersions", km::data(true));
    km::data vs{km::data::type::list};
    std::string first = d.versions.front().dataset_version, last = first;
    for (const RecordVersion& v : d.versions) {
      first = std::min(first, v.dataset_version);
      last = std::max(last, v.dataset_version);
      km::data vd;
      vd.set("shortSha", Text(v.sha.empty() ? "(unknown)" : ShortSha(v.sha)));
      if (IsSafeHttpUrl(v.github_url)) vd.set("url", v.github_url);
      vd.set("datasetVersion", Text(v.dataset_version));
      vd.set("lineNumber", std::to_string(v.line));
      vd.set("latest", km::data(v.latest));
      vs.push_back(vd);
    }
    o.set("versions", vs);
    o.set("firstSeen", Text(first));
    o.set("lastSeen", Text(last));
    o.set("versionCount", std::to_string(d.versions.size()));
  }
  int64_t entry = snap.EntryOfId(r.id);
  if (entry >= 0) {
    auto siblings = SameFunction(snap, static_cast<uint32_t>(entry));
    km::data list{km::data::type::list};
    size_t shown = 0;
    for (uint32_t e : siblings) {
      if (shown >= 50) break;
      auto sd = snap.Details(e);
      if (!sd.ok()) continue;
      const Record& sr = (*sd)->record;
      km::data s;
      s.set("href", ErrorHref(ctx, sr));
      s.set("errorClass", Text(sr.error_class.value_or("")));
      s.set("message", Text(sr.error_message.value_or("(no message)")));
      s.set("lineNumber", std::to_string(sr.line_number));
      list.push_back(s);
      ++shown;
    }
    if (shown) {
      o.set("hasSiblings", km::data(true));
      o.set("siblings", list);
      o.set("function", Text(snap.catalog().matcher().entries()[entry].function));
    }
  }
  o.set("selfHref", ErrorHref(ctx, r));
  return o;
}

const char* HitLabel(const ExplainHit& h) {
  if (h.approximate) return h.kind == ExplainHit::Kind::kFuzzy ? "APPROXIMATE (fuzzy)" : "APPROXIMATE (frame)";
  if (h.kind == ExplainHit::Kind::kFrame) return "EXACT (frame)";
  return h.full ? "EXACT" : "EXACT (partial)";
}

}  // namespace

std::pair<std::string, std::string> RepoSegments(std::string_view repo) {
  size_t slash = repo.find('/');
  if (slash == std::string_view::npos) return {repo.empty() ? "-" : std::string(repo), "-"};
  std::string owner(repo.substr(0, slash)), name(repo.substr(slash + 1));
  return {owner.empty() ? "-" : owner, name.empty() ? "-" : name};
}

std::string RepoFromSegments(std::string_view owner, std::string_view name) {
  if (owner == "-" && name == "-") return "";
  if (name == "-") return std::string(owner);
  return std::string(owner) + "/" + std::string(name);
}

std::string SiteSegment(std::string_view s) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || (c == '.' && !out.empty()) || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '_';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::string ErrorPagePath(const Record& r, bool site) {
  auto [owner, name] = RepoSegments(r.repo.value_or(""));
  std::string key = r.slug && !r.slug->empty() ? *r.slug : r.id;
  if (site) return "e/" + SiteSegment(owner) + "/" + SiteSegment(name) + "/" + SiteSegment(key) + ".html";
  return "e/" + PathSegment(owner) + "/" + PathSegment(name) + "/" + PathSegment(key);
}

std::string IndexPage(const PageContext& ctx, const CatalogSnapshot* snap,
                      const std::vector<std::vector<std::shared_ptr<const EntryDetails>>>* site_errors) {
  km::data d;
  km::data repos{km::data::type::list};
  size_t n = 0;
  if (snap) {
    auto summaries = Repos(*snap);
    for (size_t i = 0; i < summaries.size(); ++i) {
      const RepoSummary& r = summaries[i];
      if (site_errors && (i >= site_errors->size() || (*site_errors)[i].empty())) continue;  // not published
      const ScanInfo& latest = *r.scans.front();
      km::data rd;
      rd.set("repo", Text(r.repo.empty() ? "(no repository)" : r.repo));
      rd.set("repoQuery", QueryValue(r.repo));
      rd.set("anchor", SiteSegment(r.repo));
      rd.set("records", std::to_string(latest.sites));
      rd.set("shortSha", Text(latest.sha.empty() ? "-" : ShortSha(latest.sha)));
      rd.set("scanned", Text(latest.dataset_version));
      rd.set("scans", std::to_string(r.scans.size()));
      if (site_errors && i < site_errors->size()) {
        km::data errs{km::data::type::list};
        for (const auto& e : (*site_errors)[i]) {
          km::data ed;
          ed.set("href", ErrorHref(ctx, e->record));
          ed.set("errorClass", Text(e->record.error_class.value_or("")));
          ed.set("message", Text(e->record.error_message.value_or("(no message)")));
          ed.set("filePath", Text(e->record.file_path));
          ed.set("lineNumber", std::to_string(e->record.line_number));
          errs.push_back(ed);
        }
        rd.set("errors", errs);
      }
      repos.push_back(rd);
      ++n;
    }
  }
  d.set("repos", repos);
  d.set("hasRepos", km::data(n > 0));
  return Page(ctx, "error catalog", "index", d);
}

std::string ErrorPage(const PageContext& ctx, const CatalogSnapshot& snap,
                      const std::vector<std::shared_ptr<const EntryDetails>>& records) {
  km::data d;
  km::data list{km::data::type::list};
  for (const auto& r : records) list.push_back(RecordData(ctx, snap, *r));
  d.set("records", list);
  if (records.size() > 1) {
    d.set("many", km::data(true));
    d.set("count", std::to_string(records.size()));
  }
  std::string title = records.empty() ? "error" : records.front()->record.error_class.value_or("") + ": " +
                                                     records.front()->record.error_message.value_or("");
  if (title.size() > 120) title = title.substr(0, 120) + "...";
  return Page(ctx, title, "error", d);
}

std::string ExplainPage(const PageContext& ctx, const CatalogSnapshot& snap, std::string_view text,
                        const ExplainAnswer* answer) {
  km::data d;
  d.set("text", Text(text));
  if (answer) {
    d.set("asked", km::data(true));
    km::data hits{km::data::type::list};
    std::set<uint32_t> seen;
    size_t n = 0;
    for (size_t i = 0; i < answer->hits.size(); ++i) {
      const ExplainHit& h = answer->hits[i];
      if (!seen.insert(h.entry).second) continue;  // a record once, at its first (best) hit
      km::data c;
      c.set("label", HitLabel(h));
      c.set("kindClass", h.approximate ? "approximate" : "exact");
      char score[32];
      std::snprintf(score, sizeof score, "%.1f", h.score);
      c.set("score", score);
      c.set("parts", PartsList(HitMessageParts(h)));
      if (const EntryDetails* det = answer->details[i].get()) {
        const Record& r = det->record;
        SetIf(c, "errorClass", r.error_class);
        if (h.kind == ExplainHit::Kind::kFuzzy) SetIf(c, "catalogMessage", r.error_message);
        c.set("href", ErrorHref(ctx, r));
        c.set("filePath", Text(r.file_path));
        c.set("lineNumber", std::to_string(r.line_number));
        SetIf(c, "repo", r.repo);
        if (!det->versions.empty()) c.set("versionCount", std::to_string(det->versions.size()));
        c.set("onlyInOlder", km::data(det->only_in_older));
        SetIf(c, "documentation", r.documentation);
        if (r.solutions && !r.solutions->empty()) {
          c.set("hasSolutions", km::data(true));
          c.set("solutions", StringList(*r.solutions));
        }
      } else {
        c.set("href", ctx.root);
        c.set("filePath", Text(std::string(snap.catalog().matcher().entries()[h.entry].file_path)));
        c.set("lineNumber", std::to_string(snap.catalog().matcher().entries()[h.entry].line));
      }
      hits.push_back(c);
      ++n;
    }
    d.set("hits", hits);
    d.set("hasHits", km::data(n > 0));
    d.set("hitCount", std::to_string(n));
    d.set("hitWord", n == 1 ? "entry" : "entries");
  }
  return Page(ctx, "explain", "explain", d);
}

std::string SearchPage(const PageContext& ctx, const CatalogSnapshot* snap, const SearchRequest& req,
                       const SearchAnswer* answer, std::string_view problem) {
  km::data d;
  d.set("errorClass", Text(req.error_class));
  d.set("tag", Text(req.tag));
  km::data repo_options{km::data::type::list};
  if (snap)
    for (const RepoSummary& r : Repos(*snap)) {
      km::data o;
      o.set("repo", Text(r.repo));
      o.set("selected", km::data(r.repo == req.repo));
      repo_options.push_back(o);
    }
  d.set("repoOptions", repo_options);
  std::vector<std::string> severities = {"critical", "error", "warning", "info", "debug"};
  if (!req.severity.empty() && std::find(severities.begin(), severities.end(), req.severity) == severities.end())
    severities.push_back(req.severity);
  km::data sev{km::data::type::list};
  for (const std::string& s : severities) {
    km::data o;
    o.set("value", Text(s));
    o.set("selected", km::data(s == req.severity));
    sev.push_back(o);
  }
  d.set("severityOptions", sev);
  if (!problem.empty()) d.set("problem", Text(problem));
  if (answer) {
    d.set("asked", km::data(true));
    km::data results{km::data::type::list};
    for (const SearchItem& it : answer->items) {
      const Record& r = it.details->record;
      km::data o;
      o.set("href", ErrorHref(ctx, r));
      o.set("errorClass", Text(r.error_class.value_or("")));
      o.set("snippet", PartsList(it.snippet.empty() ? std::vector<TextPart>{{"(no message)", false}} : it.snippet));
      o.set("repo", Text(r.repo.value_or("")));
      o.set("filePath", Text(r.file_path));
      o.set("lineNumber", std::to_string(r.line_number));
      SetIf(o, "severity", r.severity);
      results.push_back(o);
    }
    d.set("results", results);
    d.set("hasResults", km::data(!answer->items.empty()));
    if (!answer->next_cursor.empty()) {
      std::string next = ctx.root + "search?q=" + QueryValue(req.q);
      if (!req.repo.empty()) next += "&repo=" + QueryValue(req.repo);
      if (!req.error_class.empty()) next += "&class=" + QueryValue(req.error_class);
      if (!req.severity.empty()) next += "&severity=" + QueryValue(req.severity);
      if (!req.tag.empty()) next += "&tag=" + QueryValue(req.tag);
      next += "&cursor=" + QueryValue(answer->next_cursor);
      d.set("next", next);
    }
  }
  return Page(ctx, req.q.empty() ? "search" : "search: " + req.q, "search", d, req.q);
}

std::string MessagePage(const PageContext& ctx, std::string_view heading, std::string_view detail) {
  km::data d;
  d.set("heading", Text(heading));
  d.set("detail", Text(detail));
  return Page(ctx, heading, "message", d);
}

}  // namespace errdex::serve
