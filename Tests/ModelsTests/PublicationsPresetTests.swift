import Models
import XCTest

final class PublicationsPresetTests: XCTestCase {
    /// The default run's size: 50,000 publications (10 % Publication, 30 % Book, 20 % each of the
    /// others) and 200 tags, as `bench list` says; `--scale 100000` gives the reference run's size,
    /// row for row, the tags unchanged.
    func testThePresetHoldsFiftyThousandPublicationsAndTwoHundredTags() {
        let preset = ModelPresets.publications
        let rows = preset.entities.map { "\($0.name) \($0.rows ?? 0)" }
        XCTAssertEqual(rows, ["Publication 5000", "Book 15000", "AcademicPaper 10000", "WebArticle 10000", "BlogPost 10000", "Tag 200"])
        XCTAssertTrue(preset.summary?.hasSuffix("(50,000 publications, 200 tags)") ?? false, preset.summary ?? "no summary")
        XCTAssertEqual(preset.scaled(to: 100_000).entities.map { $0.rows ?? 0 }, [10_000, 30_000, 20_000, 20_000, 20_000, 200])
    }
}
