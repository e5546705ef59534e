import Foundation
@testable import StoreFiles
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

        // The room is capped by the memory the kernel says is available, which the tests running
        // beside this one move between two readings: so well past half of it, and well under.
        let room = try XCTUnwrap(StoreFolder.memoryRoom("/dev/shm"))
        let tooBig = StoreFolder.forTiming(option: nil, estimatedBytes: room, environment: [:])
        XCTAssertEqual(tooBig.origin, .system)
        XCTAssertTrue(tooBig.passedOver?.contains("the memory-backed /dev/shm has room for") == true, tooBig.passedOver ?? "nil")
        XCTAssertEqual(StoreFolder.forTiming(option: nil, estimatedBytes: room / 4, environment: [:]).origin, .memory)
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
        let parent = try privateParent()
        defer { try? FileManager.default.removeItem(at: parent) }
        let ended = try endedProcess()
        let killed = try make("inheritance-bench-run-\(ended)-1A2B3C4D", in: parent, marker: "run", pid: ended, bytes: 300_000)
        let killedSweep = try make("inheritance-bench-sweep-\(ended)-DEADBEEF", in: parent)   // empty: killed before its marker
        let running = try make("inheritance-bench-run-\(getpid())-1A2B3C4D", in: parent, marker: "run", pid: getpid())
        let locked = try make("inheritance-bench-storage-\(ended)-0F0F0F0F", in: parent, marker: "storage", pid: ended)
        let lock = open(locked.path, O_RDONLY | O_DIRECTORY)
        XCTAssertEqual(flock(lock, LOCK_EX | LOCK_NB), 0)
        defer { close(lock) }
        let other = try make("inheritance-bench-run-\(ended)-notmine!", in: parent)
        let file = parent.appendingPathComponent("inheritance-bench-run-\(ended)-11111111")
        XCTAssertTrue(FileManager.default.createFile(atPath: file.path, contents: Data()))

        let outcome = LeftoverStores.remove(in: [parent, parent])
        let removed = outcome.removed
        XCTAssertEqual(outcome.failed, [])
        XCTAssertEqual(Set(removed.map(\.url.lastPathComponent)), [killed.lastPathComponent, killedSweep.lastPathComponent])
        XCTAssertEqual(removed.first { $0.url.lastPathComponent == killed.lastPathComponent }?.pid, ended)
        XCTAssertGreaterThanOrEqual(removed.reduce(0) { $0 + $1.bytes }, 300_000)
        for kept in [running, locked, other, file] { XCTAssertTrue(FileManager.default.fileExists(atPath: kept.path), kept.lastPathComponent) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: killed.path))
        XCTAssertTrue(LeftoverStores.note(removed).hasPrefix("removed 2 store folders left by bench processes that no longer run (killed?), freeing 0.3 MB: "))
        XCTAssertEqual(LeftoverStores.remove(in: [parent]), LeftoverStores.Outcome(), "nothing is left over twice")
    }

    /// Folders whose names look like a private folder's, or that have its exact name but not the
    /// marker bench writes in it, are never touched, whatever they hold: only a folder bench
    /// provably made is removed.
    func testLookAlikeFoldersAreNeverRemoved() throws {
        let parent = try privateParent()
        defer { try? FileManager.default.removeItem(at: parent) }
        let ended = try endedProcess()
        let elsewhere = try make("elsewhere", in: parent, marker: "run", pid: ended)
        var planted: [URL] = []
        func plant(_ name: String, marker: String? = "run", pid: Int32? = nil, markerText: String? = nil) throws {
            let url = try make(name, in: parent, marker: marker, pid: pid ?? ended)
            try Data("let x = 1\n".utf8).write(to: url.appendingPathComponent("main.swift"))
            if let markerText { try Data(markerText.utf8).write(to: url.appendingPathComponent(PrivateStoreFolder.markerName)) }
            planted.append(url)
        }
        // A checkout whose name has another middle part and lower-case hex (the folder a user lost once).
        let checkout = try make("inheritance-bench-pr-\(ended)-abcdef12", in: parent)
        try FileManager.default.createDirectory(at: checkout.appendingPathComponent(".git"), withIntermediateDirectories: false)
        try Data("x".utf8).write(to: checkout.appendingPathComponent("README.md"))
        planted.append(checkout)
        try plant("inheritance-bench-run-\(ended)-abcdef12")                        // lower-case hex
        try plant("inheritance-bench-run-0\(ended)-ABCDEF12")                       // a leading zero
        try plant("inheritance-bench-run-+\(ended)-ABCDEF12")                       // a sign
        try plant("inheritance-bench-\(ended)-ABCDEF12")                            // no command
        try plant("inheritance-bench-clean-\(ended)-ABCDEF12", marker: nil, markerText: PrivateStoreFolder.marker(command: "clean", pid: ended))
        try plant("inheritance-bench-run-\(ended)-ABCDEF12-x")                      // a further part
        try plant("inheritance-bench-run-\(ended)-ABCDEF13", marker: nil)           // exact name, no marker, not empty
        try plant("inheritance-bench-run-\(ended)-ABCDEF14", marker: "sweep")       // another command's marker
        try plant("inheritance-bench-run-\(ended)-ABCDEF15", marker: nil, markerText: PrivateStoreFolder.marker(command: "run", pid: ended) + " ")
        try plant("inheritance-bench-run-\(ended)-ABCDEF16", marker: nil, markerText: PrivateStoreFolder.marker(command: "run", pid: ended + 1))
        let linked = try make("inheritance-bench-run-\(ended)-ABCDEF17", in: parent)  // the marker a link to a right one
        try FileManager.default.createSymbolicLink(at: linked.appendingPathComponent(PrivateStoreFolder.markerName),
                                                   withDestinationURL: elsewhere.appendingPathComponent(PrivateStoreFolder.markerName))
        planted.append(linked)
        let folderMarker = try make("inheritance-bench-run-\(ended)-ABCDEF18", in: parent)  // the marker a folder
        try FileManager.default.createDirectory(at: folderMarker.appendingPathComponent(PrivateStoreFolder.markerName), withIntermediateDirectories: false)
        planted.append(folderMarker)
        let link = parent.appendingPathComponent("inheritance-bench-run-\(ended)-ABCDEF19")   // a link to a folder bench made
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: elsewhere)
        planted.append(link)
        let genuine = try make("inheritance-bench-run-\(ended)-ABCDEF20", in: parent, marker: "run", pid: ended)

        let before = try planted.map { try snapshot($0) }
        let outcome = LeftoverStores.remove(in: [parent])
        XCTAssertEqual(outcome.removed.map(\.url.lastPathComponent), [genuine.lastPathComponent], "only the folder bench made goes")
        XCTAssertEqual(outcome.failed, [])
        XCTAssertEqual(try planted.map { try snapshot($0) }, before, "every look-alike is untouched")
        XCTAssertEqual(try snapshot(elsewhere), [PrivateStoreFolder.markerName], "nothing a link points to is touched")
    }

    /// A leftover nested deeper than the system's path limit is removed whole, and a link inside it
    /// is removed without touching what it points to.
    func testADeepLeftoverIsRemovedWhole() throws {
        let parent = try privateParent()
        defer { try? FileManager.default.removeItem(at: parent) }
        let ended = try endedProcess()
        let outside = try make("outside", in: parent)
        try Data("keep".utf8).write(to: outside.appendingPathComponent("keep.txt"))
        let deep = try make("inheritance-bench-run-\(ended)-0A0B0C0D", in: parent, marker: "run", pid: ended)
        try FileManager.default.createSymbolicLink(at: deep.appendingPathComponent("link"), withDestinationURL: outside)
        var current = open(deep.path, O_RDONLY | O_DIRECTORY)
        for _ in 0 ..< 5_000 {
            XCTAssertEqual(mkdirat(current, "nested-folder", 0o700), 0)
            let next = openat(current, "nested-folder", O_RDONLY | O_DIRECTORY)
            close(current)
            current = next
        }
        let file = openat(current, "s.sqlite", O_WRONLY | O_CREAT, 0o600)
        XCTAssertEqual(write(file, "x", 1), 1)
        close(file)
        close(current)
        XCTAssertGreaterThan(5_000 * 14, Int(PATH_MAX), "the tree is deeper than a path can name")

        let outcome = LeftoverStores.remove(in: [parent])
        XCTAssertEqual(outcome.failed, [])
        XCTAssertEqual(outcome.removed.map(\.url.lastPathComponent), [deep.lastPathComponent])
        XCTAssertFalse(FileManager.default.fileExists(atPath: deep.path))
        XCTAssertEqual(try String(contentsOf: outside.appendingPathComponent("keep.txt"), encoding: .utf8), "keep")
    }

    /// A leftover that cannot be removed is reported as such, never as nothing to remove.
    func testALeftoverThatCannotBeRemovedIsReported() throws {
        let parent = try privateParent()
        defer {
            _ = try? run("/usr/bin/chattr", ["-R", "-i", parent.path])
            try? FileManager.default.removeItem(at: parent)
        }
        let ended = try endedProcess()
        let stuck = try make("inheritance-bench-run-\(ended)-0A0B0C0E", in: parent, marker: "run", pid: ended)
        try Data("x".utf8).write(to: stuck.appendingPathComponent("s.sqlite"))
        guard (try? run("/usr/bin/chattr", ["+i", stuck.appendingPathComponent("s.sqlite").path])) == 0 else {
            throw XCTSkip("chattr +i is not available here, so no file can be made impossible to remove")
        }
        let outcome = LeftoverStores.remove(in: [parent])
        XCTAssertEqual(outcome.removed, [])
        XCTAssertEqual(outcome.failed.map(\.url.path), [stuck.path])
        XCTAssertEqual(outcome.failed.map(LeftoverStores.note), [
            "could not remove \(stuck.path), left by a bench process that no longer runs: cannot remove a file inside it (Operation not permitted); remove it by hand",
        ])
    }

    /// A folder of `name` in `parent`, holding the marker `bench <marker>` of process `pid` writes
    /// (none when `marker` is nil) and a store of `bytes` bytes.
    private func make(_ name: String, in parent: URL, marker: String? = nil, pid: Int32 = 0, bytes: Int = 0) throws -> URL {
        let url = parent.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        if let marker { try Data(PrivateStoreFolder.marker(command: marker, pid: pid).utf8).write(to: url.appendingPathComponent(PrivateStoreFolder.markerName)) }
        if bytes > 0 { try Data(repeating: 7, count: bytes).write(to: url.appendingPathComponent("s.sqlite")) }
        return url
    }

    /// A new folder in the system's temporary folder, for this test only.
    private func privateParent() throws -> URL {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("leftovers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        return parent
    }

    /// The names below `url` (not following links), sorted: what a removal would change.
    private func snapshot(_ url: URL) throws -> [String] {
        var info = stat()
        XCTAssertEqual(lstat(url.path, &info), 0, url.path)
        guard info.st_mode & S_IFMT == S_IFDIR else { return [url.lastPathComponent] }
        return (FileManager.default.subpaths(atPath: url.path) ?? []).sorted()
    }

    private func run(_ tool: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// A folder a command made is locked while the process lives, so that it is never a leftover.
    func testAPrivateFolderIsLockedUntilRemoved() throws {
        let folder = PrivateStoreFolder(command: "run", in: FileManager.default.temporaryDirectory)
        XCTAssertEqual(PrivateStoreFolder.owner(ofName: folder.url.lastPathComponent)?.pid, getpid())
        try folder.make()
        let probe = open(folder.url.path, O_RDONLY | O_DIRECTORY)
        defer { close(probe) }
        XCTAssertEqual(flock(probe, LOCK_EX | LOCK_NB), -1, "a second open file description cannot take the lock while the folder's owner holds it")
        folder.remove()
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.url.path))
        XCTAssertEqual(flock(probe, LOCK_EX | LOCK_NB), 0, "removing the folder drops its lock")
    }
}
