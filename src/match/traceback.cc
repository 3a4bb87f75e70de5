// match/traceback.cc: a small state machine per writer. Tested by traceback_test.cc.
#include "match/traceback.h"

#include <cctype>
#include <map>

namespace errdex {

namespace {

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

bool IsChainSentence(std::string_view t) {
  return StartsWith(t, "During handling of the above exception") ||
         StartsWith(t, "The above exception was the direct cause");
}

std::string_view Trim(std::string_view t) {
  while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
  while (!t.empty() && (t.back() == ' ' || t.back() == '\t' || t.back() == '\r')) t.remove_suffix(1);
  return t;
}

// "    ^^^^^^" / "    ~~~~^^^" under a code line, or "[Previous line repeated 9 more times]".
bool IsCaretsOrNote(std::string_view t) {
  t = Trim(t);
  if (t.empty() || t.front() == '[') return true;
  for (char c : t)
    if (c != '^' && c != '~' && c != '-' && c != ' ') return false;
  return true;
}

// "Traceback (most recent call last):", also at the end of a log message
// ("Scheduler hit an exception: Traceback (most recent call last):").
bool IsHeader(std::string_view t) {
  while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.remove_suffix(1);
  constexpr std::string_view kHeader = "Traceback (most recent call last):";
  return (t.size() >= kHeader.size() && t.substr(t.size() - kHeader.size()) == kHeader) ||
         StartsWith(t, "Exception Group Traceback");
}

// '  File "x.py", line 12, in func'
bool ParseFrame(std::string_view t, TracebackFrame& f) {
  size_t i = 0;
  while (i < t.size() && (t[i] == ' ' || t[i] == '\t' || t[i] == '|' || t[i] == '+')) ++i;
  t = t.substr(i);
  if (!StartsWith(t, "File \"")) return false;
  size_t q = t.find("\", line ", 6);
  if (q == std::string_view::npos) return false;
  f.file = std::string(t.substr(6, q - 6));
  size_t p = q + 8;
  int line = 0;
  size_t digits = 0;
  while (p < t.size() && std::isdigit(static_cast<unsigned char>(t[p])) && digits < 9) {
    line = line * 10 + (t[p] - '0');
    ++p;
    ++digits;
  }
  if (digits == 0) return false;
  f.line = line;
  f.function.clear();
  if (StartsWith(t.substr(p), ", in ")) {
    std::string_view fn = t.substr(p + 5);
    while (!fn.empty() && (fn.back() == ' ' || fn.back() == '\t')) fn.remove_suffix(1);
    f.function = std::string(fn);
  }
  return true;
}

bool IsIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }

bool EndsWith(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

}  // namespace

bool IsTracebackHeader(std::string_view t) { return IsHeader(t); }

bool LooksLikeFrameLine(std::string_view t) {
  size_t p = t.find("File \"");
  return p != std::string_view::npos && t.find("\", line ", p) != std::string_view::npos;
}

EmbeddedClass FindEmbeddedClass(std::string_view t) {
  EmbeddedClass out;
  for (size_t i = 0; i < t.size() && i < 4096; ++i) {
    char prev = i == 0 ? ' ' : t[i - 1];
    if (!(std::isalpha(static_cast<unsigned char>(t[i])) || t[i] == '_')) continue;
    if (!(prev == ' ' || prev == '`' || prev == '\'' || prev == '"' || prev == '(' || prev == '[' || prev == '*' ||
          prev == '\t' || prev == ':' || prev == '>')) {
      continue;
    }
    ClassSplit cs = SplitClassPrefix(t.substr(i), /*strict=*/true);
    if (!cs.ok || cs.message_begin == cs.class_end) {
      // skip this word
      while (i + 1 < t.size() && (std::isalnum(static_cast<unsigned char>(t[i + 1])) || t[i + 1] == '_' || t[i + 1] == '.')) ++i;
      continue;
    }
    // "Error: botocore.exceptions.ParamValidationError: ..." in an issue title: a bare
    // "Error"/"Exception" label before a class that is printed is the writer's, not
    // the class (a message of a class named Error starts with no class of its own).
    std::string_view cls = t.substr(i, cs.class_end);
    if (IsWritersLabel(cls)) {
      size_t m = i + cs.message_begin;
      if (m < t.size() && m > i) {
        ClassSplit inner = SplitClassPrefix(t.substr(m), /*strict=*/true);
        if (inner.ok && inner.message_begin != inner.class_end) {
          i = m - 1;
          continue;
        }
      }
    }
    out.ok = true;
    out.class_begin = i;
    out.class_end = i + cs.class_end;
    out.message_begin = i + cs.message_begin;
    out.message_end = t.size();
    char close = prev == '`' ? '`' : prev == '\'' ? '\'' : prev == '"' ? '"' : prev == '(' ? ')' : prev == '[' ? ']' : 0;
    if (close) {
      size_t c = t.rfind(close);
      if (c != std::string_view::npos && c > out.message_begin) out.message_end = c;
    }
    while (out.message_end > out.message_begin &&
           (t[out.message_end - 1] == ' ' || t[out.message_end - 1] == '\t' || t[out.message_end - 1] == '\r'))
      --out.message_end;
    return out;
  }
  return out;
}

std::string_view ShortClassName(std::string_view printed) {
  size_t dot = printed.rfind('.');
  return dot == std::string_view::npos ? printed : printed.substr(dot + 1);
}

ClassSplit SplitClassPrefix(std::string_view t, bool strict) {
  ClassSplit s;
  if (t.empty() || !(std::isalpha(static_cast<unsigned char>(t[0])) || t[0] == '_')) return s;
  size_t i = 0;
  while (i < t.size() && IsIdentChar(t[i])) ++i;
  if (i > 200) return s;
  std::string_view cls = t.substr(0, i);
  if (cls.back() == '.') return s;
  std::string_view last = ShortClassName(cls);
  if (last.empty()) return s;
  if (strict) {
    static constexpr std::string_view kSuffixes[] = {"Error", "Exception", "Warning", "Exit", "Interrupt",
                                                     "Fault", "Failure", "Timeout", "Iteration"};
    bool looks = false;
    for (auto suf : kSuffixes) looks = looks || EndsWith(last, suf);
    // A class qualified by its module names itself whatever its name ends in
    // ("networkx.exception.NodeNotFound", "pexpect.exceptions.TIMEOUT", "re.error"):
    // prose rarely writes "a.B: " and a file name ("setup.py: ") is lowercase.
    bool qualified = last.size() < cls.size();
    if (qualified && (std::isupper(static_cast<unsigned char>(last[0])) || StartsWith(last, "error"))) looks = true;
    else if (!looks || !std::isupper(static_cast<unsigned char>(last[0]))) return s;
  }
  if (i == t.size()) {
    s = {i, i, true};
  } else if (t[i] == ':' && (i + 1 == t.size() || t[i + 1] == ' ')) {
    s = {i, std::min(t.size(), i + 2), true};
  }
  return s;
}

std::vector<ExceptionSection> ParseTracebacks(const std::vector<const NormalizedLine*>& lines,
                                              size_t max_message_lines, std::vector<bool>& consumed,
                                              std::vector<TracebackFrame>* orphan_frames) {
  // Lines per writer, in order.
  std::map<std::string_view, std::vector<size_t>> by_source;
  for (size_t i = 0; i < lines.size(); ++i) by_source[lines[i]->source].push_back(i);

  std::vector<ExceptionSection> out;
  for (auto& [source, idxs] : by_source) {
    enum class State { kIdle, kFrames, kMessage } state = State::kIdle;
    ExceptionSection cur;
    bool chain_pending = false;
    bool direct_pending = false;
    size_t chain_id = out.size();
    size_t last_in_chain = static_cast<size_t>(-1);
    size_t last_consumed = 0;
    auto finish = [&] {
      if (cur.chained && last_in_chain != static_cast<size_t>(-1)) {
        cur.chain_id = out[last_in_chain].chain_id;
        cur.chain_pos = out[last_in_chain].chain_pos + 1;
      } else {
        cur.chain_id = chain_id++;
        cur.chain_pos = 0;
      }
      last_in_chain = out.size();
      out.push_back(std::move(cur));
      cur = ExceptionSection();
    };
    for (size_t i : idxs) {
      std::string_view t = lines[i]->text;
      if (IsHeader(t)) {
        if (state == State::kMessage) finish();
        if (state == State::kFrames && !cur.frames.empty()) {  // the one before was cut short
          cur.cut_off = true;
          cur.class_line = last_consumed;
          finish();
        }
        if (!chain_pending) last_in_chain = static_cast<size_t>(-1);
        cur = ExceptionSection();
        cur.chained = chain_pending;
        cur.cause_is_direct = direct_pending;
        chain_pending = false;
        direct_pending = false;
        state = State::kFrames;
        consumed[i] = true;
        continue;
      }
      if (state == State::kIdle) {
        if (IsChainSentence(t)) {  // harmless when no traceback follows
          chain_pending = true;
          direct_pending = StartsWith(t, "The above");
          continue;
        }
        // The tail of a traceback pasted without its header: it starts at a frame.
        TracebackFrame f;
        if (!ParseFrame(t, f)) continue;
        last_in_chain = static_cast<size_t>(-1);
        cur = ExceptionSection();
        chain_pending = direct_pending = false;
        cur.frames.push_back(std::move(f));
        consumed[i] = true;
        last_consumed = i;
        state = State::kFrames;
        continue;
      }
      if (state == State::kFrames) {
        TracebackFrame f;
        if (ParseFrame(t, f)) {
          cur.frames.push_back(std::move(f));
          consumed[i] = true;
          last_consumed = i;
          continue;
        }
        if (t.empty() || t[0] == ' ' || t[0] == '\t' || t[0] == '|' || t[0] == '+') {
          consumed[i] = true;  // source line, carets, "[Previous line repeated ...]"
          if (!cur.frames.empty() && cur.frames.back().code.empty() && !IsCaretsOrNote(t)) {
            std::string_view code = Trim(t);
            while (!code.empty() && (code.front() == '|' || code.front() == '+' || code.front() == ' ')) code.remove_prefix(1);
            cur.frames.back().code = std::string(code);
          }
          continue;
        }
        // The exception line.
        consumed[i] = true;
        cur.class_line = i;
        ClassSplit cs = SplitClassPrefix(t, /*strict=*/false);
        if (cs.ok) {
          cur.printed_class = std::string(t.substr(0, cs.class_end));
          cur.short_class = std::string(ShortClassName(cur.printed_class));
          cur.message_lines.emplace_back(i, cs.message_begin);
        } else {
          cur.message_lines.emplace_back(i, 0);
        }
        state = State::kMessage;
        continue;
      }
      // kMessage: continuation lines until a blank line, a chaining sentence, a new
      // log record or the limit.
      if (IsChainSentence(t)) {
        finish();
        consumed[i] = true;
        chain_pending = true;
        direct_pending = StartsWith(t, "The above");
        state = State::kIdle;
        continue;
      }
      if (t.empty() || lines[i]->record_start || cur.message_lines.size() >= max_message_lines) {
        finish();
        state = State::kIdle;
        continue;
      }
      consumed[i] = true;
      cur.message_lines.emplace_back(i, 0);
    }
    if (state == State::kMessage) finish();
    // A header with frames but no exception line (a paste cut short; a window never
    // ends inside a traceback unless forced): a section without a message, whose
    // frames still tell where the error came from.
    if (state == State::kFrames && !cur.frames.empty()) {
      cur.cut_off = true;
      cur.class_line = last_consumed;
      finish();
    }
  }
  // Chain lengths, now that every chain is complete.
  std::map<size_t, size_t> len;
  for (const ExceptionSection& s : out) len[s.chain_id] = std::max(len[s.chain_id], s.chain_pos + 1);
  for (ExceptionSection& s : out) s.chain_len = len[s.chain_id];
  return out;
}

}  // namespace errdex
