#!/usr/bin/env python3
"""cpp_oracle.py: errdex's C/C++/CUDA front end against clang's own AST.

For each C-family file of CORPUS the oracle asks clang-19 for its AST
(`-fsyntax-only -Xclang -ast-dump=json`): #include lines blanked (the headers
are absent or would make the dump 20x larger), tests/diff/cpp_prelude.h plus a
declaration of each sink in their place, and the #defines of every header the
file includes, resolved in the corpus by clang's own search (the file's
directory, then the corpus directory holding the longest matching suffix), so
that clang itself expands the repository's wrapper macros. In that AST it
finds the sink calls, `<<` chains on them and `throw` expressions, and builds
each message from clang's literals (adjacent literals joined, #x stringized,
escapes kept as spelled and decoded here), c10::str/StrCat concatenation,
`+`, printf and {} formats, and locals followed statement by statement through
clang's declarations (std::ostringstream oss; oss << ...; std::string msg =
...; msg += ...). The message rules per sink are the facts of the libraries,
typed here a second time, independently of src/extract/cpp/.

It compares (file, line, class) and messagePattern with `errdex scan --facts`
on the same corpus. Lines a `clang -E` run of the same file drops (inactive
#if branches in clang's configuration) are not counted: errdex reports every
branch, clang sees one. Files clang times out on are left out and counted.

  cpp_oracle.py CORPUS --errdex build/errdex [--max-files N] [--min-recall R]
                [--min-precision P] [--min-pattern M] [--jobs J] [--examples K]

Exit 0 when every threshold holds, 1 when one does not, 2 on a usage error.
"""
import argparse
import hashlib
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
EXTS = ('.c', '.cc', '.cpp', '.cxx', '.c++', '.h', '.hh', '.hpp', '.hxx', '.h++', '.cu', '.cuh', '.inl', '.ipp', '.tcc')
CLANG = os.environ.get('CLANG', 'clang-19')
sys.setrecursionlimit(200000)

# ---------------------------------------------------------------------------
# The sinks: name -> rule. Keys of a rule:
#   kind, cls (fixed class) | class_arg, cond (index of the condition), msg (first
#   message argument), rule (concat|printf|braces|one|none), stream (a << chain adds),
#   prefix / empty (templates: @c condition, @a/@b first/second argument as written,
#   @v a run-time value), weak (a repository #define of the name wins), qual.
TORCH_EMPTY = ('Expected @c to be true, but got false.  (Could this error message be improved?  '
               'If so, please report an enhancement request to PyTorch.)')
TORCH_INTERNAL = '@c INTERNAL ASSERT FAILED at "@v":@v, please report a bug to PyTorch. '
SINKS = {}
def sink(name, **kw):
    SINKS.setdefault(name, []).append(kw)
for n, c in [('TORCH_CHECK', 'RuntimeError'), ('STD_TORCH_CHECK', 'RuntimeError'), ('TORCH_CHECK_VALUE', 'ValueError'),
             ('TORCH_CHECK_TYPE', 'TypeError'), ('TORCH_CHECK_INDEX', 'IndexError'),
             ('TORCH_CHECK_NOT_IMPLEMENTED', 'NotImplementedError'), ('TORCH_CHECK_LINALG', 'LinAlgError')]:
    sink(n, kind='raise', cls=c, cond=0, msg=1, rule='concat', empty=TORCH_EMPTY)
for n in ('TORCH_INTERNAL_ASSERT', 'TORCH_INTERNAL_ASSERT_DEBUG_ONLY', 'AT_ASSERT'):
    sink(n, kind='raise', cls='RuntimeError', cond=0, msg=1, rule='concat', prefix=TORCH_INTERNAL)
sink('AT_ERROR', kind='raise', cls='RuntimeError', msg=0, rule='concat')
sink('C10_THROW_ERROR', kind='raise', class_arg=0, msg=1, rule='one')
sink('TORCH_WARN', kind='log', cls='UserWarning', level='warning', msg=0, rule='concat')
sink('TORCH_WARN_ONCE', kind='log', cls='UserWarning', level='warning', msg=0, rule='concat')
sink('TVM_FFI_ICHECK', kind='raise', cls='InternalError', cond=0, stream=True, prefix='Check failed: (@c) is false: ')
sink('ICHECK', kind='raise', cls='InternalError', cond=0, stream=True, prefix='Check failed: (@c) is false: ', weak=True)
sink('TVM_FFI_CHECK', kind='raise', class_arg=1, cond=0, stream=True, prefix='Check failed: (@c) is false: ')
sink('TVM_FFI_THROW', kind='raise', class_arg=0, stream=True)
for suf, op in [('EQ', '=='), ('NE', '!='), ('LT', '<'), ('LE', '<='), ('GT', '>'), ('GE', '>=')]:
    sink('TVM_FFI_ICHECK_' + suf, kind='raise', cls='InternalError', cond=0, stream=True,
         prefix='Check failed: @a %s @b@v: ' % op)
    sink('ICHECK_' + suf, kind='raise', cls='InternalError', cond=0, stream=True,
         prefix='Check failed: @a %s @b@v: ' % op, weak=True)
    for g in ('CHECK_', 'DCHECK_'):
        sink(g + suf, kind='panic', cls='fatal', cond=0, stream=True, prefix='Check failed: @a %s @b (@v vs. @v) ' % op,
             weak=True)
for n in ('CHECK', 'DCHECK', 'PCHECK'):
    sink(n, kind='panic', cls='fatal', cond=0, stream=True, prefix='Check failed: @c ', weak=True)
sink('CHECK_NOTNULL', kind='panic', cls='fatal', cond=0, prefix="'@c' Must be non NULL", weak=True)
sink('LOG', kind='log', severity=0, stream=True, weak=True)
sink('assert', kind='assert', cls='assert', cond=0, prefix="Assertion `@c' failed.", weak=True)
sink('fprintf', kind='log', level='error', msg=1, rule='printf', stderr=True, weak=True)
sink('printf', kind='panic', cls='fatal', msg=0, rule='printf', fatal_print=True, weak=True)
sink('PyErr_SetString', kind='raise', class_arg=0, msg=1, rule='one')
sink('PyErr_Format', kind='raise', class_arg=0, msg=1, rule='printf')
sink('PyErr_SetNone', kind='raise', class_arg=0)
sink('PyErr_WarnEx', kind='log', class_arg=0, msg=1, rule='one', level='warning')
sink('PyErr_WarnFormat', kind='log', class_arg=0, msg=2, rule='printf', level='warning')
sink('pybind11_fail', kind='raise', cls='std::runtime_error', msg=0, rule='one')
for code in ('Aborted AlreadyExists Cancelled DataLoss DeadlineExceeded FailedPrecondition Internal InvalidArgument '
             'NotFound OutOfRange PermissionDenied ResourceExhausted Unauthenticated Unavailable Unimplemented '
             'Unknown').split():
    sink(code + 'Error', kind='raise', msg=0, rule='concat', qual='absl')
    sink(code, kind='raise', msg=0, rule='concat', qual='errors')
