#!/usr/bin/env node
// ts_oracle.js: the error sites of JavaScript/TypeScript files as the TypeScript
// compiler's own parser (npm `typescript`, pinned by package-lock.json) sees them,
// for tests/diff/lang_oracle.py. It applies the site and message rules of
// src/extract/javascript/js_extractor.h a second time, written independently of
// errdex: string and template values are the parser's cooked text.
//
//   node ts_oracle.js ROOT -     (files relative to ROOT, one per line on stdin)
//
// One JSON line per site: {"file","line","kind","class","alts"}, alts the message's
// alternatives, each [[is_hole, text], ...], or null when unknown; {"file","error"}
// for a file with syntax errors.
'use strict';
const fs = require('fs');
const path = require('path');
const ts = require('typescript');
const K = ts.SyntaxKind;

const MAX_DEPTH = 48, MAX_HOPS = 8, MAX_STEPS = 4096, MAX_ALTS = 16, MAX_BYTES = 64 * 1024;

const STATUS = [[400, 'BAD_REQUEST'], [401, 'UNAUTHORIZED'], [402, 'PAYMENT_REQUIRED'], [403, 'FORBIDDEN'],
  [404, 'NOT_FOUND'], [405, 'METHOD_NOT_ALLOWED'], [406, 'NOT_ACCEPTABLE'], [407, 'PROXY_AUTHENTICATION_REQUIRED'],
  [408, 'REQUEST_TIMEOUT'], [409, 'CONFLICT'], [410, 'GONE'], [411, 'LENGTH_REQUIRED'], [412, 'PRECONDITION_FAILED'],
  [413, 'PAYLOAD_TOO_LARGE'], [413, 'REQUEST_ENTITY_TOO_LARGE'], [413, 'CONTENT_TOO_LARGE'], [414, 'URI_TOO_LONG'],
  [414, 'REQUEST_URI_TOO_LONG'], [415, 'UNSUPPORTED_MEDIA_TYPE'], [416, 'REQUESTED_RANGE_NOT_SATISFIABLE'],
  [416, 'RANGE_NOT_SATISFIABLE'], [417, 'EXPECTATION_FAILED'], [418, 'I_AM_A_TEAPOT'], [418, 'IM_A_TEAPOT'],
  [421, 'MISDIRECTED_REQUEST'], [422, 'UNPROCESSABLE_ENTITY'], [422, 'UNPROCESSABLE_CONTENT'], [423, 'LOCKED'],
  [424, 'FAILED_DEPENDENCY'], [425, 'TOO_EARLY'], [426, 'UPGRADE_REQUIRED'], [428, 'PRECONDITION_REQUIRED'],
  [429, 'TOO_MANY_REQUESTS'], [431, 'REQUEST_HEADER_FIELDS_TOO_LARGE'], [451, 'UNAVAILABLE_FOR_LEGAL_REASONS'],
  [500, 'INTERNAL_SERVER_ERROR'], [501, 'NOT_IMPLEMENTED'], [502, 'BAD_GATEWAY'], [503, 'SERVICE_UNAVAILABLE'],
  [504, 'GATEWAY_TIMEOUT'], [505, 'HTTP_VERSION_NOT_SUPPORTED'], [506, 'VARIANT_ALSO_NEGOTIATES'],
  [507, 'INSUFFICIENT_STORAGE'], [508, 'LOOP_DETECTED'], [510, 'NOT_EXTENDED'], [511, 'NETWORK_AUTHENTICATION_REQUIRED']];
const camel = (u) => u.split('_').map((w) => w ? w[0] + w.slice(1).toLowerCase() : '').join('');
const fromUpper = (n) => { const s = STATUS.find(([, u]) => u === n); return s ? s[0] : null; };
const fromCamel = (n) => { const s = STATUS.find(([, u]) => camel(u) === n); return s ? s[0] : null; };
function httpErrorsClass(status) {
  const s = status == null ? null : STATUS.find(([c]) => c === status);
  if (!s) return 'HttpError';
  const c = camel(s[1]);
  return c.endsWith('Error') ? c : c + 'Error';
}
const classlike = (n) => /^[_$]*[A-Z]/.test(n || '');
const createErrorName = (n) => ['createError', 'createHttpError', 'httpErrors', 'HttpErrors', 'createHttpErrors'].includes(n);

