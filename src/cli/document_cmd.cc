// Placeholder until the document stage lands.
#include "cli/commands.h"

namespace errdex::cli {
void RegisterDocumentCommands(CLI::App& app, CommandTable& table) {}
}  // namespace errdex::cli