sink('error', kind='log', level='error', msg=0, rule='braces', qual='spdlog')
sink('warn', kind='log', level='warning', msg=0, rule='braces', qual='spdlog')
sink('critical', kind='log', level='critical', msg=0, rule='braces', qual='spdlog')
STRONG = {n for n, rules in SINKS.items() if any(not r.get('weak') and not r.get('qual') for r in rules)}


def find_sink(name, qual):
    for r in SINKS.get(name, []):
        q = qual.lstrip(':')
        if not r.get('qual'):
            if q in ('', 'std', 'c10', 'tvm::ffi'):
                return r
        elif q == r['qual'] or q.endswith('::' + r['qual']):
            return r
    return None


def class_from_arg(a):
    a = a.lstrip(':').split('::')[-1]
    if a.startswith('PyExc_'):
        return a[6:]
    if a in ('Error', 'EnforceFiniteError'):
        return 'RuntimeError'
    return a

# ---------------------------------------------------------------------------
# Message values: a list of alternatives, each a list of (hole, text).

def lit(s):
    return [[(False, s)]] if s else [[]]


def hole(s):
    return [[(True, s)]]


def join(a, b):
    out = []
    for x in a:
        for y in b:
            if len(out) >= 16:
                return out
            out.append(norm(x + y))
    return out


def norm(segs):
    out = []
    for h, t in segs:
        if not h and not t:
            continue
        if not h and out and not out[-1][0]:
            out[-1] = (False, out[-1][1] + t)
        else:
            out.append((h, t))
    return out


def single(v, text):
    return v[0] if len(v) == 1 else [(True, text)]


def escape(t):
    return ''.join('\\' + c if c in '.*+?^${}()|[]\\' else c for c in t)


def pattern_of(alts):
    pats = []
    has = False
    for segs in alts:
        if any(not h and t for h, t in segs):
            has = True
            p, prev = '', False
            for h, t in segs:
                if h:
                    if not prev:
                        p += '(.*?)'
                    prev = True
                elif t:
                    p += escape(t)
                    prev = False
        else:
            p = '(.*?)'
        if p not in pats:
            pats.append(p)
    if not has:
        return None
    return pats[0] if len(pats) == 1 else '(?:' + '|'.join(pats) + ')'


def decode_c(spelled):
    """The value of a C string literal as clang spells it in the JSON dump ("..." with escapes)."""
    s = spelled
    m = re.match(r'^(u8|u|U|L)?R"([^(]*)\((.*)\)\2"$', s, re.S)
    if m:
        return m.group(3)
    q = s.find('"')
    if q < 0:
        return s
    s = s[q + 1:-1] if s.endswith('"') else s[q + 1:]
    out = bytearray()
    i = 0
    b = s.encode('utf-8', 'surrogateescape')
    simple = {ord('n'): 10, ord('t'): 9, ord('r'): 13, ord('a'): 7, ord('b'): 8, ord('f'): 12, ord('v'): 11,
              ord('e'): 27}
    while i < len(b):
        c = b[i]
        if c != 0x5c or i + 1 >= len(b):
            out.append(c)
            i += 1
            continue
        e = b[i + 1]
        if e in simple:
            out.append(simple[e])
            i += 2
        elif e == ord('x'):
            j = i + 2
            while j < len(b) and chr(b[j]) in '0123456789abcdefABCDEF':
                j += 1
            if j == i + 2:
                out.append(e)
                i += 2
            else:
                out.append(int(b[i + 2:j], 16) & 0xFF)
                i = j
        elif e in (ord('u'), ord('U')):
            n = 4 if e == ord('u') else 8
            h = b[i + 2:i + 2 + n]
            try:
                cp = int(h, 16)
                out += (chr(cp) if cp <= 0x10FFFF and not 0xD800 <= cp <= 0xDFFF else '\ufffd').encode()
                i += 2 + n
            except ValueError:
                out.append(e)
                i += 2
        elif 0x30 <= e <= 0x37:
            j = i + 1
            while j < len(b) and j < i + 4 and 0x30 <= b[j] <= 0x37:
                j += 1
            out.append(int(b[i + 1:j], 8) & 0xFF)
            i = j
        else:
            out.append(e)
            i += 2
    return out.decode('utf-8', 'surrogateescape')


def apply_printf(fmt, args):
    out = []
    nxt = 0
    for h, t in fmt:
        if h:
            out.append((h, t))
            continue
        i = 0
        buf = ''
        while i < len(t):
            if t[i] != '%':
                buf += t[i]
                i += 1
                continue
            if t[i + 1:i + 2] == '%':
                buf += '%'
                i += 2
                continue
            m = re.compile(r"%[-+ #0']*(\*|\d+)?(\.(\*|\d+))?(hh|h|ll|l|z|j|t|L|q)*([a-zA-Z])").match(t, i)
            if not m:
                buf += '%'
                i += 1
                continue
            if m.group(1) == '*':
                nxt += 1
            if m.group(3) == '*':
                nxt += 1
            conv = m.group(5)
            if conv == 'n':
                i = m.end()
                continue
            out.append((False, buf))
            buf = ''
            if nxt < len(args):
                a = args[nxt]
                if conv in 'sdiuSU':
                    out += a
                else:
                    out.append(a[0] if len(a) == 1 and a[0][0] else (True, 'x'))
            else:
                out.append((True, m.group(0)))
            nxt += 1
            i = m.end()
        out.append((False, buf))
    return norm(out)


def apply_braces(fmt, args):
    out = []
    nxt = 0
    for h, t in fmt:
        if h:
            out.append((h, t))
            continue
        i = 0
        buf = ''
        while i < len(t):
            c = t[i]
            if c in '{}' and t[i + 1:i + 2] == c:
                buf += c
                i += 2
                continue
            if c != '{':
                buf += c
                i += 1
                continue
            j = t.find('}', i)
            if j < 0:
                buf += t[i:]
                break
            field = t[i + 1:j].split(':')[0].strip()
            out.append((False, buf))
            buf = ''
            if field == '':
                idx = nxt
                nxt += 1
            elif field.isdigit():
                idx = int(field)
            else:
                idx = None
            if idx is not None and idx < len(args):
                out += args[idx]
            else:
                out.append((True, t[i:j + 1]))
            i = j + 1
        out.append((False, buf))
    return norm(out)

# ---------------------------------------------------------------------------
# clang.

def clang_flags(path):
    if path.endswith('.c'):
        return ['-x', 'c', '-std=gnu11']
    if path.endswith(('.cu', '.cuh')):
        return ['-x', 'cuda', '--cuda-host-only', '-nocudainc', '-nocudalib', '-std=c++17']
    return ['-x', 'c++', '-std=c++17']


def run(cmd, data, timeout, want_stderr=False):
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
    try:
        p = subprocess.run(cmd, input=data, capture_output=True, timeout=timeout, preexec_fn=limit)
    except subprocess.TimeoutExpired:
        return None
    return (p.stdout, p.stderr) if want_stderr else p.stdout


INCLUDE_RE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"]+)[>"]', re.M)
DEFINE_RE = re.compile(rb'^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)((?:[^\n\\]|\\.|\\\n)*)', re.M)


