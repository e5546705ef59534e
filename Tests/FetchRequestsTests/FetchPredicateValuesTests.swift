import FetchRequests
import Generation
import XCTest

final class FetchPredicateValuesTests: XCTestCase {
    /// The values a predicate holds, in order, and the predicate rebuilt from them; too few, a key
    /// that is no integer or an object named through a to-one is no predicate.
    func testHeldValuesAreReplacedInTheirOrder() throws {
        let predicate = FetchPredicate.and([
            .compare("a", .greater, .integer(1)), .or([.string("b", .beginsWith, .text("x"), FetchPredicate.StringOptions()), .not(.between("c", .real(1), .real(2)))]),
            .among("d", [.text("p"), .text("q")]), .isNil("e", negated: false), .key(7), .any(.equals("tags.name", .text("t"))),
            .subquery("tags", .compare("tags.n", .less, .integer(3)), .greater, .integer(0)), .bitwise("f", .integer(4), .equal, .integer(4)),
        ])
        XCTAssertEqual(predicate.heldValues, [.integer(1), .text("x"), .real(1), .real(2), .text("p"), .text("q"), .integer(7), .text("t"), .integer(3), .integer(0), .integer(4), .integer(4)])
        var same = ArraySlice(predicate.heldValues)
        XCTAssertEqual(predicate.replacingHeldValues(&same), predicate)
        XCTAssertTrue(same.isEmpty)
        let others: [Value] = [.integer(2), .text("y"), .real(3), .real(4), .text("r"), .text("s"), .integer(8), .text("u"), .integer(5), .integer(1), .integer(2), .integer(0)]
        var given = ArraySlice(others)
        XCTAssertEqual(predicate.replacingHeldValues(&given)?.heldValues, others)
        var short = ArraySlice(others.dropLast())
        XCTAssertNil(predicate.replacingHeldValues(&short))
        var notAKey = ArraySlice<Value>([.text("7")])
        XCTAssertNil(FetchPredicate.key(7).replacingHeldValues(&notAKey))
        var toOne = ArraySlice<Value>([.integer(3)])
        XCTAssertNil(FetchPredicate.toOne("author", ObjectID(entity: 1, key: 2)).replacingHeldValues(&toOne))
    }

    func testSqueezedSQLIgnoresSpacesOutsideQuotesOnly() {
        XCTAssertEqual(SQLText.squeezed("SELECT  COUNT( t0.Z_PK) FROM ZA t0 WHERE  t0.ZB = 'a  b'  "), "SELECTCOUNT(t0.Z_PK)FROMZAt0WHEREt0.ZB='a  b'")
        XCTAssertEqual(SQLText.squeezed("SELECT t0.Z_PK FROM ZA t0\n WHERE t0.ZB = ?"), SQLText.squeezed("SELECT t0.Z_PK FROM ZA t0 WHERE t0.ZB = ?"))
    }
}
