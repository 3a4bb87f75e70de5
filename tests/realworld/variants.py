"""The forms in which a user pastes one error, derived from a program's real stderr
and its ground truth (gen_realworld.py). Deterministic: every choice is made by the
program's hash, so two runs write the same bytes.

  traceback     the real stderr, as the interpreter printed it
  message       "Class: message" (what format_exception_only prints), or the log message
  log.<style>   the traceback (or log line) behind a log prefix on every line
                (iso, cri, journald, glog, bracket, kubectl) or after a uvicorn
                access line and "Exception in ASGI application" (uvicorn)
  logline       one log line: a prefix, then "Class: message"
  inline        the message inside an issue-title sentence
  reworded      the message reworded by fixed rules: synonyms, dropped words, case
"""
import hashlib
import re


def _h(pid, salt):
    return int(hashlib.sha1((pid + salt).encode()).hexdigest()[:8], 16)


def _frac(i):
    return "%06d" % ((i * 7919 + 1234) % 1000000)


# Each style: a function (line index) -> prefix. Timestamps move from line to line, as
# they do in a real log, so a prefix must be recognised by its shape, not its bytes.
PREFIX_STYLES = {
    "iso": lambda i: "2026-10-12T19:54:%02d.%sZ ERROR router | " % (57 + i // 40 % 3, _frac(i)[:3]),
    "cri": lambda i: "2026-10-12T19:54:%02d.%s123+00:00 stderr F " % (57 + i // 40 % 3, _frac(i)),
    "journald": lambda i: "Dec 03 10:11:%02d gpu-node-4 vllm-serve[2318]: " % (12 + i // 30 % 40),
    "glog": lambda i: "E1203 10:11:12.%s  1234 server.py:212] " % _frac(i),
    "bracket": lambda i: "[01:01:%02d] [worker-7] " % (20 + i // 25 % 40),
    "kubectl": lambda i: "[pod/vllm-engine-7d9f8c6b5-x2x9z/engine] ",
}

TITLES = [
    "Getting `{m}` when calling the endpoint",
    "[Bug]: {m} after upgrading",
    "Error: {m} when running the example from the docs",
    "Why do I get {m}?",
    "{m} on startup",
    "After the last update every request fails with {m}",
    "crash: {m} (works with the previous release)",
    "Help! {m} - what am I doing wrong",
]

SYNONYMS = [
    (r"\bcannot\b", "can't"), (r"\bcan not\b", "can't"), (r"\bmust\b", "should"), (r"\binvalid\b", "bad"),
    (r"\bInvalid\b", "Bad"), (r"\bnot found\b", "missing"), (r"\bfailed\b", "did fail"),
    (r"\bExpecting\b", "Expected"), (r"\bexpected\b", "wanted"), (r"\bis not\b", "isn't"),
    (r"\bdoes not\b", "doesn't"), (r"\bdo not\b", "don't"), (r"\bunable to\b", "could not"),
    (r"\bunknown\b", "unrecognized"), (r"\bUnknown\b", "Unrecognized"), (r"\bunsupported\b", "not supported"),
    (r"\brequires\b", "needs"), (r"\brequired\b", "needed"), (r"\bno\b", "not any"),
    (r"\bshould\b", "must"), (r"\bempty\b", "blank"), (r"\bgreater than\b", "more than"),
    (r"\bnumber\b", "count"), (r"\bvalue\b", "val"), (r"\bargument\b", "arg"),
]
DROPPED = r"\b(the|a|an|of|to|for|be|is|are)\s+"


def reword(msg, pid):
    """Synonyms, dropped small words, then the case of the whole line changed."""
    text = msg.split("\n")[0]
    for pat, rep in SYNONYMS:
        text = re.sub(pat, rep, text)
    text = re.sub(DROPPED, "", text)
    if text == msg.split("\n")[0]:  # nothing applied: drop the last word
        words = text.split(" ")
        text = " ".join(words[:-1]) if len(words) > 2 else text
    return text.lower() if _h(pid, "case") % 2 == 0 else text.upper() if _h(pid, "upper") % 5 == 0 else text


def _prefixed(text, style):
    fn = PREFIX_STYLES[style]
    lines = text.rstrip("\n").split("\n")
    return "".join(fn(i) + l + "\n" for i, l in enumerate(lines))


def _final_exception_text(gt):
    cls = gt.get("class") or ""
    msg = gt.get("message") or ""
    if gt["kind"] == "log":
        return msg
    return cls + (": " + msg if msg else "") if cls else msg


def variants(pid, gt, stderr):
    """[(name, text)] for one kept program."""
    out = []
    message = _final_exception_text(gt)
    if gt["kind"] == "log":
        raw = "%s:%s:%s\n" % (gt["level"], gt["logger"], gt["message"])
        body = stderr if stderr.strip() else raw
    else:
        body = stderr if stderr.strip() else message + "\n"
    if gt["kind"] != "log":
        out.append(("traceback", body))
    out.append(("message", message + "\n"))
    for style in PREFIX_STYLES:
        out.append(("log." + style, _prefixed(body if gt["kind"] != "log" else raw, style)))
    out.append(("log.uvicorn",
                'INFO:     10.0.3.7:51234 - "POST /v1/completions HTTP/1.1" 500 Internal Server Error\n'
                "ERROR:    Exception in ASGI application\n" + body))
    style = sorted(PREFIX_STYLES)[_h(pid, "logline") % len(PREFIX_STYLES)]
    first = message.split("\n")[0]
    out.append(("logline", PREFIX_STYLES[style](0) + message.replace("\n", " ") + "\n"))
    title = TITLES[_h(pid, "title") % len(TITLES)]
    shown = first if _h(pid, "cls") % 3 else (gt.get("message") or first).split("\n")[0]
    if not shown.strip():
        shown = first
    out.append(("inline", title.format(m=shown) + "\n"))
    msg_only = (gt.get("message") or "").split("\n")[0] if gt["kind"] != "log" else first
    if len(msg_only.split()) >= 2:
        out.append(("reworded", reword(msg_only, pid) + "\n"))
    return out
