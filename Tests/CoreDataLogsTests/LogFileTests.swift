import Foundation
import XCTest

@testable import CoreDataLogs

/// A log is read a line at a time, and what is not a text log ends the read with one line.
final class LogFileTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("log-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func lines(_ data: Data) throws -> [String] {
        let url = folder.appendingPathComponent("app.log")
        try data.write(to: url)
        var lines: [String] = []
        try LogFile(path: url.path).forEachLine { number, text in
            XCTAssertEqual(number, lines.count + 1)
            lines.append(String(text))
        }
        return lines
    }

    private func problem(_ data: Data) -> String? {
        do {
            _ = try lines(data)
            return nil
        } catch {
            return "\(error)"
        }
    }

    func testLinesEndWithEitherLineEndingAndTheLastNeedsNone() throws {
        XCTAssertEqual(try lines(Data("a\r\nb\n\nc".utf8)), ["a", "b", "", "c"])
        XCTAssertEqual(try lines(Data()), [])
    }

    func testALineAcrossChunksIsWhole() throws {
        // Lines longer than the reader's 1 MiB chunk, and one ending right at a chunk's end.
        let long = String(repeating: "x", count: (1 << 20) + 17)
        let edge = String(repeating: "y", count: (1 << 20) - long.count - 1 + (1 << 20) * 2 - (1 << 20))
        XCTAssertEqual(try lines(Data((long + "\n" + edge + "\nz\n").utf8)), [long, edge, "z"])
    }

    func testWhatIsNotATextLogIsRefusedNamingTheLine() throws {
        XCTAssertEqual(problem(Data("a\nb\0c\n".utf8))?.contains("line 2 holds a NUL byte"), true)
        XCTAssertEqual(problem(Data([0x61, 0x0A, 0xFF, 0xFE, 0x0A]))?.contains("line 2 is not UTF-8 text"), true)
        let tooLong = Data(repeating: 0x78, count: LogFile.longestLine + 2)
        XCTAssertEqual(problem(tooLong)?.contains("line 1 is longer than 64 MiB"), true)
    }

    func testOnlyARegularFileIsRead() throws {
        for (path, says) in [("/dev/zero", "not a regular file"), (folder.path, "a folder"), (folder.appendingPathComponent("none.log").path, "no file at")] {
            XCTAssertThrowsError(try LogFile(path: path)) { XCTAssertTrue("\($0)".contains(says), "\($0)") }
        }
        let fifo = folder.appendingPathComponent("fifo.log").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        XCTAssertThrowsError(try LogFile(path: fifo)) { XCTAssertTrue("\($0)".contains("not a regular file"), "\($0)") }
    }
}
