/// The lines of the statements one reason covers: how many, and the first few (a log of millions
/// of statements not replayed for one reason keeps twenty numbers, not millions).
public struct LineList: Sendable, Equatable {
    public static let kept = 20
    /// The first `kept` lines, in the order they came.
    public private(set) var first: [Int] = []
    public private(set) var count = 0

    public init() {}

    public init(_ lines: [Int]) {
        for line in lines { append(line) }
    }

    mutating func append(_ line: Int) {
        count += 1
        if first.count < Self.kept { first.append(line) }
    }

    /// Another list's lines after these (its first ones kept while there is room).
    mutating func append(contentsOf other: LineList) {
        for line in other.first where first.count < Self.kept { first.append(line) }
        count += other.count
    }

    /// The first line, for ordering reasons by where they first apply.
    public var earliest: Int { first.first ?? 0 }
}
