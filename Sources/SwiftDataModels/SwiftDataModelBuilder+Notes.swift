import Foundation
import Models

/// The `bench.*` comments (the suite's settings, as an Xcode model's user info gives them) and
/// the fetch indexes of `#Index` and `// bench.index:`.
extension SwiftDataModelBuilder {
    /// `bench.values` and `bench.nullShare` on an attribute's property.
    func applyAttributeNotes(_ property: SwiftProperty, to attribute: inout Attribute, _ what: String) throws {
        if let text = property.notes["bench.values"] {
            guard let spec = ValueSpec(text: text) else { throw ModelError("\(what): bench.values is '\(text)'; give \(ValueSpec.textForms)") }
            attribute.values = spec
        }
        if let text = property.notes["bench.nullShare"] {
            guard let share = Double(text) else { throw ModelError("\(what): bench.nullShare is '\(text)', not a number from 0 to 1") }
            attribute.nullShare = share
        }
    }

    /// `bench.leaf`, `bench.branch`, `bench.order` and `bench.root`, each on at most one class.
    func applyModelNotes(_ description: inout ModelDescription) throws {
        for key in ["bench.leaf", "bench.branch", "bench.order", "bench.root"] {
            let givers = models.filter { $0.notes[key] != nil }
            guard let first = givers.first, let value = first.notes[key] else { continue }
            if givers.count > 1 {
                throw ModelError("\(givers[1].location): \(key) is given on both '\(first.name)' and '\(givers[1].name)'; give it once, on one class")
            }
            switch key {
            case "bench.leaf": description.leaf = value
            case "bench.branch": description.branch = value
            case "bench.root": description.root = value
            default: description.order = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            }
        }
    }

    /// The class's `#Index` groups, named by `// bench.names:` or after their properties
    /// (`publishDate_uid`), then its `// bench.index: NAME = a, b desc; …` indexes, which can
    /// say what `#Index` cannot (`entity`, descending).
    func fetchIndexes(of model: SwiftModelClass) throws -> [FetchIndex] {
        if model.indexNames.count > model.indexes.count {
            throw ModelError("\(model.location): bench.names gives \(model.indexNames.count) names to \(model.indexes.count) #Index groups of '\(model.name)'; give one name per group")
        }
        var made = model.indexes.enumerated().map { position, group in
            let name = position < model.indexNames.count ? model.indexNames[position] : group.properties.map(Self.flatName).joined(separator: "_")
            return FetchIndex(name, group.properties.map { FetchIndex.Element(property: Self.flatName($0)) })
        }
        for entry in (model.notes["bench.index"] ?? "").split(separator: ";") {
            let parts = entry.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let elements = parts.count == 2 ? parts[1].split(separator: ",").map { FetchIndex.Element(text: $0.trimmingCharacters(in: .whitespaces)) } : []
            guard parts.count == 2, !parts[0].isEmpty, !elements.isEmpty, elements.allSatisfy({ $0 != nil }) else {
                throw ModelError("\(model.location): bench.index entry '\(entry.trimmingCharacters(in: .whitespaces))' of '\(model.name)' must be NAME = element, element …, each a property or 'entity', optionally followed by "
                    + "'desc', such as byDate = entity, date desc")
            }
            made.append(FetchIndex(parts[0], elements.compactMap { $0 }))
        }
        return made
    }
}
