// document/documenter.cc: stub implementation (real code lands next) so that
// scan/ and cli/ can link against document/documenter.h.
#include "document/documenter.h"

namespace errdex {

struct FileKnowledge {};
void FileKnowledgeDeleter::operator()(FileKnowledge* k) const { delete k; }

FileKnowledgePtr CollectFileKnowledge(std::string_view path, std::string_view text) {
  return FileKnowledgePtr(new FileKnowledge());
}

namespace {
class StubKnowledge final : public RepoKnowledge {
 public:
  std::string Serialize() const override { return "{}"; }
};
}  // namespace

std::unique_ptr<RepoKnowledge> RepoKnowledge::Build(std::vector<FileKnowledgePtr> files) {
  return std::make_unique<StubKnowledge>();
}
std::unique_ptr<RepoKnowledge> RepoKnowledge::Deserialize(std::string_view json) {
  return std::make_unique<StubKnowledge>();
}

void DocumentRecord(const Site& site, std::string_view file_text, const RepoKnowledge& repo,
                    Record* record) {}

}  // namespace errdex
