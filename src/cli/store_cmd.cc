// Placeholder until the store stage lands.
#include "cli/commands.h"

namespace errdex::cli {
void RegisterStoreCommands(CLI::App& app, CommandTable& table) {}
}  // namespace errdex::cli
