// Message evaluation of the JavaScript front end (see js_walker.h): a message
// expression rebuilt as segments (literal text and {expr} holes) and
// alternatives, from string and template literals, `+` concatenation,
// `c ? "a" : "b"`, util.format-style %s/%d/%j placeholders and variables bound
// earlier in scope; and the choice of the argument or object key that holds a
// site's message. Every evaluation is bounded (depth, variable hops, steps,
// bytes), so no input makes it recurse deeply or grow exponentially.
#include "extract/javascript/js_walker.h"

#ifdef ERRDEX_HAVE_TREE_SITTER

#include <cstdint>
#include <cstring>

#include "extract/javascript/js_literal.h"

namespace errdex::js {

namespace {

constexpr int kMaxMessageDepth = 48;   // nesting of + / ?: / variables followed in a message
constexpr int kMaxVariableHops = 8;    // msg = a; a = b; ... followed at most this far
// Work and size bounds of one message's evaluation: variables referring to other
// variables several times each (`b = a + a + a; c = b + b + b; ...`) would
// otherwise grow exponentially. Past either bound (this one, or
// msg::kMaxMessageBytes) the message is unknown.
constexpr int kMaxEvalSteps = 4096;

bool TooBig(const Alts& alts) { return msg::Bytes(alts) > msg::kMaxMessageBytes; }

}  // namespace

std::optional<Alts> Walker::EvaluateMessage(TSNode n) {
  resolution_ = "literal";
  variable_hops_ = 0;
  eval_steps_left_ = kMaxEvalSteps;
  exhausted_ = false;
  std::optional<Alts> v = Evaluate(n, 0);
  if (exhausted_) return std::nullopt;
  return v;
}

std::optional<Alts> Walker::Evaluate(TSNode n, int depth) {
  if (depth > kMaxMessageDepth || ts_node_is_null(n)) return std::nullopt;
  if (eval_steps_left_-- <= 0) {
    exhausted_ = true;
    return std::nullopt;
  }
  n = Unwrap(n);
  if (Is(n, "string")) {
    std::string_view t = Text(n);
    if (t.size() < 2) return std::nullopt;
    std::string lit = DecodeJsLiteral(t.substr(1, t.size() - 2), false);
    return Alts{Segs{Seg{false, std::move(lit)}}};
  }
  if (Is(n, "template_string")) return EvaluateTemplate(n, depth);
  if (Is(n, "binary_expression")) {
    if (Text(Field(n, fields_.op)) != "+") return std::nullopt;
    TSNode l = Field(n, fields_.left), r = Field(n, fields_.right);
    std::optional<Alts> le = Evaluate(l, depth + 1);
    std::optional<Alts> re = Evaluate(r, depth + 1);
    if (!le && !re) return std::nullopt;  // no string involved: not a message
    Alts la = le ? std::move(*le) : EvaluatePart(l, depth + 1);
    Alts ra = re ? std::move(*re) : EvaluatePart(r, depth + 1);
    Alts out = msg::Concat(la, ra);
    if (TooBig(out)) {
      exhausted_ = true;  // the whole message is unknown
      return std::nullopt;
    }
    return out;
  }
  if (Is(n, "ternary_expression")) {
    std::optional<Alts> c = Evaluate(Field(n, fields_.consequence), depth + 1);
    std::optional<Alts> a = Evaluate(Field(n, fields_.alternative), depth + 1);
    if (!c && !a) return std::nullopt;
    Alts out = c ? std::move(*c) : EvaluatePart(Field(n, fields_.consequence), depth + 1);
    Alts more = a ? std::move(*a) : EvaluatePart(Field(n, fields_.alternative), depth + 1);
    for (Segs& s : more)
      if (out.size() < msg::kMaxAlternatives) out.push_back(std::move(s));
    return out;
  }
  if (Is(n, "call_expression")) {
    // util.format("... %s", x) / format(...)
    std::string_view callee = Text(Field(n, fields_.function));
    if (callee != "util.format" && callee != "format" && callee != "node_util.format") return std::nullopt;
    std::vector<TSNode> args = Args(Field(n, fields_.arguments));
    if (args.empty()) return std::nullopt;
    std::optional<Alts> fmt = Evaluate(args[0], depth + 1);
    if (!fmt) return std::nullopt;
    std::vector<TSNode> rest(args.begin() + 1, args.end());
    if (rest.empty()) return fmt;
    return ApplyFormat(*fmt, rest, true, depth + 1);
  }
  if (Is(n, "identifier") || Is(n, "shorthand_property_identifier")) {  // {message} means {message: message}
    if (variable_hops_ >= kMaxVariableHops) return std::nullopt;
    bool in_module = false, crossed = false;
    Binding* b = Lookup(Text(n), &in_module, &crossed);
    if (!b || b->kind != Binding::kValue) return std::nullopt;
    TSNode value = b->value;
    std::vector<TSNode> aug = b->aug;  // copy: evaluation may not touch bindings, but be safe
    int assigns = b->assigns;
    ++variable_hops_;
    std::optional<Alts> v = Evaluate(value, depth + 1);
    if (v) {
      for (TSNode piece : aug) v = msg::Concat(*v, EvaluatePart(piece, depth + 1));
    }
    --variable_hops_;
    if (!v) return std::nullopt;
    if (resolution_ == "literal") {
      resolution_ = in_module ? "module-constant" : "variable";
      if (assigns > 1) resolution_ += "-multi";
      if (!aug.empty()) resolution_ += "+aug";
    }
    return v;
  }
  return std::nullopt;
}

Alts Walker::EvaluatePart(TSNode n, int depth) {
  std::optional<Alts> v = Evaluate(n, depth);
  if (v) return std::move(*v);
  TSNode u = Unwrap(n);
  if (Is(u, "number")) return Alts{Segs{Seg{false, std::string(Text(u))}}};
  // The hole is the expression as written, less any parentheses around it.
  for (int guard = 0; guard < 64 && Is(n, "parenthesized_expression") && !ts_node_is_null(FirstNamed(n)); ++guard)
    n = FirstNamed(n);
  return Alts{Segs{Seg{true, std::string(Text(n))}}};
}

std::optional<Alts> Walker::EvaluateTemplate(TSNode n, int depth) {
  uint32_t pos = ts_node_start_byte(n) + 1;  // after the backtick
  uint32_t end = ts_node_end_byte(n);
  if (end > pos && text_[end - 1] == '`') --end;
  Alts out{Segs{}};
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_named_child(n, i);
    if (!Is(c, "template_substitution")) continue;
    uint32_t b = ts_node_start_byte(c);
    if (b > pos) msg::Append(out[0], Seg{false, DecodeJsLiteral(text_.substr(pos, b - pos), true)});
    TSNode expr = FirstNamed(c);
    msg::Append(out[0], Seg{true, std::string(Text(expr))});
    pos = ts_node_end_byte(c);
  }
  if (end > pos) msg::Append(out[0], Seg{false, DecodeJsLiteral(text_.substr(pos, end - pos), true)});
  return out;
}

