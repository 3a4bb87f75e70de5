//! rust_oracle: the error sites of Rust files as the syn crate (a full Rust parser,
//! the one proc macros use) sees them, for tests/diff/lang_oracle.py. It applies the
//! site and message rules of src/extract/rust/rust_extractor.h a second time, on
//! syn's syntax tree and proc-macro2's tokens, written independently of errdex:
//! literals are decoded by syn (LitStr::value), {:?} quoting is Rust's own Debug.
//!
//!   rust_oracle ROOT FILE...   (FILE relative to ROOT; "-" reads the list from stdin)
//!
//! One JSON line per site: {"file","line","kind","class","segs"} where segs is the
//! message as [[is_hole, text], ...] or null when the message is unknown. A file
//! syn cannot parse gives {"file","error"}.
use proc_macro2::{Delimiter, TokenStream, TokenTree};
use std::collections::{HashMap, HashSet};
use std::io::{BufRead, Write};
use syn::visit::Visit;

type Segs = Vec<(bool, String)>;

fn lit(s: &str) -> Segs {
    if s.is_empty() { vec![] } else { vec![(false, s.to_string())] }
}
fn hole(s: &str) -> Segs {
    vec![(true, s.to_string())]
}
fn push(out: &mut Segs, seg: (bool, String)) {
    if !seg.0 && seg.1.is_empty() {
        return;
    }
    if !seg.0 {
        if let Some(last) = out.last_mut() {
            if !last.0 {
                last.1.push_str(&seg.1);
                return;
            }
        }
    }
    out.push(seg);
}
fn extend(out: &mut Segs, more: Segs) {
    for s in more {
        push(out, s);
    }
}
fn has_lit(s: &Segs) -> bool {
    s.iter().any(|(h, t)| !h && !t.is_empty())
}
fn all_lit(s: &Segs) -> bool {
    s.iter().all(|(h, _)| !h)
}
fn text_of(s: &Segs) -> String {
    s.iter().map(|(_, t)| t.as_str()).collect()
}

/// The string value of a literal token, if it is a string ("…", r#"…"#, b"…").
fn string_value(l: &proc_macro2::Literal) -> Option<String> {
    match syn::parse_str::<syn::Lit>(&l.to_string()) {
        Ok(syn::Lit::Str(s)) => Some(s.value()),
        Ok(syn::Lit::ByteStr(b)) => Some(String::from_utf8_lossy(&b.value()).into_owned()),
        _ => None,
    }
}

