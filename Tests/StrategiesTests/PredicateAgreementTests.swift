import FetchRequests
import Foundation
import Generation
import Models
import Strategies
import TestSupport
import XCTest

/// Every layout answers random requests of every predicate form (comparisons, nil tests, `IN`,
/// `BETWEEN`, `AND`, `OR`, `NOT` nested to depth 4) as the reference does, in SQL's three-valued
/// logic, over the presets, the corner models and generated models. By default a fixed-seed sample
/// (25 generated models, 4 requests an entity; 12 an entity of the presets and corner models); `INHERITANCE_BENCH_PREDICATE_SWEEP=full` asks all 250
/// generated models 24 requests an entity.
final class PredicateAgreementTests: XCTestCase {
    static var full: Bool { ProcessInfo.processInfo.environment["INHERITANCE_BENCH_PREDICATE_SWEEP"] == "full" }

    func testPresetsAndCornerModelsAgree() throws {
        for (index, description) in (StrategyAgreementTests.models + StrategyAgreementTests.cornerModels).enumerated() {
            let agreement = try StrategyAgreement(Strategies.all, description)
            try agreement.checkPredicates(seed: UInt64(100 + index), perEntity: Self.full ? 60 : 12)
            try agreement.checkDictionaries(seed: UInt64(100 + index), perEntity: Self.full ? 24 : 6)
            // Many requests of NOT, nil tests and narrow ANDs find nothing, by design.
            agreement.assertAskedEnough(moreThan: 20, share: 0.4)
        }
    }

    func testGeneratedModelsAgree() throws {
        let seeds: [UInt64] = Self.full ? Array(1 ... 250) : Array(stride(from: 1, through: 250, by: 10))
        for seed in seeds {
            let description = RandomModel.make(seed: seed)
            let agreement = try StrategyAgreement(Strategies.all, description, seed: seed)
            try agreement.checkPredicates(seed: seed, perEntity: Self.full ? 24 : 4)
            try agreement.checkDictionaries(seed: seed, perEntity: Self.full ? 8 : 2)
        }
    }

