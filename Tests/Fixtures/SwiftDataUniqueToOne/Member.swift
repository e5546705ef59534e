import Foundation
import SwiftData

/// A unique to-one (each badge held by one member at most), and a unique `let` identifier; a
/// moderator (an iOS 26 subclass) inherits both.
@Model
class Member {
    @Attribute(.unique) let handle: String
    var joinedAt: Date
    @Relationship(.unique, deleteRule: .cascade) var badge: Badge?

    init(handle: String) {
        self.handle = handle
        joinedAt = .now
    }
}

@available(iOS 26, macOS 26, *)
@Model
final class Moderator: Member {
    var area: String

    init(handle: String, area: String) {
        self.area = area
        super.init(handle: handle)
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
