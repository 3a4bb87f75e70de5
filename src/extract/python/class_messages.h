// Messages built by exception classes, not at the raise: a class attribute template
// filled from keyword arguments (botocore: fmt = '... "{endpoint_url}"' and
// raise EndpointConnectionError(endpoint_url=u)), an __init__ that passes a
// template to its base (configparser: Error.__init__(self, 'No section: %r' %
// (section,)); urllib3: super().__init__(f"Failed to parse: {location}")), or a
// __str__ returning one (subprocess.CalledProcessError).
//
// The scanner collects the classes of every .py file of a repository first
// (CollectPythonClassMessages, python_extractor.h), merges them into a
// ClassMessageTable, and the Python front end binds a raise's arguments into its
// class's template (BindClassMessage), through the class bases, repo-wide. The
// site's messageResolution is then "class-template".
//
// Thread-safety: a ClassMessageTable is immutable once built; share it freely.
// Tested by python_extractor_test.cc (ClassMessages.*).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "extract/python/message_eval.h"

namespace errdex::py {

// How one class builds its message (what CollectPythonClassMessages found).
struct ClassMessage {
  std::string file;                 // repo-relative path of the defining file
  std::string name;
  std::vector<std::string> bases;   // last dotted component of each base
  enum class Source : uint8_t {
    kNone,        // the class says nothing about its message (maybe a base does)
    kText,        // `text`, holes naming __init__ parameters (or other expressions)
    kFormatAttr,  // self.<format_attr>.format(**kwargs): the attribute's string, fields by keyword
    kBaseCall,    // Base.__init__(self, a, b): base_args bound to the base's own template
    // __str__ returns self.args[0] % self.args[1:] (dateutil's ParserError): the raise's
    // first argument is a %-template, the others fill it.
    kArgsPercent,
  };
  Source source = Source::kNone;
  std::vector<std::string> params;  // __init__ parameters after self, in order
  Segs text;                        // kText
  std::string format_attr;          // kFormatAttr
  std::map<std::string, std::string> attr_strings;  // class attributes bound to a string literal
  // Class attributes bound to a decimal integer literal, as written (werkzeug: code =
  // 404); "" for one bound to anything else (it hides a base's value all the same).
  std::map<std::string, std::string> attr_ints;
  // __init__ parameters stored on self (self.description = description), parameter ->
  // attribute: a raise that does not pass one leaves the class attribute showing.
  std::map<std::string, std::string> param_attrs;
  std::vector<std::string> init_attrs;  // every attribute __init__ sets on self (its value hides the class's)
  // __init__ parameters whose default is a string literal (plistlib:
  // def __init__(self, message="Invalid file")): what a raise that passes none prints.
  std::map<std::string, std::string> param_defaults;
  // kBaseCall: the arguments its __init__ passes on to the base's (after self), in
  // order (configparser: InterpolationError.__init__(self, option, section, msg)).
  std::vector<Segs> base_args;
};

// A class's template, ready to bind: resolved through the bases.
struct ClassTemplate {
  std::vector<std::string> params;  // positional order of the raise's arguments
  Segs text;                        // holes named by params bind to the raise's arguments
  bool by_keyword_only = false;     // a format-attribute template: fields bind by keyword
  bool args_percent = false;        // kArgsPercent: `text` is empty; the raise's arguments are the message
  // What the raised class and its bases define (the nearest first): a hole
  // `self.code`, or a parameter not passed at the raise that __init__ would store on
  // self, shows the class attribute (NotFound: code = 404, description = '...').
  std::map<std::string, std::string> param_attrs;  // parameter -> attribute (the text's class)
  std::map<std::string, std::string> param_defaults;  // parameter -> its string default (the text's class)
  std::vector<std::string> init_attrs;             // set on self by an __init__ of the raised class or a base
  struct AttrValue {
    std::string text;
    bool is_str = true;  // repr'd by "!r"; an integer prints as written
  };
  std::map<std::string, AttrValue> class_attrs;
};

class ClassMessageTable {
 public:
  void Add(std::vector<ClassMessage> classes);
  // The template class `name` builds, as raised from `file`: its own or its nearest
  // base's (a class of the same name in the raising file is preferred, then one of
  // the same directory, then a unique one); nullopt when there is none or it has no
  // literal text (a message passed through as is).
  std::optional<ClassTemplate> Resolve(std::string_view name, std::string_view file) const;
  // `name`, seen from `file`, is a class whose bases reach an exception (a base named
  // *Error, *Exception, *Warning or BaseException, through the table's classes):
  // ftplib's `class error_proto(Error)`, a class whatever its case.
  bool IsExceptionClass(std::string_view name, std::string_view file) const;
  size_t size() const { return classes_.size(); }

 private:
  const ClassMessage* Find(std::string_view name, std::string_view file) const;
  // The template `c` builds, through its bases, literal text or not (a base that
  // passes its argument through as is is bound by a subclass's kBaseCall).
  std::optional<ClassTemplate> ResolveFrom(const ClassMessage* c, int depth) const;
  std::vector<std::unique_ptr<ClassMessage>> classes_;
  std::multimap<std::string, const ClassMessage*, std::less<>> by_name_;
};

// The raise's arguments as the template sees them: each positional argument and
// each keyword argument already evaluated (a literal, or a hole named by the
// argument's source text).
struct BoundArgs {
  std::vector<Segs> positional;
  std::vector<std::pair<std::string, Segs>> keywords;
  bool star = false;  // *args / **kwargs: positions and names past them are unknown
};

// The message of a raise of a class with template `t` and arguments `args`: each
// hole naming a parameter becomes the argument given for it (its literal text,
// repr'd for "!r"), a parameter's string default or a class attribute
// (ClassTemplate::class_attrs) fills what no argument gives, other holes stay holes. nullopt when the result has no literal
// text beyond what the arguments brought.
MaybeSegs BindClassMessage(const ClassTemplate& t, const BoundArgs& args);

// Some literal text, in the segments or one of their alternatives.
bool HasLiteral(const Segs& segs);

// Cheap test: may this file define an exception class with a message of its own?
// (A class whose bases end in Error/Exception/Warning/..., and an __init__,
// __str__ or a class-level template attribute.) Files failing it are not collected.
bool MayDefineClassMessages(std::string_view text);

}  // namespace errdex::py
