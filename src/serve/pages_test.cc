// pages: templates never emit raw values; hostile records stay text; links work.
#include "serve/pages.h"

#include <gtest/gtest.h>

#include "serve/assets.h"
#include "serve/serve_test_util.h"

namespace errdex::serve {
namespace {

using testing_util::TempDir;

TEST(Templates, NeverUseTheUnescapedForms) {
  size_t templates = 0;
  for (const EmbeddedAsset& a : EmbeddedAssets()) {
    if (a.path.rfind("templates/", 0) != 0) continue;
    ++templates;
    EXPECT_EQ(a.bytes.find("{{{"), std::string_view::npos) << a.path;
    EXPECT_EQ(a.bytes.find("{{&"), std::string_view::npos) << a.path;
    EXPECT_EQ(a.bytes.find("style=\""), std::string_view::npos) << a.path << ": inline style (CSP)";
    EXPECT_EQ(a.bytes.find("<script>"), std::string_view::npos) << a.path << ": inline script (CSP)";
    for (const char* handler : {" onclick=", " onload=", " onerror=", " onsubmit=", "javascript:"})
      EXPECT_EQ(a.bytes.find(handler), std::string_view::npos) << a.path << ": " << handler;
  }
  EXPECT_GE(templates, 6u);
}

class PagesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    testing_util::WriteCatalog(dir_.File("c.db"));
    ServiceOptions o;
    o.db = dir_.File("c.db");
    service_ = std::make_unique<CatalogService>(o);
    ASSERT_TRUE(service_->LoadNow().ok()) << service_->last_error().ToString();
    snap_ = service_->Current();
  }
  std::vector<std::shared_ptr<const EntryDetails>> Slug(const std::string& slug) {
    auto r = RecordsOfSlug(*service_, *snap_, "o/r", slug);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? *r : std::vector<std::shared_ptr<const EntryDetails>>{};
  }
  TempDir dir_;
  std::unique_ptr<CatalogService> service_;
  std::shared_ptr<const CatalogSnapshot> snap_;
};

void ExpectInert(const std::string& html) {
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_EQ(html.find("<script>alert"), std::string::npos);
  EXPECT_EQ(html.find("<b>tag"), std::string::npos);
  EXPECT_EQ(html.find("javascript:"), std::string::npos);
  EXPECT_EQ(html.find('\x1b'), std::string::npos);
  EXPECT_EQ(html.find("\xe2\x80\xae"), std::string::npos);  // the bidi override itself
}

TEST_F(PagesTest, AHostileRecordIsShownAsText) {
  std::string slug = *testing_util::HostileLine("o/r", "s1").record.slug;
  auto recs = Slug(slug);
  ASSERT_EQ(recs.size(), 1u);
  PageContext ctx;
  std::string html = ErrorPage(ctx, *snap_, recs);
  ExpectInert(html);
  EXPECT_NE(html.find("&lt;img src=x onerror=alert(1)&gt;"), std::string::npos);
  EXPECT_NE(html.find("\\u202eevil"), std::string::npos);  // shown, not obeyed
  EXPECT_NE(html.find("&lt;script&gt;alert(3)&lt;/script&gt;"), std::string::npos);
  EXPECT_EQ(html.find("permalink"), std::string::npos) << "a javascript: URL is no link";
  // The tag's search link: the value percent-encoded in the URL, escaped in the text.
  EXPECT_NE(html.find("search?tag=%22%3E%3Cb%3Etag%3C%2Fb%3E"), std::string::npos);

  ExplainRequest req;
  req.text = "XssError: <img src=x onerror=alert(1)> red \xe2\x80\xae" "evil";
  auto answer = Explain(*service_, *snap_, req);
  ASSERT_TRUE(answer.ok());
  std::string explained = ExplainPage(ctx, *snap_, req.text, &*answer);
  ExpectInert(explained);
  SearchRequest sr;
  sr.q = "img onerror";
  auto found = Search(*service_, *snap_, sr);
  ASSERT_TRUE(found.ok());
  ASSERT_EQ(found->items.size(), 1u);
  ExpectInert(SearchPage(ctx, snap_.get(), sr, &*found, ""));
  ExpectInert(IndexPage(ctx, snap_.get()));
}