class Corpus:
    def __init__(self, root, files):
        self.root = root
        self.files = files
        self.by_suffix = {}
        for f in files:
            parts = f.split('/')
            for k in range(len(parts)):
                self.by_suffix.setdefault('/'.join(parts[k:]), []).append(f)
        self.cache = {}

    def text(self, f):
        if f not in self.cache:
            with open(os.path.join(self.root, f), 'rb') as fh:
                self.cache[f] = fh.read()
        return self.cache[f]

    def resolve(self, frm, inc):
        d = os.path.dirname(frm)
        cand = os.path.normpath(os.path.join(d, inc)) if d else os.path.normpath(inc)
        if cand in self.by_suffix and cand in self.files_set():
            return cand
        c = self.by_suffix.get(os.path.normpath(inc))
        if not c:
            return None
        return max(c, key=lambda x: (len(os.path.commonprefix([x, frm])), -len(x)))

    def files_set(self):
        if not hasattr(self, '_set'):
            self._set = set(self.files)
        return self._set

    def macro_header(self, f):
        """#defines of the files f includes (transitively), in include order, sinks left out."""
        seen = {f}
        order = []
        queue = [f]
        while queue and len(order) < 400:
            cur = queue.pop(0)
            for m in INCLUDE_RE.finditer(self.text(cur)):
                r = self.resolve(cur, m.group(2).decode('utf-8', 'replace'))
                if r and r not in seen:
                    seen.add(r)
                    order.append(r)
                    queue.append(r)
        out = []
        for inc in order:
            for m in DEFINE_RE.finditer(self.text(inc)):
                name = m.group(1).decode()
                if name in STRONG:
                    continue
                body = m.group(0)
                out.append(b'#undef ' + m.group(1) + b'\n' + body.strip() + b'\n')
        return b''.join(out)


def sink_decls(c_mode):
    out = []
    for n, rules in SINKS.items():
        if any(r.get('qual') for r in rules) or n in ('printf', 'fprintf'):
            continue
        out.append(('int %s();' if c_mode else 'template <class... A> __errdex_stream %s(A&&...);') % n)
    return '\n'.join(out) + '\n'


def blank_includes(src):
    return INCLUDE_RE.sub(lambda m: b'', src)

# ---------------------------------------------------------------------------
# The AST walk.

class Loc:
    """clang's JSON elides file/line equal to the last one printed: replay them in order."""
    def __init__(self):
        self.file = None
        self.line = None

    def upd(self, d):
        if 'file' in d:
            self.file = d['file']
        if 'line' in d:
            self.line = d['line']
        return (self.file, self.line, d.get('offset'), d.get('tokLen'), d.get('col'))

    def take(self, loc):
        """(file, line, offset, tokLen) of the expansion, plus the spelling one and the macro-arg flag."""
        if not loc:
            return None
        if 'spellingLoc' in loc:
            sp = self.upd(loc['spellingLoc'])
            ex = self.upd(loc.get('expansionLoc', {}))
            return {'exp': ex, 'spell': sp, 'arg': loc.get('expansionLoc', {}).get('isMacroArgExpansion', False)}
        v = self.upd(loc)
        return {'exp': v, 'spell': v, 'arg': False}


UNWRAP = {'ImplicitCastExpr', 'ParenExpr', 'MaterializeTemporaryExpr', 'CXXBindTemporaryExpr', 'ExprWithCleanups',
          'ConstantExpr', 'CXXFunctionalCastExpr', 'CStyleCastExpr', 'CXXStaticCastExpr'}
STRINGY = ('std::string', 'string', 'const char *', 'char *', 'std::string_view', 'string_view', 'const std::string',
           'auto', 'const char *const')


