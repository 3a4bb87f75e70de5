// Messages built by exception classes: see class_messages.h.
#include "extract/python/class_messages.h"

#include <algorithm>
#include <cstring>

#include "extract/python/expr.h"

namespace errdex::py {

namespace {

std::string_view DirOf(std::string_view path) {
  size_t s = path.rfind('/');
  return s == std::string_view::npos ? std::string_view() : path.substr(0, s);
}

size_t CommonPrefix(std::string_view a, std::string_view b) {
  size_t n = 0;
  while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
  return n;
}

// "section!r" -> name "section", conv 'r'; "x:>4" -> spec ">4".
struct HoleRef {
  std::string name;
  char conv = 0;
  std::string spec;
};
HoleRef ParseHole(std::string_view t) {
  HoleRef h;
  size_t colon = t.find(':');
  std::string_view head = t.substr(0, colon);
  if (colon != std::string_view::npos) h.spec = std::string(t.substr(colon + 1));
  if (head.size() >= 2 && head[head.size() - 2] == '!') {
    h.conv = head.back();
    head.remove_suffix(2);
  }
  h.name = std::string(head);
  return h;
}

// The pure literal text of `segs`, or nullopt when it holds a hole or alternatives.
std::optional<std::string> PureLiteral(const Segs& segs) {
  std::string out;
  for (const Seg& s : segs) {
    if (s.type != Seg::kLit) return std::nullopt;
    out += s.text;
  }
  return out;
}

// The class attribute a hole shows when no argument fills it: `self.code` that
// __init__ does not set, or a parameter the raise did not pass that __init__ would
// have stored on self over the class's value.
const ClassTemplate::AttrValue* ClassAttrShown(const ClassTemplate& t, const std::string& hole, const BoundArgs& args) {
  std::string attr;
  if (hole.compare(0, 5, "self.") == 0) {
    attr = hole.substr(5);
    if (attr.empty() || attr.find_first_of(".[(") != std::string::npos) return nullptr;
    if (std::find(t.init_attrs.begin(), t.init_attrs.end(), attr) != t.init_attrs.end()) return nullptr;
  } else {
    auto p = t.param_attrs.find(hole);
    if (p == t.param_attrs.end() || args.star) return nullptr;
    attr = p->second;
  }
  auto it = t.class_attrs.find(attr);
  return it == t.class_attrs.end() || (!it->second.is_str && it->second.text.empty()) ? nullptr : &it->second;
}

Segs BindSegs(const Segs& text, const ClassTemplate& t, const BoundArgs& args, size_t* literal_from_template) {
  Segs out;
  for (const Seg& s : text) {
    if (s.type == Seg::kLit) {
      *literal_from_template += s.text.size();
      out.push_back(s);
      continue;
    }
    if (s.type == Seg::kAlt) {
      Seg alt;
      alt.type = Seg::kAlt;
      for (const Segs& o : s.options) alt.options.push_back(BindSegs(o, t, args, literal_from_template));
      out.push_back(std::move(alt));
      continue;
    }
    HoleRef h = ParseHole(s.text);
    const Segs* arg = nullptr;
    for (size_t i = 0; i < t.params.size() && !arg; ++i) {
      if (t.params[i] != h.name) continue;
      if (!t.by_keyword_only && !args.star && i < args.positional.size()) arg = &args.positional[i];
    }
    for (const auto& [k, v] : args.keywords)
      if (!arg && k == h.name) arg = &v;
    auto default_value = args.star ? t.param_defaults.end() : t.param_defaults.find(h.name);
    if (!arg && default_value != t.param_defaults.end() && h.spec.empty()) {
      *literal_from_template += default_value->second.size();
      out.push_back(Seg::Lit(h.conv == 'r' ? PyRepr(default_value->second) : default_value->second));
      continue;
    }
    if (!arg) {
      const ClassTemplate::AttrValue* attr = h.spec.empty() ? ClassAttrShown(t, h.name, args) : nullptr;
      if (attr) {
        *literal_from_template += attr->text.size();
        out.push_back(Seg::Lit(h.conv == 'r' && attr->is_str ? PyRepr(attr->text) : attr->text));
      } else {
        out.push_back(s);
      }
      continue;
    }
    std::optional<std::string> lit = PureLiteral(*arg);
    if (h.spec.empty() && (h.conv == 0 || h.conv == 's')) {
      out.insert(out.end(), arg->begin(), arg->end());
    } else if (lit && h.spec.empty() && h.conv == 'r') {
      out.push_back(Seg::Lit(PyRepr(*lit)));
    } else {
      std::string text;
      for (const Seg& a : *arg) text += a.type == Seg::kHole ? a.text : a.type == Seg::kLit ? PyRepr(a.text) : "...";
      if (arg->size() != 1 || (*arg)[0].type != Seg::kHole) text = "...";
      if (h.conv) {
        text.push_back('!');
        text.push_back(h.conv);
      }
      if (!h.spec.empty()) text += ":" + h.spec;
      out.push_back(Seg::Hole(std::move(text)));
    }
  }
  return out;
}

}  // namespace

bool HasLiteral(const Segs& segs) {
  for (const Seg& s : segs) {
    if (s.type == Seg::kLit && !s.text.empty()) return true;
    if (s.type == Seg::kAlt)
      for (const Segs& o : s.options)
        if (HasLiteral(o)) return true;
  }
  return false;
}


void ClassMessageTable::Add(std::vector<ClassMessage> classes) {
  for (ClassMessage& c : classes) {
    classes_.push_back(std::make_unique<ClassMessage>(std::move(c)));
    by_name_.emplace(classes_.back()->name, classes_.back().get());
  }
}

const ClassMessage* ClassMessageTable::Find(std::string_view name, std::string_view file) const {
  auto [lo, hi] = by_name_.equal_range(name);
  const ClassMessage* best = nullptr;
  size_t best_score = 0;
  size_t count = 0;
  std::string_view dir = DirOf(file);
  for (auto it = lo; it != hi; ++it) {
    ++count;
    const ClassMessage* c = it->second;
    size_t score = c->file == file ? SIZE_MAX : 1 + CommonPrefix(DirOf(c->file), dir);
    if (!best || score > best_score) {
      best = c;
      best_score = score;
    }
  }
  // Several classes of that name and none near the raise: no guess.
  if (count > 1 && best_score <= 1) return nullptr;
  return best;
}

bool ClassMessageTable::IsExceptionClass(std::string_view name, std::string_view file) const {
  std::vector<const ClassMessage*> chain;
  if (const ClassMessage* c = Find(name, file)) chain.push_back(c);
  for (size_t i = 0; i < chain.size() && i < 16; ++i) {
    for (const std::string& b : chain[i]->bases) {
      std::string_view v = b;
      auto ends = [&](std::string_view suffix) {
        return v.size() >= suffix.size() && v.compare(v.size() - suffix.size(), suffix.size(), suffix) == 0;
      };
      if (ends("Error") || ends("Exception") || ends("Warning") || v == "BaseException") return true;
      const ClassMessage* base = b == chain[i]->name ? nullptr : Find(b, chain[i]->file);
      if (base && std::find(chain.begin(), chain.end(), base) == chain.end()) chain.push_back(base);
    }
  }
  return false;
}

std::optional<ClassTemplate> ClassMessageTable::Resolve(std::string_view name, std::string_view file) const {
  const ClassMessage* raised = Find(name, file);
  if (!raised) return std::nullopt;
  std::optional<ClassTemplate> t = ResolveFrom(raised, 0);
  if (!t) return std::nullopt;
  // The class attributes of the raised class, then of its bases (breadth-first, the
  // nearest definition wins, as Python's lookup does for single inheritance).
  std::vector<const ClassMessage*> chain{raised};
  for (size_t i = 0; i < chain.size() && i < 16; ++i) {
    const ClassMessage* c = chain[i];
    for (const auto& [k, v] : c->attr_strings) t->class_attrs.emplace(k, ClassTemplate::AttrValue{v, true});
    for (const auto& [k, v] : c->attr_ints) t->class_attrs.emplace(k, ClassTemplate::AttrValue{v, false});
    // Whichever __init__ runs may set it on the instance: no class value then.
    t->init_attrs.insert(t->init_attrs.end(), c->init_attrs.begin(), c->init_attrs.end());
    for (const std::string& b : c->bases) {
      const ClassMessage* base = b == c->name ? nullptr : Find(b, c->file);
      if (base && std::find(chain.begin(), chain.end(), base) == chain.end()) chain.push_back(base);
    }
  }
  if (!t->args_percent && !HasLiteral(t->text) && t->class_attrs.empty() && t->param_defaults.empty()) return std::nullopt;
  return t;
}

std::optional<ClassTemplate> ClassMessageTable::ResolveFrom(const ClassMessage* raised, int depth) const {
  if (depth > 8) return std::nullopt;
  // Breadth-first through the bases: the nearest class that says how its message
  // is built decides.
  std::vector<const ClassMessage*> chain{raised};
  for (size_t i = 0; i < chain.size() && i < 16; ++i) {
    const ClassMessage* c = chain[i];
    if (c->source == ClassMessage::Source::kText) {
      ClassTemplate t;
      t.params = c->params;
      t.text = c->text;
      t.param_attrs = c->param_attrs;
      t.param_defaults = c->param_defaults;
      return t;
    }
    if (c->source == ClassMessage::Source::kArgsPercent) {
      ClassTemplate t;
      t.args_percent = true;
      return t;
    }
    if (c->source == ClassMessage::Source::kBaseCall) {
      // The base's template, its parameters bound to what this class passes on; the
      // result speaks of this class's own parameters.
      for (const std::string& b : c->bases) {
        const ClassMessage* base = b == c->name ? nullptr : Find(b, c->file);
        if (!base) continue;
        std::optional<ClassTemplate> bt = ResolveFrom(base, depth + 1);
        if (!bt || bt->by_keyword_only) return std::nullopt;
        BoundArgs args;
        args.positional = c->base_args;
        size_t literal = 0;
        ClassTemplate t;
        t.params = c->params;
        t.text = BindSegs(bt->text, *bt, args, &literal);
        t.param_attrs = c->param_attrs;
        t.param_defaults = c->param_defaults;
        return t;
      }
      return std::nullopt;  // a base outside the repository (Exception(a, b) prints a tuple)
    }
    if (c->source == ClassMessage::Source::kFormatAttr) {
      // The attribute's string, from the raised class or its nearest base that has it.
      for (const ClassMessage* d : chain) {
        auto it = d->attr_strings.find(c->format_attr);
        if (it == d->attr_strings.end()) continue;
        auto pieces = ParseFormatString(it->second);
        if (!pieces) return std::nullopt;
        ClassTemplate t;
        t.by_keyword_only = true;
        for (const FormatPiece& p : *pieces) {
          if (!p.literal.empty()) t.text.push_back(Seg::Lit(p.literal));
          if (!p.has_field) continue;
          std::string hole = p.field;
          if (p.conv) {
            hole.push_back('!');
            hole.push_back(p.conv);
          }
          if (!p.spec.empty()) hole += ":" + p.spec;
          t.params.push_back(p.field);
          t.text.push_back(Seg::Hole(std::move(hole)));
        }
        return t;
      }
      return std::nullopt;
    }
    for (const std::string& b : c->bases) {
      if (b == c->name) continue;
      const ClassMessage* base = Find(b, c->file);
      if (base && std::find(chain.begin(), chain.end(), base) == chain.end()) chain.push_back(base);
    }
  }
  return std::nullopt;
}

MaybeSegs BindClassMessage(const ClassTemplate& t, const BoundArgs& args) {
  size_t literal = 0;
  Segs out = BindSegs(t.text, t, args, &literal);
  if (literal == 0) return std::nullopt;
  return out;
}

bool MayDefineClassMessages(std::string_view text) {
  if (text.find("__init__") == std::string_view::npos && text.find("__str__") == std::string_view::npos &&
      text.find(".format(") == std::string_view::npos)
    return false;
  static constexpr std::string_view kSuffixes[] = {"Error", "Exception", "Warning", "Exit", "Failure", "Interrupt",
                                                   "Fault", "Timeout", "Abort"};
  for (size_t p = text.find("class "); p != std::string_view::npos; p = text.find("class ", p + 6)) {
    if (p > 0 && text[p - 1] != '\n' && text[p - 1] != ' ' && text[p - 1] != '\t') continue;
    size_t open = text.find('(', p);
    size_t eol = text.find('\n', p);
    if (open == std::string_view::npos || (eol != std::string_view::npos && open > eol)) continue;
    size_t close = text.find(')', open);
    if (close == std::string_view::npos) continue;
    std::string_view bases = text.substr(open, close - open);
    for (std::string_view s : kSuffixes)
      if (bases.find(s) != std::string_view::npos) return true;
  }
  return false;
}

}  // namespace errdex::py