// Message values: arrays of alternatives, each an array of [hole, text].
function push(segs, hole, text) {
  if (!hole && !text) return;
  const last = segs[segs.length - 1];
  if (!hole && last && !last[0]) last[1] += text;
  else segs.push([hole, text]);
}
function concat(a, b) {
  const out = [];
  for (const x of a) for (const y of b) {
    if (out.length >= MAX_ALTS) return out;
    const s = x.map((p) => p.slice());
    for (const [h, t] of y) push(s, h, t);
    out.push(s);
  }
  return out;
}
const tooBig = (alts) => alts.some((a) => a.reduce((n, [, t]) => n + Buffer.byteLength(t), 0) > MAX_BYTES);
const hasLit = (alts) => alts.some((a) => a.some(([h, t]) => !h && t));

class FileOracle {
  constructor(sf, rel) {
    this.sf = sf;
    this.rel = rel;
    this.ctx = [{ owner: sf, kind: 'function', bindings: [] }];
    this.consumed = new Set();
    this.sites = [];
  }
  text(n) { return n.getText(this.sf); }
  unwrap(n) {
    for (let g = 0; g < 64 && n; g++) {
      if (ts.isParenthesizedExpression(n) || ts.isAsExpression(n) || ts.isNonNullExpression(n) ||
          ts.isSatisfiesExpression(n) || ts.isTypeAssertionExpression(n)) n = n.expression;
      else return n;
    }
    return n;
  }
  lastName(n) {
    n = this.unwrap(n);
    if (!n) return '';
    if (ts.isIdentifier(n) || ts.isPrivateIdentifier(n)) return n.text;
    if (n.kind === K.ThisKeyword) return 'this';
    if (ts.isPropertyAccessExpression(n)) return n.name.text;
    return '';
  }
  lookup(name) {
    for (let i = this.ctx.length - 1; i >= 0; i--) {
      const bs = this.ctx[i].bindings;
      for (let j = bs.length - 1; j >= 0; j--) if (bs[j].name === name) return { b: bs[j], module: this.ctx[i].module };
    }
    return null;
  }
  bindName(name, target, kind) {
    if (!name) return;
    if (ts.isIdentifier(name)) { target.bindings.push({ name: name.text, kind, value: null, aug: [], assigns: 1 }); return; }
    if (ts.isObjectBindingPattern(name) || ts.isArrayBindingPattern(name))
      for (const e of name.elements) if (ts.isBindingElement(e)) this.bindName(e.name, target, kind);
  }
  declare(decl) {
    const list = decl.parent;
    const isVar = ts.isVariableDeclarationList(list) && !(list.flags & (ts.NodeFlags.Let | ts.NodeFlags.Const |
      ts.NodeFlags.Using | ts.NodeFlags.AwaitUsing));
    let target = this.ctx[this.ctx.length - 1];
    for (let i = this.ctx.length - 1; i >= 0; i--) {
      const c = this.ctx[i];
      if (c.kind === 'function' || (!isVar && (c.kind === 'scope' || c.kind === 'catch'))) { target = c; break; }
    }
    if (!ts.isIdentifier(decl.name)) { this.bindName(decl.name, target, 'opaque'); return; }
    target.bindings.push({ name: decl.name.text, kind: decl.initializer ? 'value' : 'opaque',
                           value: decl.initializer || null, aug: [], assigns: 1 });
  }
  assign(n, augmented) {
    if (!ts.isIdentifier(n.left)) return;
    const hit = this.lookup(n.left.text);
    if (!hit || hit.b.kind === 'catch') return;
    const b = hit.b;
    if (!augmented) { b.kind = 'value'; b.value = n.right; b.aug = []; b.assigns++; return; }
    if (n.operatorToken.kind === K.PlusEqualsToken && b.kind === 'value') b.aug.push(n.right);
    else b.kind = 'opaque';
  }