class FileOracle:
    def __init__(self, path, src, pp):
        self.path = path
        self.src = src        # the text clang parsed (bytes), includes blanked
        self.pp = pp          # the `clang -E` text (bytes) of the same input, for spellings
        self.sites = []
        self.env = {}
        self.handled = set()
        self.fn_depth = 0
        self.guards = []

    # -- locations and text
    def site_arg(self, n):
        """True when n is written in a macro argument in this file: it is where it is spelled. A
        wrapper's body pasted through another macro's argument (CHECK_INPUT(x) in a DISPATCH lambda)
        is spelled in the header that defines it: like any macro body, it is at its expansion."""
        r = n.get('_begin')
        return bool(r and r['arg'] and r['spell'][0] == self.main)

    def site_line(self, n):
        r = n.get('_begin')
        if not r:
            return None, None
        if self.site_arg(n):
            return r['spell'][0], r['spell'][1]
        return r['exp'][0], r['exp'][1]

    def site_eline(self, n):
        r = n.get('_begin')
        return r['exp'][1] if r else None

    def site_col(self, n):
        r = n.get('_begin')
        if not r:
            return None
        return r['spell'][4] if self.site_arg(n) else r['exp'][4]

    def text(self, n):
        """Source text of node n when both ends are spelled, in order, in the parsed buffer (else None:
        the -E pass, whose buffer holds every expansion spelled out, gives the texts then)."""
        b, e = n.get('_begin'), n.get('_end')
        if not b or not e:
            return None
        fb, fe = b['spell'], e['spell']
        if fb[0] != self.main or fe[0] != self.main or fb[2] is None or fe[2] is None or fe[2] < fb[2]:
            return None
        if fe[2] - fb[2] > 1 << 16:
            return None
        return squash(self.src[fb[2]:fe[2] + (fe[3] or 0)].decode('utf-8', 'replace'))

    # -- evaluation
    def call_name(self, n):
        """(name, qualifier, args) of a call-like node, else None."""
        k = n.get('kind')
        inner = n.get('inner') or []
        if k in ('CallExpr', 'RecoveryExpr', 'CXXMemberCallExpr') and inner:
            c = inner[0]
            while c.get('kind') in UNWRAP and c.get('inner'):
                c = c['inner'][0]
            ck = c.get('kind')
            if ck == 'UnresolvedLookupExpr':
                name = c.get('name')
            elif ck == 'DeclRefExpr':
                name = (c.get('referencedDecl') or {}).get('name')
            elif ck in ('MemberExpr', 'CXXDependentScopeMemberExpr', 'UnresolvedMemberExpr'):
                return ('.' + (c.get('name') or c.get('member') or ''), '', inner[1:], c)
            else:
                return None
            qual = ''
            t = self.callee_text(c)
            if t and '::' in t:
                qual = t.rsplit('::', 1)[0].replace(' ', '')
            return (name, qual, inner[1:], c)
        return None

    def callee_text(self, c):
        b = c.get('_begin')
        if not b:
            return None
        sp = b['spell']
        if sp[0] == self.main and sp[2] is not None:
            # walk back over A::B:: before the name
            end = sp[2] + (sp[3] or 0)
            start = sp[2]
            s = self.src
            while start >= 2 and s[start - 2:start] == b'::':
                j = start - 2
                while j > 0 and (chr(s[j - 1]).isalnum() or s[j - 1] == 0x5f):
                    j -= 1
                start = j
            return s[start:end].decode('utf-8', 'replace')
        return None

    def ev(self, n, depth=0):
        if n is None or depth > 40:
            return None
        k = n.get('kind')
        inner = n.get('inner') or []
        if k == 'StringLiteral':
            return lit(decode_c(n['value']))
        if k in UNWRAP and inner:
            return self.ev(inner[-1] if k == 'CXXFunctionalCastExpr' else inner[0], depth + 1)
        if k == 'CXXConstructExpr' and len(inner) == 1:
            return self.ev(inner[0], depth + 1)
        if k == 'BinaryOperator' and n.get('opcode') == '+' and len(inner) == 2:
            a, b = self.ev(inner[0], depth + 1), self.ev(inner[1], depth + 1)
            if a is None and b is None:
                return None
            return join(a if a is not None else self.part(inner[0]), b if b is not None else self.part(inner[1]))
        if k == 'CXXOperatorCallExpr' and len(inner) == 3 and self.opname(inner[0]) == 'operator+':
            a, b = self.ev(inner[1], depth + 1), self.ev(inner[2], depth + 1)
            if a is None and b is None:
                return None
            return join(a if a is not None else self.part(inner[1]), b if b is not None else self.part(inner[2]))
        if k == 'ConditionalOperator' and len(inner) == 3:
            a, b = self.ev(inner[1], depth + 1), self.ev(inner[2], depth + 1)
            if a is None and b is None:
                return None
            return ((a if a is not None else self.part(inner[1])) + (b if b is not None else self.part(inner[2])))[:16]
        if k == 'DeclRefExpr':
            d = n.get('referencedDecl') or {}
            v = self.env.get(d.get('id'))
            if v is not None and not v['stream']:
                return v['value']
            return None
        c = self.call_name(n)
        if c:
            name, qual, args, callee = c
            if name in ('.str', '.c_str', '.data') and not args:
                base = callee.get('inner') or []
                base = base[0] if base else None
                while base is not None and base.get('kind') in UNWRAP and base.get('inner'):
                    base = base['inner'][0]
                if base is not None and base.get('kind') == 'DeclRefExpr':
                    v = self.env.get((base.get('referencedDecl') or {}).get('id'))
                    if v is not None and (v['stream'] == (name == '.str')):
                        return v['value']
                if base is not None and name == '.c_str':
                    return self.ev(base, depth + 1)
                return None
            if (name == 'str' and qual in ('c10', '::c10', 'at')) or (name == 'StrCat' and qual in ('absl', '')):
                out = lit('')
                for a in args:
                    out = join(out, self.part(a))
                return out
            if name == 'format' and qual in ('fmt', 'std') and args:
                f = self.ev(args[0], depth + 1)
                if f is None:
                    return None
                rest = [single(self.part(a), 'x') for a in args[1:]]
                return [apply_braces(s, rest) for s in f]
            if (name in ('StrFormat',) and qual in ('absl', '')) or name == 'fmtstr' or \
                    (name == 'sprintf' and qual == 'fmt'):
                f = self.ev(args[0], depth + 1) if args else None
                if f is None:
                    return None
                rest = [single(self.part(a), 'x') for a in args[1:]]
                return [apply_printf(s, rest) for s in f]
        return None

    def opname(self, n):
        while n.get('kind') in UNWRAP and n.get('inner'):
            n = n['inner'][0]
        return (n.get('referencedDecl') or {}).get('name') or n.get('name')

    def part(self, n):
        v = self.ev(n)
        if v is not None:
            return v
        m = n
        while m.get('kind') in UNWRAP and m.get('inner'):
            m = m['inner'][0]
        k = m.get('kind')
        if k == 'IntegerLiteral' and re.fullmatch(r'\d+', self.text(m) or ''):
            return lit(m.get('value'))
        if k == 'CharacterLiteral':
            return lit(chr(m.get('value', 0)))
        if k == 'DeclRefExpr' and (m.get('referencedDecl') or {}).get('name') == 'endl':
            return lit('\n')
        return hole(self.text(n) or 'x')

    # -- the walk
    def annotate(self, n):
        """Locations of every node, replayed in the order clang printed them."""
        begin = self.L.take(n.get('loc')) if n.get('loc') else None
        r = n.get('range') or {}
        b = self.L.take(r.get('begin'))
        e = self.L.take(r.get('end'))
        n['_begin'] = b or begin
        n['_end'] = e
        for c in n.get('inner') or []:
            self.annotate(c)

    def walk(self, n):
        k = n.get('kind')
        inner = n.get('inner') or []
        is_fn = k in ('FunctionDecl', 'CXXMethodDecl', 'CXXConstructorDecl', 'CXXDestructorDecl',
                      'CXXConversionDecl') and any(c.get('kind') == 'CompoundStmt' for c in inner)
        if is_fn:
            if self.fn_depth == 0:
                self.env = {}
            self.fn_depth += 1
        if k == 'LambdaExpr':
            # Its body is printed twice (in its class and in the LambdaExpr): walk the second only.
            for c in inner:
                if c.get('kind') != 'CXXRecordDecl':
                    self.walk(c)
        elif k == 'VarDecl':
            for c in inner:
                self.walk(c)
            self.var_decl(n)
        elif k == 'IfStmt':
            cond = inner[0] if inner else None
            if cond is not None:
                self.walk(cond)
            self.guards.append(self.empty_test(cond))
            for c in inner[1:]:
                self.walk(c)
            self.guards.pop()
        else:
            self.pre(n)
            for c in inner:
                self.walk(c)
        if is_fn:
            self.fn_depth -= 1

    def empty_test(self, cond):
        c = cond
        while c is not None and c.get('kind') in UNWRAP and c.get('inner'):
            c = c['inner'][0]
        cn = self.call_name(c) if c is not None else None
        if cn and cn[0] == '.empty':
            base = (cn[3].get('inner') or [None])[0]
            while base is not None and base.get('kind') in UNWRAP and base.get('inner'):
                base = base['inner'][0]
            if base is not None and base.get('kind') == 'DeclRefExpr':
                return (base.get('referencedDecl') or {}).get('id')
        return None

    def var_decl(self, n):
        t = ((n.get('type') or {}).get('qualType') or '')
        init = (n.get('inner') or [None])[-1] if n.get('init') else None
        vid = n.get('id')
        if 'ostringstream' in t or 'stringstream' in t:
            v = lit('')
            if init is not None:
                x = init
                while x.get('kind') in UNWRAP | {'CXXConstructExpr'} and x.get('inner'):
                    x = x['inner'][0]
                if x.get('kind') not in ('CXXConstructExpr',):
                    ev = self.ev(x)
                    v = ev if ev is not None else None
            self.env[vid] = {'stream': True, 'value': v}
        elif t.replace('const ', '').strip() in ('std::string', 'string', 'char *', 'std::string_view', 'auto',
                                                 'char *const') or t in STRINGY:
            if init is None:
                self.env[vid] = {'stream': False, 'value': lit('') if 'string' in t else None}
            else:
                self.env[vid] = {'stream': False, 'value': self.ev(init)}

    def ref_id(self, n):
        while n is not None and n.get('kind') in UNWRAP and n.get('inner'):
            n = n['inner'][0]
        if n is not None and n.get('kind') == 'DeclRefExpr':
            return (n.get('referencedDecl') or {}).get('id')
        return None

    def chain(self, n):
        """A << chain: (leftmost, [operands]) or None."""
        ops = []
        cur = n
        while True:
            while cur.get('kind') in UNWRAP and cur.get('inner'):
                cur = cur['inner'][0]
            k = cur.get('kind')
            inner = cur.get('inner') or []
            if k == 'BinaryOperator' and cur.get('opcode') == '<<' and len(inner) == 2:
                ops.append(inner[1])
                cur = inner[0]
            elif k == 'CXXOperatorCallExpr' and len(inner) == 3 and self.opname(inner[0]) == 'operator<<':
                ops.append(inner[2])
                cur = inner[1]
            else:
                break
        if not ops:
            return None
        return cur, list(reversed(ops))

    def pre(self, n):
        k = n.get('kind')
        inner = n.get('inner') or []
        if id(n) in self.handled:
            return
        if k in ('BinaryOperator', 'CXXOperatorCallExpr'):
            ch = self.chain(n)
            if ch:
                left, ops = ch
                for m in self.chain_nodes(n):
                    self.handled.add(id(m))
                rid = self.ref_id(left)
                if rid in self.env and self.env[rid]['stream']:
                    v = self.env[rid]
                    if v['value'] is not None:
                        for o in ops:
                            v['value'] = join(v['value'], self.part(o))
                    return
                c = self.call_name(left)
                if c and c[0] and not c[0].startswith('.'):
                    s = find_sink(c[0], c[1])
                    if s and s.get('stream'):
                        self.handled.add(id(left))
                        self.site(left, s, c, ops)
                return
            op = n.get('opcode') if k == 'BinaryOperator' else self.opname(inner[0]) if inner else None
            lhs = inner[0] if k == 'BinaryOperator' else (inner[1] if len(inner) > 1 else None)
            rhs = inner[1] if k == 'BinaryOperator' and len(inner) > 1 else (inner[2] if len(inner) > 2 else None)
            if op in ('=', 'operator=', '+=', 'operator+=') and lhs is not None and rhs is not None:
                rid = self.ref_id(lhs)
                if rid in self.env and not self.env[rid]['stream']:
                    v = self.env[rid]
                    if op in ('=', 'operator='):
                        new = self.ev(rhs)
                        if self.guards and self.guards[-1] == rid:
                            cur = v['value']
                            if cur is not None and not any(not s for s in cur):
                                return
                            if cur is not None and new is not None:
                                merged = [s for s in cur if s] + new
                                v['value'] = merged or new
                            else:
                                v['value'] = new
                        else:
                            v['value'] = new
                    elif v['value'] is not None:
                        v['value'] = join(v['value'], self.part(rhs))
                return
        if k == 'CXXThrowExpr':
            if inner:
                self.throw(n)
            return
        c = self.call_name(n)
        if c and c[0]:
            name = c[0]
            if name == 'write_to_stream' and c[2]:
                rid = self.ref_id(c[2][0])
                if rid in self.env and self.env[rid]['stream'] and self.env[rid]['value'] is not None:
                    add = lit('')
                    for i, a in enumerate(c[2][1:]):
                        if i:
                            add = join(add, lit(' '))
                        add = join(add, [single(self.part(a), 'x')])
                    self.env[rid]['value'] = join(self.env[rid]['value'], add)
                return
            s = find_sink(name, c[1]) if not name.startswith('.') else None
            if s:
                self.site(n, s, c, None)

    def chain_nodes(self, n):
        out = []
        cur = n
        while True:
            out.append(cur)
            while cur.get('kind') in UNWRAP and cur.get('inner'):
                cur = cur['inner'][0]
                out.append(cur)
            inner = cur.get('inner') or []
            if cur.get('kind') == 'BinaryOperator' and cur.get('opcode') == '<<' and len(inner) == 2:
                cur = inner[0]
            elif cur.get('kind') == 'CXXOperatorCallExpr' and len(inner) == 3 and self.opname(inner[0]) == 'operator<<':
                cur = inner[1]
            else:
                return out

    def post(self, n):
        pass

    def site(self, n, s, c, stream_ops):
        f, line = self.site_line(n)
        if f != self.main or id(n) in self.done:
            return
        self.done.add(id(n))
        name, qual, args, callee = c
        def arg_text(i):
            if i is None or i < 0 or i >= len(args):
                return ''
            return self.text_with_qualifier(args[i]) or ''
        kind, cls, level = s['kind'], s.get('cls'), s.get('level')
        if 'severity' in s:
            sev = arg_text(0)
            if sev in ('FATAL', 'DFATAL', 'QFATAL'):
                kind, cls = 'panic', 'fatal'
            elif sev in ('ERROR', 'WARNING', 'WARN'):
                level = 'error' if sev == 'ERROR' else 'warning'
            else:
                return
        # The stream, by its text -- or, inside a macro body (whose text is spelled in
        # the macro header, not here), by the declaration it names.
        if s.get('stderr') and (arg_text(0) or (self.opname(args[0]) if args else '')) != 'stderr':
            return
        if s.get('fatal_print') or s.get('stderr'):
            term = self.terminates(n)
            if s.get('fatal_print') and not term:
                return
            if s.get('stderr') and term:
                kind, cls = 'panic', 'fatal'
        if 'class_arg' in s:
            a = arg_text(s['class_arg'])
            if not a:
                return
            cls = class_from_arg(a)
        user = None
        m = s.get('msg')
        if m is not None and m < len(args):
            rule = s.get('rule')
            if rule == 'concat':
                user = lit('')
                for a in args[m:]:
                    user = join(user, self.part(a))
            elif rule in ('printf', 'braces'):
                fm = self.ev(args[m])
                fm = fm if fm is not None else hole('f')
                rest = [single(self.part(a), 'x') for a in args[m + 1:]]
                user = [apply_printf(x, rest) if rule == 'printf' else apply_braces(x, rest) for x in fm]
            elif rule == 'one':
                user = self.part(args[m])
        if stream_ops:
            user = user if user is not None else lit('')
            for o in stream_ops:
                user = join(user, self.part(o))
        cond = arg_text(s.get('cond')) if s.get('cond') is not None else ''
        tmpl = lambda t: template(t, cond, arg_text(0), arg_text(1))
        if user is not None:
            whole = join([tmpl(s.get('prefix', ''))], user)
        elif s.get('empty'):
            whole = [tmpl(s['empty'])]
        else:
            whole = [tmpl(s.get('prefix', ''))]
        self.sites.append({'line': line, 'col': self.site_col(n), 'eline': self.site_eline(n), 'arg': self.site_arg(n), 'kind': kind, 'class': cls, 'pattern': pattern_of(whole),
                           'needs_text': s.get('cond') is not None and ('@' in s.get('prefix', '') + s.get('empty', ''))})

    def terminates(self, n):
        # The statements after n's in its block: a call to exit/abort/__trap or a throw.
        return self.term_lookup(n)

    def throw(self, n):
        f, line = self.site_line(n)
        if f != self.main or id(n) in self.done:
            return
        self.done.add(id(n))
        e = (n.get('inner') or [None])[0]
        x = e
        while x is not None and x.get('kind') in ('ExprWithCleanups', 'MaterializeTemporaryExpr', 'CXXBindTemporaryExpr',
                                                  'ImplicitCastExpr', 'ParenExpr', 'ConstantExpr'):
            x = (x.get('inner') or [None])[0]
        cls = None
        args = []
        stream = None
        if x is not None:
            ch = self.chain(x)
            if ch:  # throw ErrorReport(tree) << "msg" << x
                x, stream = ch
                while x.get('kind') in UNWRAP and x.get('inner'):
                    x = x['inner'][0]
        if x is not None and x.get('kind') == 'StringLiteral':
            self.sites.append({'line': line, 'col': self.site_col(n), 'eline': self.site_eline(n), 'arg': self.site_arg(n), 'kind': 'raise', 'class': 'const char*',
                               'pattern': pattern_of(lit(decode_c(x['value'])))})
            return
        if x is not None and x.get('kind') == 'CXXNewExpr':
            x = (x.get('inner') or [None])[0]
        t = self.text_with_qualifier(x) if x is not None else None
        if x is not None and x.get('kind') in ('CXXFunctionalCastExpr', 'CXXTemporaryObjectExpr', 'CXXConstructExpr',
                                               'CXXUnresolvedConstructExpr', 'CallExpr', 'RecoveryExpr') and t:
            mm = re.match(r'^((?:::)?[A-Za-z_]\w*(?:\s*<[^()]*?>)?(?:\s*::\s*[A-Za-z_]\w*(?:\s*<[^()]*?>)?)*)\s*[({]', t)
            if mm:
                written = re.sub(r'<[^()]*?>', '', mm.group(1)).replace(' ', '').lstrip(':')
                parts = written.split('::')
                def classlike(p):
                    return bool(p) and (p[0].isupper() or re.search(r'(error|exception|failure|Error|Exception)$', p))
                if (len(parts) >= 2 and parts[0] == 'std') or classlike(parts[-1]):
                    cls = written
                elif len(parts) >= 2 and classlike(parts[-2]):
                    cls = '::'.join(parts[:-1])
            args = self.ctor_args(x)
        best = None
        if stream is not None:
            best = lit('')
            for o in stream:
                best = join(best, self.part(o))
            args = []
        for a in args:
            at = self.text(a) or ''
            if at in ('__FILE__', '__LINE__', '__func__', '__FUNCTION__', '__PRETTY_FUNCTION__') or \
                    a.get('kind') == 'InitListExpr' or at.startswith('{'):
                continue
            v = self.ev(a)
            if v is not None and any(any(not h and tt for h, tt in s) for s in v):
                best = v
                break
        self.sites.append({'line': line, 'col': self.site_col(n), 'eline': self.site_eline(n), 'arg': self.site_arg(n), 'kind': 'raise', 'class': cls,
                           'pattern': pattern_of(best) if best else None})

    def ctor_args(self, x):
        k = x.get('kind')
        inner = x.get('inner') or []
        if k == 'CXXFunctionalCastExpr' and inner:
            y = inner[0]
            while y.get('kind') in UNWRAP and y.get('inner'):
                y = y['inner'][0]
            if y.get('kind') in ('CXXConstructExpr', 'CXXTemporaryObjectExpr', 'ParenListExpr', 'InitListExpr'):
                return y.get('inner') or []
            return [y]
        if k in ('CXXConstructExpr', 'CXXTemporaryObjectExpr', 'CXXUnresolvedConstructExpr', 'ParenListExpr'):
            return inner
        if k in ('CallExpr', 'RecoveryExpr'):
            return inner[1:]
        return []

    def pp_text(self, n):
        return None  # see text(): the -E pass has one buffer

    def text_with_qualifier(self, n):
        """text(n), extended back over a `ns::Class::` its range leaves out."""
        t = self.text(n)
        b = n.get('_begin')
        if t is None or not b or b['spell'][2] is None:
            return t
        start = b['spell'][2]
        s = self.src
        while start >= 2 and s[start - 2:start] == b'::':
            j = start - 2
            while j > 0 and (chr(s[j - 1]).isalnum() or s[j - 1] == 0x5f):
                j -= 1
            if j == start - 2:
                break
            t = s[j:start].decode('utf-8', 'replace') + t
            start = j
        return t

    def term_lookup(self, n):
        return id(n) in self.terminating