void Walker::SetMessage(Site& site, TSNode msg, const std::vector<TSNode>* format_args, bool append_rest) {
  if (ts_node_is_null(msg)) return;
  site.message_expr = std::string(Text(msg));
  std::optional<Alts> v = EvaluateMessage(msg);
  if (!v) return;
  if (format_args && !format_args->empty()) {
    v = ApplyFormat(*v, *format_args, append_rest, 0);
    if (exhausted_ || TooBig(*v)) return;
  }
  msg::RenderInto(site, *v);
  if (site.error_message) site.message_resolution = resolution_;
}

// util.format semantics (console.*, util.format, most loggers): with at least one
// argument after the format, each %s %d %i %f %j %o %O takes the next argument (a
// hole), %c takes one and shows nothing, %% is '%'; a specifier without an argument
// stays as written. With `append_rest` (console.*, util.format), arguments left over
// are appended, each after a space.
Alts Walker::ApplyFormat(const Alts& fmt, const std::vector<TSNode>& args, bool append_rest, int depth) {
  Alts out;
  for (const Segs& alt : fmt) {
    Alts cur{Segs{}};
    size_t next = 0;
    for (const Seg& seg : alt) {
      if (seg.hole) {
        for (Segs& c : cur) msg::Append(c, seg);
        continue;
      }
      std::string lit;
      const std::string& t = seg.text;
      for (size_t i = 0; i < t.size(); ++i) {
        if (t[i] != '%' || i + 1 >= t.size()) {
          lit.push_back(t[i]);
          continue;
        }
        char c = t[i + 1];
        if (c == '%') {
          lit.push_back('%');
          ++i;
        } else if (std::strchr("sdifjoOc", c) != nullptr && next < args.size()) {
          for (Segs& x : cur) msg::Append(x, Seg{false, lit});
          lit.clear();
          if (c != 'c') {
            Alts piece = (c == 's') ? EvaluatePart(args[next], depth + 1)
                                    : Alts{Segs{Seg{true, std::string(Text(args[next]))}}};
            cur = msg::Concat(cur, piece);
          }
          ++next;
          ++i;
        } else {
          lit.push_back('%');
        }
      }
      for (Segs& x : cur) msg::Append(x, Seg{false, lit});
    }
    if (append_rest) {
      for (; next < args.size(); ++next) {
        for (Segs& x : cur) msg::Append(x, Seg{false, " "});
        cur = msg::Concat(cur, EvaluatePart(args[next], depth + 1));
      }
    }
    for (Segs& c : cur)
      if (out.size() < msg::kMaxAlternatives) out.push_back(std::move(c));
  }
  return out;
}

