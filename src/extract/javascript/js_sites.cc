// The sites of the JavaScript front end (see js_walker.h): what makes a throw
// statement, a call or a `new` expression a Site, and what it records:
//   raise          throw new X(msg) / throw X(msg) / throw "msg" / throw err (a
//                  rethrow of a catch parameter is not a site)
//   log            console.error/warn(...), logger.error/warn/fatal(...)
//   http           HttpException and NestJS *Exception classes, http-errors'
//                  createError(404, msg), Koa's ctx.throw(404, msg)
//   http_response  res.status(4xx).json/send(...), NextResponse.json(..., {status}),
//                  new Response(msg, {status})
// The message itself is evaluated by js_messages.cc.
#include "extract/javascript/js_walker.h"

#ifdef ERRDEX_HAVE_TREE_SITTER

#include <cctype>
#include <cstdint>

#include "extract/javascript/js_http_status.h"
#include "extract/javascript/js_literal.h"

namespace errdex::js {

namespace {

// A name that starts, after any _ or $, with a capital letter: a class by convention.
bool IsClasslike(std::string_view name) {
  size_t i = 0;
  while (i < name.size() && (name[i] == '_' || name[i] == '$')) ++i;
  return i < name.size() && name[i] >= 'A' && name[i] <= 'Z';
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

// The http-errors factory under the names it is usually imported as.
bool IsCreateErrorName(std::string_view n) {
  return n == "createError" || n == "createHttpError" || n == "httpErrors" || n == "HttpErrors" ||
         n == "createHttpErrors";
}

}  // namespace

std::optional<int> Walker::StatusValue(TSNode n) const {
  n = Unwrap(n);
  if (Is(n, "number")) {
    std::string_view t = Text(n);
    if (t.size() != 3) return std::nullopt;
    int v = 0;
    for (char c : t) {
      if (c < '0' || c > '9') return std::nullopt;
      v = v * 10 + (c - '0');
    }
    if (v >= 100 && v <= 599) return v;
    return std::nullopt;
  }
  std::string_view name = LastName(n);
  if (name.empty()) return std::nullopt;
  if (Is(n, "member_expression")) {
    if (auto s = StatusFromUpperName(name)) return s;  // HttpStatus.NOT_FOUND, StatusCodes.NOT_FOUND
  }
  // HTTP_404_NOT_FOUND, HTTP_STATUS_404 style constants.
  for (size_t i = 0; i + 3 <= name.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(name[i])) && std::isdigit(static_cast<unsigned char>(name[i + 1])) &&
        std::isdigit(static_cast<unsigned char>(name[i + 2])) && (i == 0 || name[i - 1] == '_') &&
        (i + 3 == name.size() || name[i + 3] == '_') && name.substr(0, 4) == "HTTP") {
      int v = (name[i] - '0') * 100 + (name[i + 1] - '0') * 10 + (name[i + 2] - '0');
      if (v >= 100 && v <= 599) return v;
    }
  }
  return std::nullopt;
}

std::optional<int> Walker::StatusInInit(TSNode init) const {
  init = Unwrap(init);
  if (!Is(init, "object")) return std::nullopt;
  uint32_t count = ts_node_named_child_count(init);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode p = ts_node_named_child(init, i);
    if (!Is(p, "pair")) continue;
    std::string_view k = Text(Field(p, fields_.key));
    if (k == "status" || k == "statusCode" || k == "\"status\"" || k == "'status'") return StatusValue(Field(p, fields_.value));
  }
  return std::nullopt;
}

bool Walker::FillHttpConstructed(Site& site, std::string_view cls, const std::vector<TSNode>& args) {
  std::optional<int> implied;
  bool http = false;
  if (cls == "HttpException" || cls == "HTTPException" || cls == "HttpError" || cls == "HTTPError" ||
      (cls.size() > 13 && cls.substr(cls.size() - 13) == "HttpException")) {
    http = true;
  } else if (cls.size() > 9 && cls.substr(cls.size() - 9) == "Exception") {
    implied = StatusFromCamelName(cls.substr(0, cls.size() - 9));  // NestJS NotFoundException
    http = implied.has_value();
  } else if (cls == "Response" || cls == "NextResponse") {
    // Remix-style `throw new Response("Not found", {status: 404})`.
    if (args.size() >= 2) implied = StatusInInit(args[1]);
    http = implied.has_value() && *implied >= 400;
    if (http) {
      site.kind = SiteKind::kHttp;
      site.http_status = implied;
      SetMessage(site, Is(Unwrap(args[0]), "object") ? PickKey(args[0], 0) : args[0]);
    }
    return http;
  }
  if (!http) return false;
  site.kind = SiteKind::kHttp;
  size_t status_index = SIZE_MAX;
  for (size_t i = 0; i < args.size() && i < 3; ++i) {
    if (auto s = StatusValue(args[i])) {
      site.http_status = s;
      status_index = i;
      break;
    }
    if (auto s = StatusInInit(args[i])) {
      if (!site.http_status) site.http_status = s;
    }
  }
  if (!site.http_status) site.http_status = implied;
  SetMessage(site, PickMessageArg(args, status_index));
  return true;
}

