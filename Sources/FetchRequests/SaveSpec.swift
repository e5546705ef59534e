import Generation
import Models

/// A save in the request language: what one save of a context asks of the store, in the order
/// Core Data sends it: objects inserted, updated (the attributes changed) and deleted, each of an
/// entity. A transaction of an app's log (`bench replay`) is read as one; every layout runs it as
/// one transaction (`SaveRequest`, its objects and values drawn from the data).
public struct SaveSpec: Hashable, Sendable {
    public enum Change: Hashable, Sendable {
        /// A new object of a concrete entity, each of its attributes and to-ones set.
        case insert(entity: Int)
        /// An object of the entity (or of a sub-entity) given new values of these attributes and
        /// new destinations of these to-one relationships.
        case update(entity: Int, attributes: [String], toOnes: [String] = [])
        /// An object of the entity (or of a sub-entity) removed: its own rows. What Core Data's
        /// delete rules change besides is in the save as changes of their own.
        case delete(entity: Int)
        /// A link of a many-to-many relationship added between an object of the entity (or of a
        /// sub-entity) and one of its destination (a row of its join table).
        case link(entity: Int, relationship: String)
        /// A link of an object of the entity removed; `all`: every link of the object through the
        /// relationship (as Core Data clears an object's links when it deletes it): a
        /// many-to-many's, or the references to it of a relationship whose inverse is a to-one.
        case unlink(entity: Int, relationship: String, all: Bool = false)
    }

    /// A change and how many times in a row the save makes it.
    public struct Step: Hashable, Sendable {
        public var change: Change
        public var count: Int
        public init(_ change: Change, count: Int = 1) { self.change = change; self.count = count }
    }

    public var steps: [Step]

    public init(steps: [Step] = []) { self.steps = steps }

    /// Appends a change, counted with the one before it when they are the same.
    public mutating func append(_ change: Change) {
        if steps.last?.change == change { steps[steps.count - 1].count += 1 } else { steps.append(Step(change)) }
    }

    /// The changes in all.
    public var count: Int { steps.reduce(0) { $0 + $1.count } }

    /// The save as text: `SAVE INSERT Note ×2; UPDATE Note SET title, modified; UPDATE Folder
    /// VERSION; LINK Note.tags; DELETE Tag` (`VERSION`: the object's version alone, as a change of
    /// a to-many bumps it).
    public func text(_ model: Model) -> String { summary(model, shown: steps.count) }

    /// The save as text to show, its first `shown` steps and then what the rest add up to (a bulk
    /// insert of a thousand objects is hundreds of steps): `SAVE INSERT Book; LINK Book.tags ×3; …
    /// and 1204 more changes in 410 steps`.
    public func summary(_ model: Model, shown: Int = 8) -> String {
        let text = "SAVE " + steps.prefix(shown).map { $0.text(model) }.joined(separator: "; "), rest = steps.dropFirst(shown)
        return rest.isEmpty ? text : text + "; … and \(rest.reduce(0) { $0 + $1.count }) more changes in \(rest.count) steps"
    }
}

extension SaveSpec.Step {
    /// One change as text, `×n` after its entity when it is made n times in a row.
    func text(_ model: Model) -> String {
        let times = count > 1 ? " ×\(count)" : ""
        switch change {
        case let .insert(entity): return "INSERT \(model.entities[entity].name)\(times)"
        case let .update(entity, attributes, toOnes):
            let names = attributes + toOnes
            return "UPDATE \(model.entities[entity].name)\(times) " + (names.isEmpty ? "VERSION" : "SET \(names.joined(separator: ", "))")
        case let .delete(entity): return "DELETE \(model.entities[entity].name)\(times)"
        case let .link(entity, relationship): return "LINK \(model.entities[entity].name).\(relationship)\(times)"
        case let .unlink(entity, relationship, all): return "UNLINK \(all ? "ALL " : "")\(model.entities[entity].name).\(relationship)\(times)"
        }
    }
}

/// The values a log bound for one occurrence of a save (level 2): for each of its changes in order
/// (each step's `count` changes in turn), an insert's or update's new attribute values by name,
/// those logged in a form a store binds; nil for a change with none. The app's data: used to
/// replay the save, never printed.
public struct SaveValues: Hashable, Sendable {
    public var changes: [[String: Value]?]

    public init(changes: [[String: Value]?]) { self.changes = changes }

    /// Whether it holds no value at all.
    public var isEmpty: Bool { changes.allSatisfy { $0?.isEmpty ?? true } }

    /// `value` as `attribute` stores it, or nil when it is not of its type (bytes, which a log
    /// prints in a form of its own, a text for a number) or is NULL for a required attribute. A
    /// whole number logged for a real is that real.
    public static func fitting(_ value: Value, _ attribute: Attribute) -> Value? {
        switch (value, attribute.type.storage) {
        case (.null, _): attribute.optional ? .null : nil
        case (.integer, .integer), (.real, .real), (.text, .text): value
        case let (.integer(number), .real): .real(Double(number))
        default: nil
        }
    }
}

/// An attribute given a new value by an update.
public struct AttributeChange: Hashable, Sendable {
    public var name: String
    public var value: Value
    public init(_ name: String, _ value: Value) { self.name = name; self.value = value }
}

/// A to-one relationship given a new destination (or none) by an update.
public struct ToOneChange: Hashable, Sendable {
    public var name: String
    public var destination: ObjectID?
    public init(_ name: String, _ destination: ObjectID?) { self.name = name; self.destination = destination }
}

/// A save with its objects and values: what every layout runs, as one transaction, in order.
public struct SaveRequest: Sendable {
    public enum Change: Sendable {
        case insert(ModelObject)
        case update(ObjectID, [AttributeChange], [ToOneChange] = [])
        case delete(ObjectID)
        /// A link of the relationship (a many-to-many whose links its owner's side generates)
        /// from the object to the destination, added or removed.
        case link(ObjectID, String, ObjectID), unlink(ObjectID, String, ObjectID)
        /// Every link of the object through the relationship removed: a many-to-many's rows, or
        /// the to-one references to it of the relationship's inverse.
        case unlinkAll(ObjectID, String)
    }

    public var changes: [Change]
    /// The changes its save asks for: more than `changes` where the data had too few objects to
    /// draw them all (a store too small for the log's save).
    public var asked: Int

    public init(changes: [Change], asked: Int? = nil) { self.changes = changes; self.asked = asked ?? changes.count }

    /// Refuses a request drawn short of its save: timing fewer changes than the save makes would
    /// time another save. `what` names the save.
    public func checkWhole(_ what: String) throws {
        guard changes.count < asked else { return }
        throw SaveShortfall(description: "\(what) makes \(asked) changes, but the data has objects for \(changes.count) of them; give a larger --scale (or a store with more objects)")
    }

    /// The objects the save inserts, in order.
    public var inserted: [ModelObject] { changes.compactMap { if case let .insert(object) = $0 { object } else { nil } } }
    /// The objects it updates, in order.
    public var updated: [ObjectID] { changes.compactMap { if case let .update(id, _, _) = $0 { id } else { nil } } }
    /// The changes that must each write a row (all but clearing an object's links, which it may not have).
    public var mustWrite: Int { changes.filter { if case .unlinkAll = $0 { false } else { true } }.count }
    /// The objects it deletes, in order.
    public var deleted: [ObjectID] { changes.compactMap { if case let .delete(id) = $0 { id } else { nil } } }
}

/// A save the data cannot make whole (`SaveRequest.checkWhole`).
public struct SaveShortfall: Error, CustomStringConvertible {
    public let description: String
}