// In an object literal, the value of the key that holds the message; recurses
// one level into {error: {message: ...}}. Prefers a value with literal text.
TSNode Walker::PickKey(TSNode object, int depth) {
  static constexpr const char* kKeys[] = {"message", "error", "msg", "errorMessage", "error_message",
                                          "detail", "details", "description", "reason", "title"};
  object = Unwrap(object);
  if (!Is(object, "object") || depth > 2) return TSNode{};
  TSNode first_present{};
  for (const char* key : kKeys) {
    uint32_t count = ts_node_named_child_count(object);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode p = ts_node_named_child(object, i);
      std::string_view k;
      TSNode value{};
      if (Is(p, "pair")) {
        TSNode kn = Field(p, fields_.key);
        k = Text(kn);
        if (Is(kn, "string") && k.size() >= 2) k = k.substr(1, k.size() - 2);
        value = Field(p, fields_.value);
      } else if (Is(p, "shorthand_property_identifier")) {
        k = Text(p);
        value = p;  // {message} is {message: message}
      } else {
        continue;
      }
      if (k != key || ts_node_is_null(value)) continue;
      TSNode uv = Unwrap(value);
      if (Is(uv, "object")) {
        TSNode inner = PickKey(uv, depth + 1);
        if (!ts_node_is_null(inner)) value = inner;
      }
      std::optional<Alts> v = EvaluateMessage(value);
      if (v) {
        for (const Segs& s : *v)
          for (const Seg& seg : s)
            if (!seg.hole && !seg.text.empty()) return value;
      }
      if (ts_node_is_null(first_present)) first_present = value;
    }
  }
  return first_present;
}

// The message argument: the first one that evaluates to a string, else the first
// later one with literal text (`new AppError(Codes.X, "msg")`), else argument 0.
// An object argument contributes its message key. `skip` is an index to ignore
// (the status of an HTTP error), or SIZE_MAX.
TSNode Walker::PickMessageArg(const std::vector<TSNode>& args, size_t skip) {
  TSNode first{};
  for (size_t i = 0; i < args.size(); ++i) {
    if (i == skip) continue;
    if (Is(args[i], "spread_element")) break;
    TSNode a = args[i];
    if (Is(Unwrap(a), "object")) {
      a = PickKey(a, 0);
      if (ts_node_is_null(a)) continue;  // an options object without a message key
    }
    bool is_first = ts_node_is_null(first);
    if (is_first) first = a;
    std::optional<Alts> v = EvaluateMessage(a);
    if (!v) continue;
    if (is_first) return a;
    for (const Segs& s : *v)
      for (const Seg& seg : s)
        if (!seg.hole && !seg.text.empty()) return a;
  }
  return first;
}

}  // namespace errdex::js

#endif  // ERRDEX_HAVE_TREE_SITTER