fn split_args(ts: &TokenStream) -> Vec<Vec<TokenTree>> {
    let mut out = vec![];
    let mut cur = vec![];
    for t in ts.clone() {
        if let TokenTree::Punct(p) = &t {
            if p.as_char() == ',' {
                out.push(std::mem::take(&mut cur));
                continue;
            }
        }
        cur.push(t);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn toks_text(toks: &[TokenTree]) -> String {
    toks.iter().cloned().collect::<TokenStream>().to_string()
}

fn is_punct(t: &TokenTree, c: char) -> bool {
    matches!(t, TokenTree::Punct(p) if p.as_char() == c)
}
fn ident_is(t: &TokenTree, names: &[&str]) -> bool {
    matches!(t, TokenTree::Ident(i) if names.iter().any(|n| i == n))
}
fn ident_str(t: &TokenTree) -> Option<String> {
    if let TokenTree::Ident(i) = t { Some(i.to_string()) } else { None }
}
const CONVERSIONS: &[&str] = &["to_string", "to_owned", "into", "as_str", "as_ref"];

/// Rust's format string rules: {{ }}, {} {0} {name} {:spec}; a missing argument
/// is a hole; {:?} of a string known in full prints it as Debug does.
fn apply_format(fmt: &str, pos: &[Segs], named: &[(String, Segs)]) -> Segs {
    let mut out = vec![];
    let mut buf = String::new();
    let chars: Vec<char> = fmt.chars().collect();
    let mut i = 0;
    let mut next = 0;
    while i < chars.len() {
        let c = chars[i];
        if (c == '{' || c == '}') && i + 1 < chars.len() && chars[i + 1] == c {
            buf.push(c);
            i += 2;
            continue;
        }
        if c != '{' {
            buf.push(c);
            i += 1;
            continue;
        }
        let close = match chars[i + 1..].iter().position(|&x| x == '}') {
            Some(k) => i + 1 + k,
            None => {
                buf.extend(&chars[i..]);
                break;
            }
        };
        let inner: String = chars[i + 1..close].iter().collect();
        let whole: String = chars[i..=close].iter().collect();
        let (arg, spec) = match inner.find(':') {
            Some(k) => (inner[..k].trim().to_string(), inner[k + 1..].to_string()),
            None => (inner.trim().to_string(), String::new()),
        };
        push(&mut out, (false, std::mem::take(&mut buf)));
        let debug = spec.ends_with('?');
        let value: Option<Segs> = if arg.is_empty() {
            next += 1;
            pos.get(next - 1).cloned()
        } else if arg.chars().all(|c| c.is_ascii_digit()) {
            pos.get(arg.parse::<usize>().unwrap_or(usize::MAX)).cloned()
        } else {
            match named.iter().find(|(n, _)| *n == arg) {
                Some((_, v)) => Some(v.clone()),
                None => Some(hole(&arg)),
            }
        };
        match value {
            Some(v) if debug && all_lit(&v) && !(v.len() == 1 && v[0].0) => {
                push(&mut out, (false, format!("{:?}", text_of(&v))))
            }
            Some(v) => extend(&mut out, v),
            None => push(&mut out, (true, whole)),
        }
        i = close + 1;
    }
    push(&mut out, (false, buf));
    out
}

struct Variant {
    template: String,
    transparent: bool,
    extra: Vec<Segs>,
}

struct Site {
    line: usize,
    kind: &'static str,
    class: Option<String>,
    segs: Option<Segs>,
}

struct Oracle {
    types: HashMap<String, HashMap<String, Variant>>,
    consumed: HashSet<*const syn::Expr>,
    impl_types: Vec<String>,
    sites: Vec<Site>,
}

fn path_last2(p: &syn::Path) -> Option<(String, String)> {
    let n = p.segments.len();
    if n < 2 {
        return None;
    }
    Some((p.segments[n - 2].ident.to_string(), p.segments[n - 1].ident.to_string()))
}
fn upper(s: &str) -> bool {
    s.chars().next().map_or(false, |c| c.is_ascii_uppercase())
}
fn http_status(name: &str) -> Option<u16> {
    // The http crate's StatusCode constants (4xx/5xx), by their canonical reason.
    let code = (400u16..600).find(|&c| {
        let canon = match c {
            400 => "BAD_REQUEST", 401 => "UNAUTHORIZED", 402 => "PAYMENT_REQUIRED", 403 => "FORBIDDEN",
            404 => "NOT_FOUND", 405 => "METHOD_NOT_ALLOWED", 406 => "NOT_ACCEPTABLE",
            407 => "PROXY_AUTHENTICATION_REQUIRED", 408 => "REQUEST_TIMEOUT", 409 => "CONFLICT", 410 => "GONE",
            411 => "LENGTH_REQUIRED", 412 => "PRECONDITION_FAILED", 413 => "PAYLOAD_TOO_LARGE",
            414 => "URI_TOO_LONG", 415 => "UNSUPPORTED_MEDIA_TYPE", 416 => "RANGE_NOT_SATISFIABLE",
            417 => "EXPECTATION_FAILED", 418 => "IM_A_TEAPOT", 421 => "MISDIRECTED_REQUEST",
            422 => "UNPROCESSABLE_ENTITY", 423 => "LOCKED", 424 => "FAILED_DEPENDENCY", 425 => "TOO_EARLY",
            426 => "UPGRADE_REQUIRED", 428 => "PRECONDITION_REQUIRED", 429 => "TOO_MANY_REQUESTS",
            431 => "REQUEST_HEADER_FIELDS_TOO_LARGE", 451 => "UNAVAILABLE_FOR_LEGAL_REASONS",
            500 => "INTERNAL_SERVER_ERROR", 501 => "NOT_IMPLEMENTED", 502 => "BAD_GATEWAY",
            503 => "SERVICE_UNAVAILABLE", 504 => "GATEWAY_TIMEOUT", 505 => "HTTP_VERSION_NOT_SUPPORTED",
            506 => "VARIANT_ALSO_NEGOTIATES", 507 => "INSUFFICIENT_STORAGE", 508 => "LOOP_DETECTED",
            510 => "NOT_EXTENDED", 511 => "NETWORK_AUTHENTICATION_REQUIRED",
            _ => "",
        };
        canon == name
    });
    code
}
fn grpc_code(ctor: &str) -> Option<String> {
    const CODES: &[&str] = &["cancelled", "unknown", "invalid_argument", "deadline_exceeded", "not_found",
        "already_exists", "permission_denied", "resource_exhausted", "failed_precondition", "aborted",
        "out_of_range", "unimplemented", "internal", "unavailable", "data_loss", "unauthenticated"];
    if !CODES.contains(&ctor) {
        return None;
    }
    Some(ctor.split('_').map(|w| {
        let mut c = w.chars();
        c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
    }).collect())
}

impl Oracle {
    fn eval_format(&self, args: &[Vec<TokenTree>], first: usize) -> Segs {
        if first >= args.len() {
            return vec![];
        }
        let fmt = self.eval_tokens(&args[first]);
        if !all_lit(&fmt) {
            return fmt;
        }
        let mut pos = vec![];
        let mut named = vec![];
        for a in &args[first + 1..] {
            if a.len() >= 3 && matches!(a[0], TokenTree::Ident(_)) && is_punct(&a[1], '=')
                && !(matches!(&a[1], TokenTree::Punct(p) if p.spacing() == proc_macro2::Spacing::Joint) && is_punct(&a[2], '='))
            {
                named.push((ident_str(&a[0]).unwrap(), self.eval_tokens(&a[2..])));
            } else {
                pos.push(self.eval_tokens(a));
            }
        }
        apply_format(&text_of(&fmt), &pos, &named)
    }

    fn eval_tokens(&self, t: &[TokenTree]) -> Segs {
        let n = t.len();
        if n == 0 {
            return vec![];
        }
        if n == 1 {
            if let TokenTree::Literal(l) = &t[0] {
                if let Some(s) = string_value(l) {
                    return lit(&s);
                }
            }
            return hole(&toks_text(t));
        }
        if is_punct(&t[0], '&') {
            return self.eval_tokens(&t[1..]);
        }
        if n >= 4 && is_punct(&t[n - 3], '.') && ident_is(&t[n - 2], CONVERSIONS) {
            if let TokenTree::Group(g) = &t[n - 1] {
                if g.delimiter() == Delimiter::Parenthesis && g.stream().is_empty() {
                    return self.eval_tokens(&t[..n - 3]);
                }
            }
        }
        if n >= 3 && is_punct(&t[n - 2], '!') {
            if let (Some(name), TokenTree::Group(g)) = (ident_str(&t[n - 3]), &t[n - 1]) {
                let args = split_args(&g.stream());
                if name == "format" || name == "format_args" {
                    return self.eval_format(&args, 0);
                }
                if name == "concat" {
                    let mut out = vec![];
                    for a in &args {
                        extend(&mut out, self.eval_tokens(a));
                    }
                    return out;
                }
            }
        }
        if n == 5 && ident_is(&t[0], &["String"]) && is_punct(&t[1], ':') && is_punct(&t[2], ':')
            && ident_is(&t[3], &["from"])
        {
            if let TokenTree::Group(g) = &t[4] {
                let args = split_args(&g.stream());
                if args.len() == 1 {
                    return self.eval_tokens(&args[0]);
                }
            }
        }
        hole(&toks_text(t))
    }

    fn eval_expr(&self, e: &syn::Expr) -> Segs {
        match e {
            syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => lit(&s.value()),
            syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::ByteStr(s), .. }) => lit(&String::from_utf8_lossy(&s.value())),
            syn::Expr::Reference(r) => self.eval_expr(&r.expr),
            syn::Expr::Paren(p) => self.eval_expr(&p.expr),
            syn::Expr::Macro(m) => {
                let name = m.mac.path.segments.last().map(|s| s.ident.to_string()).unwrap_or_default();
                let args = split_args(&m.mac.tokens);
                if name == "format" || name == "format_args" {
                    return self.eval_format(&args, 0);
                }
                if name == "concat" {
                    let mut out = vec![];
                    for a in &args {
                        extend(&mut out, self.eval_tokens(a));
                    }
                    return out;
                }
                hole("macro")
            }
            syn::Expr::MethodCall(c) if c.args.is_empty() && CONVERSIONS.contains(&c.method.to_string().as_str()) => {
                self.eval_expr(&c.receiver)
            }
            syn::Expr::Call(c) if c.args.len() == 1 => {
                if let syn::Expr::Path(p) = &*c.func {
                    let segs: Vec<String> = p.path.segments.iter().map(|s| s.ident.to_string()).collect();
                    if segs == ["String", "from"] {
                        return self.eval_expr(&c.args[0]);
                    }
                }
                hole("expr")
            }
            _ => hole("expr"),
        }
    }

    fn site(&mut self, line: usize, kind: &'static str, class: Option<&str>, segs: Option<Segs>) {
        let segs = segs.filter(|s| !s.is_empty());
        self.sites.push(Site { line, kind, class: class.map(|s| s.to_string()), segs });
    }

    fn handle_macro(&mut self, name: &str, ts: &TokenStream, line: usize) {
        let args = split_args(ts);
        match name {
            "panic" | "unreachable" | "todo" | "unimplemented" => {
                let prefix = match name {
                    "unreachable" => Some("internal error: entered unreachable code"),
                    "todo" => Some("not yet implemented"),
                    "unimplemented" => Some("not implemented"),
                    _ => None,
                };
                let mut m = self.eval_format(&args, 0);
                if args.is_empty() {
                    m = lit(prefix.unwrap_or("explicit panic"));
                } else if let Some(p) = prefix {
                    let mut x = lit(&format!("{}: ", p));
                    extend(&mut x, m);
                    m = x;
                }
                self.site(line, "panic", Some("panic"), Some(m));
            }
            "assert" | "debug_assert" | "assert_eq" | "assert_ne" | "debug_assert_eq" | "debug_assert_ne" => {
                let cmp = name.contains("_eq") || name.contains("_ne");
                let first = if cmp { 2 } else { 1 };
                if args.len() <= first {
                    return;
                }
                let mut m = self.eval_format(&args, first);
                if cmp {
                    let op = if name.contains("_ne") { "!=" } else { "==" };
                    let mut x = lit(&format!("assertion `left {} right` failed: ", op));
                    extend(&mut x, m);
                    m = x;
                }
                self.site(line, "assert", Some("panic"), Some(m));
            }
            "anyhow" | "bail" | "eyre" | "format_err" => {
                let m = if args.is_empty() { vec![] } else { self.eval_format(&args, 0) };
                self.site(line, "raise", Some("Error"), Some(m));
            }
            "ensure" => {
                if args.is_empty() {
                    return;
                }
                let m = if args.len() > 1 {
                    self.eval_format(&args, 1)
                } else {
                    let mut x = lit("Condition failed: `");
                    extend(&mut x, hole("cond"));
                    extend(&mut x, lit("`"));
                    x
                };
                self.site(line, "raise", Some("Error"), Some(m));
            }
            "error" | "warn" => {
                let first = args.iter().position(|a| {
                    a.len() == 1 && matches!(&a[0], TokenTree::Literal(l) if string_value(l).is_some())
                });
                if let Some(f) = first {
                    let m = self.eval_format(&args, f);
                    self.site(line, "log", None, Some(m));
                }
            }
            _ => {}
        }
    }

    /// `name ! (…)` inside a macro's tokens, at any depth (syn keeps them as tokens).
    fn rescan(&mut self, ts: &TokenStream) {
        let toks: Vec<TokenTree> = ts.clone().into_iter().collect();
        for (i, t) in toks.iter().enumerate() {
            if let TokenTree::Group(g) = t {
                if i >= 2 && is_punct(&toks[i - 1], '!') {
                    if let TokenTree::Ident(id) = &toks[i - 2] {
                        self.handle_macro(&id.to_string(), &g.stream(), id.span().start().line);
                    }
                }
                self.rescan(&g.stream());
            }
        }
    }

    fn find_variant(&self, ty: &str, var: &str) -> Option<&Variant> {
        let ty = if ty == "Self" { self.impl_types.last().map(|s| s.as_str()).unwrap_or("") } else { ty };
        self.types.get(ty).and_then(|m| m.get(var)).filter(|v| !v.transparent)
    }

    fn compose(&self, ty: &str, var: &str, pos: &[&syn::Expr], fields: &[&syn::FieldValue]) -> Option<Segs> {
        let v = self.find_variant(ty, var)?;
        let mut args: Vec<Segs> = pos.iter().map(|e| self.eval_expr(e)).collect();
        let mut named = vec![];
        for f in fields {
            if let syn::Member::Named(id) = &f.member {
                let val = if f.colon_token.is_some() { self.eval_expr(&f.expr) } else { hole(&id.to_string()) };
                named.push((id.to_string(), val));
            }
        }
        if args.is_empty() && !v.extra.is_empty() {
            args = v.extra.clone();
        }
        Some(apply_format(&v.template, &args, &named))
    }

    fn handle_err_arg(&mut self, line: usize, arg: &syn::Expr) {
        let (path, pos, fields): (Option<&syn::Path>, Vec<&syn::Expr>, Vec<&syn::FieldValue>) = match arg {
            syn::Expr::Call(c) => match &*c.func {
                syn::Expr::Path(p) => (Some(&p.path), c.args.iter().collect(), vec![]),
                _ => (None, vec![], vec![]),
            },
            syn::Expr::Struct(s) => (Some(&s.path), vec![], s.fields.iter().collect()),
            syn::Expr::Path(p) => (Some(&p.path), vec![], vec![]),
            _ => (None, vec![], vec![]),
        };
        let named = match path.and_then(path_last2) {
            Some((ty, var)) if upper(&var) && upper(&ty) => Some((ty, var)),
            _ => path.and_then(|p| self.struct_name(p)),
        };
        if let Some((ty, var)) = named {
            self.consumed.insert(arg as *const syn::Expr);
            let m = match self.compose(&ty, &var, &pos, &fields) {
                Some(m) => Some(m),
                None if matches!(arg, syn::Expr::Call(_)) && !pos.is_empty() => {
                    let v = self.eval_expr(pos[0]);
                    if has_lit(&v) { Some(v) } else { None }
                }
                None => None,
            };
            self.site(line, "raise", Some(&var), m);
            return;
        }
        let stringish = match arg {
            syn::Expr::Macro(m) => m.mac.path.segments.last().map_or(false, |s| s.ident == "format"),
            syn::Expr::Call(_) | syn::Expr::MethodCall(_) => has_lit(&self.eval_expr(arg)),
            _ => false,
        };
        if stringish {
            let v = self.eval_expr(arg);
            if has_lit(&v) {
                self.site(line, "raise", Some("String"), Some(v));
            }
        }
    }

    /// A thiserror struct a path builds: `S`, `m::S`, or `Self` in its impl (a struct's one
    /// template is keyed by its own name); `E::V` (an uppercase second-to-last segment) is
    /// an enum's variant, not this.
    fn struct_name(&self, p: &syn::Path) -> Option<(String, String)> {
        let n = p.segments.len();
        if n >= 2 && upper(&p.segments[n - 2].ident.to_string()) {
            return None;
        }
        let last = p.segments.last()?.ident.to_string();
        let (ty, name) = if n == 1 && last == "Self" {
            (last, self.impl_types.last()?.clone())
        } else {
            (last.clone(), last)
        };
        if !upper(&name) {
            return None;
        }
        self.find_variant(&ty, &name)?;
        Some((ty, name))
    }

    fn handle_construction(&mut self, e: &syn::Expr, path: &syn::Path, pos: Vec<&syn::Expr>, fields: Vec<&syn::FieldValue>) {
        if self.consumed.contains(&(e as *const syn::Expr)) {
            return;
        }
        let named = match path_last2(path) {
            Some((ty, var)) if upper(&ty) => Some((ty, var)),
            _ => self.struct_name(path),
        };
        if let Some((ty, var)) = named {
            if self.find_variant(&ty, &var).is_none() {
                return;
            }
            let m = self.compose(&ty, &var, &pos, &fields);
            let line = path.segments[0].ident.span().start().line;
            self.site(line, "raise", Some(&var), m);
        }
    }

    fn error_attr(&self, a: &syn::Attribute) -> Option<Variant> {
        if !a.path.is_ident("error") {
            return None;
        }
        let group = a.tokens.clone().into_iter().next()?;
        let g = if let TokenTree::Group(g) = group { g } else { return None };
        let args = split_args(&g.stream());
        let first = args.first()?;
        if first.len() == 1 && ident_is(&first[0], &["transparent"]) {
            return Some(Variant { template: String::new(), transparent: true, extra: vec![] });
        }
        if first.len() != 1 {
            return None;
        }
        let s = if let TokenTree::Literal(l) = &first[0] { string_value(l)? } else { return None };
        let extra = args[1..].iter().map(|a| hole(&toks_text(a))).collect();
        Some(Variant { template: s, transparent: false, extra })
    }

    fn collect_types(&mut self, items: &[syn::Item]) {
        for it in items {
            match it {
                syn::Item::Enum(e) => {
                    for v in &e.variants {
                        for a in &v.attrs {
                            if let Some(var) = self.error_attr(a) {
                                self.types.entry(e.ident.to_string()).or_default().insert(v.ident.to_string(), var);
                            }
                        }
                    }
                }
                syn::Item::Struct(s) => {
                    for a in &s.attrs {
                        if let Some(var) = self.error_attr(a) {
                            self.types.entry(s.ident.to_string()).or_default().insert(s.ident.to_string(), var);
                        }
                    }
                }
                syn::Item::Mod(m) => {
                    if let Some((_, items)) = &m.content {
                        self.collect_types(items);
                    }
                }
                _ => {}
            }
        }
    }

    fn attr_sites(&mut self, attrs: &[syn::Attribute], name: &str) {
        for a in attrs {
            if let Some(v) = self.error_attr(a) {
                if v.transparent {
                    continue;
                }
                let m = apply_format(&v.template, &v.extra, &[]);
                self.site(a.pound_token.span.start().line, "raise", Some(name), Some(m));
            }
        }
    }
}