  // ---- evaluation
  evaluateMessage(n) {
    this.hops = 0; this.steps = MAX_STEPS; this.exhausted = false;
    const v = this.evaluate(n, 0);
    return this.exhausted ? null : v;
  }
  evaluate(n, depth) {
    if (depth > MAX_DEPTH || !n) return null;
    if (this.steps-- <= 0) { this.exhausted = true; return null; }
    n = this.unwrap(n);
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) return [n.text ? [[false, n.text]] : []];
    if (ts.isTemplateExpression(n)) {
      const s = [];
      push(s, false, n.head.text);
      for (const span of n.templateSpans) {
        push(s, true, this.text(span.expression));
        push(s, false, span.literal.text);
      }
      return [s];
    }
    if (ts.isBinaryExpression(n)) {
      if (n.operatorToken.kind !== K.PlusToken) return null;
      const le = this.evaluate(n.left, depth + 1), re = this.evaluate(n.right, depth + 1);
      if (!le && !re) return null;
      const out = concat(le || this.part(n.left, depth + 1), re || this.part(n.right, depth + 1));
      if (tooBig(out)) { this.exhausted = true; return null; }
      return out;
    }
    if (ts.isConditionalExpression(n)) {
      const c = this.evaluate(n.whenTrue, depth + 1), a = this.evaluate(n.whenFalse, depth + 1);
      if (!c && !a) return null;
      const out = c || this.part(n.whenTrue, depth + 1);
      for (const s of a || this.part(n.whenFalse, depth + 1)) if (out.length < MAX_ALTS) out.push(s);
      return out;
    }
    if (ts.isCallExpression(n)) {
      const callee = this.text(n.expression);
      if (!['util.format', 'format', 'node_util.format'].includes(callee) || !n.arguments.length) return null;
      const fmt = this.evaluate(n.arguments[0], depth + 1);
      if (!fmt) return null;
      const rest = n.arguments.slice(1);
      return rest.length ? this.applyFormat(fmt, rest, true, depth + 1) : fmt;
    }
    if (ts.isIdentifier(n) || ts.isShorthandPropertyAssignment(n)) {
      if (this.hops >= MAX_HOPS) return null;
      const hit = this.lookup(ts.isIdentifier(n) ? n.text : n.name.text);
      if (!hit || hit.b.kind !== 'value') return null;
      this.hops++;
      let v = this.evaluate(hit.b.value, depth + 1);
      if (v) for (const piece of hit.b.aug) v = concat(v, this.part(piece, depth + 1));
      this.hops--;
      return v;
    }
    return null;
  }
  part(n, depth) {
    const v = this.evaluate(n, depth);
    if (v) return v;
    const u = this.unwrap(n);
    if (u && (u.kind === K.NumericLiteral || u.kind === K.BigIntLiteral)) return [[[false, this.text(u)]]];
    let m = n;
    for (let g = 0; g < 64 && ts.isParenthesizedExpression(m); g++) m = m.expression;
    return [[[true, this.text(m)]]];
  }
  applyFormat(fmt, args, appendRest, depth) {
    const out = [];
    for (const alt of fmt) {
      let cur = [[]];
      let next = 0;
      for (const [hole, t] of alt) {
        if (hole) { for (const c of cur) push(c, true, t); continue; }
        let lit = '';
        for (let i = 0; i < t.length; i++) {
          if (t[i] !== '%' || i + 1 >= t.length) { lit += t[i]; continue; }
          const c = t[i + 1];
          if (c === '%') { lit += '%'; i++; }
          else if ('sdifjoOc'.includes(c) && next < args.length) {
            for (const x of cur) push(x, false, lit);
            lit = '';
            if (c !== 'c') cur = concat(cur, c === 's' ? this.part(args[next], depth + 1) : [[[true, this.text(args[next])]]]);
            next++; i++;
          } else lit += '%';
        }
        for (const x of cur) push(x, false, lit);
      }
      if (appendRest) for (; next < args.length; next++) {
        for (const x of cur) push(x, false, ' ');
        cur = concat(cur, this.part(args[next], depth + 1));
      }
      for (const c of cur) if (out.length < MAX_ALTS) out.push(c);
    }
    return out;
  }

  // ---- sites
  statusValue(n) {
    n = this.unwrap(n);
    if (!n) return null;
    if (n.kind === K.NumericLiteral) {
      const t = this.text(n);
      if (!/^[0-9]{3}$/.test(t)) return null;
      const v = +t;
      return v >= 100 && v <= 599 ? v : null;
    }
    const name = this.lastName(n);
    if (!name) return null;
    if (ts.isPropertyAccessExpression(n)) { const s = fromUpper(name); if (s != null) return s; }
    if (name.startsWith('HTTP')) {
      for (let i = 0; i + 3 <= name.length; i++) {
        if (/[0-9]{3}/.test(name.substr(i, 3)) && (i === 0 || name[i - 1] === '_') &&
            (i + 3 === name.length || name[i + 3] === '_')) {
          const v = +name.substr(i, 3);
          if (v >= 100 && v <= 599) return v;
        }
      }
    }
    return null;
  }
  statusInInit(init) {
    init = this.unwrap(init);
    if (!init || !ts.isObjectLiteralExpression(init)) return null;
    for (const p of init.properties) {
      if (!ts.isPropertyAssignment(p)) continue;
      const k = this.text(p.name);
      if (['status', 'statusCode', '"status"', "'status'"].includes(k)) return this.statusValue(p.initializer);
    }
    return null;
  }
  pickKey(object, depth) {
    object = this.unwrap(object);
    if (!object || !ts.isObjectLiteralExpression(object) || depth > 2) return null;
    let firstPresent = null;
    for (const key of ['message', 'error', 'msg', 'errorMessage', 'error_message', 'detail', 'details', 'description',
                       'reason', 'title']) {
      for (const p of object.properties) {
        let k, value;
        if (ts.isPropertyAssignment(p)) {
          k = this.text(p.name);
          if (ts.isStringLiteral(p.name) && k.length >= 2) k = k.slice(1, -1);
          value = p.initializer;
        } else if (ts.isShorthandPropertyAssignment(p)) {
          k = p.name.text;
          value = p;
        } else continue;
        if (k !== key || !value) continue;
        const uv = this.unwrap(value);
        if (uv && ts.isObjectLiteralExpression(uv)) { const inner = this.pickKey(uv, depth + 1); if (inner) value = inner; }
        const v = this.evaluateMessage(value);
        if (v && hasLit(v)) return value;
        if (!firstPresent) firstPresent = value;
      }
    }
    return firstPresent;
  }
  pickMessageArg(args, skip) {
    let first = null;
    for (let i = 0; i < args.length; i++) {
      if (i === skip) continue;
      if (ts.isSpreadElement(args[i])) break;
      let a = args[i];
      const ua = this.unwrap(a);
      if (ua && ts.isObjectLiteralExpression(ua)) { a = this.pickKey(a, 0); if (!a) continue; }
      const isFirst = !first;
      if (isFirst) first = a;
      const v = this.evaluateMessage(a);
      if (!v) continue;
      if (isFirst) return a;
      if (hasLit(v)) return a;
    }
    return first;
  }
  setMessage(site, msg, formatArgs, appendRest) {
    if (!msg) return;
    let v = this.evaluateMessage(msg);
    if (!v) return;
    if (formatArgs && formatArgs.length) {
      v = this.applyFormat(v, formatArgs, appendRest, 0);
      if (this.exhausted || tooBig(v)) return;
    }
    site.alts = v;
  }
  newSite(kind, at) {
    const line = this.sf.getLineAndCharacterOfPosition(at.getStart(this.sf)).line + 1;
    return { file: this.rel, line, kind, class: null, alts: null };
  }
  finish(site) { this.sites.push(site); }
  fillHttpConstructed(site, cls, args) {
    let implied = null, http = false;
    if (['HttpException', 'HTTPException', 'HttpError', 'HTTPError'].includes(cls) ||
        (cls.length > 13 && cls.endsWith('HttpException'))) http = true;
    else if (cls.length > 9 && cls.endsWith('Exception')) { implied = fromCamel(cls.slice(0, -9)); http = implied != null; }
    else if (cls === 'Response' || cls === 'NextResponse') {
      if (args.length >= 2) implied = this.statusInInit(args[1]);
      http = implied != null && implied >= 400;
      if (http) {
        site.kind = 'http';
        const u = this.unwrap(args[0]);
        this.setMessage(site, u && ts.isObjectLiteralExpression(u) ? this.pickKey(args[0], 0) : args[0]);
      }
      return http;
    }
    if (!http) return false;
    site.kind = 'http';
    let status = null, idx = -1;
    for (let i = 0; i < args.length && i < 3; i++) {
      const s = this.statusValue(args[i]);
      if (s != null) { status = s; idx = i; break; }
      const s2 = this.statusInInit(args[i]);
      if (s2 != null && status == null) status = s2;
    }
    this.setMessage(site, this.pickMessageArg(args, idx));
    return true;
  }
  fillConstructed(site, callee, args) {
    callee = this.unwrap(callee);
    const last = this.lastName(callee);
    if (last && classlike(last)) {
      site.class = last;
      if (this.fillHttpConstructed(site, last, args)) return;
    } else if (ts.isPropertyAccessExpression(callee) && classlike(this.lastName(callee.expression))) {
      site.class = this.lastName(callee.expression);
    }
    this.setMessage(site, this.pickMessageArg(args, -1));
  }
  fillCreateError(site, callee, args) {
    site.kind = 'http';
    let status = null, idx = -1;
    if (ts.isPropertyAccessExpression(callee)) {
      const prop = this.lastName(callee);
      status = fromCamel(prop);
      if (status == null && prop.length > 5 && prop.endsWith('Error')) status = fromCamel(prop.slice(0, -5));
    } else if (args.length) {
      const s = this.statusValue(args[0]);
      if (s != null) { status = s; idx = 0; }
    }
    site.class = httpErrorsClass(status);
    this.setMessage(site, this.pickMessageArg(args, idx));
  }
  handleThrow(stmt) {
    const expr = this.unwrap(stmt.expression);
    if (!expr) return;
    const site = this.newSite('raise', stmt);
    if (ts.isNewExpression(expr)) {
      this.consumed.add(expr);
      const ctor = expr.expression;
      if (ts.isPropertyAccessExpression(ctor) && createErrorName(this.lastName(ctor.expression)))
        this.fillCreateError(site, this.unwrap(ctor), expr.arguments || []);
      else this.fillConstructed(site, ctor, expr.arguments || []);
    } else if (ts.isCallExpression(expr) && this.text(this.unwrap(expr.expression)) === 'Object.assign' &&
               expr.arguments.length && ts.isNewExpression(this.unwrap(expr.arguments[0]))) {
      const made = this.unwrap(expr.arguments[0]);
      this.consumed.add(expr);
      this.consumed.add(made);
      this.fillConstructed(site, made.expression, made.arguments || []);
    } else if (ts.isCallExpression(expr)) {
      this.consumed.add(expr);
      const callee = this.unwrap(expr.expression);
      const last = this.lastName(callee);
      if (createErrorName(last) || (ts.isPropertyAccessExpression(callee) && createErrorName(this.lastName(callee.expression))))
        this.fillCreateError(site, callee, expr.arguments);
      else this.fillConstructed(site, callee, expr.arguments);
    } else if (ts.isIdentifier(expr)) {
      const hit = this.lookup(expr.text);
      if (hit && hit.b.kind === 'catch') return;
      const value = hit && hit.b.kind === 'value' ? this.unwrap(hit.b.value) : null;
      if (value && (ts.isNewExpression(value) || ts.isCallExpression(value)) && classlike(this.lastName(value.expression))) {
        this.fillConstructed(site, value.expression, value.arguments || []);
        this.finish(site);
        return;
      }
      if (classlike(expr.text)) site.class = expr.text;
    } else if (ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr) || ts.isTemplateExpression(expr) ||
               ts.isBinaryExpression(expr)) {
      this.setMessage(site, expr);
    } else if (ts.isPropertyAccessExpression(expr)) {
      if (classlike(this.lastName(expr))) site.class = this.lastName(expr);
    }
    this.finish(site);
  }
  handleNew(expr) {
    if (this.consumed.has(expr)) return;
    const ctor = this.unwrap(expr.expression);
    const last = this.lastName(ctor);
    if (!last) return;
    const args = expr.arguments || [];
    if (last === 'Response' || last === 'NextResponse') {
      if (!args.length) return;
      const status = args.length >= 2 ? this.statusInInit(args[1]) : null;
      if (status == null || status < 400) return;
      const site = this.newSite('http_response', expr);
      let body = this.unwrap(args[0]);
      if (ts.isCallExpression(body) && this.text(body.expression) === 'JSON.stringify' && body.arguments.length)
        body = this.unwrap(body.arguments[0]);
      this.setMessage(site, ts.isObjectLiteralExpression(body) ? this.pickKey(body, 0) : body);
      this.finish(site);
      return;
    }
    if (ts.isPropertyAccessExpression(ctor) && createErrorName(this.lastName(ctor.expression))) {
      const site = this.newSite('http', expr);
      this.fillCreateError(site, ctor, args);
      this.finish(site);
      return;
    }
    if (!classlike(last)) return;
    const site = this.newSite('http', expr);
    site.class = last;
    if (!this.fillHttpConstructed(site, last, args)) return;
    this.finish(site);
  }
  handleCall(call) {
    if (this.consumed.has(call)) return;
    const callee = this.unwrap(call.expression);
    const args = call.arguments;
    if (ts.isIdentifier(callee)) {
      if (createErrorName(callee.text)) {
        const site = this.newSite('http', call);
        this.fillCreateError(site, callee, args);
        this.finish(site);
      }
      return;
    }
    if (!ts.isPropertyAccessExpression(callee)) return;
    const prop = callee.name.text;
    const object = this.unwrap(callee.expression);
    if (['error', 'warn', 'warning', 'fatal'].includes(prop)) {
      const receiver = this.lastName(object).toLowerCase().replace(/^[_$]+/, '');
      const isConsole = receiver === 'console';
      const isLogger = receiver === 'log' || receiver.endsWith('logger');
      if ((isConsole && (prop === 'error' || prop === 'warn')) || isLogger) {
        const site = this.newSite('log', call);
        const msg = this.pickMessageArg(args, -1);
        const rest = msg ? args.slice(args.indexOf(msg) + 1) : [];
        if (msg && ts.isStringLiteral(this.unwrap(msg))) this.setMessage(site, msg, args.indexOf(msg) >= 0 ? rest : [], isConsole);
        else this.setMessage(site, msg);
        this.finish(site);
        return;
      }
    }
    if ((prop === 'json' || prop === 'send') && ts.isCallExpression(object)) {
      const inner = this.unwrap(object.expression);
      if (ts.isPropertyAccessExpression(inner)) {
        const ip = inner.name.text;
        if ((ip === 'status' || ip === 'code') && object.arguments.length === 1) {
          const status = this.statusValue(object.arguments[0]);
          if (status != null && status >= 400) {
            const site = this.newSite('http_response', call);
            if (args.length) {
              const body = this.unwrap(args[0]);
              this.setMessage(site, ts.isObjectLiteralExpression(body) ? this.pickKey(body, 0) : args[0]);
            }
            this.finish(site);
            return;
          }
        }
      }
    }
    if (prop === 'json' && args.length >= 2) {
      const recv = this.lastName(object);
      if (recv === 'NextResponse' || recv === 'Response') {
        const status = this.statusInInit(args[1]);
        if (status != null && status >= 400) {
          const site = this.newSite('http_response', call);
          const body = this.unwrap(args[0]);
          this.setMessage(site, ts.isObjectLiteralExpression(body) ? this.pickKey(body, 0) : args[0]);
          this.finish(site);
          return;
        }
      }
    }
    if (createErrorName(this.lastName(object))) {
      const site = this.newSite('http', call);
      this.fillCreateError(site, callee, args);
      this.finish(site);
      return;
    }
    if (prop === 'throw' && args.length) {
      const status = this.statusValue(args[0]);
      if (status != null) {
        const site = this.newSite('http', call);
        site.class = httpErrorsClass(status);
        this.setMessage(site, this.pickMessageArg(args, 0));
        this.finish(site);
      }
    }
  }

  isFunction(n) {
    return ts.isFunctionDeclaration(n) || ts.isFunctionExpression(n) || ts.isArrowFunction(n) ||
      ts.isMethodDeclaration(n) || ts.isConstructorDeclaration(n) || ts.isGetAccessorDeclaration(n) ||
      ts.isSetAccessorDeclaration(n);
  }
  visit(n) {
    const depth = this.ctx.length;
    if (ts.isBinaryExpression(n)) {
      const op = n.operatorToken.kind;
      if (op === K.EqualsToken) this.assign(n, false);
      else if (op >= K.FirstCompoundAssignment && op <= K.LastCompoundAssignment) this.assign(n, true);
    } else if (ts.isCallExpression(n)) this.handleCall(n);
    else if (ts.isNewExpression(n)) this.handleNew(n);
    else if (ts.isThrowStatement(n)) this.handleThrow(n);
    else if (ts.isVariableDeclaration(n) && !ts.isCatchClause(n.parent)) this.declare(n);
    else if (ts.isBlock(n)) this.ctx.push({ kind: 'scope', bindings: [] });
    else if (ts.isCatchClause(n)) {
      const c = { kind: 'catch', bindings: [] };
      this.ctx.push(c);
      if (n.variableDeclaration) this.bindName(n.variableDeclaration.name, c, 'catch');
    } else if (this.isFunction(n)) {
      const c = { kind: 'function', bindings: [] };
      this.ctx.push(c);
      let kind = 'opaque';
      const p = n.parent;
      if (p && ts.isCallExpression(p) && p.arguments.includes(n) && ts.isPropertyAccessExpression(p.expression) &&
          p.expression.name.text === 'catch') kind = 'catch';
      for (const param of n.parameters) this.bindName(param.name, c, kind);
    }
    ts.forEachChild(n, (c) => this.visit(c));
    this.ctx.length = depth;
  }
}

