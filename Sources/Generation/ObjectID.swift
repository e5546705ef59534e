/// An object's identity in every store: its concrete entity (index in `Model.entities`) and its
/// key (`Z_PK`), the object's position in its hierarchy's stream plus one. Every strategy stores
/// an object under the same key, so relationships and answers line up across strategies.
public struct ObjectID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var entity: Int
    public var key: Int64
    public init(entity: Int, key: Int64) { self.entity = entity; self.key = key }
    public static func < (a: ObjectID, b: ObjectID) -> Bool { (a.entity, a.key) < (b.entity, b.key) }
    public var description: String { "\(entity):\(key)" }
}