fn expr_line(e: &syn::Expr) -> usize {
    use syn::spanned::Spanned;
    e.span().start().line
}

impl<'ast> Visit<'ast> for Oracle {
    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        if let Some(last) = m.path.segments.last() {
            let line = m.path.segments[0].ident.span().start().line;
            self.handle_macro(&last.ident.to_string(), &m.tokens, line);
        }
        self.rescan(&m.tokens);
    }
    fn visit_item_macro(&mut self, m: &'ast syn::ItemMacro) {
        if m.mac.path.is_ident("macro_rules") {
            return;
        }
        syn::visit::visit_item_macro(self, m);
    }
    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        let name = match &*i.self_ty {
            syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()).unwrap_or_default(),
            _ => String::new(),
        };
        self.impl_types.push(name);
        syn::visit::visit_item_impl(self, i);
        self.impl_types.pop();
    }
    fn visit_item_enum(&mut self, e: &'ast syn::ItemEnum) {
        for v in &e.variants {
            self.attr_sites(&v.attrs, &v.ident.to_string());
        }
        syn::visit::visit_item_enum(self, e);
    }
    fn visit_item_struct(&mut self, s: &'ast syn::ItemStruct) {
        self.attr_sites(&s.attrs, &s.ident.to_string());
        syn::visit::visit_item_struct(self, s);
    }
    fn visit_expr(&mut self, e: &'ast syn::Expr) {
        match e {
            syn::Expr::Call(c) => {
                if let syn::Expr::Path(p) = &*c.func {
                    if p.path.is_ident("Err") && c.args.len() == 1 {
                        self.handle_err_arg(expr_line(&c.func), &c.args[0]);
                    } else if let Some((ty, name)) = path_last2(&p.path) {
                        if ty == "Status" && !c.args.is_empty() {
                            let (class, msg) = if let Some(code) = grpc_code(&name) {
                                (Some(code), Some(&c.args[0]))
                            } else if name == "new" && c.args.len() >= 2 {
                                let cls = match &c.args[0] {
                                    syn::Expr::Path(q) => q.path.segments.last().map(|s| s.ident.to_string()),
                                    _ => None,
                                };
                                (cls, Some(&c.args[1]))
                            } else {
                                (None, None)
                            };
                            if let (Some(class), Some(msg)) = (class, msg) {
                                let m = self.eval_expr(msg);
                                self.site(expr_line(&c.func), "http_response", Some(&class), Some(m));
                            }
                        } else {
                            self.handle_construction(e, &p.path, c.args.iter().collect(), vec![]);
                        }
                    } else {
                        // a tuple struct's constructor: `ParseError(line)`
                        self.handle_construction(e, &p.path, c.args.iter().collect(), vec![]);
                    }
                }
            }
            syn::Expr::Struct(s) => self.handle_construction(e, &s.path, vec![], s.fields.iter().collect()),
            syn::Expr::MethodCall(c) if c.args.len() == 1 => {
                let m = c.method.to_string();
                let line = c.method.span().start().line;
                if m == "expect" {
                    let v = self.eval_expr(&c.args[0]);
                    if has_lit(&v) {
                        self.site(line, "panic", Some("panic"), Some(v));
                    }
                } else if ["context", "with_context", "wrap_err", "wrap_err_with"].contains(&m.as_str()) {
                    let arg = match &c.args[0] {
                        syn::Expr::Closure(cl) => &*cl.body,
                        a => a,
                    };
                    let v = self.eval_expr(arg);
                    if has_lit(&v) {
                        self.site(line, "raise", Some("Error"), Some(v));
                    }
                }
            }
            syn::Expr::Tuple(t) if t.elems.len() >= 2 => {
                if let syn::Expr::Path(p) = &t.elems[0] {
                    if let Some((ty, name)) = path_last2(&p.path) {
                        if ty == "StatusCode" && http_status(&name).is_some() {
                            let v = self.eval_expr(&t.elems[1]);
                            let m = if has_lit(&v) { Some(v) } else { None };
                            self.site(t.paren_token.span.start().line, "http_response", None, m);
                        }
                    }
                }
            }
            syn::Expr::Verbatim(ts) => self.let_else(ts),
            _ => {}
        }
        syn::visit::visit_expr(self, e);
    }
}

