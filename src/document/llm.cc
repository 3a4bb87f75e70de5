// document/llm.cc: see llm.h. Tested by llm_test.cc against a loopback server.
#include "document/llm.h"

#include <xxhash.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <cctype>
#include <set>
#include <thread>

#include "document/http_client.h"
#include "model/json_bounded.h"

namespace errdex {

std::optional<std::string> MemoryLlmCache::Get(const std::string& key) {
  std::lock_guard<std::mutex> l(mu_);
  auto it = map_.find(key);
  if (it == map_.end()) return std::nullopt;
  return it->second;
}
void MemoryLlmCache::Put(const std::string& key, const std::string& value) {
  std::lock_guard<std::mutex> l(mu_);
  map_[key] = value;
}

namespace {

using nlohmann::json;

const char* kSystemPrompt =
    "You write the documentation of one error of a software project for its users. You are given the facts found "
    "in the code (guards, message, function, file and line), the same conditions in the user's own terms "
    "(userFacts: flags as --flag value, environment variables as NAME=value, arguments, request fields, hardware, "
    "packages; the message's own advice and allowed values), the source window and a draft written from those "
    "facts. Rewrite the draft fields so they read well. Rules: state only what the facts and the source show; name "
    "settings in the user's terms (--deepep-mode normal), never as the code attribute (cfg.deepep_mode); a solution "
    "is a change the user makes (a flag, an environment variable, an argument, an input, a package, the hardware) or "
    "the message's own advice, never a condition restated; keep every command-line flag (--x), flag value, "
    "environment variable, file:line and function name the draft mentions; do not invent versions, hardware or "
    "flags; answer only with the JSON object of the schema.";

json Schema() {
  json str = {{"type", "string"}};
  json arr = {{"type", "array"}, {"items", {{"type", "string"}}}};
  return {{"type", "object"},
          {"properties",
           {{"documentation", str},
            {"triggerScenarios", str},
            {"commonSituations", str},
            {"solutions", arr},
            {"preventionTips", arr}}},
          {"required", {"documentation", "triggerScenarios", "solutions"}},
          {"additionalProperties", false}};
}

json Draft(const Record& r) {
  json d;
  auto opt = [](const std::optional<std::string>& s) { return s ? json(*s) : json(nullptr); };
  auto optv = [](const std::optional<std::vector<std::string>>& v) { return v ? json(*v) : json(nullptr); };
  d["documentation"] = opt(r.documentation);
  d["triggerScenarios"] = opt(r.trigger_scenarios);
  d["commonSituations"] = opt(r.common_situations);
  d["solutions"] = optv(r.solutions);
  d["preventionTips"] = optv(r.prevention_tips);
  return d;
}

std::string Hex64(uint64_t v) {
  char b[17];
  std::snprintf(b, sizeof b, "%016llx", (unsigned long long)v);
  return b;
}

// The facts a polished field must still state.
std::set<std::string> Anchors(const std::string& text, const Record& r, bool documentation) {
  // --flags ("--[a-z0-9][a-z0-9_-]*") and ENV_VARS ("[A-Z][A-Z0-9]*_[A-Z0-9_]+" as a whole word), by a scan.
  std::set<std::string> out;
  auto word = [](char c) { return std::isalnum((unsigned char)c) || c == '_'; };
  size_t n = text.size();
  for (size_t i = 0; i < n; ++i) {
    if (text[i] == '-' && i + 2 < n && text[i + 1] == '-' && (std::islower((unsigned char)text[i + 2]) || std::isdigit((unsigned char)text[i + 2]))) {
      size_t e = i + 2;
      while (e < n && (std::islower((unsigned char)text[e]) || std::isdigit((unsigned char)text[e]) || text[e] == '_' || text[e] == '-')) ++e;
      out.insert(text.substr(i, e - i));
      i = e - 1;
      continue;
    }
    if (std::isupper((unsigned char)text[i]) && (i == 0 || !word(text[i - 1]))) {
      size_t e = i + 1;
      while (e < n && (std::isupper((unsigned char)text[e]) || std::isdigit((unsigned char)text[e]) || text[e] == '_')) ++e;
      size_t us = text.find('_', i + 1);
      if ((e >= n || !word(text[e])) && us != std::string::npos && us + 1 < e) out.insert(text.substr(i, e - i));
      i = e - 1;
    }
  }
  if (documentation) {
    std::string loc = r.file_path + ":" + std::to_string(r.line_number);
    if (text.find(loc) != std::string::npos) out.insert(loc);
  }
  return out;
}

bool StatesAll(const std::string& text, const std::set<std::string>& anchors) {
  for (const auto& a : anchors)
    if (text.find(a) == std::string::npos) return false;
  return true;
}

std::string Join(const std::vector<std::string>& v) {
  std::string o;
  for (auto& s : v) o += s + "\n";
  return o;
}

// Merges the model's answer into `r`; returns the number of fields taken and
// adds the kept ones to *kept. false when `content` is not a JSON object.
bool Merge(const std::string& content, Record* r, int* taken, int* kept) {
  json a = ParseJsonBounded(content);  // a model's answer: not trusted, nesting bounded
  if (a.is_discarded() || !a.is_object()) return false;
  auto text_field = [&](const char* key, std::optional<std::string>* field, bool doc) {
    if (!a.contains(key)) return;
    const json& v = a[key];
    if (!v.is_string() || v.get<std::string>().empty() || v.get<std::string>().size() > 8000) { ++*kept; return; }
    std::string nv = v.get<std::string>();
    if (*field && !StatesAll(nv, Anchors(**field, *r, doc))) { ++*kept; return; }
    if (!*field) { ++*kept; return; }  // the field does not apply: never filled by the model alone
    *field = nv;
    ++*taken;
  };
  auto list_field = [&](const char* key, std::optional<std::vector<std::string>>* field) {
    if (!a.contains(key)) return;
    const json& v = a[key];
    if (!*field || !v.is_array() || v.empty() || v.size() > 12) { ++*kept; return; }
    std::vector<std::string> nv;
    for (const auto& x : v) {
      if (!x.is_string() || x.get<std::string>().empty()) { ++*kept; return; }
      nv.push_back(x.get<std::string>());
    }
    if (!StatesAll(Join(nv), Anchors(Join(**field), *r, false))) { ++*kept; return; }
    *field = nv;
    ++*taken;
  };
  text_field("documentation", &r->documentation, true);
  text_field("triggerScenarios", &r->trigger_scenarios, false);
  text_field("commonSituations", &r->common_situations, false);
  list_field("solutions", &r->solutions);
  list_field("preventionTips", &r->prevention_tips);
  return true;
}

struct Shared {
  const LlmOptions& opt;
  LlmCache* cache;
  doc::HttpUrl url;
  std::mutex mu;
  LlmStats stats;
  void Error(const Record& r, const std::string& why) {
    std::lock_guard<std::mutex> l(mu);
    ++stats.fallbacks;
    if (stats.errors.size() < 20) stats.errors.push_back(r.id + ": " + why);
  }
};

// One record: cache, else request with retries. Returns the content or an error.
Result<std::string> Ask(Shared& sh, const std::string& body) {
  std::vector<std::pair<std::string, std::string>> headers;
  if (!sh.opt.api_key.empty()) headers.emplace_back("Authorization", "Bearer " + sh.opt.api_key);
  Status last = Status::Internal("no attempt");
  for (int attempt = 0; attempt < std::max(1, sh.opt.max_attempts); ++attempt) {
    if (attempt > 0) {
      {
        std::lock_guard<std::mutex> l(sh.mu);
        ++sh.stats.retries;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds((long long)sh.opt.backoff_ms << (attempt - 1)));
    }
    {
      std::lock_guard<std::mutex> l(sh.mu);
      ++sh.stats.requests;
    }
    auto resp = doc::HttpPost(sh.url, sh.url.path + "/chat/completions", body, headers, sh.opt.timeout_ms);
    if (!resp.ok()) {
      last = resp.status();  // timeout / connection error: retry
      continue;
    }
    int st = resp->status;
    if (st == 429 || st >= 500) {
      last = Status::IoError("HTTP " + std::to_string(st));
      continue;
    }
    if (st < 200 || st >= 300) return Status::InvalidArgument("HTTP " + std::to_string(st) + ": " + resp->body.substr(0, 200));
    try {
      json j = ParseJsonBounded(resp->body);
      if (j.is_discarded()) return Status::ParseError("malformed answer: not JSON (or nested too deep)");
      const json& content = j.at("choices").at(0).at("message").at("content");
      if (!content.is_string()) return Status::ParseError("no message content in the answer");
      return content.get<std::string>();
    } catch (const std::exception& e) {
      return Status::ParseError(std::string("malformed answer: ") + e.what());
    }
  }
  return last;
}

void PolishOne(Shared& sh, LlmItem& item) {
  Record& r = *item.record;
  json draft = Draft(r);
  json facts = item.facts_json.empty() ? json(nullptr) : json::parse(item.facts_json, nullptr, false);
  if (facts.is_discarded()) facts = nullptr;
  json context = item.context_json.empty() ? json(nullptr) : json::parse(item.context_json, nullptr, false);
  if (context.is_discarded()) context = nullptr;
  json user_facts = item.user_facts_json.empty() ? json(nullptr) : json::parse(item.user_facts_json, nullptr, false);
  if (user_facts.is_discarded()) user_facts = nullptr;
  json user = {{"facts", facts},
               {"userFacts", user_facts},
               {"context", context},
               {"errorClass", r.error_class ? json(*r.error_class) : json(nullptr)},
               {"errorMessage", r.error_message ? json(*r.error_message) : json(nullptr)},
               {"filePath", r.file_path},
               {"lineNumber", r.line_number},
               {"sourceCode", r.source_code},
               {"draft", draft}};
  std::string user_text = user.dump(-1, ' ', false, json::error_handler_t::replace);
  std::string key_src = std::string(kLlmPromptVersion) + "\n" + sh.opt.model + "\n" + user_text;
  std::string key = "llm:" + Hex64(XXH64(key_src.data(), key_src.size(), 0));
  std::optional<std::string> content;
  if (sh.cache) {
    content = sh.cache->Get(key);
    if (content) {
      std::lock_guard<std::mutex> l(sh.mu);
      ++sh.stats.cache_hits;
    }
  }
  if (!content) {
    json req = {{"model", sh.opt.model},
                {"temperature", sh.opt.temperature},
                {"messages", json::array({{{"role", "system"}, {"content", kSystemPrompt}},
                                          {{"role", "user"}, {"content", user_text}}})},
                {"response_format",
                 {{"type", "json_schema"}, {"json_schema", {{"name", "errdex_doc"}, {"strict", true}, {"schema", Schema()}}}}}};
    auto answer = Ask(sh, req.dump(-1, ' ', false, json::error_handler_t::replace));
    if (!answer.ok()) {
      sh.Error(r, answer.status().ToString());
      return;
    }
    content = answer.value();
  }
  Record polished = r;
  int taken = 0, kept = 0;
  if (!Merge(*content, &polished, &taken, &kept)) {
    sh.Error(r, "the model's content is not a JSON object");
    return;
  }
  if (sh.cache) sh.cache->Put(key, *content);  // only well-formed answers are cached
  r = std::move(polished);
  std::lock_guard<std::mutex> l(sh.mu);
  sh.stats.fields_kept += kept;
  if (taken > 0) ++sh.stats.polished;
}

}  // namespace

LlmStats PolishWithLlm(const LlmOptions& options, LlmCache* cache, std::vector<LlmItem>& items) {
  Shared sh{options, cache, {}, {}, {}};
  sh.stats.records = (int)items.size();
  auto url = doc::ParseHttpUrl(options.url);
  if (!url.ok()) {
    sh.stats.fallbacks = (int)items.size();
    sh.stats.errors.push_back(url.status().ToString());
    return sh.stats;
  }
  sh.url = url.value();
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < items.size(); i = next++)
      if (items[i].record) PolishOne(sh, items[i]);
  };
  int n = std::max(1, std::min<int>(options.concurrency, (int)items.size()));
  std::vector<std::thread> pool;
  for (int i = 1; i < n; ++i) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  return sh.stats;
}

}  // namespace errdex
