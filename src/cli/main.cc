// errdex command line: subcommands, flags, exit codes. The only place that
// prints to the terminal or ends the process (STYLE.md, convention 2).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <csignal>
#include <string>

#include "cli/commands.h"
#include "cli/output_file.h"

int main(int argc, char** argv) {
  errdex::cli::PrepareStandardStreams();  // before any file is opened (cli/output_file.h)
  std::signal(SIGPIPE, SIG_IGN);  // a closed pipe is an EPIPE write error, handled as exit 0
  errdex::cli::InstallSignalCleanup();  // no temporary file left behind by SIGINT/SIGTERM/SIGHUP
  CLI::App app{"errdex: a catalog of every error a repository can raise, and the entry behind any pasted error"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "errdex 0.1.0");
  errdex::cli::CommandTable table;
  errdex::cli::RegisterScanCommands(app, table);
  errdex::cli::RegisterStoreCommands(app, table);
  errdex::cli::RegisterExplainCommands(app, table);
  errdex::cli::RegisterDocumentCommands(app, table);
  errdex::cli::RegisterServeCommands(app, table);
  errdex::cli::RegisterMcpCommands(app, table);
  errdex::cli::RegisterSiteCommands(app, table);
  errdex::cli::RegisterLintDocsCommands(app, table);
  errdex::cli::RegisterHistoryCommands(app, table);
  errdex::cli::RegisterMergeCommands(app, table);
  errdex::cli::RegisterCheckCommands(app, table);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;  // usage errors are exit 2 (grep's convention)
  }
  for (auto& [sub, run] : table)
    if (sub->parsed()) return errdex::cli::FinishStdout(run());  // a failed printf is exit 2
  return 2;
}
