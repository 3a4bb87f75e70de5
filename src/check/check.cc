// check/check.cc: see check.h. Tested by check_test.cc and tests/check/.
#include "check/check.h"

#include <algorithm>
#include <set>

#include "check/argparse.h"
#include "check/program_index.h"

namespace errdex::check {

namespace {

std::string Base(const std::string& p) {
  size_t s = p.rfind('/');
  return s == std::string::npos ? p : p.substr(s + 1);
}

bool IsPython(const std::string& word) {
  std::string b = Base(word);
  auto digits_after = [&](const std::string& prefix) {
    if (b.compare(0, prefix.size(), prefix) != 0) return false;
    for (size_t i = prefix.size(); i < b.size(); ++i)
      if (!std::isdigit((unsigned char)b[i]) && b[i] != '.') return false;
    return true;
  };
  return digits_after("python") || digits_after("pypy") || b == "py";
}

bool IsEnvAssignment(const std::string& w) {
  size_t eq = w.find('=');
  if (eq == std::string::npos || eq == 0) return false;
  for (size_t i = 0; i < eq; ++i)
    if (!(std::isalnum((unsigned char)w[i]) || w[i] == '_')) return false;
  return !std::isdigit((unsigned char)w[0]);
}

// A literal add_argument keyword / flag default text as a value of `type`.
std::optional<PyVal> TypedLiteral(const std::string& text, const std::string& type) {
  if (text == "None") return PyVal::None();
  if (text == "True") return PyVal::Bool(true);
  if (text == "False") return PyVal::Bool(false);
  if (type == "int") {
    if (auto v = PyIntFromString(text)) return PyVal::Int(*v);
    return std::nullopt;
  }
  if (type == "float") {
    if (auto v = PyFloatFromString(text)) return PyVal::Float(*v);
    return std::nullopt;
  }
  if (type.empty() || type == "str") return PyVal::Str(text);
  return std::nullopt;
}

// A dataclass field's annotation as the argparse type a walker passes.
std::string TypeOfAnnotation(std::string t) {
  t.erase(std::remove(t.begin(), t.end(), ' '), t.end());
  auto strip = [&](const std::string& w) {
    if (t.compare(0, w.size(), w) == 0 && t.back() == ']') t = t.substr(w.size(), t.size() - w.size() - 1);
  };
  strip("Optional[");
  if (t.compare(0, 10, "Annotated[") == 0) {
    t = t.substr(10);
    int depth = 0;
    for (size_t i = 0; i < t.size(); ++i) {
      if (t[i] == '[') ++depth;
      if (t[i] == ']') --depth;
      if (t[i] == ',' && depth == 0) {
        t = t.substr(0, i);
        break;
      }
    }
    strip("Optional[");
  }
  if (t.size() > 5 && t.compare(t.size() - 5, 5, "|None") == 0) t = t.substr(0, t.size() - 5);
  if (t == "int" || t == "float" || t == "str" || t == "bool") return t;
  if (t.compare(0, 8, "Literal[") == 0) return t.find('"') != std::string::npos || t.find('\'') != std::string::npos ? "str" : "custom";
  return "custom";
}

}  // namespace

Result<Command> ParseCommand(const std::vector<std::string>& argv) {
  Command c;
  size_t i = 0;
  auto display_from = [&](size_t from) {
    std::string d;
    for (size_t k = from; k < argv.size() && k < from + 3; ++k) d += (d.empty() ? "" : " ") + argv[k];
    return d;
  };
  // env [-i] [-u NAME] VAR=value ... ; VAR=value ...
  while (i < argv.size()) {
    if (Base(argv[i]) == "env") {
      ++i;
      while (i < argv.size() && !argv[i].empty() && argv[i][0] == '-') {
        if ((argv[i] == "-u" || argv[i] == "--unset") && i + 1 < argv.size()) c.unset_env.push_back(argv[++i]);
        ++i;
      }
      continue;
    }
    if (IsEnvAssignment(argv[i])) {
      size_t eq = argv[i].find('=');
      c.env[argv[i].substr(0, eq)] = argv[i].substr(eq + 1);
      ++i;
      continue;
    }
    break;
  }
  // Runners that start a command: uv run, poetry run, pipx run, pdm run, hatch run.
  if (i + 1 < argv.size() && (Base(argv[i]) == "uv" || Base(argv[i]) == "poetry" || Base(argv[i]) == "pdm" ||
                              Base(argv[i]) == "hatch" || Base(argv[i]) == "pipx") && argv[i + 1] == "run")
    i += 2;
  if (i >= argv.size()) return Status::InvalidArgument("no command to check (errdex check --db CATALOG -- COMMAND ARGS...)");
  size_t start = i;
  std::string prog = argv[i];
  if (IsPython(prog) || Base(prog) == "torchrun" || Base(prog) == "accelerate" || Base(prog) == "deepspeed") {
    bool python = IsPython(prog);
    ++i;
    if (!python && Base(prog) == "accelerate" && i < argv.size() && argv[i] == "launch") ++i;
    while (i < argv.size()) {
      const std::string& a = argv[i];
      if (python && a == "-c") return Status::InvalidArgument("`" + prog + " -c CODE`: check needs a module or a script, not inline code");
      if (a == "-m" || (!python && a == "--module")) {
        if (i + 1 >= argv.size()) return Status::InvalidArgument("`" + prog + " -m` without a module");
        if (!python) {  // torchrun -m: the script argument is a module
          c.kind = Command::Kind::kModule;
          c.target = argv[i + 1];
          c.args.assign(argv.begin() + (long)i + 2, argv.end());
          c.display = display_from(start);
          return c;
        }
        c.kind = Command::Kind::kModule;
        c.target = argv[i + 1];
        c.args.assign(argv.begin() + (long)i + 2, argv.end());
        c.display = prog + " -m " + c.target;
        return c;
      }
      if (python && a.size() >= 2 && a[0] == '-' && a[1] != '-') {
        // -O -OO -u -B -E -I -s -S -b -d -q -v -x -P -R; -W arg / -X opt take a value
        if (a.find('O') != std::string::npos && a.find_first_not_of("-OBEIsSbdquvxPR") == std::string::npos) c.assertions = false;
        if ((a == "-W" || a == "-X") && i + 1 < argv.size()) ++i;
        ++i;
        continue;
      }
      if (python && a == "-") return Status::InvalidArgument("`" + prog + " -`: check cannot read a program from standard input");
      if (python && a.size() > 2 && a[0] == '-' && a[1] == '-') {  // --version, --help of the interpreter
        ++i;
        continue;
      }
      if (!python && a.size() > 1 && a[0] == '-') {
        ++i;
        if (a.find('=') == std::string::npos && i < argv.size() && argv[i].find(".py") == std::string::npos &&
            !argv[i].empty() && argv[i][0] != '-')
          ++i;  // the launcher option's value
        continue;
      }
      c.kind = Command::Kind::kScript;
      c.target = a;
      c.args.assign(argv.begin() + (long)i + 1, argv.end());
      c.display = python ? prog + " " + a : display_from(start);
      return c;
    }
    return Status::InvalidArgument("`" + prog + "` without a module or script to run");
  }
  if (prog.size() > 3 && prog.compare(prog.size() - 3, 3, ".py") == 0) {
    c.kind = Command::Kind::kScript;
  } else {
    c.kind = Command::Kind::kConsole;
    prog = Base(prog);
  }
  c.target = prog;
  c.args.assign(argv.begin() + (long)i + 1, argv.end());
  c.display = prog;
  return c;
}

namespace {

struct Entry {
  int file = -1;
  std::string main_name = "__main__";
  std::string function;
};

Entry ResolveEntry(const ProgramIndex& ix, const Command& c) {
  Entry e;
  if (c.kind == Command::Kind::kModule) {
    e.file = ix.ModuleFile(c.target, /*main=*/true);
  } else if (c.kind == Command::Kind::kScript) {
    e.file = ix.ScriptFile(c.target);
  } else {
    for (const auto& [name, target] : ix.section().scripts) {
      if (name != c.target) continue;
      size_t colon = target.find(':');
      e.file = ix.ModuleFile(target.substr(0, colon));
      e.main_name = target.substr(0, colon);
      e.function = target.substr(colon + 1);
      break;
    }
  }
  return e;
}

// The program's argument definitions: the settings map's flags found in the entry's
// import closure, made exact from the add_argument calls the scan kept.
std::vector<ArgSpec> BuildSpecs(ProgramIndex& ix, Interpreter& in, int entry, std::vector<std::string>* notes,
                                bool* subcommands) {
  bool dynamic = false;
  std::vector<int> closure = ix.ImportClosure(entry, &dynamic);
  *subcommands = false;
  for (int f : closure) *subcommands = *subcommands || ix.file(f).subcommands;
  std::map<std::string, int> rank;  // file path -> its place in the closure
  for (size_t k = 0; k < closure.size(); ++k) rank[ix.path(closure[k])] = (int)k;
  auto in_closure = [&](const std::string& path) { return dynamic || rank.count(path) > 0; };
  std::vector<std::pair<std::pair<int, int>, ArgSpec>> ordered;
  std::set<std::string> taken;  // option strings already defined
  std::set<std::string> parser_files;
  std::map<std::string, int> file_index;
  for (int f = 0; f < ix.FileCount(); ++f) file_index[ix.path(f)] = f;

  // The add_argument call of a flag: same file, same first option.
  auto find_call = [&](const doc::Flag& fl) -> std::optional<std::pair<int, Cx>> {
    auto it = file_index.find(fl.file);
    if (it == file_index.end()) return std::nullopt;
    for (const auto& [line, text] : ix.file(it->second).add_arguments) {
      auto call = ParseCx(text);
      if (!call.ok()) continue;
      for (size_t k = 1; k < call->kids.size(); ++k)
        if (call->kids[k].IsStr() && std::find(fl.options.begin(), fl.options.end(), call->kids[k].text) != fl.options.end())
          return std::make_pair(line, std::move(call.value()));
    }
    return std::nullopt;
  };
  auto concrete_list = [](const Val& v) -> std::optional<std::vector<PyVal>> {
    if (const PyVal* p = v.Single(); p && p->Iter()) return p->Iter();
    return std::nullopt;
  };
  auto spec_from_call = [&](int file, int line, const Cx& call, ArgSpec* s) {
    s->file = ix.path(file);
    s->line = line;
    for (size_t k = 1; k < call.kids.size(); ++k) {
      const Cx& a = call.kids[k];
      if (a.IsStr()) {
        s->options.push_back(a.text);
        continue;
      }
      if (a.head != Head::kKw || a.kids.size() != 2) continue;
      const std::string& key = a.kids[0].text;
      const Cx& value = a.kids[1];
      if (key == "type") {
        std::string t = Unparse(value, 60);
        s->type = t == "int" || t == "float" || t == "str" || t == "bool" ? t : "custom:" + t;
      } else if (key == "action") {
        if (value.IsStr()) s->action = value.text;
        else if (Unparse(value).find("BooleanOptionalAction") != std::string::npos) s->action = "BooleanOptionalAction";
        else s->action = "custom";
      } else if (key == "nargs") {
        if (value.IsStr()) s->nargs = value.text;
        else if (value.atom == AtomKind::kInt && value.IsAtom()) s->nargs = std::to_string(value.i);
        else s->nargs = "*";
      } else if (key == "dest" && value.IsStr()) {
        s->dest = value.text;
      } else if (key == "metavar" && value.IsStr()) {
        s->metavar = value.text;
      } else if (key == "required") {
        s->required = in.EvalInModule(file, value).Truth() == Tri::kTrue;
      } else if (key == "choices") {
        Val v = in.EvalInModule(file, value);
        if (auto l = concrete_list(v)) s->choices = *l;
        else s->unknown_choices = true;
      } else if (key == "default") {
        Val v = in.EvalInModule(file, value);
        if (const PyVal* p = v.Single()) s->default_value = *p;
        else if (Unparse(value).find("SUPPRESS") == std::string::npos) s->unknown_default = true;
      } else if (key == "const") {
        Val v = in.EvalInModule(file, value);
        if (const PyVal* p = v.Single()) s->const_value = *p;
      }
    }
    if (s->dest.empty()) {
      std::string best;
      for (const auto& o : s->options)
        if (o.size() > 2 && o[0] == '-' && o[1] == '-') {
          best = o.substr(2);
          break;
        }
      if (best.empty() && !s->options.empty()) best = s->options[0].substr(s->options[0].find_first_not_of('-') == std::string::npos ? 0 : s->options[0].find_first_not_of('-'));
      std::replace(best.begin(), best.end(), '-', '_');
      s->dest = best;
    }
    if (s->type.compare(0, 7, "custom:") == 0) s->type = s->type.substr(7).empty() ? "custom" : s->type.substr(7);
  };

  for (const doc::Flag& fl : ix.section().flags) {
    if (!in_closure(fl.file) || fl.options.empty()) continue;
    bool clash = false;
    for (const auto& o : fl.options) clash = clash || taken.count(o);
    if (clash) continue;
    ArgSpec s;
    auto call = find_call(fl);
    if (call && fl.origin == "argparse") {
      spec_from_call(file_index[fl.file], call->first, call->second, &s);
      parser_files.insert(fl.file);
    } else {
      s.options = fl.options;
      s.dest = fl.dest;
      s.file = fl.file;
      s.line = fl.line;
      s.action = fl.action.empty() ? "store" : fl.action;
      s.nargs = fl.nargs;
      s.type = fl.origin == "argparse" ? (fl.type.empty() ? "" : (fl.type == "int" || fl.type == "float" || fl.type == "str" || fl.type == "bool" ? fl.type : "custom"))
                                       : TypeOfAnnotation(fl.type);
      if (s.type == "bool" && fl.origin != "argparse") s.type = "";
      if (!fl.choices.empty() && s.type != "custom") {
        std::vector<PyVal> ch;
        bool ok = true;
        for (const auto& c : fl.choices) {
          auto v = TypedLiteral(c, s.type);
          if (!v) ok = false;
          else ch.push_back(*v);
        }
        if (ok) s.choices = ch;
        else s.unknown_choices = true;
      }
      // The default: the dataclass field's value when there is one, else the map's literal.
      bool have_default = false;
      if (!fl.class_name.empty()) {
        auto fi = file_index.find(fl.file);
        if (fi != file_index.end())
          if (auto cls = ix.ClassByName(fi->second, fl.class_name)) {
            Val v = in.EvalInClass(*cls, Cx::List(Head::kAttr, {Cx::Name(fl.class_name), Cx::Name(fl.dest)}));
            if (const PyVal* p = v.Single()) s.default_value = *p, have_default = true;
          }
      }
      if (!have_default && fl.default_value) {
        if (fl.default_is_literal) {
          auto v = TypedLiteral(*fl.default_value, s.type == "custom" ? "" : s.type);
          if (v) s.default_value = *v;
          else s.unknown_default = true;
        } else {
          s.unknown_default = true;
        }
      }
      if (s.action == "store_true" || s.action == "store_false" || s.action == "BooleanOptionalAction") s.type = "";
    }
    for (const auto& o : s.AllOptions()) taken.insert(o);
    int r = rank.count(s.file) ? rank[s.file] : (int)rank.size();
    ordered.push_back({{r, s.line}, std::move(s)});
  }
  // Positionals of the parser files (one parser: its required arguments are checked too).
  bool one_parser = parser_files.size() == 1;
  for (const std::string& pf : parser_files) {
    int f = file_index[pf];
    for (const auto& [line, text] : ix.file(f).add_arguments) {
      auto call = ParseCx(text);
      if (!call.ok() || call->kids.size() < 2 || !call->kids[1].IsStr() || call->kids[1].text.empty() ||
          call->kids[1].text[0] == '-')
        continue;
      ArgSpec s;
      spec_from_call(f, line, *call, &s);
      s.dest = s.options.empty() ? s.dest : s.options[0];
      s.options.clear();
      if (!one_parser) {
        s.nargs = "*";  // several parsers: absorb, do not require
        s.default_value = PyVal::Seq(PyVal::Kind::kList, {});
      }
      ordered.push_back({{rank.count(pf) ? rank[pf] : 0, line}, std::move(s)});
    }
  }
  if (!one_parser)
    for (auto& [k, s] : ordered) s.required = false;
  std::stable_sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<ArgSpec> specs;
  if (!taken.count("-h") && !taken.count("--help")) {
    ArgSpec h;
    h.options = {"-h", "--help"};
    h.dest = "help";
    h.action = "help";
    specs.push_back(h);
  }
  for (auto& [k, s] : ordered) specs.push_back(std::move(s));
  if (*subcommands) {
    // Subparsers are not modelled: every subcommand's options are accepted, none is required,
    // and bare words are left alone.
    specs.erase(std::remove_if(specs.begin(), specs.end(), [](const ArgSpec& s) { return s.IsPositional(); }), specs.end());
    for (ArgSpec& s : specs) s.required = false;
    notes->push_back("the program has subcommands (argparse subparsers), which check does not model: "
                     "usage errors are not reported, and what depends on the subcommand is MAY");
  } else if (parser_files.size() > 1) {
    notes->push_back("the program's flags come from " + std::to_string(parser_files.size()) +
                     " files; missing required arguments are not reported");
  }
  return specs;
}

std::string DescribeSetting(const std::string& from, const std::map<std::string, const ArgSpec*>& by_option,
                            const ParsedArgs& parsed, const std::map<std::string, std::string>& env,
                            const std::set<std::string>& set_names) {
  if (!from.empty() && from[0] == '$') {
    std::string n = from.substr(1);
    auto it = env.find(n);
    return it == env.end() ? n + " (unset)" : n + "=" + it->second;
  }
  auto it = by_option.find(from);
  if (it == by_option.end()) return from;
  const ArgSpec& s = *it->second;
  if (set_names.count(s.dest)) {
    auto v = parsed.values.find(s.dest);
    return from + " " + (v != parsed.values.end() && v->second.Single() ? v->second.Single()->Str() : "?") + " (--set)";
  }
  auto g = parsed.given.find(s.dest);
  if (g != parsed.given.end()) return g->second;
  std::string d = "None";
  if (s.unknown_default) d = "?";
  else if (s.default_value) d = s.default_value->Repr();
  else if (s.action == "store_true") d = "False";
  else if (s.action == "store_false") d = "True";
  return from + " (default " + d + ")";
}

}  // namespace

bool HoldsEntry(const Section& section, const Command& command) {
  ProgramIndex ix(section);
  return ResolveEntry(ix, command).file >= 0;
}

Result<Report> Check(const Section& section, const Command& command, const CheckOptions& options) {
  ProgramIndex ix(section);
  Entry entry = ResolveEntry(ix, command);
  if (entry.file < 0) return Status::NotFound("the catalog holds no `" + command.target + "`");
  Report report;
  report.entry = ix.path(entry.file);
  report.function = entry.function;
  std::map<std::string, std::string> env = options.env;
  for (const auto& u : command.unset_env) env.erase(u);
  for (const auto& [k, v] : command.env) env[k] = v;

  std::vector<ArgSpec> specs;
  bool subcommands = false;
  {
    Interpreter pre(ix, {}, env);
    specs = BuildSpecs(ix, pre, entry.file, &report.notes, &subcommands);
  }
  report.flags_known = (int)specs.size();
  ParsedArgs parsed = ParseArgv(specs, command.args);
  report.usage_errors = parsed.errors;
  if (subcommands) {
    report.usage_errors.clear();
    report.help = false;
  }
  report.help = parsed.help;
  std::map<std::string, const ArgSpec*> by_option, by_dest;
  for (const ArgSpec& s : specs) {
    for (const auto& o : s.AllOptions()) by_option[o] = &s;
    by_dest.emplace(s.dest, &s);
    if (s.IsPositional()) by_option[s.dest] = &s;
  }
  // --set name=value: a flag (by dest or option) or an environment variable.
  std::set<std::string> set_names;
  std::set<std::string> env_names;
  for (const auto& e : section.envs) env_names.insert(e.name);
  for (const auto& [name, value] : options.set) {
    const ArgSpec* s = nullptr;
    if (auto it = by_dest.find(name); it != by_dest.end()) s = it->second;
    else if (auto jt = by_option.find(name); jt != by_option.end()) s = jt->second;
    else if (auto kt = by_option.find("--" + name); kt != by_option.end()) s = kt->second;
    if (s) {
      std::vector<ArgSpec> one{*s};
      one[0].options = {"--x"};
      one[0].action = "store";
      one[0].nargs = "";
      if (one[0].type.empty() && (s->action == "store_true" || s->action == "store_false" || s->action == "BooleanOptionalAction"))
        one[0].type = "bool01";
      Val v;
      if (one[0].type == "bool01") {
        std::string l = value;
        for (char& c : l) c = (char)std::tolower((unsigned char)c);
        if (l == "1" || l == "true" || l == "yes" || l == "on") v = Val::Of(PyVal::Bool(true));
        else if (l == "0" || l == "false" || l == "no" || l == "off" || l.empty()) v = Val::Of(PyVal::Bool(false));
        else return Status::InvalidArgument("--set " + name + "=" + value + ": " + s->DisplayName() + " takes true or false");
      } else {
        ParsedArgs p = ParseArgv(one, {"--x", value});
        if (!p.errors.empty()) {
          std::string m = p.errors[0];
          size_t colon = m.find(": ");
          return Status::InvalidArgument("--set " + name + "=" + value + ": " + s->DisplayName() + ": " +
                                         (colon == std::string::npos ? m : m.substr(colon + 2)));
        }
        v = p.values[s->dest];
      }
      v.from = {s->options.empty() ? s->dest : s->options[0]};
      for (const auto& o : s->options)
        if (o.size() > 2 && o[0] == '-' && o[1] == '-') {
          v.from = {o};
          break;
        }
      parsed.values[s->dest] = v;
      set_names.insert(s->dest);
      continue;
    }
    bool env_like = env_names.count(name) > 0;
    if (!env_like) {
      env_like = !name.empty();
      for (char ch : name) env_like = env_like && (std::isupper((unsigned char)ch) || std::isdigit((unsigned char)ch) || ch == '_');
    }
    if (env_like) {
      env[name] = value;
      continue;
    }
    return Status::InvalidArgument("--set " + name + "=" + value + ": the program has no flag `" + name +
                                   "` (nor an environment variable of that name)");
  }

  std::map<std::string, Val> assume;
  for (const auto& [expr, value] : options.assume) {
    auto e = ParsePythonExpression(expr);
    if (!e.ok()) return Status::InvalidArgument("--assume " + expr + "=" + value + ": " + e.status().message());
    Val v = Val::Of(PyVal::Str(value));
    if (auto lit = ParsePythonExpression(value); lit.ok()) {
      Interpreter tmp(ix, {}, {});
      Val l = tmp.EvalInModule(entry.file, *lit);
      if (l.Single() && lit->head != Head::kNone) v = l;
      else if (l.Single() && !lit->IsName()) v = l;
    }
    v.from.push_back("--assume " + Unparse(*e));
    assume[Unparse(*e, 4096)] = v;
  }
  Interpreter in(ix, parsed.values, env);
  in.SetAssumptions(assume);
  Launch launch;
  launch.entry_file = entry.file;
  launch.main_name = entry.main_name;
  launch.function = entry.function;
  launch.argv.push_back(command.target);
  launch.argv.insert(launch.argv.end(), command.args.begin(), command.args.end());
  launch.assertions = command.assertions;
  in.Run(launch);
  // Functions the launch did not reach: detached, in the files it imports.
  bool dynamic = false;
  std::vector<int> closure = ix.ImportClosure(entry.file, &dynamic);
  std::set<int> files;
  if (dynamic)
    for (int f = 0; f < ix.FileCount(); ++f) files.insert(f);
  else
    files.insert(closure.begin(), closure.end());
  in.RunDetached(files);
  if (in.budget_exhausted()) report.notes.push_back("the step budget ran out; what was not reached is reported as MAY");

  for (const auto& [key, v] : in.verdicts()) {
    if (v.detached && v.from.empty()) continue;  // unrelated code: nothing the command line decides
    const Section::File& f = ix.file(key.first);
    const SiteRef& s = f.sites[(size_t)key.second];
    Finding fd;
    fd.will = v.will;
    fd.record_id = s.id;
    fd.file = f.path;
    fd.line = s.line;
    fd.kind = s.kind;
    fd.error_class = s.error_class;
    fd.order = v.order;
    fd.path = v.path;
    fd.depends = v.depends;
    fd.detached = v.detached;
    for (const std::string& from : v.from) {
      std::string d = DescribeSetting(from, by_option, parsed, env, set_names);
      if (std::find(fd.decided_by.begin(), fd.decided_by.end(), d) == fd.decided_by.end()) fd.decided_by.push_back(d);
    }
    report.findings.push_back(std::move(fd));
  }
  // WILL first, then MAY on the launch's path, then MAY in functions it is not known to call.
  std::stable_sort(report.findings.begin(), report.findings.end(), [](const Finding& a, const Finding& b) {
    if (a.will != b.will) return a.will;
    if (a.detached != b.detached) return !a.detached;
    return a.order < b.order;
  });
  return report;
}

}  // namespace errdex::check
