#!/usr/bin/env python3
"""Generates a random program for the `errdex check` corpus test (check_corpus.py):
a package `corp` with >= 30 flags and >= 50 guarded raises of the shapes check
must decide -- comparisons, in / not in literal lists, sets, tuples and module
constants, `is None`, and/or/not, truthiness, attribute chains on the settings
object (`self.x` in the settings dataclass, `cfg.x` through a view), locals
assigned from settings, len(...), resolvers that rewrite `auto` before later
checks, elif chains, helpers taking settings values as parameters, loops over
literal lists, early returns, sys.exit, environment variables -- and guards
check must leave open: the GPU (a file only the run sees), installed packages.

Flags are defined one of two ways (--style): explicit parser.add_argument
calls, or generated from the settings dataclass's fields by a walker.

Every raise is followed by another statement in its block or after its
if-chain, so the harness's tracer can skip a raise and let the program go on
(check's semantics: the errors a command line leads to, in order).

usage: gen_corpus.py OUT_DIR --seed N --style argparse|dataclass
       also writes OUT_DIR/flags.json: the flags and their value pools for the harness
"""
import argparse
import json
import os
import random

PKGS = ["numpy", "json", "not_a_real_package_xyz", "sqlite3", "yaml_missing_abc"]


class Flag:
    def __init__(self, name, kind, default, choices=None, lo=None, hi=None, action=None):
        self.name = name          # dest
        self.kind = kind          # choice, int, float, bool, str, ints
        self.default = default
        self.choices = choices
        self.lo, self.hi = lo, hi
        self.action = action      # store_true, store_false, BooleanOptionalAction (bools)

    @property
    def option(self):
        return "--" + self.name.replace("_", "-")


WORDS = ["alpha", "beta", "gamma", "delta", "omega", "sigma", "kappa", "theta", "lambda_", "zeta", "eta", "iota"]


def make_flags(rng, style):
    flags = []
    used = set()

    def name(prefix):
        while True:
            n = prefix + "_" + rng.choice(WORDS).rstrip("_") + "_" + str(rng.randint(0, 99))
            if n not in used:
                used.add(n)
                return n

    for _ in range(9):
        vals = rng.sample(["auto", "fast", "safe", "low_latency", "normal", "triton", "cutlass", "flash", "eager"], rng.randint(3, 5))
        if "auto" not in vals and rng.random() < 0.6:
            vals[0] = "auto"
        flags.append(Flag(name("mode"), "choice", vals[0], choices=vals))
    for _ in range(8):
        lo = rng.randint(0, 4)
        flags.append(Flag(name("size"), "int", rng.randint(lo, lo + 8), lo=lo, hi=lo + 16))
    for _ in range(4):
        flags.append(Flag(name("ratio"), "float", round(rng.uniform(0.1, 0.9), 2), lo=0.0, hi=1.5))
    for _ in range(6):
        flags.append(Flag(name("enable"), "bool", False, action="store_true"))
    if style == "argparse":
        for _ in range(2):
            flags.append(Flag(name("use"), "bool", True, action="store_false"))
        for _ in range(2):
            flags.append(Flag(name("toggle"), "bool", None, action="BooleanOptionalAction"))
        for _ in range(2):
            flags.append(Flag(name("items"), "ints", None))
    else:
        for _ in range(4):
            flags.append(Flag(name("toggle"), "bool", rng.choice([False, True]), action="BooleanOptionalAction"))
    for _ in range(3):
        flags.append(Flag(name("path"), "str", None))
    return flags


