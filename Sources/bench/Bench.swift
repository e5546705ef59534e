import ArgumentParser
import Foundation

@main
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measures how storing an inheritance hierarchy in SQLite (Core Data's single table and its alternatives) costs.",
        discussion: "With no subcommand, runs every workload against every strategy with the defaults (`bench run`).",
        subcommands: [Run.self, Sweep.self, Compare.self, Report.self, Storage.self, Explain.self, Generate.self, ModelCommand.self, Replay.self, List.self, Clean.self],
        defaultSubcommand: Run.self
    )

    /// Every subcommand's name, as its configuration gives it.
    static var subcommandNames: [String] { configuration.subcommands.compactMap { $0.configuration.commandName } }

    /// Like argument-parser's `main()`, but a mistake costs one line on standard error (what is
    /// wrong, and where the help is), not the error plus the usage text. Help and version requests
    /// print as usual; failures the commands already reported (`ExitCode`) print nothing more.
    static func main() {
        reopenClosedStandardDescriptors()
        // A reader that stops early (`bench run | head -1`) must not kill bench before it removes its
        // stores and its claim on the output: a write to a closed pipe then fails (and is ignored)
        // instead of raising SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                // --help, --version and the like.
                print(fullMessage(for: error))
                Foundation.exit(code.rawValue)
            }
            let message = message(for: error).trimmingCharacters(in: .whitespacesAndNewlines)
            if !message.isEmpty {
                let subcommand = arguments.first { !$0.hasPrefix("-") }.flatMap { name in
                    subcommandNames.contains(name) ? name : nil
                }
                let help = subcommand.map { "bench \($0) --help" } ?? "bench --help"
                let line = message.split(separator: "\n").first.map(String.init) ?? message
                printError("error: \(line) (see '\(help)')")
            }
            Foundation.exit(code.rawValue)
        }
    }
}
