import Foundation
import SwiftData

/// Aliases as apps write them: Foundation's and CoreGraphics' (`TimeInterval`, `CGFloat`), the
/// app's own at the top level, one nested in a model class, and one chained through another.
typealias LanguageCode = String
typealias Seconds = TimeInterval
typealias Duration = Seconds

@Model
class Recording {
    typealias Volume = CGFloat

    var title: String = ""
    var language: LanguageCode = "en"
    var length: TimeInterval = 0
    var fadeOut: Duration = 0
    var volume: Volume = 1
    var gain: CoreGraphics.CGFloat = 0
    var recordedAt: Date = Date.now

    init(title: String) { self.title = title }
}

// bench.leaf: Interview
@available(iOS 26, macOS 26, *)
@Model
class Interview: Recording {
    var guest: String = ""
    var questions: Int = 0

    init(title: String, guest: String) {
        self.guest = guest
        super.init(title: title)
    }
}
