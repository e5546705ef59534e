import Generation
import Foundation
@testable import Reporting
import XCTest

/// `CSV.parse` and `CSV.line` on random texts from fixed seeds (SplitMix64, so every failure
/// can be replayed from the seed it names):
/// - well-formed records written with `CSV.line` parse back to the same records, scalar for scalar;
/// - any text, however malformed (truncated, stray quotes, lone CRs), either parses or throws
///   `CSV.ParseError` whose line is between 1 and the text's line count + 1; never anything else.
final class CSVFuzzTests: XCTestCase {
    static let seeds: Range<UInt64> = 0 ..< 200

    /// What fields are made of: plain text, CSV's own special characters, and scalars that Swift
    /// joins with a neighbour into one `Character` (CR + LF, a combining accent after a comma or
    /// a quote), where a check done Character by Character would miss the special scalar.
    static let alphabet: [Unicode.Scalar] = [
        "a", "b", "Z", "7", " ", "\t", "\u{E9}", "😀", "\u{0}",
        ",", "\"", "\r", "\n",
        "\u{301}", // COMBINING ACUTE ACCENT
    ]

    static func field(_ rng: inout SplitMix64) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0 ..< Int(rng.next() % 9) { scalars.append(alphabet[Int(rng.next() % UInt64(alphabet.count))]) }
        return String(scalars)
    }

    /// 1 to 6 records of 1 to 5 fields. (A record of zero fields has no CSV form: `CSV.line([])` is
    /// an empty line, which reads back as one empty field.)
    static func records(_ rng: inout SplitMix64) -> [[String]] {
        (0 ..< 1 + Int(rng.next() % 6)).map { _ in (0 ..< 1 + Int(rng.next() % 5)).map { _ in field(&rng) } }
    }

    static func render(_ records: [[String]]) -> String { records.map(CSV.line).joined() }

    /// Records compared scalar by scalar (String's == would call canonically equivalent text equal).
    static func scalars(_ records: [[String]]) -> [[[Unicode.Scalar]]] {
        records.map { $0.map { Array($0.unicodeScalars) } }
    }

    /// Lines as `CSV.ParseError` counts them: one more than the number of line feeds.
    static func lineCount(_ text: String) -> Int { text.unicodeScalars.filter { $0 == "\n" }.count + 1 }

    /// A copy of `text` broken in one of several ways, chosen by `rng`.
    static func damage(_ text: String, _ rng: inout SplitMix64) -> String {
        var scalars = Array(text.unicodeScalars)
        let position = Int(rng.next() % UInt64(scalars.count + 1))
        switch rng.next() % 6 {
        case 0: scalars.removeSubrange(position...) // truncated, as by a crash mid-write
        case 1: scalars.insert("\"", at: position) // a stray quote
        case 2: scalars.insert("\r", at: position) // a carriage return, perhaps without its line feed
        case 3: if position < scalars.count { scalars.remove(at: position) } // a lost scalar
        case 4: scalars.insert(contentsOf: ["\"", ","], at: position) // an opened quoted field
        default: // noise made only of CSV's special characters
            scalars = (0 ..< Int(rng.next() % 24)).map { _ in [",", "\"", "\r", "\n", "a"][Int(rng.next() % 5)] }
        }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    func testWellFormedRecordsRoundTrip() {
        var failures = 0
        for seed in Self.seeds where failures < 5 {
            var rng = SplitMix64(seed: seed)
            let records = Self.records(&rng)
            let text = Self.render(records)
            do {
                let parsed = try CSV.parse(text)
                if Self.scalars(parsed) != Self.scalars(records) {
                    failures += 1
                    XCTFail("seed \(seed): \(records.debugDescription) was written as \(text.debugDescription) and read back as \(parsed.debugDescription)")
                }
            } catch {
                failures += 1
                XCTFail("seed \(seed): \(records.debugDescription) was written as \(text.debugDescription), which does not parse: \(error)")
            }
        }
    }

    func testMalformedTextEitherParsesOrFailsWithALineNumber() {
        var failures = 0
        var (parsed, rejected) = (0, 0)
        for seed in Self.seeds where failures < 5 {
            var rng = SplitMix64(seed: seed)
            let wellFormed = Self.render(Self.records(&rng))
            for _ in 0 ..< 10 {
                let text = Self.damage(wellFormed, &rng)
                do {
                    _ = try CSV.parse(text)
                    parsed += 1
                } catch let error as CSV.ParseError {
                    rejected += 1
                    let lines = Self.lineCount(text)
                    if !(1 ... lines + 1).contains(error.line) {
                        failures += 1
                        XCTFail("seed \(seed): \(text.debugDescription) (\(lines) lines) failed at line \(error.line): \(error)")
                    }
                } catch {
                    failures += 1
                    XCTFail("seed \(seed): \(text.debugDescription) threw \(type(of: error)), not CSV.ParseError: \(error)")
                }
            }
        }
        // The damage must produce both kinds of text, or the test proves little.
        XCTAssertGreaterThan(rejected, 300, "texts rejected: \(rejected), parsed: \(parsed)")
        XCTAssertGreaterThan(parsed, 300, "texts rejected: \(rejected), parsed: \(parsed)")
    }

    /// The cases behind most random failures, spelled out: CR LF, and a comma or quote followed by
    /// a combining mark, are each one `Character` that equals none of CSV's special characters,
    /// so an escape that looks at Characters leaves them unquoted (or a quote undoubled). LF
    /// followed by a combining mark is two Characters, a control case.
    func testFieldsWhoseSpecialScalarsShareACharacterAreQuoted() throws {
        for field in ["CR\r\nLF", ",\u{301}", "\"\u{301}", "\n\u{301}"] {
            XCTAssertEqual(try Self.scalars(CSV.parse(CSV.line([field, "next"]))), Self.scalars([[field, "next"]]),
                           "\(field.debugDescription) is written as \(CSV.line([field, "next"]).debugDescription)")
        }
    }
}
