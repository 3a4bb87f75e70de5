// Tests of the unit payload (unit.h) and the byte codec (codec.h).
#include "store/unit.h"

#include <gtest/gtest.h>

#include "store/codec.h"
#include "store/store_test_util.h"

namespace errdex {
namespace {

using testing_util::MakeLine;

Unit DerivedUnit() {
  Unit u;
  u.kind = UnitKind::kDerived;
  u.key = std::string(16, 'k');
  u.variant = 42;
  u.repo = "o/r";
  u.path = "pkg/mod.py";
  for (int i = 0; i < 3; ++i) {
    UnitRecord r;
    r.line = MakeLine("o/r", "abc", i, "failure number " + std::to_string(i));
    ClearCommitFields(&r.line);
    Site s;
    s.file_path = "pkg/mod.py";
    s.line = 20 + i;
    s.error_class = "ValueError";
    s.error_message = r.line.record.error_message;
    s.guards = {"if x:", "while y:"};
    s.truncated = {{"guards", 70}, {"errorMessage", 20000}};
    r.line.facts = s;
    r.context = i == 1 ? "" : "{\"known\":true}";
    u.records.push_back(std::move(r));
  }
  u.stats.bytes = 1234;
  u.stats.sites_left_out = 2;
  u.stats.sites_by_kind = {3, 0, 0, 0, 0, 0};
  u.stats.excerpts_cut = 1;
  u.stats.diagnostics.push_back({"pkg/mod.py", 3, 4, "a soft error"});
  return u;
}

TEST(UnitPayload, RoundTripsEveryField) {
  Unit u = DerivedUnit();
  std::string payload = EncodePayload(u);
  Unit back;
  ASSERT_TRUE(DecodePayload(payload, &back).ok());
  EXPECT_EQ(back.kind, u.kind);
  ASSERT_EQ(back.records.size(), u.records.size());
  for (size_t i = 0; i < u.records.size(); ++i) {
    EXPECT_EQ(CatalogLineToJson(back.records[i].line), CatalogLineToJson(u.records[i].line));
    EXPECT_EQ(back.records[i].context, u.records[i].context);
  }
  EXPECT_EQ(EncodeStats(back.stats), EncodeStats(u.stats));
  EXPECT_EQ(back.stats.diagnostics.at(0).message, "a soft error");
  EXPECT_EQ(EncodePayload(back), payload);  // deterministic bytes
}

TEST(UnitPayload, DamageIsAnErrorNotACrash) {
  std::string payload = EncodePayload(DerivedUnit());
  for (size_t cut = 0; cut < payload.size(); cut += 7) {
    Unit back;
    EXPECT_FALSE(DecodePayload(payload.substr(0, cut), &back).ok()) << cut;
  }
  std::string flipped = payload;
  flipped[0] = 99;  // an unknown version
  Unit back;
  EXPECT_FALSE(DecodePayload(flipped, &back).ok());
}

// DecodeSiteRefs reads what DecodePayload reads, for the records with facts.
TEST(UnitPayload, SiteRefsAreWhatTheWholeDecodeGives) {
  Unit u = DerivedUnit();
  u.records[1].line.facts->error_class.reset();    // a null errorClass
  u.records[2].line.facts->kind = SiteKind::kAssert;
  UnitRecord bare;                                  // no facts: left out
  bare.line = MakeLine("o/r", "abc", 9, "no facts here");
  u.records.insert(u.records.begin() + 1, bare);
  std::string payload = EncodePayload(u);
  Unit whole;
  ASSERT_TRUE(DecodePayload(payload, &whole).ok());
  std::vector<UnitSiteRef> refs;
  ASSERT_TRUE(DecodeSiteRefs(payload, &refs).ok());
  std::vector<UnitSiteRef> expected;
  for (const UnitRecord& r : whole.records)
    if (r.line.facts)
      expected.push_back({r.line.record.id, r.line.facts->line, std::string(SiteKindName(r.line.facts->kind)),
                          r.line.facts->error_class.value_or("")});
  ASSERT_EQ(refs.size(), 3u);
  ASSERT_EQ(refs.size(), expected.size());
  for (size_t i = 0; i < refs.size(); ++i) {
    EXPECT_EQ(refs[i].id, expected[i].id);
    EXPECT_FALSE(refs[i].id.empty());
    EXPECT_EQ(refs[i].line, expected[i].line);
    EXPECT_EQ(refs[i].kind, expected[i].kind);
    EXPECT_EQ(refs[i].error_class, expected[i].error_class);
  }
  EXPECT_EQ(refs[1].error_class, "");
  EXPECT_EQ(refs[2].kind, "assert");
  EXPECT_EQ(refs[0].line, 20);
}

TEST(UnitPayload, SiteRefsOfADamagedPayloadAreAnError) {
  std::string payload = EncodePayload(DerivedUnit());
  std::vector<UnitSiteRef> refs;
  for (size_t cut = 0; cut < payload.size(); cut += 7)
    EXPECT_FALSE(DecodeSiteRefs(payload.substr(0, cut), &refs).ok()) << cut;
  // A facts object that is not JSON, and one that is an array.
  for (std::string bad : {"{\"kind\":", "[1,2]", "\"text\"", "{\"kind\":\"raise\"}"}) {
    std::string p;
    store::ByteWriter w(&p);
    w.Byte(1);
    w.Byte(static_cast<uint8_t>(UnitKind::kDerived));
    w.Varint(1);
    w.Bytes("{\"id\":\"0123456789abcdef\"}");
    w.Bytes("2026-01-01T00:00:00.000Z");
    w.Byte(1);
    w.Bytes(bad);
    w.Bytes("");
    EXPECT_FALSE(DecodeSiteRefs(p, &refs).ok()) << bad;
  }
}

TEST(UnitPayload, MaterializeFillsTheCommitOfDerivedRecordsOnly) {
  Unit u = DerivedUnit();
  CommitFields c{std::string("0123456789abcdef0123456789abcdef01234567"), "2026-03-01T00:00:00.000Z"};
  CatalogLine line = Materialize(UnitKind::kDerived, u.records[0], c);
  EXPECT_EQ(line.record.analyzed_sha, c.sha);
  EXPECT_EQ(line.record.analyzed_at, c.dataset_version);
  EXPECT_EQ(line.dataset_version, c.dataset_version);
  EXPECT_EQ(*line.record.github_url, MakeGithubUrl("o/r", *c.sha, "pkg/mod.py", line.record.source_code_start,
                                                   line.record.source_code_end));
  // No commit (a directory outside git): no link, no sha.
  CatalogLine nosha = Materialize(UnitKind::kDerived, u.records[0], CommitFields{std::nullopt, "t"});
  EXPECT_FALSE(nosha.record.analyzed_sha);
  EXPECT_FALSE(nosha.record.github_url);
  // Verbatim lines stay exactly as stored.
  UnitRecord kept{MakeLine("o/r", "zzz", 0, "as imported"), ""};
  EXPECT_EQ(CatalogLineToJson(Materialize(UnitKind::kVerbatim, kept, c)), CatalogLineToJson(kept.line));
}

TEST(UnitPayload, EntriesNameWhatSearchReads) {
  CatalogLine a = MakeLine("o/r", "s", 0, "same message");
  CatalogLine b = MakeLine("o/r", "t", 0, "same message");  // another commit: same entry
  EXPECT_EQ(EntryOf(a.record).hash, EntryOf(b.record).hash);
  b.record.tags = std::vector<std::string>{"x", "y"};
  EntryFields e = EntryOf(b.record);
  EXPECT_NE(e.hash, EntryOf(a.record).hash);
  EXPECT_EQ(e.tags, "\nx\ny\n");
}

TEST(Codec, VarintsAndBytes) {
  std::string out;
  store::ByteWriter w(&out);
  for (uint64_t v : {uint64_t{0}, uint64_t{127}, uint64_t{128}, uint64_t{1} << 40, ~uint64_t{0}}) w.Varint(v);
  w.Signed(-5);
  w.Bytes("hello");
  store::ByteReader r(out);
  for (uint64_t v : {uint64_t{0}, uint64_t{127}, uint64_t{128}, uint64_t{1} << 40, ~uint64_t{0}}) EXPECT_EQ(r.Varint(), v);
  EXPECT_EQ(r.Signed(), -5);
  EXPECT_EQ(r.Bytes(), "hello");
  EXPECT_TRUE(r.ok());
  EXPECT_TRUE(r.done());
  EXPECT_EQ(r.Varint(), 0u);  // past the end: an error, never a read out of bounds
  EXPECT_FALSE(r.ok());
}

// Keys hashed in pieces (the scan's knowledge key) must equal the keys stored
// by earlier versions, which hashed one buffer written with ByteWriter.
TEST(Codec, AHashInPiecesEqualsTheHashOfTheWholeBuffer) {
  std::string whole;
  store::ByteWriter w(&whole);
  store::ContentHasher pieces;
  std::string big(300, 'x');  // a length that takes two varint bytes
  for (std::string_view piece : {std::string_view("fingerprint"), std::string_view(""), std::string_view(big)}) {
    w.Bytes(piece);
    pieces.UpdateBytes(piece);
  }
  EXPECT_EQ(pieces.Digest(), store::ContentHash(whole));
  pieces.Update("more");
  EXPECT_NE(pieces.Digest(), store::ContentHash(whole));
  EXPECT_EQ(pieces.Digest(), store::ContentHash(whole + "more"));
}

TEST(Codec, DeltaAgainstAPrefixIsSmallAndNeedsThePrefix) {
  std::string v1;
  for (int i = 0; i < 2000; ++i) v1 += "line " + std::to_string(i * 7919 % 10007) + " of the first version\n";
  std::string v2 = "one new line at the top\n" + v1;
  auto whole = store::Compress(v2);
  auto delta = store::Compress(v2, v1);
  ASSERT_TRUE(whole.ok() && delta.ok());
  EXPECT_LT(delta->size() * 10, whole->size());
  auto back = store::Decompress(*delta, v2.size(), v1);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, v2);
  EXPECT_FALSE(store::Decompress(*delta, v2.size()).ok());  // without its base: an error
  EXPECT_FALSE(store::Decompress(*whole, v2.size() + 1).ok());
  EXPECT_FALSE(store::Decompress("not zstd", 10).ok());
}

// A multi-megabyte text of mostly incompressible bytes (the knowledge keeps
// compressed sources): a new version that changes a little of it must be
// stored as a small delta, not as almost the whole thing again.
TEST(Codec, DeltaOfALargeIncompressibleTextIsSmall) {
  std::string v1(8 << 20, '\0');
  uint64_t x = 88172645463325252ull;
  for (char& c : v1) {  // xorshift: bytes zstd cannot compress
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    c = static_cast<char>(x);
  }
  std::string v2 = v1;
  v2.replace(3 << 20, 1000, std::string(1000, 'x'));  // an edit in the middle
  v2 += std::string(v1, 100, 4096);                     // and an old run moved to the end
  auto delta = store::Compress(v2, v1);
  ASSERT_TRUE(delta.ok());
  EXPECT_LT(delta->size(), v2.size() / 100) << "the delta is " << delta->size() << " bytes";
  auto back = store::Decompress(*delta, v2.size(), v1);
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(*back == v2);
}

}  // namespace
}  // namespace errdex
