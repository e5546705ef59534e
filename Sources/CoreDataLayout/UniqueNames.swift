/// Names made unique as Core Data's mapping generator makes them (`uniqueNameWithBase:`): a name
/// already taken gets the first free counting suffix (`ZURL`, `ZURL1`, `ZURL2`, …).
public struct UniqueNames {
    private var taken: Set<String>

    public init(taken: some Sequence<String> = [String]()) { self.taken = Set(taken) }

    /// `base`, or `base` with the first free suffix; the name returned is taken from then on.
    public mutating func claim(_ base: String) -> String {
        var name = base
        var suffix = 1
        while taken.contains(name) { name = base + String(suffix); suffix += 1 }
        taken.insert(name)
        return name
    }
}
