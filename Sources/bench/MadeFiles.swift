import Foundation

/// The results file and its claim, once made (read by the interruption handler's thread).
final class MadeFiles: @unchecked Sendable {
    private let lock = NSLock()
    private var made: (results: String, claim: String)?
    var output: (results: String, claim: String)? {
        get { lock.withLock { made } }
        set { lock.withLock { made = newValue } }
    }
}
