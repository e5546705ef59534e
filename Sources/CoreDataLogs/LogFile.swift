import Foundation

/// A log file read a line at a time, however large: a chunk of it in memory, never the whole.
/// Only a regular file is read (not a device such as `/dev/zero`, a FIFO or a folder), and only
/// text: a NUL byte, a line that is not UTF-8 or a line longer than `longestLine` ends the read
/// with a `LogProblem` naming the line.
public struct LogFile: Sendable {
    /// The longest line read: Core Data prints a statement on one line, and a statement of a
    /// large IN list or a level-3 row can run to megabytes.
    public static let longestLine = 64 << 20

    public let path: String
    /// The file's size when it was opened.
    public let size: Int64

    /// Checks that `path` is a regular file this process can read.
    public init(path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw LogProblem(errno == ENOENT ? "no file at \(path); give the path of the app's Core Data SQL log (its console output, saved to a file)"
                                             : "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            let kind = info.st_mode & S_IFMT == S_IFDIR ? "a folder" : "not a regular file (a device, a FIFO or a socket)"
            throw LogProblem("\(path) is \(kind): give the log as a file (save the console's output to one)")
        }
        self.path = path
        size = Int64(info.st_size)
    }

    /// Calls `body` with each line (its number, from 1, and its text without the line ending),
    /// and `progress` with the bytes read so far about every 64 MiB.
    public func forEachLine(progress: ((Int64) -> Void)? = nil, _ body: (Int, Substring) throws -> Void) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw LogProblem("cannot read \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var splitter = LineSplitter(path: path)
        let chunk = 1 << 20
        var buffer = [UInt8](repeating: 0, count: chunk)
        var read: Int64 = 0
        var reported: Int64 = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, chunk) }
            guard count >= 0 else {
                if errno == EINTR { continue }
                throw LogProblem("cannot read \(path): \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            try splitter.add(buffer[0 ..< count], body)
            read += Int64(count)
            if read - reported >= 64 << 20 {
                reported = read
                progress?(read)
            }
        }
        try splitter.finish(body)
    }
}

/// A mistake in a log or in reading it: one line saying what is wrong and what to do.
public struct LogProblem: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Bytes cut into lines: a partial line is kept until its end arrives.
private struct LineSplitter {
    let path: String
    var pending: [UInt8] = []
    var number = 0

    mutating func add(_ bytes: ArraySlice<UInt8>, _ body: (Int, Substring) throws -> Void) throws {
        if let nul = Self.find(0, in: bytes) {
            let line = number + 1 + Self.count(10, in: pending[...]) + Self.count(10, in: bytes[..<nul])
            throw LogProblem("\(path) line \(line) holds a NUL byte: this is not a text log (give Core Data's console output as text)")
        }
        var start = bytes.startIndex
        while let end = Self.find(10, in: bytes[start...]) {
            if pending.isEmpty {
                try emit(bytes[start ..< end], body)
            } else {
                pending += bytes[start ..< end]
                try emit(pending[...], body)
                pending.removeAll(keepingCapacity: true)
            }
            start = end + 1
        }
        pending += bytes[start...]
        if pending.count > LogFile.longestLine {
            throw LogProblem("\(path) line \(number + 1) is longer than \(LogFile.longestLine >> 20) MiB: this is not a log Core Data printed")
        }
    }

    /// The index of the first `byte` (memchr: a log of gigabytes is mostly scanned here).
    private static func find(_ byte: UInt8, in bytes: ArraySlice<UInt8>) -> Int? {
        bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress, let found = memchr(base, Int32(byte), buffer.count) else { return nil }
            return bytes.startIndex + (UnsafeRawPointer(found) - UnsafeRawPointer(base))
        }
    }

    private static func count(_ byte: UInt8, in bytes: ArraySlice<UInt8>) -> Int {
        var count = 0
        var rest = bytes
        while let found = find(byte, in: rest) {
            count += 1
            rest = rest[(found + 1)...]
        }
        return count
    }

    mutating func finish(_ body: (Int, Substring) throws -> Void) throws {
        if !pending.isEmpty { try emit(pending[...], body) }
    }

    private mutating func emit(_ bytes: ArraySlice<UInt8>, _ body: (Int, Substring) throws -> Void) throws {
        var rest = bytes.last == 13 ? bytes.dropLast() : bytes
        // A carriage return alone ends a line too (a log saved with classic Mac line endings).
        while let cr = Self.find(13, in: rest) {
            try emitLine(rest[..<cr], body)
            rest = rest[(cr + 1)...]
        }
        try emitLine(rest, body)
    }

    private mutating func emitLine(_ trimmed: ArraySlice<UInt8>, _ body: (Int, Substring) throws -> Void) throws {
        number += 1
        guard let text = String(validating: trimmed, as: UTF8.self) else {
            throw LogProblem("\(path) line \(number) is not UTF-8 text: give Core Data's console output as it was printed")
        }
        try body(number, text[...])
    }
}