class Gen:
    def __init__(self, rng, style):
        self.rng = rng
        self.style = style
        self.flags = make_flags(rng, style)
        self.n = 0
        self.constants = []   # module constants of validate.py
        self.envs = []        # environment variables read
        self.raises = 0

    def pick(self, kind, exclude=()):
        cands = [f for f in self.flags if f.kind == kind and f not in exclude]
        if kind == "bool":
            cands = [f for f in cands if f.default is not None]  # tri-state toggles only where None is handled
        return self.rng.choice(cands)

    def msg(self, text):
        self.n += 1
        self.raises += 1
        return '"E%03d: %s"' % (self.n, text.replace('"', "'"))

    def other(self, f):
        """A value of f that is not its default (so the defaults pass the rule)."""
        if f.kind == "choice":
            return self.rng.choice([c for c in f.choices if c != f.default])
        if f.kind == "int":
            return self.rng.choice([v for v in range(f.lo, f.hi + 1) if v != f.default])
        return self.val(f)

    def val(self, f, inside=True):
        if f.kind == "choice":
            return self.rng.choice(f.choices) if inside else "nope"
        if f.kind == "int":
            return self.rng.randint(f.lo, f.hi)
        if f.kind == "float":
            return round(self.rng.uniform(f.lo, f.hi), 2)
        raise ValueError(f.kind)

    # Each rule: lines of code at indent 0 (the caller indents) over `obj` (self / cfg).
    def rule(self, obj):
        r = self.rng
        shape = r.randint(0, 17)
        c1, c2 = self.pick("choice"), self.pick("choice")
        i1, i2 = self.pick("int"), self.pick("int")
        b1 = self.rng.choice([f for f in self.flags if f.kind == "bool" and f.default is False])
        b2 = self.pick("bool", exclude=(b1,))
        fl = self.pick("float")
        s = self.pick("str")
        if shape == 0:
            return ['if %s.%s == "%s" and %s.%s != "%s":' % (obj, c1.name, self.other(c1), obj, c2.name, self.val(c2)),
                    '    raise ValueError(%s)' % self.msg("%s with %s" % (c1.option, c2.option))]
        if shape == 1:
            vs = r.sample([c for c in c1.choices if c != c1.default], 2) if len(c1.choices) > 2 else [self.other(c1)] * 2
            coll = r.choice(["(%r, %r)" % tuple(vs), "[%r, %r]" % tuple(vs), "{%r, %r}" % tuple(vs)])
            return ['if %s.%s in %s and %s.%s > %d:' % (obj, c1.name, coll.replace("'", '"'), obj, i1.name, self.val(i1)),
                    '    raise ValueError(%s)' % self.msg("%s too large for %s" % (i1.option, c1.option))]
        if shape == 2:
            k = len(self.constants)
            allowed = [c for c in c1.choices if c != self.other(c1)]
            self.constants.append("SUPPORTED_%d = %s" % (k, json.dumps(allowed)))
            return ['if %s.%s not in SUPPORTED_%d:' % (obj, c1.name, k),
                    '    raise ValueError(%s)' % self.msg("%s must be one of %s" % (c1.option, allowed))]
        if shape == 3:
            return ['if %s.%s is None and %s.%s:' % (obj, s.name, obj, b1.name),
                    '    raise ValueError(%s)' % self.msg("%s needs %s" % (b1.option, s.option))]
        if shape == 4:
            return ['if %s.%s and not %s.%s:' % (obj, b1.name, obj, b2.name),
                    '    raise RuntimeError(%s)' % self.msg("%s requires %s" % (b1.option, b2.option))]
        if shape == 5:
            lo = min(self.val(i1), i1.default)
            hi = max(lo + r.randint(2, 8), i1.default)
            return ['if not (%d <= %s.%s <= %d):' % (lo, obj, i1.name, hi),
                    '    raise ValueError(%s)' % self.msg("%s out of range" % i1.option)]
        if shape == 6:
            return ['if %s.%s > %s and %s.%s == "%s":' % (obj, fl.name, self.val(fl), obj, c1.name, self.other(c1)),
                    '    raise ValueError(%s)' % self.msg("%s too high for %s" % (fl.option, c1.option))]
        if shape == 7:
            return ['if %s.%s is not None and len(%s.%s) < %d:' % (obj, s.name, obj, s.name, r.randint(2, 6)),
                    '    raise ValueError(%s)' % self.msg("%s too short" % s.option)]
        if shape == 8:
            local = "%s_value" % c1.name
            return ['%s = %s.%s' % (local, obj, c1.name),
                    'if %s == "%s":' % (local, self.other(c1)),
                    '    if %s.%s %% 2 == 1:' % (obj, i1.name),
                    '        raise ValueError(%s)' % self.msg("%s needs an even %s" % (c1.option, i1.option)),
                    '    %s = None' % local]
        if shape == 9:
            vs = r.sample(c1.choices, min(3, len(c1.choices)))
            vs = [c1.default] + [c for c in vs if c != c1.default][:2]
            lines = ['if %s.%s == "%s":' % (obj, c1.name, vs[0]), '    pass']
            lines += ['elif %s.%s == "%s":' % (obj, c1.name, vs[1]),
                      '    if %s.%s < %d:' % (obj, i1.name, self.val(i1)),
                      '        raise ValueError(%s)' % self.msg("%s %s needs more %s" % (c1.option, vs[1], i1.option))]
            if len(vs) > 2:
                lines += ['elif %s.%s == "%s" and %s.%s:' % (obj, c1.name, vs[2], obj, b1.name),
                          '    raise ValueError(%s)' % self.msg("%s %s with %s" % (c1.option, vs[2], b1.option))]
            lines += ['else:', '    raise_level = 0']
            return lines
        if shape == 10:
            lo = min(self.val(i1), i1.default)
            return ['_require_range("%s", %s.%s, %d, %d)' % (i1.option, obj, i1.name, lo, max(lo + r.randint(3, 9), i1.default))]
        if shape == 11:
            env = "CORP_%s" % r.choice(["STRICT", "LEGACY", "TURBO", "DEBUG"])
            self.envs.append(env)
            return ['if os.environ.get("%s", "0") == "1" and %s.%s == "%s":' % (env, obj, c1.name, self.other(c1)),
                    '    raise RuntimeError(%s)' % self.msg("%s=1 conflicts with %s" % (env, c1.option))]
        if shape == 12:
            return ['if %s.%s == "%s" and gpu_capability() < %d:' % (obj, c1.name, self.other(c1), r.choice([80, 90, 100])),
                    '    raise RuntimeError(%s)' % self.msg("%s needs a newer GPU" % c1.option)]
        if shape == 13:
            pkg = r.choice(PKGS)
            return ['if %s.%s and importlib.util.find_spec("%s") is None:' % (obj, b1.name, pkg),
                    '    raise ImportError(%s)' % self.msg("%s needs %s" % (b1.option, pkg))]
        if shape == 14:
            n = self.other(i1)
            return ['assert %s.%s != %d, %s' % (obj, i1.name, n, self.msg("%s cannot be %d" % (i1.option, n)))]
        if shape == 15:
            names = r.sample([f.name for f in self.flags if f.kind == "int"], 2)
            bound = max(r.randint(3, 9) + 8, max(f.default for f in self.flags if f.name in names))
            self.n += 1
            self.raises += 1
            return ['for name in ("%s", "%s"):' % tuple(names),
                    '    if getattr(%s, name) > %d:' % (obj, bound),
                    '        raise ValueError(f"--{name} must be at most %d (E%03d)")' % (bound, self.n),
                    '    seen_names.append(name)']
        if shape == 16:
            return ['if not (%s.%s or %s.%s == "%s") and %s.%s == %d:' % (obj, b1.name, obj, c1.name, self.val(c1), obj, i1.name,
                                                                           self.other(i1)),
                    '    raise ValueError(%s)' % self.msg("%s needs %s" % (i1.option, b1.option))]
        limit = "limit_%d" % self.n
        return ['%s = %s.%s * 2 if %s.%s else %s.%s' % (limit, obj, i1.name, obj, b1.name, obj, i2.name),
                'if %s > %d:' % (limit, max(r.randint(10, 30), i2.default, 2 * i1.default if b1.default else 0)),
                '    raise ValueError(%s)' % self.msg("%s (doubled by %s) too large" % (i1.option, b1.option))]

    def rules(self, obj, count, indent):
        out = []
        for _ in range(count):
            for line in self.rule(obj):
                out.append(" " * indent + line)
        return out


