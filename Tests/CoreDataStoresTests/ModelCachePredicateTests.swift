import CoreDataStores
import Models
import TestSupport
import XCTest

/// A partial fetch index's archived `NSPredicate`, read into the index's condition; what the suite
/// cannot translate, and hostile predicates (cycles, depth, size), keep the index whole with one
/// warning and never stop the read.
final class ModelCachePredicateTests: XCTestCase {
    /// A model of one entity, `Note`, with the index `byTitle` on `title` whose predicate `predicate` adds.
    func decoded(_ predicate: (KeyedArchiveWriter) -> Int) throws -> ModelCache.Decoded {
        let writer = KeyedArchiveWriter()
        let top = writer.reserve()
        let entity = writer.reserve()
        func attribute(_ name: String, _ type: Int64) -> (String, Int) {
            (name, writer.add("NSAttributeDescription", [("NSPropertyName", .uid(writer.string(name))), ("NSEntity", .uid(entity)),
                                                         ("NSAttributeType", .integer(type)), ("_P", .integer(0xF3))]))
        }
        let properties = writer.dictionary([attribute("title", 700), attribute("rank", 200), attribute("created", 900)])
        let index = writer.reserve()
        let element = writer.add("NSFetchIndexElementDescription", [("NSPropertyName", .uid(writer.string("title"))), ("NSFetchIndexElementType", .integer(0)),
                                                                    ("NSFetchIndexDescription", .uid(index)), ("NSAscending", .bool(true))])
        writer.add("NSFetchIndexDescription", [("NSIndexName", .uid(writer.string("byTitle"))), ("NSIndexElements", .uid(writer.array([element]))),
                                               ("NSPartialIndexPredicate", .uid(predicate(writer)))], at: index)
        writer.add("NSEntityDescription", [("NSEntityName", .uid(writer.string("Note"))), ("NSProperties", .uid(properties)),
                                           ("NSFetchIndexDescriptions", .uid(writer.array([index])))], at: entity)
        writer.add("NSManagedObjectModel", [("NSEntities", .uid(writer.knownKeysDictionary([("Note", entity)])))], at: top)
        return try ModelCache.decode(RawDeflate.deflate(writer.archive(root: top)), name: "Notes")
    }

    func condition(_ predicate: (KeyedArchiveWriter) -> Int) throws -> FetchIndex.Condition? {
        try XCTUnwrap(decoded(predicate).description.entities.first?.fetchIndexes.first).condition
    }

    func warnings(_ predicate: (KeyedArchiveWriter) -> Int) throws -> [String] { try decoded(predicate).warnings }

    /// `key`, archived as `NSExpression(forKeyPath:)` is: a function expression on `self` whose argument holds the key.
    static func keyPath(_ writer: KeyedArchiveWriter, _ key: String) -> Int {
        let argument = writer.add("NSConstantValueExpression", [("NSConstantValue", .uid(writer.string(key))), ("NSExpressionType", .integer(0))])
        return writer.add("NSKeyPathExpression", [("NSOperand", .uid(writer.add("NSSelfExpression", [("NSExpressionType", .integer(1))]))),
                                                  ("NSSelectorName", .uid(writer.string("valueForKey:"))), ("NSArguments", .uid(writer.array([argument]))),
                                                  ("NSExpressionType", .integer(3))])
    }

    static func constant(_ writer: KeyedArchiveWriter, _ value: PropertyListNode?) -> Int {
        let uid: Int
        switch value {
        case nil: uid = 0
        case let .string(text)?: uid = writer.string(text)
        case let node?: uid = writer.reserve(); writer.replace(uid, with: node)
        }
        return writer.add("NSConstantValueExpression", [("NSConstantValue", .uid(uid)), ("NSExpressionType", .integer(0))])
    }

    static func comparison(_ writer: KeyedArchiveWriter, _ key: String, _ type: Int64, _ value: PropertyListNode?, options: Int64 = 0) -> Int {
        comparison(writer, key, type, constant: constant(writer, value), options: options)
    }

    /// A comparison of `key` with the object `object` (an `NSDate`, an `NSData`).
    static func comparison(_ writer: KeyedArchiveWriter, _ key: String, _ type: Int64, object: Int) -> Int {
        comparison(writer, key, type, constant: writer.add("NSConstantValueExpression", [("NSConstantValue", .uid(object))]))
    }

    static func comparison(_ writer: KeyedArchiveWriter, _ key: String, _ type: Int64, constant: Int, options: Int64 = 0) -> Int {
        let operatorUID = writer.add(type >= 4 ? "NSEqualityPredicateOperator" : "NSComparisonPredicateOperator",
                                     [("NSOperatorType", .integer(type)), ("NSModifier", .integer(0))] + (options == 0 ? [] : [("NSOptions", .integer(options))]))
        return writer.add("NSComparisonPredicate", [("NSLeftExpression", .uid(keyPath(writer, key))), ("NSRightExpression", .uid(constant)),
                                                    ("NSPredicateOperator", .uid(operatorUID))])
    }