TEST_F(PagesTest, AnErrorPageShowsItsPartsAndSource) {
  auto recs = Slug("expected-shape-value-for-the-attention-kernel");
  ASSERT_EQ(recs.size(), 1u);
  PageContext ctx;
  std::string html = ErrorPage(ctx, *snap_, recs);
  EXPECT_NE(html.find("expected shape <mark class=\"hole\" title=\"interpolated\">{value}</mark> for the attention kernel"),
            std::string::npos)
      << html;
  const Record& r = recs[0]->record;
  // The raise line is highlighted and numbered.
  EXPECT_NE(html.find("id=\"r-" + r.id + "-L" + std::to_string(r.line_number) + "\" class=\"hl\""), std::string::npos);
  EXPECT_NE(html.find("href=\"" + *r.github_url + "\""), std::string::npos);
  EXPECT_NE(html.find("<span class=\"badge\">latest</span>"), std::string::npos);
  EXPECT_NE(html.find("href=\"/v1/errors/" + r.id + "\""), std::string::npos);
}

TEST_F(PagesTest, ExplainCardsMarkCapturesAndLinkToThePage) {
  ExplainRequest req;
  req.text = "ValueError: expected shape (3, 4) for the attention kernel\n";
  auto answer = Explain(*service_, *snap_, req);
  ASSERT_TRUE(answer.ok());
  ASSERT_FALSE(answer->hits.empty());
  std::string html = ExplainPage(PageContext{}, *snap_, req.text, &*answer);
  EXPECT_NE(html.find("<mark class=\"cap\">(3, 4)</mark>"), std::string::npos) << html;
  EXPECT_NE(html.find("<span class=\"label\">EXACT</span>"), std::string::npos);
  EXPECT_NE(html.find("href=\"/e/o/r/expected-shape-value-for-the-attention-kernel#r-"), std::string::npos);
  // The textarea keeps the paste, escaped.
  EXPECT_NE(html.find(">ValueError: expected shape (3, 4) for the attention kernel\n</textarea>"), std::string::npos);

  ExplainRequest none;
  none.text = "nothing like any catalog message at all zzqx\n";
  none.fuzzy = false;
  auto empty = Explain(*service_, *snap_, none);
  ASSERT_TRUE(empty.ok());
  EXPECT_NE(ExplainPage(PageContext{}, *snap_, none.text, &*empty).find("Nothing in the catalog matched"),
            std::string::npos);
}

TEST_F(PagesTest, SitePagesLinkRelativelyToHtmlFiles) {
  PageContext ctx;
  ctx.site = true;
  ctx.root = "../../../";
  auto recs = Slug("tensor-is-empty");
  ASSERT_EQ(recs.size(), 1u);
  std::string html = ErrorPage(ctx, *snap_, recs);
  EXPECT_NE(html.find("href=\"../../../assets/style.css\""), std::string::npos);
  EXPECT_NE(html.find("href=\"../../../e/o/r/tensor-is-empty.html#r-"), std::string::npos);
  EXPECT_EQ(html.find("/v1/"), std::string::npos) << "no API links on a static site";
  EXPECT_EQ(html.find("action=\""), std::string::npos) << "no forms that need a server";
}

TEST(ErrorPagePath, SegmentsAreSafe) {
  Record r;
  r.id = "0123456789abcdef";
  r.repo = "../x/y";
  r.slug = "a-b";
  EXPECT_EQ(ErrorPagePath(r, false), "e/%2E%2E/x%2Fy/a-b");
  EXPECT_EQ(ErrorPagePath(r, true), "e/_2E./x_2Fy/a-b.html");
  r.repo.reset();
  r.slug.reset();
  EXPECT_EQ(ErrorPagePath(r, false), "e/-/-/0123456789abcdef");
  EXPECT_EQ(RepoFromSegments("-", "-"), "");
  EXPECT_EQ(RepoFromSegments("o", "r"), "o/r");
}

}  // namespace
}  // namespace errdex::serve
