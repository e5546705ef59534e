/// What deleting an object does to the objects a relationship reaches (Core Data's delete rules).
public enum DeleteRule: String, Codable, CaseIterable, Sendable {
    /// The related objects stay; their references to the deleted object are cleared.
    case nullify
    /// The related objects are deleted too.
    case cascade
    /// The delete fails while any related object exists.
    case deny
    /// Nothing is done to the related objects (they keep a dangling reference).
    case noAction
}
