import Foundation
import SwiftData

/// A record synced with a server that marks deletions itself: `isDeleted` mirrors the server's
/// flag (beside `PersistentModel.isDeleted`), and `updated` is when the server last changed it.
@Model
final class Record {
    var title: String = ""
    var isDeleted: Bool = false
    var updated: Date?
    var isMarkedForDeletion: Bool = false

    init(title: String) {
        self.title = title
    }
}
