import Foundation
import SwiftData

/// Stored properties without a written type: the initial value tells it, as the compiler infers it.
@Model
final class Task {
    var id = UUID()
    var title = "New task"
    var isPinned = true
    var sortOrder = 0
    var progress = 0.0
    var createdAt = Date()
    var dueAt = Date.now
    var state = State.open
    var priority = Priority(level: 1, label: "normal")
    var labels = [String]()
    var checklist = ["draft", "review"]
    var estimates = ["design": 2.5, "build": 8]
    var retries = 3 as Int16
    var list: TaskList?

    init() {}

    enum State: String, Codable {
        case open, done, dropped
    }
}

struct Priority: Codable {
    var level = 0
    var label = ""
}

@Model
final class TaskList {
    var name = "Inbox"
    var tasks = [Task]()

    init() {}
}
