import Models

/// A lookup a strategy's layout cannot answer for the model it was built from: a property or a
/// relationship the entity does not have. A validated model never asks one; if it does, the
/// strategy says which lookup failed instead of trapping.
public struct LayoutError: Error, CustomStringConvertible {
    public let description: String

    public init(_ strategy: String, _ what: String) { description = "\(strategy): \(what)" }

    /// A lookup in Core Data's layout of `model` (single-table's own, or the model another strategy stores).
    init(layoutOf model: Model, _ what: String) { description = "Core Data's layout of \(model.name): \(what)" }
}

extension LayoutError {
    /// An insert or a delete of an object of an abstract entity, which has no objects of its own:
    /// the one error of that condition, whatever the strategy.
    public static func abstract(_ strategy: String, _ entity: Model.Entity, _ operation: String) -> LayoutError {
        LayoutError(strategy, "\(entity.name) is abstract; it has no objects to \(operation) (its objects are stored as their concrete entities)")
    }

    /// `value`, or a `LayoutError` of `strategy` saying that `what` is missing.
    public static func required<T>(_ value: T?, _ strategy: String, _ what: @autoclosure () -> String) throws -> T {
        guard let value else { throw LayoutError(strategy, "no \(what())") }
        return value
    }
}