def squash(s):
    return re.sub(r'\s+', ' ', s.replace('\\\n', ' ')).strip()


def template(t, c, a, b):
    out = []
    buf = ''
    i = 0
    while i < len(t):
        if t[i] == '@' and i + 1 < len(t) and t[i + 1] in 'cabv':
            k = t[i + 1]
            if k == 'v':
                out.append((False, buf))
                buf = ''
                out.append((True, 'value'))
            else:
                buf += {'c': c, 'a': a, 'b': b}[k]
            i += 2
            continue
        buf += t[i]
        i += 1
    out.append((False, buf))
    return norm(out)


def mark_terminating(tree, ids):
    """ids of printf/fprintf calls followed, in their compound statement, by exit/abort/__trap/throw."""
    def calls(n, acc):
        k = n.get('kind')
        if k == 'CXXThrowExpr':
            acc.append('throw')
        if k in ('CallExpr', 'RecoveryExpr') and n.get('inner'):
            c = n['inner'][0]
            while c.get('kind') in UNWRAP and c.get('inner'):
                c = c['inner'][0]
            nm = c.get('name') or (c.get('referencedDecl') or {}).get('name')
            if nm in ('exit', 'abort', '_exit', '__trap', 'quick_exit', '__builtin_trap'):
                acc.append(nm)
        for x in n.get('inner') or []:
            calls(x, acc)
        return acc
    def walk(n):
        if n.get('kind') == 'CompoundStmt':
            stmts = n.get('inner') or []
            for i, st in enumerate(stmts):
                later = []
                for x in stmts[i + 1:]:
                    calls(x, later)
                if later:
                    for node in printf_calls(st):
                        ids.add(id(node))
        for x in n.get('inner') or []:
            walk(x)
    def printf_calls(st, acc=None):
        acc = [] if acc is None else acc
        if st.get('kind') in ('CallExpr', 'RecoveryExpr') and st.get('inner'):
            c = st['inner'][0]
            while c.get('kind') in UNWRAP and c.get('inner'):
                c = c['inner'][0]
            if (c.get('name') or (c.get('referencedDecl') or {}).get('name')) in ('printf', 'fprintf'):
                acc.append(st)
        for x in st.get('inner') or []:
            printf_calls(x, acc)
        return acc
    walk(tree)