void Walker::FillConstructed(Site& site, TSNode callee, TSNode args_node) {
  callee = Unwrap(callee);
  site.error_class_expr = std::string(Text(callee));
  std::string_view last = LastName(callee);
  std::vector<TSNode> args = Args(args_node);
  if (!last.empty() && IsClasslike(last)) {
    site.error_class = std::string(last);
    if (FillHttpConstructed(site, last, args)) return;
  } else if (Is(callee, "member_expression") && IsClasslike(LastName(Field(callee, fields_.object)))) {
    // AppError.notFound("...") / Errors.badInput("...")
    site.error_class = std::string(LastName(Field(callee, fields_.object)));
  } else {
    site.dynamic = true;  // throw makeError(...), throw new errorClass(...)
  }
  TSNode msg = PickMessageArg(args, SIZE_MAX);
  // An error code given before the message: new AppError(ErrorCode.X, "msg").
  if (!args.empty() && !ts_node_is_null(msg) && msg.id != args[0].id && Is(Unwrap(args[0]), "member_expression"))
    site.error_code = std::string(Text(Unwrap(args[0])));
  SetMessage(site, msg);
}

void Walker::FillCreateError(Site& site, TSNode callee, const std::vector<TSNode>& args) {
  site.kind = SiteKind::kHttp;
  site.error_class_expr = std::string(Text(callee));
  size_t status_index = SIZE_MAX;
  if (Is(callee, "member_expression")) {
    // createError.NotFound("msg")
    std::string_view prop = LastName(callee);
    site.http_status = StatusFromCamelName(prop);
    if (!site.http_status && prop.size() > 5 && prop.substr(prop.size() - 5) == "Error")
      site.http_status = StatusFromCamelName(prop.substr(0, prop.size() - 5));
  } else if (!args.empty()) {
    if (auto s = StatusValue(args[0])) {
      site.http_status = s;
      status_index = 0;
    }
  }
  site.error_class = HttpErrorsClass(site.http_status);
  SetMessage(site, PickMessageArg(args, status_index));
}

