// scan/py_classes: a file's class-template digest names exactly the templates
// its raises can bind to (and only those), and a file's classes survive the
// cache's bytes.
#include "scan/py_classes.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

#include "extract/python/python_extractor.h"
#include "scan/unit_key.h"

namespace errdex {
namespace {

constexpr const char* kErrors = R"PY(
class BaseError(Exception):
    fmt = 'An unspecified error occurred'

    def __init__(self, **kwargs):
        msg = self.fmt.format(**kwargs)
        Exception.__init__(self, msg)


class EndpointError(BaseError):
    fmt = 'Could not connect to "{endpoint_url}"'


class SectionError(ValueError):
    def __init__(self, section):
        ValueError.__init__(self, 'No section: %r' % (section,))
)PY";

std::string DigestOf(const std::vector<py::ClassMessage>& classes, std::string_view text) {
  std::vector<const py::ClassMessage*> all;
  for (const py::ClassMessage& c : classes) all.push_back(&c);
  return PyClassDependencies(all).Digest(SortedIdentifiers(text, /*non_ascii_letters=*/true));
}

// The identifiers as they were computed before the flat table (an
// std::unordered_set of views): the keys cached in existing catalogs are
// digests over them, so the two must agree byte for byte.
std::vector<std::string> ReferenceIdentifiers(std::string_view text, bool non_ascii_letters) {
  auto start = [&](unsigned char c) { return (c | 0x20) - 'a' < 26u || c == '_' || (non_ascii_letters && c >= 0x80); };
  auto part = [&](unsigned char c) { return start(c) || c - '0' < 10u; };
  std::set<std::string> seen;
  for (size_t i = 0; i < text.size();) {
    unsigned char c = text[i];
    if (start(c)) {
      size_t j = i + 1;
      while (j < text.size() && part(text[j])) ++j;
      seen.emplace(text.substr(i, j - i));
      i = j;
    } else if (c - '0' < 10u) {
      while (i < text.size() && part(text[i])) ++i;
    } else {
      ++i;
    }
  }
  return std::vector<std::string>(seen.begin(), seen.end());
}

TEST(PyClasses, SortedIdentifiersAgreeWithTheReference) {
  std::mt19937 rng(11);
  const std::string alphabet = "abcXYZ_09 \n.(),\xc3\xa9\x80\xff=+";
  std::vector<std::string> texts = {"", "x", "0abc _a1 a_1 1_a", kErrors, "\xc3\xa9t\xc3\xa9 caf\xc3\xa9 9\xc3\xa9"};
  for (int t = 0; t < 200; ++t) {
    std::string s;
    size_t n = rng() % (t < 100 ? 64 : 20000);
    for (size_t i = 0; i < n; ++i) s.push_back(alphabet[rng() % alphabet.size()]);
    texts.push_back(std::move(s));
  }
  std::string many;  // enough distinct words to grow the table several times
  for (int i = 0; i < 5000; ++i) many += "w" + std::to_string(i * 7919 % 100003) + " x" + std::to_string(i % 17) + "\n";
  texts.push_back(many);
  for (const std::string& text : texts)
    for (bool non_ascii : {true, false})
      EXPECT_EQ(SortedIdentifiers(text, non_ascii), ReferenceIdentifiers(text, non_ascii)) << text.substr(0, 80);
}

TEST(PyClasses, ClassesRoundTripThroughTheirBytes) {
  std::vector<py::ClassMessage> classes = CollectPythonClassMessages("pkg/errors.py", kErrors);
  ASSERT_EQ(classes.size(), 3u);
  std::string bytes = EncodeClassMessages(classes);
  std::vector<py::ClassMessage> back;
  ASSERT_TRUE(DecodeClassMessages(bytes, "pkg/errors.py", &back));
  ASSERT_EQ(back.size(), classes.size());
  for (size_t i = 0; i < classes.size(); ++i)
    EXPECT_EQ(EncodeClassMessage(back[i], true), EncodeClassMessage(classes[i], true)) << i;
  EXPECT_EQ(EncodeClassMessages(back), bytes);
  EXPECT_FALSE(DecodeClassMessages(bytes.substr(0, bytes.size() - 1), "pkg/errors.py", &back));
  EXPECT_FALSE(DecodeClassMessages("", "pkg/errors.py", &back));
}

TEST(PyClasses, TheDigestNamesTheTemplatesAFileCanReach) {
  std::vector<py::ClassMessage> v1 = CollectPythonClassMessages("pkg/errors.py", kErrors);
  const std::string raises_endpoint = "from .errors import EndpointError\nraise EndpointError(endpoint_url=u)\n";
  const std::string raises_section = "from .errors import SectionError\nraise SectionError('s')\n";
  const std::string raises_none = "raise ValueError('plain')\n";
  EXPECT_EQ(DigestOf(v1, raises_none), "");
  EXPECT_EQ(DigestOf(v1, raises_endpoint).size(), 16u);
  EXPECT_NE(DigestOf(v1, raises_endpoint), DigestOf(v1, raises_section));

  // The base's template changes: EndpointError's raisers see it (through the
  // base), SectionError's do not.
  std::string base_changed = kErrors;
  base_changed.replace(base_changed.find("An unspecified"), 14, "Some unknown");
  std::vector<py::ClassMessage> v2 = CollectPythonClassMessages("pkg/errors.py", base_changed);
  EXPECT_NE(DigestOf(v1, raises_endpoint), DigestOf(v2, raises_endpoint));
  EXPECT_EQ(DigestOf(v1, raises_section), DigestOf(v2, raises_section));

  // A class of the same name in another file changes which one a raise binds to.
  std::vector<py::ClassMessage> v3 = v1;
  for (py::ClassMessage& c : CollectPythonClassMessages("other/errors.py", kErrors)) v3.push_back(std::move(c));
  EXPECT_NE(DigestOf(v1, raises_section), DigestOf(v3, raises_section));

  // The order the files came in does not matter.
  std::vector<py::ClassMessage> v4(v3.rbegin(), v3.rend());
  EXPECT_EQ(DigestOf(v3, raises_section), DigestOf(v4, raises_section));
}

}  // namespace
}  // namespace errdex
