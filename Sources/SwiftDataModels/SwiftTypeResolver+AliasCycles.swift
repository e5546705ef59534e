import Models

/// Swift rejects a type alias that names itself, directly or through other aliases (`typealias A
/// = B; typealias B = A`: "type alias 'A' references itself"), so such sources do not build; the
/// reader refuses them at the first alias of a cycle in source order, as the compiler would.
extension SwiftTypeResolver {
    func refuseAliasCycles() throws {
        let aliases = declarations.compactMap { name, declaration -> (name: String, target: SwiftType, location: String)? in
            guard case let .alias(target, location) = declaration else { return nil }
            return (name, target, location)
        }.sorted { Self.sourceOrder($0.location) < Self.sourceOrder($1.location) }
        for alias in aliases {
            var cycle: [String]?
            _ = resolve(alias.target, in: Self.container(of: alias.name), trail: [alias.name], cycle: &cycle)
            guard let cycle, cycle.first == alias.name else { continue }
            let path = cycle.joined(separator: " → ")
            throw ModelError("\(alias.location): type alias '\(alias.name)' refers to itself (\(path)), which Swift rejects; make one of them name a type")
        }
    }

    /// `file:line:column` in the order of the file, then the line and the column as numbers.
    private static func sourceOrder(_ location: String) -> SourceOrder {
        let parts = location.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 3, let line = Int(parts[parts.count - 2]), let column = Int(parts[parts.count - 1]) else {
            return SourceOrder(file: location, line: 0, column: 0)
        }
        return SourceOrder(file: parts.dropLast(2).joined(separator: ":"), line: line, column: column)
    }

    private struct SourceOrder: Comparable {
        var file: String, line: Int, column: Int
        static func < (a: Self, b: Self) -> Bool { (a.file, a.line, a.column) < (b.file, b.line, b.column) }
    }
}