void Walker::HandleThrow(TSNode stmt) {
  TSNode expr = Unwrap(FirstNamed(stmt));
  if (ts_node_is_null(expr)) return;
  Site site = NewSite(SiteKind::kRaise, stmt, stmt);
  if (Is(expr, "new_expression")) {
    consumed_.insert(expr.id);
    TSNode ctor = Field(expr, fields_.constructor);
    if (Is(ctor, "member_expression") && IsCreateErrorName(LastName(Field(ctor, fields_.object)))) {
      FillCreateError(site, Unwrap(ctor), Args(Field(expr, fields_.arguments)));
    } else {
      FillConstructed(site, ctor, Field(expr, fields_.arguments));
    }
  } else if (Is(expr, "call_expression") && Text(Unwrap(Field(expr, fields_.function))) == "Object.assign" &&
             !Args(Field(expr, fields_.arguments)).empty() &&
             Is(Unwrap(Args(Field(expr, fields_.arguments))[0]), "new_expression")) {
    // throw Object.assign(new Error("msg"), {code: "ECODE"}): the new error, with its code.
    std::vector<TSNode> args = Args(Field(expr, fields_.arguments));
    TSNode made = Unwrap(args[0]);
    consumed_.insert(expr.id);
    consumed_.insert(made.id);
    FillConstructed(site, Field(made, fields_.constructor), Field(made, fields_.arguments));
    for (size_t i = 1; i < args.size() && !site.error_code; ++i) {
      TSNode obj = Unwrap(args[i]);
      uint32_t count = Is(obj, "object") ? ts_node_named_child_count(obj) : 0;
      for (uint32_t k = 0; k < count; ++k) {
        TSNode p = ts_node_named_child(obj, k);
        if (Is(p, "pair") && Text(Field(p, fields_.key)) == "code" && Is(Unwrap(Field(p, fields_.value)), "string")) {
          std::string_view v = Text(Unwrap(Field(p, fields_.value)));
          site.error_code = DecodeJsLiteral(v.substr(1, v.size() - 2), false);
          break;
        }
      }
    }
  } else if (Is(expr, "call_expression")) {
    consumed_.insert(expr.id);
    TSNode callee = Unwrap(Field(expr, fields_.function));
    std::string_view last = LastName(callee);
    if (IsCreateErrorName(last) ||
        (Is(callee, "member_expression") && IsCreateErrorName(LastName(Field(callee, fields_.object))))) {
      FillCreateError(site, callee, Args(Field(expr, fields_.arguments)));
    } else {
      FillConstructed(site, callee, Field(expr, fields_.arguments));
    }
  } else if (Is(expr, "identifier")) {
    std::string_view name = Text(expr);
    bool in_module = false, crossed = false;
    Binding* b = Lookup(name, &in_module, &crossed);
    if (b && b->kind == Binding::kCatchParam) return;  // rethrow: not a new error
    TSNode value = b && b->kind == Binding::kValue ? Unwrap(b->value) : TSNode{};
    if (Is(value, "new_expression") || Is(value, "call_expression")) {
      // const err = new NotFound("..."); ...; throw err
      TSNode callee = Is(value, "new_expression") ? Field(value, fields_.constructor) : Field(value, fields_.function);
      if (IsClasslike(LastName(callee))) {
        FillConstructed(site, callee, Field(value, fields_.arguments));
        site.error_class_expr = std::string(name) + " <- " + site.error_class_expr.value_or("");
        if (!site.message_resolution.empty()) site.message_resolution = "variable:" + site.message_resolution;
        Finish(std::move(site));
        return;
      }
    }
    site.error_class_expr = std::string(name);
    if (IsClasslike(name)) {
      site.error_class = std::string(name);
    } else {
      site.dynamic = true;
    }
  } else if (Is(expr, "string") || Is(expr, "template_string") || Is(expr, "binary_expression")) {
    SetMessage(site, expr);  // throw "message": a string is thrown, no class
  } else if (Is(expr, "member_expression")) {
    site.error_class_expr = std::string(Text(expr));
    std::string_view last = LastName(expr);
    if (IsClasslike(last)) site.error_class = std::string(last);
    else site.dynamic = true;
  } else {
    site.error_class_expr = std::string(Text(expr));
    site.dynamic = true;
  }
  Finish(std::move(site));
}

void Walker::HandleNew(TSNode expr) {
  if (Consumed(expr)) return;
  TSNode ctor = Unwrap(Field(expr, fields_.constructor));
  std::string_view last = LastName(ctor);
  if (last.empty()) return;
  std::vector<TSNode> args = Args(Field(expr, fields_.arguments));
  if (last == "Response" || last == "NextResponse") {
    if (args.empty()) return;
    std::optional<int> status = args.size() >= 2 ? StatusInInit(args[1]) : std::nullopt;
    if (!status || *status < 400) return;
    Site site = NewSite(SiteKind::kHttpResponse, expr, expr);
    site.error_class_expr = std::string(Text(ctor));
    site.http_status = status;
    TSNode body = Unwrap(args[0]);
    // new Response(JSON.stringify({error: "..."}), {status: 400})
    if (Is(body, "call_expression") && Text(Field(body, fields_.function)) == "JSON.stringify") {
      std::vector<TSNode> inner = Args(Field(body, fields_.arguments));
      if (!inner.empty()) body = Unwrap(inner[0]);
    }
    SetMessage(site, Is(body, "object") ? PickKey(body, 0) : body);
    Finish(std::move(site));
    return;
  }
  if (Is(ctor, "member_expression") && IsCreateErrorName(LastName(Field(ctor, fields_.object)))) {
    Site site = NewSite(SiteKind::kHttp, expr, expr);
    FillCreateError(site, ctor, args);
    Finish(std::move(site));
    return;
  }
  if (!IsClasslike(last)) return;
  Site site = NewSite(SiteKind::kHttp, expr, expr);
  site.error_class = std::string(last);
  site.error_class_expr = std::string(Text(ctor));
  if (!FillHttpConstructed(site, last, args)) return;  // only HTTP errors count outside a throw
  Finish(std::move(site));
}

