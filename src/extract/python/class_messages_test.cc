// Messages built by exception classes (class_messages.h), bound at raises in other
// files through the class bases, as `errdex scan` does repo-wide.
#include "extract/python/class_messages.h"

#include <gtest/gtest.h>

#include "extract/python/message_eval.h"
#include "extract/python/python_extractor.h"

namespace errdex {
namespace {

// The repository: exceptions.py defines the classes, raises.py raises them.
constexpr const char* kExceptions = R"PY(
class BaseError(Exception):
    fmt = 'An unspecified error occurred'

    def __init__(self, **kwargs):
        msg = self.fmt.format(**kwargs)
        Exception.__init__(self, msg)
        self.kwargs = kwargs


class EndpointConnectionError(BaseError):
    fmt = 'Could not connect to the endpoint URL: "{endpoint_url}"'


class NoSectionError(ValueError):
    def __init__(self, section):
        ValueError.__init__(self, 'No section: %r' % (section,))
        self.section = section


class LocationParseError(ValueError):
    def __init__(self, location: str) -> None:
        message = f"Failed to parse: {location}"
        super().__init__(message)


class ChildParseError(LocationParseError):
    pass


class ProcessError(RuntimeError):
    def __init__(self, returncode, cmd):
        self.returncode = returncode
        self.cmd = cmd

    def __str__(self):
        if self.returncode < 0:
            return "Command '%s' died with signal %d." % (self.cmd, -self.returncode)
        return "Command '%s' returned non-zero exit status %d." % (self.cmd, self.returncode)


class PassThroughError(Exception):
    def __init__(self, message):
        super().__init__(message)


class InterpolationError(Exception):
    def __init__(self, option, section, msg):
        Exception.__init__(self, msg)
        self.option = option


class MissingOptionError(InterpolationError):
    def __init__(self, option, section, reference):
        msg = "option {!r} in section {!r} names a missing key {!r}".format(option, section, reference)
        InterpolationError.__init__(self, option, section, msg)
)PY";

constexpr const char* kRaises = R"PY(
from .exceptions import *

def connect(url):
    raise EndpointConnectionError(endpoint_url=url)

def section(name):
    raise NoSectionError(name)

def literal_section():
    raise NoSectionError('server')

def parse(u):
    raise ChildParseError(u)

def run(cmd, rc):
    raise ProcessError(rc, cmd)

def passthrough():
    raise PassThroughError("as written")

def interpolate(o, s):
    raise MissingOptionError(o, s, 'home')
)PY";

std::shared_ptr<py::ClassMessageTable> Table() {
  auto t = std::make_shared<py::ClassMessageTable>();
  t->Add(CollectPythonClassMessages("pkg/exceptions.py", kExceptions));
  t->Add(CollectPythonClassMessages("pkg/raises.py", kRaises));
  return t;
}

const Site* At(const PythonExtractResult& r, int line) {
  for (const Site& s : r.sites)
    if (s.line == line) return &s;
  return nullptr;
}

TEST(ClassMessages, CollectsEachWayAClassBuildsItsMessage) {
  auto classes = CollectPythonClassMessages("pkg/exceptions.py", kExceptions);
  ASSERT_EQ(classes.size(), 9u);
  EXPECT_EQ(classes[0].name, "BaseError");
  EXPECT_EQ(classes[0].source, py::ClassMessage::Source::kFormatAttr);
  EXPECT_EQ(classes[0].format_attr, "fmt");
  EXPECT_EQ(classes[1].attr_strings.at("fmt"), "Could not connect to the endpoint URL: \"{endpoint_url}\"");
  EXPECT_EQ(classes[2].source, py::ClassMessage::Source::kText);
  EXPECT_EQ(classes[2].params, std::vector<std::string>{"section"});
  EXPECT_EQ(classes[4].bases, std::vector<std::string>{"LocationParseError"});
  EXPECT_EQ(classes[5].source, py::ClassMessage::Source::kText);  // from __str__
  EXPECT_EQ(classes[8].source, py::ClassMessage::Source::kBaseCall);  // InterpolationError.__init__(self, a, b, msg)
  EXPECT_EQ(classes[8].base_args.size(), 3u);
  // A file without exception classes is not even tokenized.
  EXPECT_FALSE(py::MayDefineClassMessages("def f():\n    return 1\n"));
}

