import Foundation
import Models

/// The model-level checks (names Core Data accepts, names differing only in case, reserved
/// names, hierarchy depth, constraints, the `bench.*` notes) are the model's own (`Model.init`);
/// a mistake there names entities and properties but no place in a source. The description read
/// is checked here once, on a share of objects, and a mistake is given the place in the source
/// of what it names first: a `bench.*` note's class, a property, else a class. A mistake that
/// names nothing of the source (one that depends on the scale) is left to the run that scales
/// the model, which reports it as it does for every model.
struct SwiftDataModelCheck {
    let models: [SwiftModelClass]
    /// The classes by entity name.
    let byEntity: [String: SwiftModelClass]

    /// Objects the trial shares out: enough that every entity has several.
    static let trialObjects = 1_000

    func check(_ description: ModelDescription) throws {
        do {
            _ = try Model(description.sharing(max(Self.trialObjects, 10 * description.entities.count)))
        } catch let error as ModelError {
            guard let place = place(of: error.description) else { return }
            throw ModelError("\(place): \(error.description)")
        }
    }

    /// The source position of what `message` names, if it names a class, a property or a note's value.
    func place(of message: String) -> String? {
        let quoted = Self.quoted(message)
        for model in models {
            for (key, value) in model.notes where ["bench.leaf", "bench.branch", "bench.root", "bench.order"].contains(key)
                && message.contains(key.dropFirst(6)) && quoted.contains(where: { value.contains($0) }) {
                return model.location
            }
        }
        for entity in quoted {
            guard let model = byEntity[entity] else { continue }
            for name in quoted {
                if let property = model.properties.first(where: { $0.name == name || name.hasPrefix($0.name + "_") }) { return property.location }
            }
        }
        for name in quoted {
            let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
            if parts.count == 2, let model = byEntity[parts[0]], let property = model.properties.first(where: { $0.name == parts[1] || parts[1].hasPrefix($0.name + "_") }) {
                return property.location
            }
        }
        return quoted.lazy.compactMap { byEntity[$0]?.location }.first
    }

    /// The texts between single quotes, in order.
    static func quoted(_ message: String) -> [String] {
        message.split(separator: "'", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }
}
