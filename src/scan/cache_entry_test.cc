// scan/cache_entry: a file's entry comes back as it was packed, its views
// pointing into the unpacked bytes, and a damaged value is refused.
#include "scan/cache_entry.h"

#include <gtest/gtest.h>

namespace errdex {
namespace {

TEST(CacheEntry, AFileEntryComesBackAsPacked) {
  std::string table(300, 'x');  // more than one varint byte of length
  std::vector<std::string_view> identifiers = {"BaseError", "ValueError", "fmt"};
  std::string packed = PackFileEntry(table, identifiers);
  ASSERT_FALSE(packed.empty());
  std::string raw;
  std::string_view table_back;
  std::vector<std::string_view> identifiers_back = {"stale"};
  ASSERT_TRUE(UnpackFileEntry(packed, &raw, &table_back, &identifiers_back));
  EXPECT_EQ(table_back, table);
  EXPECT_EQ(identifiers_back, identifiers);
  for (std::string_view id : identifiers_back)
    EXPECT_TRUE(id.data() >= raw.data() && id.data() + id.size() <= raw.data() + raw.size()) << "a view into raw";
}

TEST(CacheEntry, ADamagedValueIsRefused) {
  std::string packed = PackCacheValue("some bytes worth keeping");
  std::string raw;
  ASSERT_TRUE(UnpackCacheValue(packed, &raw));
  EXPECT_EQ(raw, "some bytes worth keeping");
  EXPECT_FALSE(UnpackCacheValue("", &raw));
  EXPECT_FALSE(UnpackCacheValue(std::string(12, '\x80'), &raw));  // no end to the size
  EXPECT_FALSE(UnpackCacheValue(packed.substr(0, packed.size() - 1), &raw));
  std::string_view table;
  std::vector<std::string_view> identifiers;
  EXPECT_FALSE(UnpackFileEntry(PackCacheValue("\x05" "abc"), &raw, &table, &identifiers)) << "table cut short";
}

TEST(CacheEntry, HexDigestNamesThePartsNotTheirConcatenation) {
  EXPECT_EQ(HexDigestOf({"ab", "c"}), HexDigestOf({"ab", "c"}));
  EXPECT_NE(HexDigestOf({"ab", "c"}), HexDigestOf({"a", "bc"}));
  EXPECT_EQ(HexDigestOf({"ab"}).size(), 32u);
}

}  // namespace
}  // namespace errdex