void Walker::HandleCall(TSNode call) {
  if (Consumed(call)) return;
  TSNode callee = Unwrap(Field(call, fields_.function));
  TSNode args_node = Field(call, fields_.arguments);
  if (Is(callee, "identifier")) {
    if (IsCreateErrorName(Text(callee))) {
      Site site = NewSite(SiteKind::kHttp, call, call);
      FillCreateError(site, callee, Args(args_node));
      Finish(std::move(site));
    }
    return;
  }
  if (!Is(callee, "member_expression")) return;
  std::string_view prop = Text(Field(callee, fields_.property));
  TSNode object = Unwrap(Field(callee, fields_.object));
  std::vector<TSNode> args = Args(args_node);

  // console.error / logger.warn / this.logger.error / log.error
  if (prop == "error" || prop == "warn" || prop == "warning" || prop == "fatal") {
    std::string receiver = Lower(LastName(object));
    while (!receiver.empty() && (receiver[0] == '_' || receiver[0] == '$')) receiver.erase(0, 1);
    bool is_console = receiver == "console";
    bool is_logger = receiver == "log" ||
                     (receiver.size() >= 6 && receiver.compare(receiver.size() - 6, 6, "logger") == 0);
    if ((is_console && (prop == "error" || prop == "warn")) || is_logger) {
      Site site = NewSite(SiteKind::kLog, call, call);
      site.error_class_expr = std::string(Text(callee));
      site.log_level = std::string(prop);
      TSNode msg = PickMessageArg(args, SIZE_MAX);
      std::vector<TSNode> rest;
      for (size_t i = 0; i < args.size(); ++i) {
        if (!ts_node_is_null(msg) && args[i].id == msg.id) {
          rest.assign(args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
          break;
        }
      }
      // console.* prints leftover arguments after the message; loggers (winston,
      // pino, bunyan) keep them as metadata.
      if (!ts_node_is_null(msg) && Is(Unwrap(msg), "string")) SetMessage(site, msg, &rest, is_console);
      else SetMessage(site, msg);
      Finish(std::move(site));
      return;
    }
  }

  // res.status(404).json({error: msg}) / .send(msg); reply.code(400).send(...)
  if ((prop == "json" || prop == "send") && Is(object, "call_expression")) {
    TSNode inner_callee = Unwrap(Field(object, fields_.function));
    if (Is(inner_callee, "member_expression")) {
      std::string_view inner_prop = Text(Field(inner_callee, fields_.property));
      std::vector<TSNode> inner_args = Args(Field(object, fields_.arguments));
      if ((inner_prop == "status" || inner_prop == "code") && inner_args.size() == 1) {
        std::optional<int> status = StatusValue(inner_args[0]);
        if (status && *status >= 400) {
          Site site = NewSite(SiteKind::kHttpResponse, call, call);
          site.error_class_expr = std::string(Text(callee));
          site.http_status = status;
          if (!args.empty()) {
            TSNode body = Unwrap(args[0]);
            SetMessage(site, Is(body, "object") ? PickKey(body, 0) : args[0]);
          }
          Finish(std::move(site));
          return;
        }
      }
    }
  }

  // NextResponse.json({error: msg}, {status: 400}) / Response.json(...)
  if (prop == "json" && args.size() >= 2) {
    std::string_view recv = LastName(object);
    if (recv == "NextResponse" || recv == "Response") {
      std::optional<int> status = StatusInInit(args[1]);
      if (status && *status >= 400) {
        Site site = NewSite(SiteKind::kHttpResponse, call, call);
        site.error_class_expr = std::string(Text(callee));
        site.http_status = status;
        TSNode body = Unwrap(args[0]);
        SetMessage(site, Is(body, "object") ? PickKey(body, 0) : args[0]);
        Finish(std::move(site));
        return;
      }
    }
  }

  // createError.NotFound("msg")
  if (IsCreateErrorName(LastName(object))) {
    Site site = NewSite(SiteKind::kHttp, call, call);
    FillCreateError(site, callee, args);
    Finish(std::move(site));
    return;
  }

  // Koa: ctx.throw(404, "msg")
  if (prop == "throw" && !args.empty()) {
    if (auto status = StatusValue(args[0])) {
      Site site = NewSite(SiteKind::kHttp, call, call);
      site.error_class_expr = std::string(Text(callee));
      site.http_status = status;
      site.error_class = HttpErrorsClass(status);
      SetMessage(site, PickMessageArg(args, 0));
      Finish(std::move(site));
    }
  }
}

}  // namespace errdex::js

#endif  // ERRDEX_HAVE_TREE_SITTER