TEST(ClassMessages, BoundAtRaisesInAnotherFile) {
  auto table = Table();
  PythonExtractResult r = ExtractPython("pkg/raises.py", kRaises, ExtractLimits{}, table.get());
  const Site* s = At(r, 5);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->error_message.value_or(""), "Could not connect to the endpoint URL: \"{url}\"");
  EXPECT_EQ(s->message_pattern.value_or(""), "Could not connect to the endpoint URL: \"(.*?)\"");
  EXPECT_EQ(s->message_resolution, "class-template");
  s = At(r, 8);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->message_pattern.value_or(""), "No section: (.*?)");
  s = At(r, 11);  // a literal argument is written in, as %r prints it
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->error_message.value_or(""), "No section: 'server'");
  s = At(r, 14);  // through the base class
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->message_pattern.value_or(""), "Failed to parse: (.*?)");
  s = At(r, 17);  // __str__, with self.x mapped back to the parameters
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->message_pattern.value_or(""),
            "(?:Command '(.*?)' died with signal (.*?)\\.|Command '(.*?)' returned non-zero exit status (.*?)\\.)");
  s = At(r, 20);  // a message passed through as is stays the raise's own
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->error_message.value_or(""), "as written");
  EXPECT_NE(s->message_resolution, "class-template");
  s = At(r, 23);  // the base prints its third argument, which the subclass builds
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->error_message.value_or(""), "option {o!r} in section {s!r} names a missing key 'home'");
  EXPECT_EQ(s->message_resolution, "class-template");
  // Without the table (one file alone), the raise's own argument is the message.
  PythonExtractResult alone = ExtractPython("pkg/raises.py", kRaises);
  EXPECT_FALSE(At(alone, 5)->error_message.has_value());
}

// werkzeug's HTTP errors: the base's __str__ prints attributes each subclass sets
// at class level; __init__ stores a description only when one is passed.
TEST(ClassMessages, ClassAttributesOfTheRaisedClassFillTheTemplate) {
  constexpr const char* kHttp = R"PY(
class HTTPException(Exception):
    code = None
    description = None

    def __init__(self, description=None, response=None):
        super().__init__()
        if description is not None:
            self.description = description
        self.response = response
        self.tag = make_tag()

    @property
    def name(self):
        return lookup(self.code)

    def __str__(self):
        return f"{self.code} {self.name}: {self.description}"


class NotFound(HTTPException):
    code = 404
    description = (
        "The requested URL was not found on the server."
        " Please check your spelling."
    )


class Gone(NotFound):
    code = 0x19A


class Tagged(HTTPException):
    tag = "class-level"

    def __str__(self):
        return f"[{self.tag}] {self.code}"
)PY";
  constexpr const char* kRaise = R"PY(
from .http import *

def missing():
    raise NotFound()

def missing_why(why):
    raise NotFound(why)

def gone():
    raise Gone()

def tagged():
    raise Tagged()
)PY";
  auto classes = CollectPythonClassMessages("web/http.py", kHttp);
  ASSERT_EQ(classes.size(), 4u);
  EXPECT_EQ(classes[1].attr_ints.at("code"), "404");
  EXPECT_EQ(classes[0].param_attrs.at("description"), "description");
  auto table = std::make_shared<py::ClassMessageTable>();
  table->Add(std::move(classes));
  PythonExtractResult r = ExtractPython("web/views.py", kRaise, ExtractLimits{}, table.get());
  const Site* s = At(r, 5);  // nothing passed: the class's code and description show
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->message_pattern.value_or(""),
            "404 (.*?): The requested URL was not found on the server\\. Please check your spelling\\.");
  EXPECT_EQ(s->message_resolution, "class-template");
  s = At(r, 8);  // a description passed: it shows instead
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->message_pattern.value_or(""), "404 (.*?): (.*?)");
  s = At(r, 11);  // the nearest class's attribute wins; a hex literal is not printed as written
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->message_pattern.value_or(""),
            "(.*?) (.*?): The requested URL was not found on the server\\. Please check your spelling\\.");
  s = At(r, 14);  // __init__ sets self.tag: the class attribute is hidden
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->message_pattern.value_or(""), "\\[(.*?)\\] (.*?)");
}

