import Foundation
import XCTest

/// Outputs that would destroy what is there: a device or FIFO, a file at the lock file's name, a
/// store replaced by a generation that fails; a replayed save the data cannot make whole.
extension CommandLineTests {
    /// `--force` never writes over a FIFO (nor a device such as /dev/null): refused in one line,
    /// the FIFO left as it was.
    func testAnOutputThatIsNotARegularFileIsRefused() throws {
        let fifo = folder.appendingPathComponent("pipe")
        XCTAssertEqual(mkfifo(fifo.path, 0o644), 0)
        for arguments in [["generate", "--preset", "publications", "--strategy", "single-table", "--scale", "300", "--output", fifo.path, "--force"],
                          ["run", "--scale", "300", "--repetitions", "1", "--workloads", "count-all", "--output", fifo.path, "--force"]] {
            let outcome = try Self.bench(arguments, in: folder)
            XCTAssertNotEqual(outcome.status, 0, arguments.joined(separator: " "))
            XCTAssertEqual(outcome.stderr.split(separator: "\n").filter { $0.hasPrefix("error:") }.count, 1, outcome.stderr)
            XCTAssertTrue(outcome.stderr.contains("\(fifo.path) is a FIFO, not a regular file, and bench writes a file in its place; choose another --output"), outcome.stderr)
            var status = stat()
            XCTAssertEqual(stat(fifo.path, &status), 0)
            XCTAssertEqual(status.st_mode & S_IFMT, S_IFIFO, "still a FIFO")
        }
    }

    /// A file of the user's at the name of the output's lock file (`.run.csv.lock`) is never
    /// overwritten or removed: the command is refused, even when the file is the one it reads.
    func testAFileAtTheLockFilesNameIsKept() throws {
        let lock = folder.appendingPathComponent(".run.csv.lock")
        let text = Data("CoreData: sql: SELECT COUNT(*) FROM ZTAG t0\n".utf8)
        try text.write(to: lock)
        for arguments in [["replay", lock.path, "--preset", "publications", "--output", "run.csv", "--scale", "300", "--repetitions", "1"],
                          ["run", "--scale", "300", "--repetitions", "1", "--workloads", "count-all", "--output", "run.csv"]] {
            let outcome = try Self.bench(arguments, in: folder)
            XCTAssertNotEqual(outcome.status, 0, arguments.joined(separator: " "))
            XCTAssertTrue(outcome.stderr.contains("is in the way: bench claims"), outcome.stderr)
            XCTAssertEqual(try Data(contentsOf: lock), text)
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("run.csv").path))
        }
    }

    /// `generate --force` that fails (the disk full) leaves the store it would have replaced whole.
    func testAFailedGenerationKeepsTheStoreItWouldReplace() throws {
        let store = folder.appendingPathComponent("Store.sqlite")
        let earlier = Data("an earlier store".utf8)
        try earlier.write(to: store)
        let outcome = try Self.bench(["generate", "--preset", "publications", "--strategy", "single-table", "--scale", "5000", "--output", store.path, "--force"],
                                     in: folder, environment: ["INHERITANCE_BENCH_MAX_PAGE_COUNT": "20"])
        XCTAssertNotEqual(outcome.status, 0, outcome.stderr)
        XCTAssertEqual(try Data(contentsOf: store), earlier)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("Store.sqlite") }, ["Store.sqlite"])
    }

    /// A failed `run --force` over an earlier results file does not call the earlier rows its own.
    func testAFailedRunDoesNotCountAnEarlierFilesRows() throws {
        let csv = folder.appendingPathComponent("r.csv")
        XCTAssertEqual(try Self.bench(["run", "--scale", "300", "--repetitions", "1", "--workloads", "count-all", "--output", csv.path], in: folder).status, 0)
        let outcome = try Self.bench(["run", "--scale", "300", "--repetitions", "1", "--workloads", "fault", "--output", csv.path, "--force"],
                                     in: folder, environment: ["INHERITANCE_BENCH_MAX_PAGE_COUNT": "20"])
        XCTAssertNotEqual(outcome.status, 0, outcome.stderr)
        XCTAssertFalse(outcome.stderr.contains("completed before the failure"), outcome.stderr)
    }

    /// A logged save that changes more objects than the data has is refused in one line, not
    /// timed as a smaller save.
    func testASaveTheDataCannotMakeWholeIsRefused() throws {
        let log = folder.appendingPathComponent("deletes.log")
        let deletes = String(repeating: "CoreData: sql: DELETE FROM ZPUBLICATION WHERE Z_PK = ?\n", count: 20)
        try Data("CoreData: sql: BEGIN EXCLUSIVE\n\(deletes)CoreData: sql: COMMIT\n".utf8).write(to: log)
        let outcome = try Self.bench(["replay", log.path, "--preset", "publications", "--scale", "1", "--repetitions", "1", "--output", "r.csv"], in: folder)
        XCTAssertNotEqual(outcome.status, 0, outcome.stderr)
        XCTAssertTrue(outcome.stderr.contains("makes 20 changes, but the data has objects for 1 of them; give a larger --scale"), outcome.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("r.csv").path))
    }
}