    static func compound(_ writer: KeyedArchiveWriter, _ type: Int64, _ members: [Int]) -> Int {
        writer.add("NSCompoundPredicate", [("NSCompoundPredicateType", .integer(type)), ("NSSubpredicates", .uid(writer.array(members)))])
    }

    func testComparisonsAndCompoundsAreRead() throws {
        XCTAssertEqual(try condition { Self.comparison($0, "title", 5, nil) }, .compare(property: "title", .notEqual, .null))
        let read = try condition { writer in
            let createdAfter = Self.comparison(writer, "created", 2, object: writer.add("NSDate", [("NS.time", .real(86_400.5))]))
            return Self.compound(writer, 1, [Self.comparison(writer, "rank", 3, .integer(3)), Self.compound(writer, 0, [Self.comparison(writer, "title", 4, .string("x"))]),
                                             Self.compound(writer, 2, [createdAfter, Self.comparison(writer, "rank", 0, .real(1.5))])])
        }
        XCTAssertEqual(read, .and([.compare(property: "rank", .greaterOrEqual, .integer(3)), .not(.compare(property: "title", .equal, .text("x"))),
                                   .or([.compare(property: "created", .greater, .date(86_400.5)), .compare(property: "rank", .less, .real(1.5))])]))
        XCTAssertEqual(try condition { Self.comparison($0, "SELF", 2, .integer(10)) }, .compare(property: "SELF", .greater, .integer(10)))
    }

    /// What Core Data's index SQL could not hold, or the suite does not model: one warning each, the index whole.
    func testWhatCannotBeTranslatedKeepsTheIndexWhole() throws {
        let cases: [(String, (KeyedArchiveWriter) -> Int)] = [
            ("compares strings with options", { Self.comparison($0, "title", 4, .string("x"), options: 1) }),
            ("uses the comparison operator type 7", { Self.comparison($0, "title", 7, .string("x")) }),
            ("follows the key path 'folder.name' (Core Data's index SQL has no joins)", { Self.comparison($0, "folder.name", 4, .string("x")) }),
            ("orders against nil", { Self.comparison($0, "rank", 2, nil) }),
            ("is an NSTruePredicate", { $0.add("NSTruePredicate", []) }),
            ("holds a constant of class NSData", { Self.comparison($0, "title", 4, object: $0.add("NSData", [("NS.data", .data([1]))])) }),
            ("holds the number inf, which SQL cannot write", { Self.comparison($0, "rank", 2, .real(.infinity)) }),
            ("uses the function uppercase:", { writer in
                let argument = writer.add("NSConstantValueExpression", [("NSConstantValue", .uid(writer.string("title"))), ("NSExpressionType", .integer(0))])
                let function = writer.add("NSFunctionExpression", [("NSSelectorName", .uid(writer.string("uppercase:"))), ("NSArguments", .uid(writer.array([argument]))),
                                                                   ("NSExpressionType", .integer(4))])
                return Self.comparison(writer, "title", 4, constant: function)
            }),
        ]
        for (why, predicate) in cases {
            XCTAssertEqual(try warnings(predicate), ["fetch index 'Note.byTitle' is a partial index whose predicate \(why); the suite indexes every row"])
            XCTAssertNil(try condition(predicate), why)
        }
        XCTAssertEqual(try warnings { Self.comparison($0, "missing", 5, nil) },
                       ["fetch index 'Note.byTitle' is a partial index whose predicate names 'missing', not an attribute or to-one; the suite indexes every row"])
    }

    /// A predicate that contains itself, one nested past the depth limit, one wider than the part limit: bounded, one warning each.
    func testHostilePredicatesAreBounded() throws {
        let cyclic = try warnings { writer in
            let uid = writer.reserve()
            let members = writer.array([uid, Self.comparison(writer, "rank", 4, .integer(1))])
            writer.add("NSCompoundPredicate", [("NSCompoundPredicateType", .integer(1)), ("NSSubpredicates", .uid(members))], at: uid)
            return uid
        }
        XCTAssertEqual(cyclic, ["fetch index 'Note.byTitle' is a partial index whose predicate nests deeper than 32 levels; the suite indexes every row"])
        let deep = try warnings { writer in
            (0 ..< 40).reduce(Self.comparison(writer, "rank", 4, .integer(1))) { inner, _ in Self.compound(writer, 0, [inner]) }
        }
        XCTAssertEqual(deep, ["fetch index 'Note.byTitle' is a partial index whose predicate nests deeper than 32 levels; the suite indexes every row"])
        let wide = try warnings { writer in
            let one = Self.comparison(writer, "rank", 4, .integer(1))
            return Self.compound(writer, 2, Array(repeating: one, count: 1_200))
        }
        XCTAssertEqual(wide, ["fetch index 'Note.byTitle' is a partial index whose predicate has more than 1000 parts; the suite indexes every row"])
    }
}