// plistlib: a raise that passes no message prints the parameter's default.
TEST(ClassMessages, ParameterDefaultIsTheMessageOfARaiseThatPassesNone) {
  constexpr const char* kPlist = R"PY(
class InvalidFileException(ValueError):
    def __init__(self, message="Invalid file"):
        ValueError.__init__(self, message)


class Timeout(Exception):
    def __init__(self, seconds, what: str = 'read'):
        super().__init__(f"{what} timed out after {seconds} s")
)PY";
  constexpr const char* kRaise = R"PY(
from .plist import *

def load():
    raise InvalidFileException()

def load_custom(why):
    raise InvalidFileException(why)

def wait(n):
    raise Timeout(n)

def connect(n):
    raise Timeout(n, 'connect')

def spread(args):
    raise Timeout(*args)
)PY";
  auto classes = CollectPythonClassMessages("lib/plist.py", kPlist);
  ASSERT_EQ(classes.size(), 2u);
  EXPECT_EQ(classes[0].param_defaults.at("message"), "Invalid file");
  EXPECT_EQ(classes[1].param_defaults.at("what"), "read");
  auto table = std::make_shared<py::ClassMessageTable>();
  table->Add(std::move(classes));
  PythonExtractResult r = ExtractPython("lib/load.py", kRaise, ExtractLimits{}, table.get());
  const Site* s = At(r, 5);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->error_message.value_or(""), "Invalid file");
  EXPECT_EQ(s->message_resolution, "class-template");
  s = At(r, 8);  // the raise's own message: not the class's
  ASSERT_NE(s, nullptr);
  EXPECT_NE(s->message_resolution, "class-template");
  s = At(r, 11);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->message_pattern.value_or(""), "read timed out after (.*?) s");
  s = At(r, 14);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->error_message.value_or(""), "connect timed out after {n} s");
  s = At(r, 17);  // *args may pass it: no default claimed
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->message_pattern.value_or("").find("read"), std::string::npos);
}

// dateutil's ParserError prints `self.args[0] % self.args[1:]`: a raise's first
// argument is the template, the others fill it ("Unknown string format: %s", timestr).
TEST(ClassMessages, ArgsPercentStrFormatsTheFirstArgumentWithTheRest) {
  constexpr const char* kErrors = R"PY(
class ParserError(ValueError):
    def __str__(self):
        try:
            return self.args[0] % self.args[1:]
        except (TypeError, IndexError):
            return super(ParserError, self).__str__()
)PY";
  constexpr const char* kRaise = R"PY(
from .errors import ParserError

def parse(timestr, res):
    if res is None:
        raise ParserError("Unknown string format: %s", timestr)
    if not res:
        raise ParserError("String does not contain a date: %s", timestr)
    raise ParserError("bad %s at %d", timestr, res)
)PY";
  auto classes = CollectPythonClassMessages("dateutil/errors.py", kErrors);
  ASSERT_EQ(classes.size(), 1u);
  EXPECT_EQ(classes[0].source, py::ClassMessage::Source::kArgsPercent);
  auto table = std::make_shared<py::ClassMessageTable>();
  table->Add(std::move(classes));
  PythonExtractResult r = ExtractPython("dateutil/parse.py", kRaise, ExtractLimits{}, table.get());
  const Site* s = At(r, 6);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->message_pattern.value_or(""), "Unknown string format: (.*?)");
  EXPECT_EQ(s->message_resolution, "class-template");
  s = At(r, 9);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->message_pattern.value_or(""), "bad (.*?) at (.*?)");
  // Without the class table the tuple of arguments is what the raise passes.
  PythonExtractResult alone = ExtractPython("dateutil/parse.py", kRaise);
  EXPECT_NE(At(alone, 6)->message_resolution, "class-template");
}

}  // namespace
}  // namespace errdex

