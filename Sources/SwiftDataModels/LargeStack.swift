import Foundation
import Models

/// Runs swift-syntax's parser on a thread whose stack fits the source. The parser limits how
/// deep the tree nests, but its lookahead for types recurses once per bracket before that limit
/// applies: `[[[[…Int]]]]` 5,000 deep overflows a main thread's 8 MiB and crashes. No source can
/// nest deeper than it has opening brackets, so the stack is sized from their count; a source
/// with more than a model could hold is refused in one sentence.
enum LargeStack {
    /// Stack per opening bracket, with room to spare: a debug build's frames are the largest.
    static let bytesPerBracket = 16 << 10
    static let baseBytes = 64 << 20
    static let maximumBytes = 4 << 30

    /// The stack a source needs, or `nil` when it holds too many brackets to parse safely.
    static func bytes(for source: String) -> Int? {
        var openers = 0
        for byte in source.utf8 where byte == UInt8(ascii: "[") || byte == UInt8(ascii: "(") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: "{") {
            openers += 1
        }
        let needed = baseBytes + openers * bytesPerBracket
        return needed <= maximumBytes ? needed : nil
    }

    /// The most opening brackets a source may hold.
    static var maximumOpeners: Int { (maximumBytes - baseBytes) / bytesPerBracket }

    /// Where the opening bracket beyond `maximumOpeners` is (line and UTF-8 column, from 1), for
    /// the message refusing the source.
    static func firstExcessOpener(in source: String) -> SourceShape.Position {
        var at = SourceShape.Position()
        var openers = 0
        for byte in source.utf8 {
            if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "(") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: "{") {
                openers += 1
                if openers > maximumOpeners { break }
            }
            if byte == UInt8(ascii: "\n") { at.line += 1; at.column = 1 } else { at.column += 1 }
        }
        return at
    }

    /// `work`'s result, computed on a thread with a stack of `bytes`.
    static func run<T>(bytes: Int, _ work: @escaping @Sendable () throws -> T) throws -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.result = Result { try work() }
            done.signal()
        }
        thread.stackSize = bytes
        thread.start()
        done.wait()
        guard let result = box.result else { throw ModelError("the Swift parser's thread did not run") }
        return try result.get()
    }

    private final class ResultBox<T>: @unchecked Sendable {
        var result: Result<T, Error>?
    }
}