    /// The forms' SQL, shared by every layout: written once (`SQLWhere`), each layout naming its
    /// own columns.
    /// Core Data's string functions as NSPredicate means its operators.
    func testCoreDataStringFunctions() {
        XCTAssertTrue(CoreDataFunctions.search("Café au lait", "CAFE", flags: 385))
        XCTAssertFalse(CoreDataFunctions.search("Café au lait", "CAFE", flags: 257), "[c] keeps diacritics")
        XCTAssertFalse(CoreDataFunctions.search("Café au lait", "cafe", flags: 0))
        XCTAssertTrue(CoreDataFunctions.search("Café au lait", "Caf", flags: 8), "BEGINSWITH")
        XCTAssertFalse(CoreDataFunctions.search("Café au lait", "lait", flags: 8))
        XCTAssertTrue(CoreDataFunctions.search("Café au lait", "LAIT", flags: 269), "ENDSWITH[c]")
        XCTAssertFalse(CoreDataFunctions.search("Café", "", flags: 0), "an empty needle is found nowhere")
        XCTAssertTrue(CoreDataFunctions.like("Café au lait", "caf? *t", variant: 3))
        XCTAssertTrue(CoreDataFunctions.like("Café au lait", "cafe *t", variant: 3))
        XCTAssertFalse(CoreDataFunctions.like("Café au lait", "cafe *t", variant: 1), "[c] keeps diacritics")
        XCTAssertTrue(CoreDataFunctions.like("a*b", "a\\*b", variant: 0), "an escaped star is a star")
        XCTAssertFalse(CoreDataFunctions.like("axb", "a\\*b", variant: 0))
        XCTAssertTrue(CoreDataFunctions.like("", "*", variant: 0))
        XCTAssertFalse(CoreDataFunctions.like("ab", "?", variant: 0))
        XCTAssertTrue(CoreDataFunctions.like("a\\", "a\\", variant: 0), "a pattern ending in a backslash ends in one")
        XCTAssertFalse(CoreDataFunctions.like("a", "a\\", variant: 0))
        XCTAssertTrue(CoreDataFunctions.matches("Café au lait", "Caf. au.*", variant: 0), "MATCHES is a whole-string regular expression")
        XCTAssertFalse(CoreDataFunctions.matches("Café au lait", "Caf", variant: 0), "the whole string")
        XCTAssertTrue(CoreDataFunctions.matches("Café au lait", "cafe AU LAIT", variant: 3))
        XCTAssertFalse(CoreDataFunctions.matches("Café au lait", "cafe AU LAIT", variant: 1), "[c] keeps diacritics")
        XCTAssertFalse(CoreDataFunctions.matches("(", "(", variant: 0), "a pattern that is not a regular expression matches nothing")
        XCTAssertTrue(CoreDataFunctions.matches("ab", "a|ab", variant: 0), "any match of the whole string, not the first found")
        // Sort comparators, as the collations Core Data orders by.
        XCTAssertEqual(CoreDataFunctions.order("item 2", "Item 10", .localizedStandard), .orderedAscending, "Finder's order: numbers by value, case folded")
        XCTAssertEqual(CoreDataFunctions.order("item 2", "Item 10", .binary), .orderedDescending, "bytes: 'I' before 'i'")
        XCTAssertEqual(CoreDataFunctions.order("Apple", "apple", .caseInsensitive), .orderedSame)
        XCTAssertEqual(CoreDataFunctions.order("Apple", "apple", .localizedStandard), .orderedAscending, "Finder's order breaks ties")
        XCTAssertEqual(SortKey("title", comparator: .caseInsensitive).order(.text("b"), .text("A")), .orderedDescending)
        XCTAssertEqual(SortKey("title", comparator: .caseInsensitive).order(.null, .text("A")), .orderedAscending, "NULL first")
        XCTAssertTrue(CoreDataFunctions.matches("abc", "a.*?", variant: 0))
        XCTAssertFalse(CoreDataFunctions.matches("abc", "b", variant: 0))
        XCTAssertTrue(CoreDataFunctions.compare("Café", "CAFE", operator: 3, flags: 385))
        XCTAssertTrue(CoreDataFunctions.compare("abc", "ABD", operator: 1, flags: 257), "abc <[c] ABD")
        XCTAssertFalse(CoreDataFunctions.compare("abc", "ABC", operator: 6, flags: 257))
    }