namespace errdex {
namespace {

// Messages past the oracle's rules (each tagged in messageResolution, which
// tests/diff/diff_oracle.py tolerates).
TEST(PythonExtractorBeyondOracle, GettextLiteralArgumentsAndWithTraceback) {
  constexpr const char* kSrc = R"PY(
from gettext import gettext as _, ngettext
MSG = "{} requires Flash Attention enabled models."

def opts(opt):
    raise GetoptError(_('option -%s not recognized') % opt, opt)

def conflict(n):
    raise ArgumentError(None, ngettext('conflicting option string: %s', 'conflicting option strings: %s', n) % n)

def model():
    raise NotImplementedError(MSG.format("Sharded Llama"))

def quoted(x):
    raise ValueError("invalid width %r (must be > 0)" % ('abc',))

def parse(s):
    try:
        return go(s)
    except ParseBaseException as exc:
        raise exc.with_traceback(None)

def reraise(s):
    try:
        return go(s)
    except KeyError as e:
        raise e
)PY";
  PythonExtractResult r = ExtractPython("m.py", kSrc);
  const Site* s = At(r, 6);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->message_pattern.value_or(""), "option -(.*?) not recognized");
  EXPECT_NE(s->message_resolution.find("+gettext"), std::string::npos);
  s = At(r, 9);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->message_pattern.value_or(""), "(?:conflicting option string: (.*?)|conflicting option strings: (.*?))");
  s = At(r, 12);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->error_message.value_or(""), "Sharded Llama requires Flash Attention enabled models.");
  EXPECT_NE(s->message_resolution.find("+literal-args"), std::string::npos);
  s = At(r, 15);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->error_message.value_or(""), "invalid width 'abc' (must be > 0)");
  // raise exc.with_traceback(None): the traceback a user sees ends here.
  s = At(r, 21);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->error_class.value_or(""), "ParseBaseException");
  EXPECT_EQ(s->message_resolution, "reraise-with-traceback");
  EXPECT_EQ(At(r, 27), nullptr);  // a plain re-raise is no site
}

// A message bound in each branch of an if (traitlets' "The '{}' trait of {} instance
// expected ..." / "The '{}' trait expected ...", requests' Client / Server Error): each
// branch is an alternative; a binding that always runs after another replaces it.
TEST(PythonExtractorBeyondOracle, MessageBoundInEachBranchOfAnIf) {
  constexpr const char* kSrc = R"PY(
def error(self, obj, value):
    if obj is not None:
        e = "The '{}' trait of {} instance expected {}, not {}.".format(self.name, obj, self.info, value)
    else:
        e = "The '{}' trait expected {}, not {}.".format(self.name, self.info, value)
    raise TraitError(e)

def raise_for_status(self):
    msg = ""
    if 400 <= self.status_code < 500:
        msg = f"{self.status_code} Client Error: {self.reason}"
    elif 500 <= self.status_code < 600:
        msg = f"{self.status_code} Server Error: {self.reason}"
    if msg:
        raise HTTPError(msg)

def overridden(x):
    m = "bad value"
    if x < 0:
        m = "negative value"
    raise ValueError(m)

def replaced(x):
    m = "first"
    m = "second"
    for i in x:
        pass
    raise ValueError(m)

def nested_if(x):
    if x:
        m = "one"
    if not x:
        m = "two"
    raise ValueError(m)

def check(pos, text):
    assert pos <= len(text), AssertionError(f"cursor_position={pos!r}, len_text={len(text)!r}")

def inside(c):
    if c:
        e = "from the if"
    else:
        e = "from the else"
        raise ValueError(e)
    m = "before"
    if c:
        m = "in the if"
        raise ValueError(m)
)PY";
  PythonExtractResult r = ExtractPython("m.py", kSrc);
  const Site* s = At(r, 7);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->message_pattern.value_or(""),
            "(?:The '(.*?)' trait of (.*?) instance expected (.*?), not (.*?)\\.|The '(.*?)' trait expected (.*?), not (.*?)\\.)");
  EXPECT_NE(s->message_resolution.find("+branches"), std::string::npos);
  s = At(r, 16);  // the empty initial value is no alternative
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->message_pattern.value_or(""), "(?:(.*?) Client Error: (.*?)|(.*?) Server Error: (.*?))");
  s = At(r, 22);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->message_pattern.value_or(""), "(?:bad value|negative value)");
  s = At(r, 29);  // straight-line rebinding: the last one only
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->error_message.value_or(""), "second");
  EXPECT_EQ(s->message_resolution.find("+branches"), std::string::npos);
  s = At(r, 36);  // two separate ifs: the later one's binding (as before)
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->error_message.value_or(""), "two");
  s = At(r, 39);  // an assert's message given as an exception: its argument prints
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->message_pattern.value_or(""), "cursor_position=(.*?), len_text=(.*?)");
  EXPECT_NE(s->message_resolution.find("+exc-arg"), std::string::npos);
  s = At(r, 46);  // raised inside the else: the else's text only
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->error_message.value_or(""), "from the else");
  s = At(r, 50);  // raised inside the if that rebinds it
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->error_message.value_or(""), "in the if");
}