impl Oracle {
    /// syn 1 keeps `let P = e else { … };` as verbatim tokens: parse the
    /// initializer and the else block from them (spans are the file's).
    fn let_else(&mut self, ts: &TokenStream) {
        let toks: Vec<TokenTree> = ts.clone().into_iter().collect();
        let eq = toks.iter().position(|t| is_punct(t, '='));
        let els = toks.iter().position(|t| ident_is(t, &["else"]));
        if let (Some(eq), Some(els)) = (eq, els) {
            let init: TokenStream = toks[eq + 1..els].iter().cloned().collect();
            if let Ok(e) = syn::parse2::<syn::Expr>(init) {
                self.visit_expr(&e);
            }
            if let Some(TokenTree::Group(g)) = toks.get(els + 1) {
                let parser = |input: syn::parse::ParseStream| syn::Block::parse_within(input);
                if let Ok(stmts) = syn::parse::Parser::parse2(parser, g.stream()) {
                    for s in &stmts {
                        self.visit_stmt(s);
                    }
                }
            }
        }
    }
}

fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

fn main() {
    let argv: Vec<String> = std::env::args().collect();
    if argv.len() < 2 {
        eprintln!("usage: rust_oracle ROOT FILE... | -");
        std::process::exit(2);
    }
    let root = std::path::PathBuf::from(&argv[1]);
    let mut files: Vec<String> = argv[2..].to_vec();
    if files == ["-"] {
        files = std::io::stdin().lock().lines().filter_map(|l| l.ok()).filter(|l| !l.is_empty()).collect();
    }
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    for f in &files {
        let src = match std::fs::read(root.join(f)) {
            Ok(b) => String::from_utf8_lossy(&b).into_owned(),
            Err(e) => {
                writeln!(out, "{{\"file\":{},\"error\":{}}}", json_str(f), json_str(&e.to_string())).unwrap();
                continue;
            }
        };
        let file = match syn::parse_file(&src) {
            Ok(file) => file,
            Err(e) => {
                let lc = e.span().start();
                writeln!(out, "{{\"file\":{},\"error\":{}}}", json_str(f), json_str(&format!("{}:{}: {}", lc.line, lc.column, e)))
                    .unwrap();
                continue;
            }
        };
        let mut o = Oracle { types: HashMap::new(), consumed: HashSet::new(), impl_types: vec![], sites: vec![] };
        o.collect_types(&file.items);
        o.visit_file(&file);
        for s in &o.sites {
            let segs = match &s.segs {
                None => "null".to_string(),
                Some(v) => format!("[{}]", v.iter().map(|(h, t)| format!("[{},{}]", h, json_str(t))).collect::<Vec<_>>().join(",")),
            };
            let class = s.class.as_deref().map(json_str).unwrap_or_else(|| "null".into());
            writeln!(out, "{{\"file\":{},\"line\":{},\"kind\":\"{}\",\"class\":{},\"segs\":{}}}", json_str(f), s.line, s.kind, class, segs)
                .unwrap();
        }
    }
}
