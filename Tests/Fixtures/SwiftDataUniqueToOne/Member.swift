import Foundation
import SwiftData

/// A unique to-one relationship, and a unique `let` identifier.
@Model
final class Member {
    @Attribute(.unique) let handle: String
    var joinedAt: Date
    @Relationship(.unique, deleteRule: .cascade) var badge: Badge?

    init(handle: String) {
        self.handle = handle
        joinedAt = .now
    }
}

@Model
final class Badge {
    var title: String
    var level: Int

    init(title: String, level: Int) {
        self.title = title
        self.level = level
    }
}