    func testEachFormIsOneCondition() throws {
        let model = try Model(ModelPresets.publications.scaled(to: 100))
        let book = try XCTUnwrap(model.index(of: "Book"))
        let predicate = FetchPredicate.and([
            .or([.compare("pageCount", .greater, .integer(300)), .isNil("isbn", negated: false)]),
            .not(.among("title", [.text("A"), .text("B")])), .between("pageCount", .integer(1), .integer(9)),
        ])
        let query = try SingleTable(model: model).fetchQuery(FetchRequest(entity: book, includesSubentities: false, predicate: predicate))
        XCTAssertTrue(query.sql.hasSuffix("WHERE (t0.ZPAGECOUNT > ? OR t0.ZISBN IS NULL) AND NOT (t0.ZTITLE IN (?,?)) AND (t0.ZPAGECOUNT BETWEEN ? AND ?) AND t0.Z_ENT = ?"), query.sql)
        XCTAssertEqual(query.values, [.integer(300), .text("A"), .text("B"), .integer(1), .integer(9), .integer(Int64(book + 1))])
        // The string operators call Core Data's functions with its flags.
        let strings = FetchPredicate.and([.string("title", .contains, .text("x"), .init(caseInsensitive: true, diacriticInsensitive: true)),
                                          .string("isbn", .beginsWith, .text("97"), .init()), .string("title", .endsWith, .text("y"), .init(caseInsensitive: true)),
                                          .string("title", .like, .text("a*"), .init(diacriticInsensitive: true))])
        XCTAssertTrue(try SingleTable(model: model).fetchQuery(FetchRequest(entity: book, includesSubentities: false, predicate: strings)).sql.hasSuffix(
            "WHERE NSCoreDataStringSearch(t0.ZTITLE, ?, 385, 0) AND NSCoreDataStringSearch(t0.ZISBN, ?, 8, 0) AND NSCoreDataStringSearch(t0.ZTITLE, ?, 269, 0) AND NSCoreDataLike(t0.ZTITLE, ?, 2) AND t0.Z_ENT = ?"))
        // [l] is Core Data's locale flag: SwiftData's localizedStandardContains as logged.
        XCTAssertTrue(try SingleTable(model: model).fetchQuery(FetchRequest(entity: book, includesSubentities: false, predicate:
            .string("title", .contains, .text("x"), .init(caseInsensitive: true, diacriticInsensitive: true, localized: true)))).sql
            .hasSuffix("WHERE NSCoreDataStringSearch(t0.ZTITLE, ?, 417, 1) AND t0.Z_ENT = ?"))
        // An AND inside an OR or a NOT keeps its own parentheses.
        let nested = FetchPredicate.or([.and([.isNil("isbn", negated: true), .compare("pageCount", .notEqual, .integer(5))]), .not(.and([.isNil("title", negated: false), .isNil("isbn", negated: false)]))])
        XCTAssertTrue(try SingleTable(model: model).fetchQuery(FetchRequest(entity: book, includesSubentities: false, predicate: nested)).sql
            .hasSuffix("WHERE ((t0.ZISBN IS NOT NULL AND t0.ZPAGECOUNT <> ?) OR NOT ((t0.ZTITLE IS NULL AND t0.ZISBN IS NULL))) AND t0.Z_ENT = ?"))
    }

    /// Each comparator's collation is a consistent order (SQLite's sort, the reference's and every
    /// layout's agree only then), also over digits of two widths, case, ß and ligatures: for random
    /// strings, antisymmetric and transitive.
    func testSortComparatorsAreConsistentOrders() {
        var random = SplitMix64(seed: 11)
        let alphabet = Array("a01１bBßﬀfS é")
        let strings = (0 ..< 48).map { _ in String((0 ..< 1 + Int(random.next() % 5)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }) }
            + ["a1b", "a01b", "a１", "fßﬀﬀ", "ﬀßßfﬀS", "fßf", "Apple", "apple", "e\u{301}", "\u{e9}"]
        for comparator in SortKey.Comparator.allCases {
            let order = { CoreDataFunctions.order($0, $1, comparator) }
            for a in strings {
                for b in strings {
                    let ab = order(a, b)
                    XCTAssertEqual(ab.rawValue, -order(b, a).rawValue, "\(comparator): \(a) and \(b)")
                    guard ab != .orderedDescending else { continue }
                    for c in strings where order(b, c) != .orderedDescending {
                        XCTAssertNotEqual(order(a, c), .orderedDescending, "\(comparator): \(a) ≤ \(b) ≤ \(c)")
                    }
                }
            }
        }
        XCTAssertEqual(CoreDataFunctions.order("e\u{301}", "\u{e9}", .binary), .orderedAscending, "bytes, not canonical equivalence")
        XCTAssertEqual(CoreDataFunctions.order("e\u{301}", "\u{e9}", .localized), .orderedSame)
    }

