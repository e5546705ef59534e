/// The comparisons of a row's `Z_ENT` a statement makes, read as the entity filter Core Data ends
/// its condition with (the fetched entity, with or without its sub-entities) or as the predicate's
/// own comparisons of the object's entity (`entity == %@`, `entity != %@`, `entity IN {…}`).
extension LogFetch {
    /// The fetched entity, whether without its sub-entities, and the predicate's text with each
    /// comparison of the entity written in the fetch format: the terms ending the condition are
    /// the entity filter when the entity they name fits (its select list, its filter's form),
    /// else the predicate's own.
    func resolved(_ shape: Shape, root: Int, predicate: String) throws -> (entity: Int, only: Bool, predicate: String) {
        if !entityTerms.isEmpty {
            do {
                let (entity, only) = try fetchedEntity(shape, root: root, entityTerms)
                var rest = predicate
                for marker in filterMarkers.reversed() {
                    rest = rest == marker ? "" : rest.hasSuffix(" AND " + marker) ? String(rest.dropLast(marker.count + 5)) : rest
                }
                return (entity, only, try entityComparisons(rest))
            } catch is NotTheEntityFilter {
                // Not a filter Core Data writes for the entity: the predicate's own comparisons.
            }
        }
        let (entity, only) = try fetchedEntity(shape, root: root, [])
        return (entity, only, try entityComparisons(predicate))
    }

    /// `text` with each comparison of the entity still marked written as the fetch format's:
    /// `entity == %@` or `entity != %@` (the entity drawn, or placed from a level-2 log's value).
    func entityComparisons(_ text: String) throws -> String {
        guard text.contains("\u{1}") else { return text }
        var written = text
        for (index, term) in allEntityTerms.enumerated() {
            let marker = Self.entityMarker(index)
            guard written.contains(marker) else { continue }
            let op: String
            switch term.op {
            case "=", "==": op = "=="
            case "<>", "!=": op = "!="
            default: throw NotUnderstood("a comparison of the object's entity number by its order (\(term.op)) within the predicate is not read")
            }
            written = written.replacingOccurrences(of: marker, with: "entity \(op) %@")
        }
        return written
    }

    /// What `fetchedEntity` throws when a statement's last comparisons of `Z_ENT` are not the
    /// entity filter Core Data writes for the entity they name: `resolved` reads them as the
    /// predicate's own.
    struct NotTheEntityFilter: Error {}
}
