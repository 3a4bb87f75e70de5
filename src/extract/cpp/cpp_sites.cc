// The sites of the C/C++ front end (see cpp_walker.h): a call of a sink
// (cpp_sinks: its kind, class, condition, log level and message rule --
// concatenation, printf, fmt `{}`, one argument -- plus a `<< a << b` stream
// after it; glog severities; fprintf(stderr) and printf only when the program
// then stops), and a `throw` (a literal, a class constructed or streamed into,
// a factory of its class, or a value built elsewhere; a rethrow of the caught
// value is no site).
#include "extract/cpp/cpp_walker.h"

#include <algorithm>
#include <optional>
#include <string>

namespace errdex::cpp {

namespace {

bool IsLocationBuiltin(std::string_view s) {
  return s == "__FILE__" || s == "__LINE__" || s == "__func__" || s == "__FUNCTION__" ||
         s == "__PRETTY_FUNCTION__" || s == "__FILE_NAME__" || s == "__BASE_FILE__";
}

}  // namespace

bool Walker::Terminates(size_t from) const {
  int d = 0;
  for (size_t k = from; k < N() && k < from + 256; ++k) {
    const Token& u = T(k);
    if (u.IsPunct('{')) ++d;
    if (u.IsPunct('}') && --d < 0) return false;
    if (u.type != TokType::kIdent || !IsP(k + 1, '(')) {
      if (u.Is("throw")) return true;
      continue;
    }
    if (u.text == "exit" || u.text == "abort" || u.text == "_exit" || u.text == "__trap" || u.text == "quick_exit" ||
        u.text == "__builtin_trap")
      return true;
  }
  return false;
}

void Walker::HandleSink(size_t i, size_t name_begin, const cpp::Sink& sink) {
  // A weak name the repository defines (and that reaches nothing) is not this sink.
  if (sink.weak && exp_.Defines(T(i).text)) return;
  size_t open = i + 1;
  size_t close = Close(open);
  if (close >= N()) return;
  auto args = SplitArgs(open, close);
  auto arg_text = [&](int k) -> std::string {
    if (k < 0 || static_cast<size_t>(k) >= args.size()) return {};
    return Spell(args[static_cast<size_t>(k)].first, args[static_cast<size_t>(k)].second);
  };
  SiteKind kind = sink.kind;
  std::string cls(sink.cls);
  std::string level(sink.log_level);
  if (sink.severity_arg >= 0) {
    std::string sev = arg_text(sink.severity_arg);
    if (sev == "FATAL" || sev == "DFATAL" || sev == "QFATAL" || sev == "google::FATAL") {
      kind = SiteKind::kPanic;
      cls = "fatal";
    } else if (sev == "ERROR" || sev == "google::ERROR") {
      level = "error";
    } else if (sev == "WARNING" || sev == "WARN" || sev == "google::WARNING") {
      level = "warning";
    } else {
      return;  // INFO, VLOG levels, anything else
    }
  }
  if (sink.needs_stderr && arg_text(0) != "stderr") return;
  bool terminates = (sink.fatal_print || sink.needs_stderr) && Terminates(close + 1);
  if (sink.fatal_print && !terminates) return;
  if (sink.needs_stderr && terminates) {
    kind = SiteKind::kPanic;
    cls = "fatal";
    level.clear();
  }
  if (sink.class_arg >= 0) {
    std::string a = arg_text(sink.class_arg);
    if (a.empty()) return;
    cls = std::string(cpp::ClassFromArgument(a));
  }
  Site site = NewSite(kind, name_begin);
  if (!cls.empty()) site.error_class = cls;
  site.error_class_expr = Spell(name_begin, i + 1);
  if (kind == SiteKind::kLog && !level.empty()) site.log_level = level;
  std::string cond = arg_text(sink.cond_arg);
  if (sink.cond_arg >= 0)
    site.assert_condition = sink.op.empty() ? cond : cond + " " + std::string(sink.op) + " " + arg_text(sink.cond_arg + 1);
  // The user's part of the message.
  std::optional<Alts> user;
  size_t end = close;
  std::vector<std::string> expr_parts;
  if (sink.msg_arg >= 0 && static_cast<size_t>(sink.msg_arg) < args.size() &&
      !(args.size() == 1 && args[0].first == args[0].second)) {
    size_t m = static_cast<size_t>(sink.msg_arg);
    switch (sink.rule) {
      case cpp::MsgRule::kConcat: {
        Alts out{Segs{}};
        for (size_t a = m; a < args.size(); ++a) out = msg::Concat(out, Part(args[a].first, args[a].second, 0));
        user = out;
        break;
      }
      case cpp::MsgRule::kPrintf:
      case cpp::MsgRule::kBraces: {
        std::optional<Alts> f = Eval(args[m].first, args[m].second, 0);
        Alts fmt = f ? *f : Alts{Segs{msg::Hole(arg_text(static_cast<int>(m)))}};
        std::vector<Segs> rest;
        for (size_t a = m + 1; a < args.size(); ++a) rest.push_back(PartSegs(args[a].first, args[a].second, 0));
        Alts out;
        for (const Segs& s : fmt)
          out.push_back(sink.rule == cpp::MsgRule::kPrintf ? msg::ApplyPrintf(s, rest, msg::Printf::kC)
                                                           : msg::ApplyBraces(s, rest, msg::Braces::kFmt));
        user = out;
        break;
      }
      case cpp::MsgRule::kOne:
        user = Part(args[m].first, args[m].second, 0);
        break;
      case cpp::MsgRule::kNone:
        break;
    }
    if (user) site.message_expr = Spell(args[m].first, args.back().second);
  }
  if (sink.stream && IsP(close + 1, '<') == false && close + 1 < N() && T(close + 1).Is("<<")) {
    size_t stop = ExprEnd(close + 1);
    Alts out = user ? *user : Alts{Segs{}};
    size_t b = close + 2;
    int d = 0;
    for (size_t k = close + 2; k <= stop && k <= N(); ++k) {
      bool at_end = k == stop;
      if (!at_end) {
        const Token& u = T(k);
        if (u.type == TokType::kPunct && u.text.size() == 1 && (u.text[0] == '(' || u.text[0] == '[' || u.text[0] == '{')) ++d;
        else if (u.type == TokType::kPunct && u.text.size() == 1 && (u.text[0] == ')' || u.text[0] == ']' || u.text[0] == '}')) --d;
      }
      if (at_end || (d == 0 && T(k).Is("<<"))) {
        if (k > b) out = msg::Concat(out, Part(b, k, 0));
        b = k + 1;
      }
    }
    user = out;
    std::string stream_text = Spell(close + 2, stop);
    site.message_expr = site.message_expr ? *site.message_expr + " << " + stream_text : stream_text;
    end = stop > 0 ? stop - 1 : stop;
  }
  std::string a0 = arg_text(0), a1 = arg_text(1);
  Segs prefix = Template(sink.prefix, cond, a0, a1);
  Alts whole;
  if (user) {
    whole = msg::Concat(Alts{prefix}, *user);
  } else if (!sink.empty.empty()) {
    whole = Alts{Template(sink.empty, cond, a0, a1)};
  } else {
    whole = Alts{prefix};
  }
  if (msg::Bytes(whole) <= msg::kMaxMessageBytes) msg::RenderInto(site, whole);
  if (end < N()) site.end_line = static_cast<int>(T(end).line);
  if (site.end_line < site.line) site.end_line = site.line;
  Add(std::move(site));
}

void Walker::HandleThrow(size_t i) {
  size_t b = i + 1;
  if (b >= N() || IsP(b, ';') || IsP(b, ')') || IsP(b, '}')) return;  // rethrow
  size_t e = ExprEnd(b);
  if (e <= b) return;
  Site site = NewSite(SiteKind::kRaise, i);
  site.end_line = static_cast<int>(T(e - 1).line);
  if (site.end_line < site.line) site.end_line = site.line;
  size_t k = b;
  if (IsW(k, "new")) ++k;
  if (k >= e) return;  // `throw new` and the file ends
  // A thrown literal.
  if (T(k).type == TokType::kString) {
    site.error_class = "const char*";
    site.error_class_expr = Spell(k, e);
    if (std::optional<Alts> v = Eval(k, e, 0)) msg::RenderInto(site, *v);
    Add(std::move(site));
    return;
  }
  // A qualified name, template arguments skipped.
  size_t name_b = k;
  if (IsP(k, ':') || T(k).Is("::")) ++k;
  std::vector<std::string_view> parts;
  size_t name_e = k;
  while (k < e && T(k).type == TokType::kIdent) {
    parts.push_back(T(k).text);
    ++k;
    if (IsP(k, '<')) {  // template arguments
      int d = 0;
      size_t q = k;
      for (; q < e; ++q) {
        if (T(q).IsPunct('<')) ++d;
        else if (T(q).IsPunct('>') && --d == 0) break;
        else if (T(q).Is(">>") && (d -= 2) <= 0) break;
      }
      if (q >= e) break;
      k = q + 1;
    }
    name_e = k;
    if (k < e && T(k).Is("::")) {
      ++k;
      continue;
    }
    break;
  }
  if (parts.empty()) {
    site.error_class_expr = Spell(b, e);
    site.dynamic = true;
    Add(std::move(site));
    return;
  }
  std::string written;
  for (size_t q = name_b; q < name_e; ++q) {
    if (T(q).IsPunct('<')) {  // drop template arguments from the class name
      int d = 0;
      for (; q < name_e; ++q) {
        if (T(q).IsPunct('<')) ++d;
        else if (T(q).IsPunct('>') && --d == 0) break;
      }
      continue;
    }
    written += T(q).text;
  }
  while (written.size() >= 2 && written.substr(0, 2) == "::") written.erase(0, 2);
  site.error_class_expr = Spell(b, e);
  bool call = name_e < e && (IsP(name_e, '(') || IsP(name_e, '{'));
  if (!call) {
    // throw e; / throw err_; (a value built elsewhere)
    if (parts.size() == 1) {
      for (auto it = ctx_.rbegin(); it != ctx_.rend(); ++it)
        if (it->kind == CtxKind::kCatch && it->catch_param == parts[0]) return;  // rethrow of the caught value
    }
    site.dynamic = true;
    Add(std::move(site));
    return;
  }
  auto classlike = [](std::string_view n) {
    if (n.empty()) return false;
    if (n[0] >= 'A' && n[0] <= 'Z') return true;
    for (std::string_view suf : {"error", "exception", "failure", "Error", "Exception", "_error"})
      if (n.size() >= suf.size() && n.substr(n.size() - suf.size()) == suf) return true;
    return false;
  };
  std::string_view last = parts.back();
  bool is_std = parts.size() >= 2 && parts[0] == "std";
  if (is_std || classlike(last)) {
    site.error_class = written;
  } else if (parts.size() >= 2 && classlike(parts[parts.size() - 2])) {
    // type_error::create(...): a factory of its class
    size_t cut = written.rfind("::");
    site.error_class = written.substr(0, cut);
  } else {
    site.dynamic = true;  // a function returning an error
  }
  size_t close = Close(name_e);
  if (close >= N() || close > e) {
    Add(std::move(site));
    return;
  }
  auto args = SplitArgs(name_e, close);
  if (close + 1 < e && T(close + 1).Is("<<")) {
    // throw ErrorReport(tree) << "msg" << x: the streamed text is the message.
    Alts out{Segs{}};
    size_t sb = close + 2;
    int d = 0;
    for (size_t k = close + 2; k <= e; ++k) {
      bool at_end = k == e;
      if (!at_end) {
        const Token& u = T(k);
        if (u.type == TokType::kPunct && u.text.size() == 1 && (u.text[0] == '(' || u.text[0] == '[' || u.text[0] == '{')) ++d;
        else if (u.type == TokType::kPunct && u.text.size() == 1 && (u.text[0] == ')' || u.text[0] == ']' || u.text[0] == '}')) --d;
      }
      if (at_end || (d == 0 && T(k).Is("<<"))) {
        if (k > sb) out = msg::Concat(out, Part(sb, k, 0));
        sb = k + 1;
      }
    }
    site.message_expr = Spell(close + 2, e);
    msg::RenderInto(site, out);
    Add(std::move(site));
    return;
  }
  std::optional<Alts> best;
  size_t best_arg = SIZE_MAX;
  size_t candidates = 0, only = SIZE_MAX;
  for (size_t a = 0; a < args.size(); ++a) {
    auto [x, y] = args[a];
    if (x >= y) continue;
    if (y == x + 1 && T(x).type == TokType::kIdent && IsLocationBuiltin(T(x).text)) continue;
    if (IsP(x, '{')) continue;  // {__func__, __FILE__, __LINE__}
    ++candidates;
    only = a;
    std::optional<Alts> v = Eval(x, y, 0);
    if (v && std::any_of(v->begin(), v->end(), [](const Segs& s) { return msg::HasLiteral(s); })) {
      best = v;
      best_arg = a;
      break;
    }
  }
  if (best) {
    site.message_expr = Spell(args[best_arg].first, args[best_arg].second);
    msg::RenderInto(site, *best);
  } else if (candidates == 1) {
    site.message_expr = Spell(args[only].first, args[only].second);
  }
  Add(std::move(site));
}

}  // namespace errdex::cpp
