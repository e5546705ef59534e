/// A log's replayed reads and saves in the order the app made them: each step a fetch of
/// `LogFetches` or a save of `LogSaves`, by position. Statements not replayed have no step.
public struct LogSession: Sendable, Equatable {
    /// The most steps a session holds: a longer log's session is its first this many.
    public static let longest = 100_000
    /// The most changes the session's saves make: its objects are drawn before it runs.
    public static let mostChanges = 1_000_000

    /// One time the log makes a fetch or a save: its first line and its position among them.
    public struct Occurrence: Sendable, Equatable {
        public let line: Int
        public let index: Int
    }

    public enum Step: Sendable, Equatable {
        case fetch(Int), save(Int)
    }

    public let steps: [Step]
    /// The steps the log makes in all, the session's and those past `longest`.
    public let total: Int

    /// The fetches' and saves' occurrences merged by line: at most `longest` steps, and saves of
    /// at most `mostChanges` changes in all.
    public init(_ fetches: LogFetches, _ saves: LogSaves, longest: Int = Self.longest, mostChanges: Int = Self.mostChanges) {
        let made = fetches.fetches.reduce(0) { $0 + $1.count } + saves.saves.reduce(0) { $0 + $1.count }
        var steps: [(line: Int, step: Step)] = fetches.occurrences.map { ($0.line, .fetch($0.index)) } + saves.occurrences.map { ($0.line, .save($0.index)) }
        steps.sort { $0.line < $1.line }
        var kept: [Step] = [], changes = 0
        for (_, step) in steps.prefix(longest) {
            if case let .save(index) = step {
                changes += saves.saves[index].spec.count
                if changes > mostChanges { break }
            }
            kept.append(step)
        }
        self.steps = kept
        total = made
    }

    public var fetchCount: Int { steps.filter { if case .fetch = $0 { true } else { false } }.count }
    public var saveCount: Int { steps.count - fetchCount }
}
