import ArgumentParser

@main
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measures how storing an inheritance hierarchy in SQLite (Core Data's single table and its alternatives) costs.",
        discussion: "With no subcommand, runs every workload against every strategy with the defaults (`bench run`).",
        subcommands: [Run.self, Compare.self, Storage.self, Explain.self, Generate.self, List.self],
        defaultSubcommand: Run.self
    )
}