def physical_to_original(pp, main):
    """Line number in a `clang -E` buffer -> line of `main` it came from (line markers followed)."""
    out = {}
    cur = None
    ln = 0
    for phys, raw in enumerate(pp.split(b'\n'), start=1):
        m = re.match(rb'^# (\d+) "([^"]*)"', raw)
        if m:
            ln = int(m.group(1))
            cur = m.group(2).decode('utf-8', 'replace')
            continue
        if cur == main:
            out[phys] = ln
        ln += 1
    return out


def line_markers(src):
    """src with each line that is not part of a directive replaced by `__errdex_line_<n>`."""
    out = []
    in_directive = False
    for n, line in enumerate(src.split(b'\n'), start=1):
        if in_directive or line.lstrip().startswith(b'#'):
            out.append(line)
            in_directive = line.rstrip().endswith(b'\\')
        else:
            out.append(b'__errdex_line_%d' % n)
    return b'\n'.join(out)


def active_lines(pp, main):
    """Lines of `main` present in a `clang -E` output (line markers followed)."""
    lines = set()
    cur = None
    ln = 0
    for raw in pp.split(b'\n'):
        m = re.match(rb'^# (\d+) "([^"]*)"', raw)
        if m:
            ln = int(m.group(1))
            cur = m.group(2).decode('utf-8', 'replace')
            continue
        if cur == main:
            if raw.strip():
                lines.add(ln)
            ln += 1
    return lines