def write(root, path, text):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--style", choices=["argparse", "dataclass"], default="argparse")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    g = Gen(rng, a.style)
    F = g.flags
    choice_flags = [f for f in F if f.kind == "choice"]
    auto_flags = [f for f in choice_flags if "auto" in f.choices][:3]
    bools = [f for f in F if f.kind == "bool" and f.default is False]
    dry_run, exit_flag, group_flag = bools[0], bools[1], bools[2]

    # config.py: the settings dataclass, its flags, resolvers and first checks.
    fields = []
    for f in F:
        if f.kind == "choice":
            ty = "Literal[%s]" % ", ".join('"%s"' % c for c in f.choices) if a.style == "dataclass" else "str"
            fields.append('    %s: %s = "%s"' % (f.name, ty, f.default))
        elif f.kind == "int":
            fields.append("    %s: int = %d" % (f.name, f.default))
        elif f.kind == "float":
            fields.append("    %s: float = %r" % (f.name, f.default))
        elif f.kind == "bool":
            fields.append("    %s: %s = %r" % (f.name, "bool" if f.default is not None else "Optional[bool]", f.default))
        elif f.kind == "str":
            fields.append("    %s: Optional[str] = None" % f.name)
        elif f.kind == "ints":
            fields.append("    %s: Optional[List[int]] = None" % f.name)
    resolve = []
    for f in auto_flags:
        target = rng.choice([c for c in f.choices if c != "auto"])
        cond = rng.choice(["", " and self.%s" % rng.choice(bools).name, ' and self.%s > 2' % g.pick("int").name])
        resolve += ['        if self.%s == "auto"%s:' % (f.name, cond),
                    '            self._declare(%s="%s")' % (f.name, target)]
        # a later check on the rewritten value, and one on a value the user typed
        resolve_checks = ['        if self.%s == "%s" and self.%s:' % (f.name, target, rng.choice(bools).name),
                          '            raise ValueError(%s)' % g.msg("%s %s (also chosen for auto)" % (f.option, target))]
        resolve += resolve_checks
    defs = []
    if a.style == "argparse":
        for f in F:
            kw = []
            if f.kind == "choice":
                kw.append("choices=%s_CHOICES" % f.name.upper())
                kw.append("default=Config.%s" % f.name)
            elif f.kind == "int":
                kw += ["type=int", "default=Config.%s" % f.name]
            elif f.kind == "float":
                kw += ["type=float", "default=%r" % f.default]
            elif f.kind == "bool":
                kw.append('action=%s' % ('"%s"' % f.action if f.action != "BooleanOptionalAction" else "argparse.BooleanOptionalAction"))
            elif f.kind == "str":
                kw.append("default=None")
            elif f.kind == "ints":
                kw += ["type=int", 'nargs="+"']
            defs.append('        parser.add_argument("%s", %s)' % (f.option, ", ".join(kw)))
        add_cli = "    @staticmethod\n    def add_cli_args(parser):\n" + "\n".join(defs) + "\n"
        consts = "\n".join('%s_CHOICES = %s' % (f.name.upper(), json.dumps(f.choices)) for f in choice_flags)
    else:
        add_cli = '''    @staticmethod
    def add_cli_args(parser):
        hints = typing.get_type_hints(Config)
        for field in dataclasses.fields(Config):
            hint = hints[field.name]
            kwargs = {"default": field.default}
            if hint is bool:
                kwargs["action"] = argparse.BooleanOptionalAction
            elif typing.get_origin(hint) is Literal:
                kwargs["choices"] = list(typing.get_args(hint))
            elif hint in (int, float):
                kwargs["type"] = hint
            parser.add_argument(f"--{field.name.replace('_', '-')}", **kwargs)
'''
        consts = ""
    post = ["        self._resolve()", "        self._check_basic()", "        self._check_view(self._view())"]
    config = ['"""Generated by tests/check/gen_corpus.py (seed %d, %s flags)."""' % (a.seed, a.style),
              "import argparse", "import dataclasses", "import importlib.util", "import os", "import typing",
              "from typing import List, Literal, Optional", "",
              "from corp.hw import gpu_capability", "", consts, "", "",
              "@dataclasses.dataclass", "class Config:"] + fields + ["", "    def __post_init__(self):"] + post + [
              "", "    def _view(self):", "        return self", "",
              "    def _declare(self, **overrides):", "        for key, value in overrides.items():",
              "            setattr(self, key, value)", "",
              "    def _resolve(self):"] + (resolve or ["        pass"]) + ["        return None", "",
              "    def _check_basic(self):", "        seen_names = []"] + g.rules("self", 14, 8) + ["        return None", "",
              "    def _check_view(self, cfg):", "        seen_names = []"] + g.rules("cfg", 12, 8) + ["        return None", "",
              add_cli, "",
              "def _require_range(name, value, lo, hi):",
              "    if value < lo or value > hi:",
              '        raise ValueError(f"{name} must be within [{lo}, {hi}], got {value} (E000)")',
              "    return value", "", "",
              "def parse_config(argv):",
              '    parser = argparse.ArgumentParser(prog="corp")',
              "    Config.add_cli_args(parser)",
              "    args = parser.parse_args(argv)",
              "    return Config(**vars(args))", ""]
    g.raises += 1  # _require_range's raise
    # validate.py: plain functions over the config object.
    validate = ['"""Checks that run after the configuration is built."""', "import importlib.util", "import os", "",
                "from corp.config import _require_range", "from corp.hw import gpu_capability", ""]
    validate_body = g.rules("cfg", 14, 4)
    group_body = g.rules("cfg", 8, 4)
    validate += [""] + ["",
                               "def validate(cfg):", "    seen_names = []"] + validate_body + ["    return None", "", "",
                               "def validate_group(cfg):", "    seen_names = []",
                               "    if cfg.%s:" % rng.choice(bools).name,
                               "        return None"] + group_body + ["    return None", ""]
    engine = ['"""Starts the program once the configuration is valid."""', "import importlib.util", "import os", "import sys",
              "", "from corp.config import _require_range", "from corp.hw import gpu_capability",
              "from corp.validate import validate, validate_group", "",
              "SUPPORTED_ENGINES = %s" % json.dumps([c for c in choice_flags[0].choices if c != g.other(choice_flags[0])]),
              "", "",
              "def start(cfg):",
              "    validate(cfg)",
              "    if cfg.%s:" % dry_run.name,
              '        print("dry run")',
              "        return None",
              "    if cfg.%s:" % group_flag.name,
              "        validate_group(cfg)",
              "    if cfg.%s not in SUPPORTED_ENGINES:" % choice_flags[0].name,
              "        raise RuntimeError(%s)" % g.msg("%s not supported by the engine" % choice_flags[0].option),
              "    if cfg.%s:" % exit_flag.name,
              '        print("bye")',
              "        sys.exit(0)",
              "    seen_names = []"] + g.rules("cfg", 8, 4) + ['    print("running")', "    return None", ""]
    main = ['"""corp: a generated program for the errdex check corpus."""', "import sys", "",
            "from corp.config import parse_config", "from corp.engine import start", "", "",
            "def main(argv=None):", "    cfg = parse_config(sys.argv[1:] if argv is None else argv)", "    start(cfg)",
            "    return 0", "", "",
            'if __name__ == "__main__":', "    main()", ""]
    hw = ['"""What only the machine knows: the GPU (a file the run points at)."""', "import json", "import os", "", "",
          "def gpu_capability():",
          '    path = os.environ.get("CORP_HW_FILE", "/nonexistent/corp-hw.json")',
          "    try:",
          "        with open(path) as f:",
          '            return int(json.load(f)["capability"])',
          "    except OSError:",
          "        return 0", ""]
    # The module constants the rules name (SUPPORTED_k), imported by name everywhere.
    names = [c.split(" = ")[0] for c in g.constants]
    imports = "from corp.constants import %s" % ", ".join(names) if names else ""
    for lines in (config, validate):
        lines.insert(lines.index("from corp.hw import gpu_capability") + 1, imports)
    engine.insert(engine.index("from corp.hw import gpu_capability") + 1, imports)
    root = a.out
    write(root, "corp/constants.py", '"""Names the checks share."""\n' + "\n".join(g.constants) + "\n")
    write(root, "corp/__init__.py", "")
    write(root, "corp/config.py", "\n".join(config))
    write(root, "corp/validate.py", "\n".join(validate))
    write(root, "corp/engine.py", "\n".join(engine))
    write(root, "corp/main.py", "\n".join(main))
    write(root, "corp/hw.py", "\n".join(hw))
    pool = []
    for f in F:
        if f.kind == "choice":
            vals = list(f.choices)
        elif f.kind == "int":
            vals = [str(rng.randint(f.lo, f.hi)) for _ in range(4)] + [str(f.lo), str(f.hi + 3)]
        elif f.kind == "float":
            vals = ["%.2f" % rng.uniform(f.lo, f.hi) for _ in range(4)]
        elif f.kind == "str":
            vals = ["a", "abcdef", "http://x", "/models/m"]
        elif f.kind == "ints":
            vals = ["1 2", "4", "2 3 5"]
        else:
            vals = []
        action = f.action if a.style == "argparse" or f.kind != "bool" else "BooleanOptionalAction"
        entry = {"option": f.option, "kind": f.kind, "values": vals, "action": action}
        if action == "BooleanOptionalAction":
            entry["negative"] = "--no-" + f.option[2:]
        pool.append(entry)
    with open(os.path.join(root, "flags.json"), "w") as fh:
        json.dump({"flags": pool, "envs": sorted(set(g.envs)), "raises": g.raises, "style": a.style, "seed": a.seed}, fh, indent=1)


if __name__ == "__main__":
    main()