// wsgiref's `def assert_(cond, *args): if not cond: raise AssertionError(*args)`: the one
// argument a caller passes past `cond` is the message; a caller passing two prints a
// tuple and is no text of it.
TEST(PythonExtractorBeyondOracle, StarArgsHelperTakesItsCallersExtraArgument) {
  constexpr const char* kSrc = R"PY(
def assert_(cond, *args):
    if not cond:
        raise AssertionError(*args)

def check_environ(environ):
    for key in ['REQUEST_METHOD', 'SERVER_NAME']:
        assert_(key in environ, "Environment missing required key: %r" % (key,))
    assert_(environ['wsgi.version'] == (1, 0), "Environment wsgi.version should be (1, 0)")
    assert_(False, "two", "arguments")
)PY";
  PythonExtractResult r = ExtractPython("wsgiref/validate.py", kSrc);
  const Site* s = At(r, 4);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->message_pattern.value_or(""),
            "(?:Environment missing required key: (.*?)|Environment wsgi\\.version should be \\(1, 0\\))");
  EXPECT_NE(s->message_resolution.find("+callers+open"), std::string::npos);
}

}  // namespace
}  // namespace errdex

namespace errdex {
namespace {

TEST(PythonExtractorBeyondOracle, ConditionalSuffixLoggersAndWarnAliases) {
  constexpr const char* kSrc = R"PY(
import logging
from warnings import warn as _warn
_lg = logging.getLogger(__name__)

def check(x, strict):
    msg = "bad value"
    if strict:
        msg += f" ({x!r} is not allowed in strict mode)"
    raise ValueError(msg)

def note(x):
    _lg.warning("retrying %s", x)
    _warn("deprecated call", DeprecationWarning)
)PY";
  PythonExtractResult r = ExtractPython("m.py", kSrc);
  const Site* s = At(r, 10);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->message_pattern.value_or(""), "(?:bad value \\((.*?) is not allowed in strict mode\\)|bad value)");
  s = At(r, 13);  // a logger under a name of the file's choosing
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->kind, SiteKind::kLog);
  EXPECT_EQ(s->message_pattern.value_or(""), "retrying (.*?)");
  s = At(r, 14);  // warnings.warn imported under another name
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->error_class.value_or(""), "DeprecationWarning");
  EXPECT_EQ(s->error_message.value_or(""), "deprecated call");
}

}  // namespace
}  // namespace errdex

namespace errdex {
namespace {

// A raising helper's message is what its callers in the file pass (tag "+callers");
// "+open" when some caller's text cannot be read, so the class alone may still
// point at the site. A parameter inside a larger message stays a hole.
TEST(PythonExtractorBeyondOracle, RaisingHelpersTakeTheirCallersTexts) {
  constexpr const char* kSrc = R"PY(
from gettext import gettext as _

class ParamType:
    def fail(self, message, param=None):
        raise BadParameter(message, param=param)

    def check(self, message):
        raise ValueError(message)

    def convert(self, value, param):
        if not value:
            self.fail(_("{value!r} is not a valid {kind}.").format(value=value, kind="int"), param)
        self.fail(message="value is out of the allowed range", param=param)
        self.check("checked value is missing here")
        self.check(value)

def _fail_neg(values, errmsg):
    for x in values:
        if x < 0:
            raise StatisticsError(errmsg)

def _wrap(name):
    raise KeyError("unknown name " + name)

def harmonic(data):
    errmsg = "harmonic mean does not support negative values"
    _fail_neg(data, errmsg)
    _wrap("literal")
)PY";
  PythonExtractResult r = ExtractPython("m.py", kSrc);
  const Site* s = At(r, 6);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->message_pattern.value_or(""), "(?:(.*?) is not a valid int\\.|value is out of the allowed range)");
  EXPECT_EQ(s->message_resolution.find("+open"), std::string::npos) << s->message_resolution;
  EXPECT_NE(s->message_resolution.find("+callers"), std::string::npos);
  s = At(r, 9);  // one caller passes a value we cannot read
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->message_pattern.value_or(""), "checked value is missing here");
  EXPECT_NE(s->message_resolution.find("+callers+open"), std::string::npos) << s->message_resolution;
  s = At(r, 21);  // a module function, the caller's local bound to a literal
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->error_message.value_or(""), "harmonic mean does not support negative values");
  s = At(r, 24);  // the parameter is a value inside the text: not the callers' literal
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->message_pattern.value_or(""), "unknown name (.*?)");
}

