import Foundation
import XCTest

/// What a check found wrong, gathered from any thread and reported as XCTest failures on the
/// test's own thread (`report`), so that a test may check several models at once.
final class Findings: @unchecked Sendable {
    private let lock = NSLock()
    private var found: [String] = []

    var messages: [String] { lock.withLock { found } }

    func record(_ message: String) { lock.withLock { found.append(message) } }

    func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { record(message()) }
    }

    func expectEqual<T: Equatable>(_ actual: T, _ expected: T, _ message: @autoclosure () -> String) {
        if actual != expected { record("(\(actual)) is not equal to (\(expected)): \(message())") }
    }

    /// Each message as a failure at the caller's file and line; the count reported.
    @discardableResult
    func report(file: StaticString = #filePath, line: UInt = #line) -> Int {
        let all = messages
        for message in all { XCTFail(message, file: file, line: line) }
        return all.count
    }
}
