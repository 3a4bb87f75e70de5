// document/llm: the optional language-model pass. Sends each record's facts, its
// source window and the deterministic prose to an OpenAI-compatible
// `POST <url>/chat/completions` (llama.cpp server, vLLM, sglang, ...) asking, via
// `response_format: json_schema`, for better wording of the prose fields. The
// answer is validated field by field: a field is taken only when it is well-formed
// and still states every anchor of the deterministic text (each --flag, each
// ENV_VAR, file:line for documentation); otherwise the deterministic text stays.
// Answers are cached by a hash of (prompt version, model, facts, window,
// deterministic text), so a re-run makes no request. Requests run on a bounded
// pool; 429/5xx/timeouts/connection errors are retried with exponential backoff.
// The model failing never fails the run: the record keeps its deterministic text
// and LlmStats says how many fell back and why.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/record.h"

namespace errdex {

struct LlmOptions {
  std::string url;              // http://host:port/v1
  std::string model;
  std::string api_key;          // sent as "Authorization: Bearer"; "" for none (read from ERRDEX_LLM_API_KEY by the CLI)
  int concurrency = 4;          // requests in flight at most
  int max_attempts = 4;         // per record, counting the first
  int timeout_ms = 120000;      // per attempt
  int backoff_ms = 500;         // first retry delay, doubled each retry
  double temperature = 0.2;
};

// A string cache. Implementations must be thread-safe.
class LlmCache {
 public:
  virtual ~LlmCache() = default;
  virtual std::optional<std::string> Get(const std::string& key) = 0;
  virtual void Put(const std::string& key, const std::string& value) = 0;
};

// An in-memory LlmCache (tests, runs without a catalog). Thread-safe.
class MemoryLlmCache final : public LlmCache {
 public:
  std::optional<std::string> Get(const std::string& key) override;
  void Put(const std::string& key, const std::string& value) override;

 private:
  std::mutex mu_;
  std::unordered_map<std::string, std::string> map_;
};

struct LlmItem {
  Record* record = nullptr;  // deterministic prose already filled; polished in place
  std::string facts_json;    // the site's facts (SiteToJson) or "" when unknown
  // What the document stage read around it: {"site": SiteContext, "settings": the
  // flags / env vars / fields its prose consulted}, or "".
  std::string context_json;
  // The conditions in the user's own terms (DocumentFactsJson), or "".
  std::string user_facts_json;
};

struct LlmStats {
  int records = 0;
  int requests = 0;        // HTTP requests sent (retries included)
  int retries = 0;
  int cache_hits = 0;
  int polished = 0;        // records that took at least one field from the model
  int fields_kept = 0;     // fields where the deterministic text was kept (dropped anchor, bad shape)
  int fallbacks = 0;       // records left fully deterministic because the model failed
  std::vector<std::string> errors;  // one line per fallback: "<record id>: <reason>" (at most 20)
};

inline constexpr const char* kLlmPromptVersion = "errdex-doc-prompt-3";

// Polishes every item. REQUIRES: options.url and options.model non-empty.
// `cache` may be null (no caching).
LlmStats PolishWithLlm(const LlmOptions& options, LlmCache* cache, std::vector<LlmItem>& items);

}  // namespace errdex
