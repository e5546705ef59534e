import Foundation
import XCTest

/// A preset's `--mix` or `--root` that it does not have is a usage error of every command that
/// reads a model: refused in the command's `validate()`, one line, exit 64, nothing written.
extension CommandLineTests {
    /// Each mistake, with the line it costs.
    static let presetMistakes: [(arguments: [String], message: String)] = [
        (["--mix", "Albm=1"], "--mix names 'Albm', which the model does not declare; its concrete entities: "),
        (["--root", "Book"], "root 'Book' has a parent; give the root of its hierarchy, 'Publication'"),
        (["--root", "Nope"], "root 'Nope' is not an entity of the model; its hierarchies: Publication"),
    ]

    /// `bench <command> <arguments> <mistake>` for each mistake: exit 64 and the same one line.
    func checkPresetMistakes(_ command: String, _ arguments: [String] = []) throws {
        let argumentLists = Self.presetMistakes.map { [command] + arguments + ["--scale", "50"] + $0.arguments }
        for ((mistake, message), outcome) in zip(Self.presetMistakes, try benchEach(argumentLists, in: folder)) {
            XCTAssertEqual(outcome.status, 64, "\(command) \(mistake): a usage error: \(outcome.stderr)")
            XCTAssertEqual(outcome.stderr.split(separator: "\n").count, 1, "\(command) \(mistake): one line: \(outcome.stderr)")
            XCTAssertTrue(outcome.stderr.hasPrefix("error: \(message)"), "\(command) \(mistake): \(outcome.stderr)")
            XCTAssertTrue(outcome.stderr.hasSuffix("(see 'bench \(command) --help')\n"), "\(command) \(mistake): \(outcome.stderr)")
            XCTAssertEqual(outcome.stdout, "", "\(command) \(mistake)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [], "\(command): nothing is written on bad input")
    }

    func testAPresetsMistakeIsAUsageErrorOfRun() throws { try checkPresetMistakes("run") }

    func testAPresetsMistakeIsAUsageErrorOfGenerate() throws {
        try checkPresetMistakes("generate", ["--strategy", "joined", "--output", "store.sqlite"])
    }

    func testAPresetsMistakeIsAUsageErrorOfExplain() throws { try checkPresetMistakes("explain") }

    func testAPresetsMistakeIsAUsageErrorOfStorage() throws { try checkPresetMistakes("storage") }

    func testAPresetsMistakeIsAUsageErrorOfModel() throws { try checkPresetMistakes("model") }
}
