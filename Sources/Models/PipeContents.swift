import Foundation

/// The bytes read from pipes, by path, shared by every reader in the process (see `ModelFile`).
final class PipeContents: @unchecked Sendable {
    private let lock = NSLock()
    private var byPath: [String: Data] = [:]

    subscript(path: String) -> Data? {
        get { lock.withLock { byPath[path] } }
        set { lock.withLock { byPath[path] = newValue } }
    }
}
