import ArgumentParser
import Strategies
import Workloads

struct StrategyOptions: ParsableArguments {
    @Option(help: "Comma-separated strategies (default: all). See `bench list`.")
    var strategies: String?

    func validate() throws { _ = try names() }

    /// The strategies named, or all of them; a mistake is a `ValidationError` naming the valid ones.
    func names() throws -> [String] {
        guard let strategies else { return Strategies.names }
        do { return try NameList.parse(strategies, valid: Strategies.names, what: "strategy") }
        catch { throw ValidationError("\(error)") }
    }
}