// A helper with more literal callers than kMaxAlternatives (decimal's _raise_error has
// 102 calls, 35 distinct texts) takes every one: the messages are alternatives of one
// site, not a product, so the 16 of a product's cap leave out what users see. Past
// kMaxReadAlternatives the message stays open.
TEST(PythonExtractorBeyondOracle, HelperTakesManyCallersTexts) {
  std::string src = "class Context:\n    def _raise_error(self, condition, explanation=None):\n"
                    "        raise condition(explanation)\n\nclass Decimal:\n";
  for (int i = 0; i < 40; ++i)
    src += "    def op" + std::to_string(i) + "(self, context):\n        context._raise_error(InvalidOperation, "
           "\"operation number " + std::to_string(i) + " is undefined\")\n";
  PythonExtractResult r = ExtractPython("m.py", src);
  const Site* s = At(r, 3);
  ASSERT_NE(s, nullptr);
  const std::string p = s->message_pattern.value_or("");
  EXPECT_NE(p.find("operation number 0 is undefined"), std::string::npos) << p;
  EXPECT_NE(p.find("operation number 39 is undefined"), std::string::npos) << p;
  EXPECT_EQ(s->message_resolution.find("+open"), std::string::npos) << s->message_resolution;

  std::string many = "def fail(m):\n    raise ValueError(m)\n";
  for (size_t i = 0; i < py::kMaxReadAlternatives + 5; ++i)
    many += "fail(\"failure number " + std::to_string(i) + " happened\")\n";
  PythonExtractResult rm = ExtractPython("n.py", many);
  s = At(rm, 2);
  ASSERT_NE(s, nullptr);
  EXPECT_NE(s->message_resolution.find("+open"), std::string::npos) << s->message_resolution;
}

// decimal's idiom: Context._raise_error(condition, explanation) is called on another
// object (`context._raise_error(...)`) from another class's methods. A private helper
// the file defines once takes those callers' texts; a public name (`fail`, which any
// object may have) or a private one defined twice does not.
TEST(PythonExtractorBeyondOracle, PrivateHelperTakesOtherReceiversCallers) {
  constexpr const char* kSrc = R"PY(
class Context:
    def _raise_error(self, condition, explanation=None):
        raise condition(explanation)

    def fail(self, message):
        raise ValueError(message)

class Decimal:
    def __new__(cls, value, context):
        return context._raise_error(ConversionSyntax, "Invalid literal for Decimal: %r" % value)

    def compare(self, other, context):
        context._raise_error(InvalidOperation, "comparison involving sNaN")
        context.fail("a public helper of another object")

class A:
    def _twice(self, m):
        raise KeyError(m)

class B:
    def _twice(self, m):
        raise IndexError(m)

def use(a):
    a._twice("which of the two is meant")
)PY";
  PythonExtractResult r = ExtractPython("m.py", kSrc);
  const Site* s = At(r, 4);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->message_pattern.value_or(""), "(?:Invalid literal for Decimal: (.*?)|comparison involving sNaN)");
  s = At(r, 7);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->message_pattern.value_or("").find("public helper"), std::string::npos);
  s = At(r, 19);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->message_pattern.value_or("").find("which of the two"), std::string::npos);
}

}  // namespace
}  // namespace errdex