function main() {
  const [root, dash] = process.argv.slice(2);
  if (!root || dash !== '-') {
    process.stderr.write('usage: node ts_oracle.js ROOT - < files\n');
    process.exit(2);
  }
  const files = fs.readFileSync(0, 'utf8').split('\n').filter((l) => l);
  const out = [];
  for (const rel of files) {
    let text;
    try { text = fs.readFileSync(path.join(root, rel), 'utf8'); } catch (e) { out.push(JSON.stringify({ file: rel, error: String(e) })); continue; }
    const ext = path.extname(rel);
    const kind = ext === '.tsx' ? ts.ScriptKind.TSX : ['.ts', '.mts', '.cts'].includes(ext) ? ts.ScriptKind.TS
      : ext === '.jsx' ? ts.ScriptKind.JSX : ts.ScriptKind.JS;
    const sf = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true, kind);
    if (sf.parseDiagnostics && sf.parseDiagnostics.length) {
      const d = sf.parseDiagnostics[0];
      out.push(JSON.stringify({ file: rel, error: ts.flattenDiagnosticMessageText(d.messageText, ' ') }));
      continue;
    }
    const o = new FileOracle(sf, rel);
    o.ctx[0].module = true;
    ts.forEachChild(sf, (c) => o.visit(c));
    for (const s of o.sites) out.push(JSON.stringify(s));
    if (out.length > 10000) { process.stdout.write(out.join('\n') + '\n'); out.length = 0; }
  }
  if (out.length) process.stdout.write(out.join('\n') + '\n');
}
main();
