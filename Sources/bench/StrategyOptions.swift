import ArgumentParser
import Strategies
import Workloads

struct StrategyOptions: ParsableArguments {
    @Option(help: "Comma-separated strategies (default: all). See `bench list`.")
    var strategies: String?

    func validate() throws { _ = try layouts() }

    /// The strategies named, or all of them, resolved once from their names; a mistake is a
    /// `ValidationError` naming the valid ones.
    func layouts() throws -> [any StorageLayout.Type] {
        guard let strategies else { return Strategies.all }
        do { return try Strategies.layouts(named: strategies) }
        catch { throw ValidationError("\(error)") }
    }
}