namespace errdex {
namespace {

// unittest's idiom: the message a function of the file returns, with the call's
// arguments bound ("+returns"; "+open" when a return gives a text we cannot read, or
// one with little literal text), and the class a class attribute names.
TEST(PythonExtractorBeyondOracle, MessagesFromHelperReturnsAndClassAttributes) {
  constexpr const char* kSrc = R"PY(
class TestCase:
    failureException = AssertionError

    def _formatMessage(self, msg, standardMsg):
        if not self.longMessage:
            return msg or standardMsg
        if msg is None:
            return standardMsg
        return '%s : %s' % (standardMsg, msg)

    def assertTrue(self, expr, msg=None):
        if not expr:
            msg = self._formatMessage(msg, "%s is not true" % safe_repr(expr))
            raise self.failureException(msg)

    def _baseAssertEqual(self, first, second, msg=None):
        if not first == second:
            standardMsg = '%s != %s' % _common_shorten_repr(first, second)
            msg = self._formatMessage(msg, standardMsg)
            raise self.failureException(msg)

def describe(kind, name):
    return f"unknown {kind} named {name!r} in this catalog"

def lookup(kind, name):
    raise KeyError(describe(kind, name))
)PY";
  PythonExtractResult r = ExtractPython("m.py", kSrc);
  const Site* s = At(r, 15);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->error_class.value_or(""), "AssertionError");
  EXPECT_EQ(s->message_pattern.value_or(""), "(.*?) is not true");
  EXPECT_NE(s->message_resolution.find("+returns+open"), std::string::npos) << s->message_resolution;
  // A short text (" != ", what `assertEqual(1, 2)` prints as "1 != 2") is still the
  // raise's own, its two values the holes.
  s = At(r, 21);
  ASSERT_NE(s, nullptr);
  EXPECT_NE(s->message_pattern.value_or("").find("(.*?) != (.*?)"), std::string::npos) << s->message_pattern.value_or("");
  EXPECT_NE(s->message_resolution.find("+returns"), std::string::npos) << s->message_resolution;
  s = At(r, 27);  // a module function's return, its parameters bound to the call's arguments
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->message_pattern.value_or(""), "unknown (.*?) named (.*?) in this catalog");
  EXPECT_EQ(s->message_resolution.find("+open"), std::string::npos) << s->message_resolution;
}

}  // namespace
}  // namespace errdex

namespace errdex {
namespace {

// An exception factory of the file: `raise suffixed_err(src, pos, "Invalid key")`
// (tomllib) and `raise self.unexpected()` (graphql) raise what the factory's one
// return constructs -- its class, and its message with the factory's parameters
// bound to the raise's arguments, through the class's own template ("+factory").
TEST(PythonExtractorBeyondOracle, FactoryReturnsTheConstructionItsRaisesRaise) {
  constexpr const char* kSrc = R"PY(
class SyntaxProblem(Exception):
    def __init__(self, source, position, description):
        super().__init__(f"Syntax Error: {description}")

def suffixed_err(src, pos, msg):
    return DecodeError(f"{msg} (at {coord_repr(src, pos)})")

def parse_key(src, pos):
    raise suffixed_err(src, pos, "Invalid initial character for a key part")

class Parser:
    def unexpected(self, at_token=None):
        token = at_token or self.token
        return SyntaxProblem(self.source, token.start, f"Unexpected {desc(token)}.")

    def value(self):
        raise self.unexpected()

def two_ways(flag):
    if flag:
        return ValueError("one")
    return KeyError("two")

def use(flag, m):
    raise two_ways(flag)
)PY";
  py::ClassMessageTable table;
  table.Add(CollectPythonClassMessages("m.py", kSrc));
  PythonExtractResult r = ExtractPython("m.py", kSrc, ExtractLimits{}, &table);
  const Site* s = At(r, 10);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->error_class.value_or(""), "DecodeError");
  EXPECT_EQ(s->error_message.value_or(""), "Invalid initial character for a key part (at {coord_repr(src, pos)})");
  EXPECT_NE(s->message_resolution.find("+factory"), std::string::npos) << s->message_resolution;
  s = At(r, 18);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->error_class.value_or(""), "SyntaxProblem");
  EXPECT_EQ(s->message_pattern.value_or(""), "Syntax Error: Unexpected (.*?)\\.");
  EXPECT_EQ(s->message_resolution, "class-template+factory");
  // Two constructions: which one a raise gets is not ours to say; no message is made up.
  s = At(r, 26);
  ASSERT_NE(s, nullptr);
  EXPECT_FALSE(s->error_message.has_value());
}

