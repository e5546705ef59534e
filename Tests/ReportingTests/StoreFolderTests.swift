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

    /// The id of a process that has ended.
    private func endedProcess() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    /// Only a private store folder whose process has ended and whose lock nobody holds is a
    /// leftover: a running process's folder, a locked one (a bench in another process namespace),
    /// a file and other names stay.
    func testOnlyTheFoldersOfEndedProcessesAreLeftOver() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("leftovers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: parent) }
        let ended = try endedProcess()
        func make(_ name: String, bytes: Int = 0) throws -> URL {
            let url = parent.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
            if bytes > 0 { try Data(repeating: 7, count: bytes).write(to: url.appendingPathComponent("s.sqlite")) }
            return url
        }
        let killed = try make("inheritance-bench-run-\(ended)-1A2B3C4D", bytes: 300_000)
        let killedSweep = try make("inheritance-bench-sweep-\(ended)-DEADBEEF")
        let running = try make("inheritance-bench-run-\(getpid())-1A2B3C4D")
        let locked = try make("inheritance-bench-storage-\(ended)-0F0F0F0F")
        let lock = open(locked.path, O_RDONLY | O_DIRECTORY)
        XCTAssertEqual(flock(lock, LOCK_EX | LOCK_NB), 0)
        defer { close(lock) }
        let other = try make("inheritance-bench-run-\(ended)-notmine!")
        let file = parent.appendingPathComponent("inheritance-bench-run-\(ended)-11111111")
        XCTAssertTrue(FileManager.default.createFile(atPath: file.path, contents: Data()))

        let removed = LeftoverStores.remove(in: [parent, parent])
        XCTAssertEqual(Set(removed.map(\.url.lastPathComponent)), [killed.lastPathComponent, killedSweep.lastPathComponent])
        XCTAssertEqual(removed.first { $0.url.lastPathComponent == killed.lastPathComponent }?.pid, ended)
        XCTAssertGreaterThanOrEqual(removed.reduce(0) { $0 + $1.bytes }, 300_000)
        for kept in [running, locked, other, file] { XCTAssertTrue(FileManager.default.fileExists(atPath: kept.path), kept.lastPathComponent) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: killed.path))
        XCTAssertTrue(LeftoverStores.note(removed).hasPrefix("removed 2 store folders left by bench processes that no longer run (killed?), freeing 0.3 MB: "))
        XCTAssertEqual(LeftoverStores.remove(in: [parent]), [], "nothing is left over twice")
    }

    /// A folder a command made is locked while the process lives, so that it is never a leftover.
    func testAPrivateFolderIsLockedUntilRemoved() throws {
        let folder = PrivateStoreFolder(command: "run", in: FileManager.default.temporaryDirectory)
        XCTAssertEqual(LeftoverStores.pid(inName: folder.url.lastPathComponent), getpid())
        try folder.make()
        let probe = open(folder.url.path, O_RDONLY | O_DIRECTORY)
        defer { close(probe) }
        XCTAssertEqual(flock(probe, LOCK_EX | LOCK_NB), -1, "a second open file description cannot take the lock while the folder's owner holds it")
        folder.remove()
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.url.path))
        XCTAssertEqual(flock(probe, LOCK_EX | LOCK_NB), 0, "removing the folder drops its lock")
    }
}