def pp_flags(path):
    if path.endswith('.c'):
        return ['-x', 'cpp-output', '-std=gnu11']
    if path.endswith(('.cu', '.cuh')):
        return ['-x', 'cuda-cpp-output', '--cuda-host-only', '-nocudainc', '-nocudalib', '-std=c++17']
    return ['-x', 'c++-cpp-output', '-std=c++17']


FUNCTION_KINDS = ('FunctionDecl', 'CXXMethodDecl', 'CXXConstructorDecl', 'CXXDestructorDecl', 'CXXConversionDecl',
                  'FunctionTemplateDecl')


def function_ranges(tree):
    """(first, last) expansion lines, in the main file, of every function clang kept a body of."""
    out = []
    def walk(n):
        if n.get('kind') in FUNCTION_KINDS and any(c.get('kind') == 'CompoundStmt' for c in n.get('inner') or []):
            b, e = n.get('_begin'), n.get('_end')
            if b and e and b['exp'][0] == '<stdin>' and e['exp'][0] == '<stdin>' and b['exp'][1] and e['exp'][1]:
                out.append((b['exp'][1], e['exp'][1]))
        for c in n.get('inner') or []:
            walk(c)
    walk(tree)
    return out


def walk_tree(f, buf, tree, want_ranges=False):
    fo = FileOracle(f, buf, None)
    fo.main = '<stdin>'
    fo.L = Loc()
    fo.done = set()
    fo.terminating = set()
    mark_terminating(tree, fo.terminating)
    fo.annotate(tree)
    fo.walk(tree)
    return (fo.sites, function_ranges(tree)) if want_ranges else fo.sites


def oracle_file(corpus, f, prelude_path, timeout):
    """(sites, active lines) of one file, or None when clang timed out.

    Two parses of the same tokens: the file itself (its AST locations say where
    each site is written: a site inside a macro argument keeps its own line) and
    its `clang -E` output (one buffer holding every expansion spelled out: the
    texts of conditions and class arguments). Both ASTs have the same shape, so
    their sites pair up in order; when they do not, the file's own is kept."""
    src = blank_includes(corpus.text(f))
    macros = corpus.macro_header(f)
    with tempfile.TemporaryDirectory() as tmp:
        mh = os.path.join(tmp, 'macros.h')
        with open(mh, 'wb') as fh:
            fh.write(macros)
        # __FILE__ / __LINE__ stay names (holes): -E would print the file's temporary name and line.
        common = [CLANG, '-w', '-ferror-limit=0', '-D__FILE__=__errdex_file__', '-D__LINE__=__errdex_line__',
                  '-include', prelude_path, '-include', mh]
        res = run(common + clang_flags(f) + ['-fsyntax-only', '-Xclang', '-ast-dump=json', '-'], src, timeout,
                  want_stderr=True)
        if res is None:
            return None
        out, err = res
        # Lines where clang gave up on an expression (an undeclared name, a type it
        # does not know): it may drop the statement, and a site in it with it.
        error_lines = {int(m.group(1)) for m in re.finditer(rb'^<stdin>:(\d+):\d+: error:', err, re.M)}
        pp = run(common + clang_flags(f) + ['-E', '-'], src, timeout) or b''
        # Which lines are live in clang's configuration: every line that is not a
        # directive becomes one marker token; `clang -E` keeps the live ones.
        marked = run(common + clang_flags(f) + ['-E', '-P', '-'], line_markers(src), timeout) or b''
        live = {int(m.group(1)) for m in re.finditer(rb'__errdex_line_(\d+)', marked)}
        out2 = run([CLANG, '-w', '-ferror-limit=0'] + pp_flags(f) + ['-fsyntax-only', '-Xclang', '-ast-dump=json', '-'],
                   pp, timeout) if pp else None
    try:
        sites, ranges = walk_tree(f, src, json.loads(out), want_ranges=True)
    except ValueError:
        return None
    # Where clang's view is incomplete: a function it reported an error in (it may
    # have dropped the statement) and any line outside the functions it kept,
    # when it reported errors at all (it dropped a whole function).
    def blind(line, end):
        if any(l in error_lines for l in range(line, end + 1)):
            return True
        inner = [r for r in ranges if r[0] <= line <= r[1]]
        if not inner:
            return bool(error_lines)
        lo, hi = min(inner, key=lambda r: r[1] - r[0])
        return any(lo <= l <= hi for l in error_lines)
    if out2:
        try:
            sites2 = walk_tree(f, pp, json.loads(out2))
        except ValueError:
            sites2 = []
        import difflib
        # The -E buffer's lines, mapped back to the file's by its line markers.
        back = physical_to_original(pp, '<stdin>')
        for x in sites2:
            x['line'] = back.get(x['line'], -1)
        if len(sites) == len(sites2):
            pairs = list(zip(range(len(sites)), range(len(sites2))))
        else:  # a site one parse lost: pair the rest in order, by kind and line
            pairs = []
            # the -E buffer has every expansion on its use's line: pair with that line
            for blk in difflib.SequenceMatcher(None, [(x['kind'], x['eline']) for x in sites],
                                               [(x['kind'], x['line']) for x in sites2],
                                               autojunk=False).get_matching_blocks():
                pairs += [(blk.a + k, blk.b + k) for k in range(blk.size)]
        for i, j in pairs:
            sites[i]['pattern'] = sites2[j]['pattern']
            sites[i]['class'] = sites2[j]['class']
    # One site written once, pasted into several expansions, is one site (as errdex counts).
    unique, seen = [], set()
    for x in sites:
        # Copies of code written once in a macro argument are that one site, whatever
        # a pairing slip gave each copy; a macro body's sites differ by message.
        key = (x['line'], x.get('col'), x['kind']) if x.get('arg') else (x['line'], x.get('col'), x['kind'],
                                                                         x['class'], x['pattern'])
        if key not in seen:
            seen.add(key)
            unique.append(x)
    return unique, live, blind


