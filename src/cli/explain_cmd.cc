// Placeholder until the explain stage lands.
#include "cli/commands.h"

namespace errdex::cli {
void RegisterExplainCommands(CLI::App& app, CommandTable& table) {}
}  // namespace errdex::cli