// re's parser: `raise source.error(msg, offset)` on another object (the Tokenizer a
// function is given) returns `error(msg, self.string, pos)`, a lower-case class whose
// __init__ appends " at position N". The file's one method of that name is the
// factory; the class table vouches for the lower-case class. A method name two classes
// define is not followed.
// An exception's __init__ that rebinds its `msg` parameter only in a branch (re's
// error adds " at position N" when it knows the pattern): past the if, the argument as
// given is the message too. `raise error("x")` without a position prints "x".
TEST(PythonExtractorBeyondOracle, ClassTemplateKeepsTheArgumentAnIfLeavesAlone) {
  constexpr const char* kSrc = R"PY(
class error(Exception):
    def __init__(self, msg, pattern=None, pos=None):
        self.msg = msg
        if pattern is not None and pos is not None:
            msg = '%s at position %d' % (msg, pos)
        else:
            self.lineno = None
        super().__init__(msg)

class Both(Exception):
    def __init__(self, msg, code):
        if code:
            msg = 'E%d: %s' % (code, msg)
        else:
            msg = 'unknown: %s' % msg
        super().__init__(msg)

def f():
    raise error("look-behind requires fixed-width pattern")

def g():
    raise Both("broken", 3)
)PY";
  py::ClassMessageTable table;
  table.Add(CollectPythonClassMessages("m.py", kSrc));
  PythonExtractResult r = ExtractPython("m.py", kSrc, ExtractLimits{}, &table);
  const Site* s = At(r, 20);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->message_pattern.value_or(""),
            "(?:look-behind requires fixed-width pattern at position (.*?)|look-behind requires fixed-width pattern)");
  s = At(r, 23);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->message_pattern.value_or("").find("|broken)"), std::string::npos)
      << "every path through Both's if binds msg: " << s->message_pattern.value_or("");
}

TEST(PythonExtractorBeyondOracle, FactoryMethodOfAnotherObjectAndALowerCaseClass) {
  constexpr const char* kErrors = R"PY(
class error(Exception):
    def __init__(self, msg, pattern=None, pos=None):
        self.msg = msg
        if pattern is not None and pos is not None:
            msg = '%s at position %d' % (msg, pos)
        super().__init__(msg)

class Error(Exception): pass
class error_proto(Error): pass          # ftplib's: a class of no message of its own
class helper(object): pass
)PY";
  constexpr const char* kParser = R"PY(
from errors import error

class Tokenizer:
    def error(self, msg, offset=0):
        return error(msg, self.string, self.tell() - offset)

class A:
    def twice(self):
        return ValueError("a")

class B:
    def twice(self):
        return KeyError("b")

def checkgroupname(source, name):
    if not name.isidentifier():
        raise source.error("bad character in group name %r" % name, len(name))

def other(thing):
    raise thing.twice()

def getresp(resp):
    if resp[:1] not in {'1', '2', '3', '4', '5'}:
        raise error_proto(resp)
    raise helper(resp)
)PY";
  py::ClassMessageTable table;
  table.Add(CollectPythonClassMessages("errors.py", kErrors));
  table.Add(CollectPythonClassMessages("parser.py", kParser));
  PythonExtractResult r = ExtractPython("parser.py", kParser, ExtractLimits{}, &table);
  const Site* s = At(r, 18);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->error_class.value_or(""), "error");
  EXPECT_NE(s->message_pattern.value_or("").find("bad character in group name (.*?) at position (.*?)"), std::string::npos)
      << s->message_pattern.value_or("");
  EXPECT_NE(s->message_resolution.find("+factory"), std::string::npos) << s->message_resolution;
  s = At(r, 21);
  ASSERT_NE(s, nullptr);
  EXPECT_FALSE(s->error_class.has_value()) << "two classes define twice(): which one runs is not ours to say";
  // A lower-case class whose bases reach an exception is the raised class, message or not.
  s = At(r, 25);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->error_class.value_or(""), "error_proto");
  s = At(r, 26);
  ASSERT_NE(s, nullptr);
  EXPECT_FALSE(s->error_class.has_value()) << "a lower-case class that is no exception";
}

}  // namespace
}  // namespace errdex
