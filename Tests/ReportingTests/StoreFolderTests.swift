import Foundation
@testable import Reporting
import XCTest

final class StoreFolderTests: XCTestCase {
    /// --store-folder first, then TMPDIR, then memory when the stores fit in half its room, else the system's folder.
    func testTheFolderIsChosenInOrder() throws {
        guard StoreFolder.fileSystemType("/dev/shm") == "tmpfs" else { throw XCTSkip("this machine has no tmpfs at /dev/shm") }
        let option = StoreFolder.forTiming(option: "/data/stores", estimatedBytes: 1, environment: ["TMPDIR": "/elsewhere"])
        XCTAssertEqual(option.origin, .option)
        XCTAssertEqual(option.url.path, "/data/stores")
        XCTAssertEqual(StoreFolder.forTiming(option: nil, estimatedBytes: 1, environment: ["TMPDIR": "/elsewhere"]).origin, .environment)

        let memory = StoreFolder.forTiming(option: nil, estimatedBytes: 1 << 20, environment: [:])
        XCTAssertEqual(memory.origin, .memory)
        XCTAssertEqual(memory.url.path, "/dev/shm")
        XCTAssertNil(memory.passedOver)

        let room = try XCTUnwrap(StoreFolder.memoryRoom("/dev/shm"))
        let tooBig = StoreFolder.forTiming(option: nil, estimatedBytes: room / 2 + 1, environment: [:])
        XCTAssertEqual(tooBig.origin, .system)
        XCTAssertTrue(tooBig.passedOver?.contains("the memory-backed /dev/shm has room for") == true, tooBig.passedOver ?? "nil")
        XCTAssertEqual(StoreFolder.forTiming(option: nil, estimatedBytes: room / 2, environment: [:]).origin, .memory)
    }

    /// A folder on a disk is never taken for memory; the untimed commands never choose memory.
    func testOnlyATmpfsCountsAsMemory() throws {
        let disk = FileManager.default.currentDirectoryPath
        XCTAssertNotEqual(StoreFolder.fileSystemType(disk), "tmpfs")
        XCTAssertNil(StoreFolder.memoryRoom(disk))
        let chosen = StoreFolder.forTiming(option: nil, estimatedBytes: 1, environment: [:], memoryPath: disk)
        XCTAssertEqual(chosen.origin, .system)
        XCTAssertNil(chosen.passedOver, "there was no memory folder to pass over")
        XCTAssertNil(StoreFolder.memoryRoom("/no/such/folder"))
        XCTAssertEqual(StoreFolder.untimed(environment: [:]).origin, .system)
        XCTAssertEqual(StoreFolder.untimed(option: "/x", environment: [:]).url.path, "/x")
    }

    /// Each unusable folder is one sentence naming it, how it was chosen, and what to do.
    func testAnUnusableFolderIsOneSentence() throws {
        let missing = StoreFolder(url: URL(fileURLWithPath: "/no/such/folder"), origin: .option)
        XCTAssertThrowsError(try missing.check()) {
            XCTAssertEqual("\($0)", "the store folder /no/such/folder (--store-folder) does not exist; give --store-folder a writable folder")
        }
        let readOnly = StoreFolder(url: URL(fileURLWithPath: "/proc"), origin: .environment)
        XCTAssertThrowsError(try readOnly.check()) {
            XCTAssertTrue("\($0)".hasPrefix("the temporary folder /proc (TMPDIR) is not writable ("), "\($0)")
            XCTAssertTrue("\($0)".hasSuffix("; set TMPDIR to a writable folder, or unset it"), "\($0)")
        }
    }
}
