// Placeholder until the scan stage lands.
#include "cli/commands.h"

namespace errdex::cli {
void RegisterScanCommands(CLI::App& app, CommandTable& table) {}
}  // namespace errdex::cli
