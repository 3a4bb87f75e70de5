// Each file in cli/ registers its subcommands here; main.cc runs the one parsed.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <utility>
#include <vector>

namespace errdex::cli {

// (subcommand, what to run when it was parsed) -> process exit code.
using CommandTable = std::vector<std::pair<CLI::App*, std::function<int()>>>;

void RegisterScanCommands(CLI::App& app, CommandTable& table);      // scan            (scan_cmd.cc)
void RegisterStoreCommands(CLI::App& app, CommandTable& table);     // import, export, show, scans (store_cmd.cc)
void RegisterExplainCommands(CLI::App& app, CommandTable& table);   // explain, run    (explain_cmd.cc)
void RegisterDocumentCommands(CLI::App& app, CommandTable& table);  // document        (document_cmd.cc)
void RegisterServeCommands(CLI::App& app, CommandTable& table);     // serve           (serve_cmd.cc)
void RegisterMcpCommands(CLI::App& app, CommandTable& table);       // mcp             (mcp_cmd.cc)
void RegisterSiteCommands(CLI::App& app, CommandTable& table);      // site            (site_cmd.cc)
void RegisterLintDocsCommands(CLI::App& app, CommandTable& table);  // lint-docs       (lint_docs_cmd.cc)
void RegisterHistoryCommands(CLI::App& app, CommandTable& table);   // diff, history, gc (history_cmd.cc)
void RegisterMergeCommands(CLI::App& app, CommandTable& table);     // merge           (merge_cmd.cc)
void RegisterCheckCommands(CLI::App& app, CommandTable& table);     // check           (check_cmd.cc)

}  // namespace errdex::cli