    /// A key path's steps are Core Data's joins: inner, `LEFT OUTER` in an OR or under a nil test,
    /// one a step however often the path is named; objects compared by key; a to-many's count a
    /// correlated subquery.
    func testKeyPathsAreJoins() throws {
        let model = try Model(ModelPresets.efcoreAnimals.scaled(to: 100))
        let human = try XCTUnwrap(model.index(of: "Human"))
        let layout = try SingleTable(model: model)
        func sql(_ predicate: FetchPredicate) throws -> String {
            try layout.fetchQuery(FetchRequest(entity: human, predicate: predicate)).sql.components(separatedBy: " FROM ").dropFirst().joined(separator: " FROM ")
        }
        XCTAssertEqual(try sql(.and([.string("favoriteAnimal.name", .beginsWith, .text("R"), .init()), .compare("name", .notEqual, .text("x"))])),
                       "ZANIMAL t0 JOIN ZANIMAL t1 ON t0.ZFAVORITEANIMAL = t1.Z_PK WHERE NSCoreDataStringSearch(t1.ZNAME, ?, 8, 0) AND t0.ZNAME <> ? AND t0.Z_ENT = ?")
        XCTAssertEqual(try sql(.or([.isNil("favoriteAnimal", negated: false), .compare("favoriteAnimal.name", .equal, .text("R"))])),
                       "ZANIMAL t0 LEFT OUTER JOIN ZANIMAL t1 ON t0.ZFAVORITEANIMAL = t1.Z_PK WHERE (t0.ZFAVORITEANIMAL IS NULL OR t1.ZNAME = ?) AND t0.Z_ENT = ?")
        // An object compared is its key: a to-one's foreign key, `self` the object's own.
        XCTAssertEqual(try sql(.or([.compare("favoriteAnimal", .notEqual, .integer(3)), .among("self", [.integer(1), .integer(2)])])),
                       "ZANIMAL t0 WHERE (t0.ZFAVORITEANIMAL <> ? OR t0.Z_PK IN (?,?)) AND t0.Z_ENT = ?")
        // A to-many's count is a correlated count of its join table's rows, after the key paths' aliases.
        XCTAssertEqual(try sql(.and([.compare("favoriteAnimal.name", .equal, .text("R")), .countOf("pets", .greater, .integer(1))])),
                       "ZANIMAL t0 JOIN ZANIMAL t1 ON t0.ZFAVORITEANIMAL = t1.Z_PK WHERE t1.ZNAME = ? AND (SELECT COUNT(t2.Z_4PETS) FROM Z_4HUMANS t2 WHERE (t0.Z_PK = t2.Z_3HUMANS)) > ? AND t0.Z_ENT = ?")
        // A SUBQUERY's count: of the destination's rows joined to the join table, correlated and
        // ANDed with its predicate, its aliases after the query's; with no predicate, the join table's rows.
        XCTAssertEqual(try sql(.and([.compare("favoriteAnimal.name", .equal, .text("R")), .subquery("pets", .or([.compare("pets.name", .equal, .text("a")), .isNil("pets.name", negated: false)]), .greater, .integer(0))])),
                       "ZANIMAL t0 JOIN ZANIMAL t1 ON t0.ZFAVORITEANIMAL = t1.Z_PK WHERE t1.ZNAME = ? AND (SELECT COUNT(t3.Z_PK) FROM Z_4HUMANS t2 JOIN ZANIMAL t3 ON t2.Z_4PETS = t3.Z_PK WHERE (t0.Z_PK = t2.Z_3HUMANS AND ((t3.ZNAME = ? OR t3.ZNAME IS NULL)))) > ? AND t0.Z_ENT = ?")
        XCTAssertEqual(try sql(.subquery("pets", .all, .equal, .integer(0))), "ZANIMAL t0 WHERE (SELECT COUNT(t1.Z_4PETS) FROM Z_4HUMANS t1 WHERE (t0.Z_PK = t1.Z_3HUMANS)) = ? AND t0.Z_ENT = ?")
        // `[n]`: a literal search, `BEGINSWITH[n]` a range of the column (its end the prefix's last unit one more), `==[n]` SQL's own.
        let normalized = FetchPredicate.StringOptions(caseInsensitive: true, normalized: true)
        XCTAssertEqual(try sql(.or([.string("name", .contains, .text("ab"), normalized), .string("name", .beginsWith, .text("ab"), normalized), .stringCompare("name", .equal, .text("x"), normalized)])),
                       "ZANIMAL t0 WHERE (NSCoreDataStringSearch(t0.ZNAME, ?, 2, 0) OR t0.ZNAME >= ? AND t0.ZNAME < ? OR t0.ZNAME = ?) AND t0.Z_ENT = ?")
        XCTAssertEqual(try layout.fetchQuery(FetchRequest(entity: human, predicate: .string("name", .beginsWith, .text("ab"), normalized))).values, [.text("ab"), .text("ac"), .integer(3)])
        XCTAssertEqual(FetchPredicate.prefixEnd("a\u{FFFF}"), nil, "searched for instead")
        // The object's entity: Core Data's `Z_ENT`, its exact number (a sub-entity's objects are not of it).
        XCTAssertEqual(try sql(.compare("entity", .notEqual, .integer(3))), "ZANIMAL t0 WHERE t0.Z_ENT <> ? AND t0.Z_ENT = ?")
        // An integer's bits, as Core Data's function expression writes them.
        XCTAssertEqual(try sql(.bitwise("name", .integer(4), .equal, .integer(4))), "ZANIMAL t0 WHERE (t0.ZNAME & ?) = ? AND t0.Z_ENT = ?")
        // A to-many holding an object: Core Data's subquery of the join table.
        XCTAssertEqual(try sql(.holds("pets", .integer(7))), "ZANIMAL t0 WHERE t0.Z_PK IN (SELECT h1.Z_3HUMANS FROM Z_4HUMANS h1 WHERE h1.Z_4PETS = ?) AND t0.Z_ENT = ?")
        // A sort key's path: joined after the predicate's, promoted to LEFT OUTER (a join the predicate shares too).
        let sorted = FetchRequest(entity: human, predicate: .compare("favoriteAnimal.name", .notEqual, .text("R")), sort: [SortKey("favoriteAnimal.name", ascending: false), SortKey("name")])
        XCTAssertTrue(try layout.fetchQuery(sorted).sql.hasSuffix(
            "FROM ZANIMAL t0 LEFT OUTER JOIN ZANIMAL t1 ON t0.ZFAVORITEANIMAL = t1.Z_PK WHERE t1.ZNAME <> ? AND t0.Z_ENT = ? ORDER BY t1.ZNAME DESC, t0.ZNAME"))
        XCTAssertTrue(try layout.fetchQuery(FetchRequest(entity: human, predicate: .compare("name", .equal, .text("R")), sort: [SortKey("favoriteAnimal.name")])).sql.hasSuffix(
            "FROM ZANIMAL t0 LEFT OUTER JOIN ZANIMAL t1 ON t0.ZFAVORITEANIMAL = t1.Z_PK WHERE t0.ZNAME = ? AND t0.Z_ENT = ? ORDER BY t1.ZNAME"))
        // A comparator is Core Data's collation after the key, before DESC.
        XCTAssertTrue(try layout.fetchQuery(FetchRequest(entity: human, sort: [SortKey("name", ascending: false, comparator: .localizedStandard), SortKey("favoriteAnimal.name", comparator: .caseInsensitive)])).sql
            .hasSuffix("ORDER BY t0.ZNAME COLLATE NSCollateFinderlike DESC, t1.ZNAME COLLATE NSCollateNoCase"))
        XCTAssertEqual(FetchPredicate.not(.compare("favoriteAnimal.name", .equal, .text("R"))).keyPathJoins, ["favoriteAnimal": false], "NOT keeps an inner join")
        XCTAssertEqual(FetchPredicate.isNil("a.b.c", negated: true).keyPathJoins, ["a": true, "a.b": true], "promoted along the path")
    }
}