def same_pattern(p, q):
    """The oracle's pattern p is errdex's q, or one of the alternatives of errdex's (?:a|b) (a
    literal split by #if/#else: clang parses one build)."""
    return p is not None and (p == q or bool(q and q.startswith('(?:') and p in q[3:-1].split('|')))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('corpus')
    ap.add_argument('--errdex', required=True)
    ap.add_argument('--max-files', type=int, default=0, help='a deterministic sample of this many files (0: all)')
    ap.add_argument('--min-recall', type=float, default=0.0)
    ap.add_argument('--min-precision', type=float, default=0.0)
    ap.add_argument('--min-pattern', type=float, default=0.0)
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--timeout', type=float, default=30)
    ap.add_argument('--examples', type=int, default=5)
    ap.add_argument('--dump', help='write the oracle sites as JSON Lines here')
    a = ap.parse_args()
    root = os.path.abspath(a.corpus)
    files = []
    for d, dirs, names in os.walk(root):
        dirs[:] = sorted(x for x in dirs if not x.startswith('.'))
        for nm in names:
            if nm.endswith(EXTS):
                p = os.path.relpath(os.path.join(d, nm), root).replace(os.sep, '/')
                if os.path.getsize(os.path.join(d, nm)) <= 2 << 20:
                    files.append(p)
    files.sort()
    if not files:
        print('cpp_oracle: no C/C++ files under ' + root, file=sys.stderr)
        return 2
    sample = files
    if a.max_files and len(files) > a.max_files:
        sample = sorted(files, key=lambda p: hashlib.sha1(p.encode()).hexdigest())[:a.max_files]
        sample.sort()
    corpus = Corpus(root, files)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'errdex.jsonl')
        # --repo: PATH is the corpus' root even inside a git work tree (paths relative to it)
        p = subprocess.run([a.errdex, 'scan', root, '--repo', 'oracle/corpus', '--facts', '--no-docs', '-j', str(a.jobs),
                            '--quiet', '-o', out],
                           capture_output=True)
        if p.returncode not in (0, 1):
            print('cpp_oracle: errdex scan failed: ' + p.stderr.decode('utf-8', 'replace'), file=sys.stderr)
            return 2
        mine = {}
        with open(out, encoding='utf-8', errors='replace') as fh:
            for line in fh:
                o = json.loads(line)
                fa = o['facts']
                mine.setdefault(fa['filePath'], []).append(fa)
        preludes = {}
        for cmode in (False, True):
            pth = os.path.join(tmp, 'prelude_c.h' if cmode else 'prelude.h')
            with open(os.path.join(HERE, 'cpp_prelude.h'), 'rb') as fh:
                base = fh.read()
            with open(pth, 'wb') as fh:
                fh.write(base + sink_decls(cmode).encode())
            preludes[cmode] = pth
        results = {}
        with ThreadPoolExecutor(max_workers=a.jobs) as ex:
            futs = {f: ex.submit(oracle_file, corpus, f, preludes[f.endswith('.c')], a.timeout) for f in sample}
            for f, fu in futs.items():
                results[f] = fu.result()
    timeouts = [f for f, r in results.items() if r is None]
    both = only_o = only_e = inactive = blind = 0
    pat_ok = pat_n = 0
    ex_o, ex_e, ex_p = [], [], []
    dump = open(a.dump, 'w') if a.dump else None
    nested = 0
    for f in sample:
        r = results[f]
        if r is None:
            continue
        osites, active, blind_at = r
        left_o, left_e = [], []  # unmatched by (line, class), for the second pass below
        okeys = {}
        for s in osites:
            okeys.setdefault((s['line'], s['class']), []).append(s)
            if dump:
                dump.write(json.dumps(dict(s, file=f)) + '\n')
        ekeys = {}
        for s in mine.get(f, []):
            if s['lineNumber'] not in active:
                inactive += 1
                continue
            s['_blind'] = blind_at(s['lineNumber'], s.get('endLineNumber') or s['lineNumber'])
            ekeys.setdefault((s['lineNumber'], s.get('errorClass')), []).append(s)
        for k in set(okeys) | set(ekeys):
            o, e = okeys.get(k, []), ekeys.get(k, [])
            # Pairs of one (line, class): equal messages first, so that what is left on either
            # side is the site the other lacks (a DISPATCH default and a CHECK_DIM pasted into
            # its lambda share the outer use's line and class), then the rest in order, errdex's
            # sites clang saw before those on lines it could not parse.
            rest_o, rest_e = list(o), sorted(e, key=lambda x: x['_blind'])
            pairs = []
            for x in o:
                y = next((y for y in rest_e if same_pattern(x.get('pattern'), y.get('messagePattern'))), None)
                if y is not None:
                    pairs.append((x, y))
                    rest_o.remove(x)
                    rest_e.remove(y)
            m = min(len(rest_o), len(rest_e))
            pairs += list(zip(rest_o[:m], rest_e[:m]))
            both += len(pairs)
            left_o += rest_o[m:]
            # errdex's sites beyond the oracle's: matched below as nested wrappers, else those
            # on lines clang could not parse are the oracle's blind spot, not errdex's error
            # (counted apart).
            left_e += rest_e[m:]
            eps = [x.get('messagePattern') for x in e]
            for x, y in pairs:
                if x.get('pattern') is None:
                    continue
                pat_n += 1
                if same_pattern(x['pattern'], y.get('messagePattern')):
                    pat_ok += 1
                elif len(ex_p) < 1000:
                    ex_p.append((f, k, x['pattern'], eps))
        # A wrapper used inside another macro's argument (a check in a DISPATCH lambda):
        # clang gives its tokens the outer use's line, errdex the wrapper's own line
        # further down. Same class and pattern within that span: the same site, also when
        # clang reported an error in the lambda (it saw this site, whatever else it dropped).
        for x in left_e:
            hit = next((o for o in left_o if o['class'] == x.get('errorClass') and o['pattern'] == x.get('messagePattern')
                        and o['line'] <= x['lineNumber'] <= o['line'] + 200), None)
            if hit is not None:
                left_o.remove(hit)
                both += 1
                nested += 1
                pat_n += 1
                pat_ok += 1
            elif x['_blind']:
                blind += 1
            else:
                only_e += 1
                ex_e.append((f, (x['lineNumber'], x.get('errorClass')), x.get('messagePattern')))
        for o in left_o:
            only_o += 1
            ex_o.append((f, (o['line'], o['class']), o.get('pattern')))
    if dump:
        dump.close()
    n_o, n_e = both + only_o, both + only_e
    recall = both / n_o if n_o else 1.0
    precision = both / n_e if n_e else 1.0
    pat = pat_ok / pat_n if pat_n else 1.0
    print(f'cpp_oracle: {len(sample)} files ({len(files)} in the corpus), {len(timeouts)} clang timeouts; '
          f'oracle {n_o} sites, errdex {n_e} (+{inactive} on lines clang -E drops, +{blind} where clang reported '
          f'errors and may have dropped code); common {both} ({nested} of them a wrapper inside a macro argument, '
          f'which clang puts on the outer use\'s line)')
    print(f'cpp_oracle: recall {recall:.4f}  precision {precision:.4f}  pattern exact {pat:.4f} ({pat_ok}/{pat_n})')
    for title, exs in (('only in the oracle', ex_o), ('only in errdex', ex_e)):
        for x in exs[:a.examples]:
            print(f'  {title}: {x[0]}:{x[1][0]} class={x[1][1]} pattern={x[2]!r}')
    for x in ex_p[:a.examples]:
        print(f'  pattern differs: {x[0]}:{x[1][0]} class={x[1][1]}\n    oracle {x[2]!r}\n    errdex {x[3]!r}')
    ok = recall >= a.min_recall and precision >= a.min_precision and pat >= a.min_pattern
    if not ok:
        print('cpp_oracle: FAILED: below --min-recall/--min-precision/--min-pattern')
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
