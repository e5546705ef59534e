import FetchRequests
import Generation
import Models
import Strategies
import XCTest

/// A fetch as an app writes it, read against a model: its forms, its mistakes (one line, a caret at
/// the column), hostile sizes refused within SQLite's limits, and its `%@` drawn from the data.
final class FetchSpecTests: XCTestCase {
    let model = try! Model(ModelPresets.publications.scaled(to: 400))

    func testAFetchIsReadIntoTheRequestLanguage() throws {
        let spec = try FetchSpec.parse("long-books = Book where pageCount > 300 and (title BEGINSWITH[cd] %@ || isbn != nil) and not pageCount IN {1, 2} SORT BY title desc, uid LIMIT 20 OFFSET 5", model: model)
        XCTAssertEqual(spec.name, "long-books")
        XCTAssertEqual(spec.entity, model.index(of: "Book"))
        XCTAssertEqual(spec.sort, [SortKey("title", ascending: false), SortKey("uid")])
        XCTAssertEqual(spec.limit, 20)
        XCTAssertEqual(spec.offset, 5)
        XCTAssertEqual(spec.predicate, .and([
            .compare("pageCount", .greater, .value(.integer(300))),
            .or([.string("title", .beginsWith, .drawn, FetchPredicate.StringOptions(caseInsensitive: true, diacriticInsensitive: true)), .isNil("isbn", negated: true)]),
            .not(.among("pageCount", [.value(.integer(1)), .value(.integer(2))])),
        ]))
        XCTAssertTrue(spec.hasPlaceholders)
        XCTAssertFalse(spec.counts)
        // A count request; an entity named like the keyword stays an entity.
        XCTAssertTrue(try FetchSpec.parse("unread = count Book WHERE pageCount > 3", model: model).counts)
        XCTAssertThrowsError(try FetchSpec.parse("COUNT Book SORT BY uid", model: model)) { XCTAssertTrue("\($0)".hasPrefix("a COUNT takes no SORT BY, LIMIT or OFFSET"), "\($0)") }
        XCTAssertThrowsError(try FetchSpec.parse("Count WHERE x > 1", model: model)) { XCTAssertTrue("\($0)".hasPrefix("unknown entity 'Count'"), "\($0)") }
        // Object IDs, and attributes (`propertiesToFetch`): a partial fetch, in the order named.
        XCTAssertEqual(try FetchSpec.parse("IDS Book WHERE pageCount > 3 SORT BY uid", model: model).properties, [])
        let partial = try FetchSpec.parse("Book PROPERTIES title, pageCount WHERE pageCount > 3 SORT BY title", model: model)
        XCTAssertEqual(partial.properties, ["title", "pageCount"])
        XCTAssertNil(try FetchSpec.parse("Book WHERE pageCount > 3", model: model).properties)
        XCTAssertEqual(partial.requests(ObjectGenerator(model, seed: 1), seed: 1, draws: 1).map(\.mode), [.partial(["title", "pageCount"])])
        // COUNT, IDS and ONLY before an entity named as a clause is (Group, Batch).
        let groups = try Model(ModelDescription(name: "groups", entities: [EntityDescription("Group", rows: 10, attributes: [Attribute("name", .string)]),
                                                                           EntityDescription("Batch", rows: 10, attributes: [Attribute("name", .string), Attribute("score", .double)])]))
        XCTAssertEqual(try FetchSpec.parse("COUNT Group WHERE name != nil", model: groups).counts, true)
        XCTAssertEqual(try FetchSpec.parse("IDS ONLY Batch", model: groups).includesSubentities, false)
        XCTAssertThrowsError(try FetchSpec.parse("Batch PROPERTIES average:(score)", model: groups)) {
            XCTAssertEqual("\($0)", "average:(…) of 'score', a real number, is not yet compared between layouts: SQLite adds the rows in each layout's order, and the last digits of the sum follow it, at column 27: Batch PROPERTIES average:(^score)")
        }
        // `ONLY`: without the sub-entities' objects; `BATCH n [READ m]`: fetchBatchSize, the objects read.
        let batched = try FetchSpec.parse("COUNT ONLY Publication WHERE title != nil", model: model)
        XCTAssertEqual(batched.requests(ObjectGenerator(model, seed: 1), seed: 1, draws: 1).map(\.includesSubentities), [false])
        XCTAssertEqual(try FetchSpec.parse("Book SORT BY uid BATCH 20 READ 40", model: model).requests(ObjectGenerator(model, seed: 1), seed: 1, draws: 1).map(\.mode), [.batched(size: 20, objects: 40)])
        XCTAssertEqual(try FetchSpec.parse("Publication SORT BY uid LIMIT 50 PREFETCH tags", model: model).requests(ObjectGenerator(model, seed: 1), seed: 1, draws: 1).map(\.mode), [.prefetching(["tags"])])
        XCTAssertEqual(try FetchSpec.parse("Book WHERE title != nil BATCH 20", model: model).requests(ObjectGenerator(model, seed: 1), seed: 1, draws: 1).map(\.mode), [.batched(size: 20, objects: .max)])
        for (text, message) in [
            ("Book BATCH 20 READ 40", "READ takes the first objects of the order: it needs SORT BY ending with a unique attribute every object has, so that every layout reads the same ones, at column 15: Book BATCH 20 ^READ 40"),
            ("IDS Book BATCH 20", "BATCH faults objects in by batches; a fetch of IDS takes none, at column 10: IDS Book ^BATCH 20"),
            ("Book BATCH 0", "BATCH takes a whole number from 1 to 1000000000, at column 12: Book BATCH ^0"),
            ("Publication LIMIT 5 PREFETCH tags", "PREFETCH after LIMIT or OFFSET needs SORT BY ending with a unique attribute every object has, so that every layout prefetches for the same objects, at column 21: Publication LIMIT 5 ^PREFETCH tags"),
            ("COUNT Publication PREFETCH tags", "PREFETCH reads the objects' relationships; a COUNT takes none, at column 19: COUNT Publication ^PREFETCH tags"),
            ("Publication PREFETCH tags, tags", "'tags' is prefetched twice, at column 28: Publication PREFETCH tags, ^tags"),
            ("Publication PREFETCH title", "'title' is not a relationship of Publication, at column 22: Publication PREFETCH ^title"),
            ("Publication PREFETCH", "PREFETCH names the to-many relationships to prefetch, at column 21: Publication PREFETCH^"),
        ] {
            XCTAssertThrowsError(try FetchSpec.parse(text, model: model), text) { XCTAssertEqual("\($0)", message, text) }
        }
        // A fetch of dictionaries: distinct values, or aggregates over groups kept by HAVING.
        let grouped = try FetchSpec.parse("Book PROPERTIES pageCount, count:(title) AS n, average:(pageCount) WHERE title != nil GROUP BY pageCount HAVING $n > 2 OR NOT ($n == 5) SORT BY pageCount DESC LIMIT 3", model: model)
        XCTAssertNil(grouped.properties)
        XCTAssertEqual(grouped.dictionary, DictionaryFetch(items: [.key("pageCount"), .aggregate(.count, "title", name: "n"), .aggregate(.average, "pageCount", name: "average2")], groupBy: ["pageCount"],
                                                           having: .or([.compare("n", .greater, .integer(2)), .not(.compare("n", .equal, .integer(5)))])))
        XCTAssertTrue(grouped.isTotallyOrdered(model), "one row a group")
        XCTAssertEqual(try FetchSpec.parse("Publication PROPERTIES DISTINCT title, uid", model: model).dictionary, DictionaryFetch(items: [.key("title"), .key("uid")], distinct: true))
        XCTAssertEqual(try FetchSpec.parse("Book PROPERTIES sum:(pageCount), max:(title)", model: model).requests(ObjectGenerator(model, seed: 1), seed: 1, draws: 1).map(\.mode),
                       [.dictionary(DictionaryFetch(items: [.aggregate(.sum, "pageCount", name: "sum0"), .aggregate(.max, "title", name: "max1")]))])
        for (text, message) in [
            ("Book PROPERTIES title, count:(uid)", "'title' is fetched beside aggregates: group by it (GROUP BY title), or fetch aggregates alone, at column 17: Book PROPERTIES ^title, count:(uid)"),
            ("Book PROPERTIES pageCount, count:(uid) GROUP BY pageCount HAVING n > 1", "HAVING compares the fetch's aggregates by name ($count1), at column 66: Book PROPERTIES pageCount, count:(uid) GROUP BY pageCount HAVING ^n > 1"),
            ("Book PROPERTIES sum:(title)", "sum:(…) adds numbers, and 'title' is not a number, at column 22: Book PROPERTIES sum:(^title)"),
            ("Book PROPERTIES median:(pageCount)", "'median:' is not an aggregate Core Data runs in SQLite (count:, sum:, average:, min:, max:), at column 17: Book PROPERTIES ^median:(pageCount)"),
            ("Book PROPERTIES count:(uid) HAVING $count0 > 1", "HAVING follows GROUP BY (Core Data refuses it alone), at column 29: Book PROPERTIES count:(uid) ^HAVING $count0 > 1"),
            ("Book PROPERTIES pageCount, count:(uid) GROUP BY pageCount SORT BY title", "'title' is sorted by, and the rows are groups of pageCount: sort by those, at column 1: ^Book PROPERTIES pageCount, count:(uid) GROUP BY pageCount SORT BY title"),
            ("Book PROPERTIES DISTINCT title LIMIT 3", "a page (LIMIT, OFFSET) of a dictionary fetch needs SORT BY every one of title in plain order, so that every layout's page is the same, at column 1: ^Book PROPERTIES DISTINCT title LIMIT 3"),
            ("Book PROPERTIES count:(uid) WHERE ANY tags.name == 'a'", "an aggregate over a predicate through a to-many (ANY, NONE): Core Data's join would count an object once per related object it matches; not yet a form the suite runs, at column 1: ^Book PROPERTIES count:(uid) WHERE ANY tags.name == 'a'"),
            ("Book PROPERTIES DISTINCT count:(uid)", "DISTINCT fetches keys' values, not aggregates (Core Data ignores it beside them), at column 37: Book PROPERTIES DISTINCT count:(uid)^"),
            ("COUNT Book PROPERTIES title", "a COUNT takes no PROPERTIES, at column 12: COUNT Book ^PROPERTIES title"),
            ("Book SORT BY pageCount localized", "a comparator (localized) orders strings, and 'pageCount' is not a string, at column 24: Book SORT BY pageCount ^localized"),
            ("Book PROPERTIES title, tags", "PROPERTIES names attributes of Book (its own and inherited: uid, title, publishDate, createdate, updatedate, isbn, pageCount), at column 24: Book PROPERTIES title, ^tags"),
            ("Book PROPERTIES title, title", "'title' is fetched twice, at column 24: Book PROPERTIES title, ^title"),
        ] {
            XCTAssertThrowsError(try FetchSpec.parse(text, model: model), text) { XCTAssertEqual("\($0)", message, text) }
        }
        for (text, expected) in [("Book WHERE pageCount =< 3", FetchTemplate.compare("pageCount", .lessOrEqual, .value(.integer(3)))),
                                 ("Book WHERE pageCount => 3", .compare("pageCount", .greaterOrEqual, .value(.integer(3)))),
                                 ("Book WHERE pageCount <> 3", .compare("pageCount", .notEqual, .value(.integer(3)))),
                                 ("Book WHERE title == NULL", .isNil("title", negated: false)),
                                 ("Book WHERE !(pageCount BETWEEN {1, 9})", .not(.between("pageCount", .value(.integer(1)), .value(.integer(9))))),
                                 ("Book WHERE title LIKE[c] 'a*'", .string("title", .like, .value(.text("a*")), FetchPredicate.StringOptions(caseInsensitive: true))),
                                 ("Book WHERE pageCount IN %@", .amongDrawn("pageCount")),
                                 ("Book WHERE tags.@count >= 2", .countOf("tags", .greaterOrEqual, .value(.integer(2)))),
                                 ("Book WHERE tags.@count < %@", .countOf("tags", .less, .drawn)),
                                 ("Book WHERE self IN {%@, %@}", .among("self", [.drawn, .drawn])),
                                 ("Book WHERE (pageCount & %@) = %@ AND pageCount & 4 != 0", .and([.bitwise("pageCount", .drawn, .equal, .drawn),
                                                                                                   .bitwise("pageCount", .value(.integer(4)), .notEqual, .value(.integer(0)))])),
                                 ("Book WHERE tags CONTAINS %@ OR %@ IN tags OR ANY tags == %@", .or([.holds("tags"), .holds("tags"), .any(.holds("tags"))])),
                                 ("Book WHERE title MATCHES[c] 'a.*b'", .string("title", .matches, .value(.text("a.*b")), FetchPredicate.StringOptions(caseInsensitive: true))),
                                 ("Book WHERE title CONTAINS[cdl] %@", .string("title", .contains, .drawn, FetchPredicate.StringOptions(caseInsensitive: true, diacriticInsensitive: true, localized: true))),
                                 ("Book WHERE title ==[cd] %@", .stringCompare("title", .equal, .drawn, FetchPredicate.StringOptions(caseInsensitive: true, diacriticInsensitive: true))),
                                 ("Book WHERE title <>[c] 'x'", .stringCompare("title", .notEqual, .value(.text("x")), FetchPredicate.StringOptions(caseInsensitive: true))),
                                 ("Book WHERE createdate < updatedate", .compareKeys("createdate", .less, "updatedate")),
                                 ("Book WHERE pageCount IN (%@)", .amongDrawn("pageCount")),
                                 ("Book WHERE ANY tags.name BEGINSWITH[c] 'sw' OR some tags.name == %@",
                                  .or([.any(.string("tags.name", .beginsWith, .value(.text("sw")), .init(caseInsensitive: true))), .any(.compare("tags.name", .equal, .drawn))])),
                                 ("Book WHERE NONE tags.name == 'x' AND NONE tags == %@",
                                  .and([.not(.any(.compare("tags.name", .equal, .value(.text("x"))))), .not(.any(.holds("tags")))])),
                                 ("Book WHERE SUBQUERY(tags, $t, $t.name BEGINSWITH[c] 'sw' OR $t.name == nil).@count >= 2 AND SUBQUERY(tags,$x,TRUEPREDICATE).@count == 0",
                                  .and([.subquery("tags", .or([.string("tags.name", .beginsWith, .value(.text("sw")), .init(caseInsensitive: true)), .isNil("tags.name", negated: false)]), .greaterOrEqual, 2),
                                        .subquery("tags", .all, .equal, 0)])),
                                 ("Publication WHERE entity == %@ OR entity != 'BlogPost' OR entity IN %@",
                                  .or([.compare("entity", .equal, .drawn), .compare("entity", .notEqual, .value(.integer(3))), .amongDrawn("entity")])),
                                 ("Book WHERE TRUEPREDICATE", .all), ("Book WHERE FALSEPREDICATE", .or([]))] {
            XCTAssertEqual(try FetchSpec.parse(text, model: model).predicate, expected, text)
        }
    }

    func testEachMistakeIsOneLineWithACaret() {
        let cases: [(String, String)] = [
            ("Boek", "unknown entity 'Boek'; the model's entities: Publication, AcademicPaper, BlogPost, Book, WebArticle, Tag, at column 1: ^Boek"),
            ("Book WHERE pagecount > 3", "unknown key 'pagecount' of Book; its keys: uid, title, publishDate, createdate, updatedate, isbn, pageCount, tags, at column 12: Book WHERE ^pagecount > 3"),
            ("Book WHERE title > 3", "'title' of Book is compared with a string in quotes, at column 20: Book WHERE title > ^3"),
            ("Book WHERE pageCount > 2.5", "'pageCount' of Book holds whole numbers; '2.5' is not one, at column 24: Book WHERE pageCount > ^2.5"),
            ("Book WHERE publishDate > 3", "'publishDate' of Book is compared with %@ (a date is drawn from the data), at column 26: Book WHERE publishDate > ^3"),
            ("Book WHERE (pageCount > 3", "a '(' that is not closed, at column 26: Book WHERE (pageCount > 3^"),
            ("Book WHERE pageCount > 3)", "expected the end of the fetch (or SORT BY, LIMIT, OFFSET, BATCH or PREFETCH in that order), at column 25: Book WHERE pageCount > 3^)"),
            ("Book WHERE title == 'abc", "a string that is not closed (its quote ' has no partner), at column 21: Book WHERE title == ^'abc"),
            ("Book WHERE pageCount CONTAINS %@", "CONTAINS compares strings, and 'pageCount' is not a string, at column 22: Book WHERE pageCount ^CONTAINS %@"),
            ("Book WHERE pageCount < nil", "nil compared with <; Core Data compares nil with == and != only, at column 24: Book WHERE pageCount < ^nil"),
            ("Book WHERE tags CONTAINS 'x'", "'tags' holds objects; it is asked for one drawn with %@, at column 26: Book WHERE tags CONTAINS ^'x'"),
            ("Book WHERE ANY tags != %@", "'tags' is a to-many relationship of Book; ANY compares a property of its objects (ANY tags.name == …), not the objects themselves yet, at column 16: Book WHERE ANY ^tags != %@"),
            ("Book WHERE ALL tags.name == 'x'", "ALL is not a form Core Data runs against SQLite (it refuses the fetch); NONE, or NOT ANY, may say it, at column 12: Book WHERE ^ALL tags.name == 'x'"),
            ("Book WHERE tags.name == %@", "'tags' is a to-many relationship of Book; compare through it with ANY (ANY tags.name… == …), or count it (tags.@count), at column 12: Book WHERE ^tags.name == %@"),
            ("Book WHERE title.count == 3", "'title' is an attribute of Book; a key path goes on through to-one relationships only, at column 12: Book WHERE ^title.count == 3"),
            ("Book WHERE title SORT BY pageCount", "expected a comparison after 'title' (==, !=, <, <=, >, >=, BETWEEN, IN, CONTAINS, BEGINSWITH, ENDSWITH, LIKE, MATCHES), at column 18: Book WHERE title ^SORT BY pageCount"),
            ("Book WHERE title.@count > 1", "@count counts the objects of a to-many relationship of Book, and 'title' is not one, at column 12: Book WHERE ^title.@count > 1"),
            ("Book WHERE tags.@count > 'x'", "'tags.@count' is compared with a whole number, at column 26: Book WHERE tags.@count > ^'x'"),
            ("Book WHERE title MATCHES '(a'", "'(a' is not a regular expression MATCHES can use, at column 26: Book WHERE title MATCHES ^'(a'"),
            ("Book WHERE title CONTAINS[x] 'a'", "a string operator's options are [c], [d], [l], [n] and their combinations, such as [cd], at column 27: Book WHERE title CONTAINS[^x] 'a'"),
            ("Book SORT BY title LIMIT x", "LIMIT takes a whole number from 0 to 1000000000, at column 26: Book SORT BY title LIMIT ^x"),
            ("Book WHERE pageCount | 2 == 2", "bitwise '|' is not yet a form the suite runs, at column 22: Book WHERE pageCount ^| 2 == 2"),
            ("Book WHERE title & 2 == 2", "'&' takes the bits of an integer attribute, and 'title' is not one, at column 18: Book WHERE title ^& 2 == 2"),
            ("Book WHERE title ==[c] 3", "'title' of Book is compared with a string in quotes, at column 24: Book WHERE title ==[c] ^3"),
            ("Book WHERE pageCount ==[c] 3", "==[…] compares strings, and 'pageCount' is not a string, at column 22: Book WHERE pageCount ^==[c] 3"),
            ("Book WHERE pageCount > title", "'pageCount' and 'title' hold different kinds of values; two keys compared must both be strings, numbers or dates, at column 24: Book WHERE pageCount > ^title"),
            ("Book WHERE title == %d", "'%' that is not '%@' (the one placeholder a fetch takes: a value drawn from the data), at column 21: Book WHERE title == ^%d"),
            ("Book WHERE SUBQUERY(tags, $t, $t.name == 'a') > 0", "a SUBQUERY is counted (SUBQUERY(…).@count > 0): the one form of it Core Data runs against SQLite, at column 47: Book WHERE SUBQUERY(tags, $t, $t.name == 'a') ^> 0"),
            ("Book WHERE SUBQUERY(title, $t, $t.name == 'a').@count > 0", "a SUBQUERY goes through a to-many relationship of Book (tags), at column 21: Book WHERE SUBQUERY(^title, $t, $t.name == 'a').@count > 0"),
            ("Book WHERE SUBQUERY(tags, $t, name == 'a').@count > 0", "inside SUBQUERY(tags, $t, …) keys are written through $t ($t.name), not 'name', at column 31: Book WHERE SUBQUERY(tags, $t, ^name == 'a').@count > 0"),
            ("Book WHERE SUBQUERY(tags, $t, ANY $t.books.title == 'a').@count > 0", "inside SUBQUERY(tags, $t, …) the suite compares keys of $t ($t.name == …); ANY is not yet a form there, at column 31: Book WHERE SUBQUERY(tags, $t, ^ANY $t.books.title == 'a').@count > 0"),
            ("Book WHERE SUBQUERY(tags, $t, $t.name == 'a').@count > 1.5", "'SUBQUERY(…).@count' is compared with a whole number, at column 56: Book WHERE SUBQUERY(tags, $t, $t.name == 'a').@count > ^1.5"),
            ("Book WHERE SUBQUERY(tags, $t, $t.name == 'a'", "a SUBQUERY that is not closed, at column 45: Book WHERE SUBQUERY(tags, $t, $t.name == 'a'^"),
            ("Book WHERE entity == 'Boek'", "'Boek' is not an entity of the model; the model's entities: Publication, AcademicPaper, BlogPost, Book, WebArticle, Tag, at column 22: Book WHERE entity == ^'Boek'"),
            ("Book WHERE entity > %@", "entity (the object's entity) is compared with == or !=, not >, at column 21: Book WHERE entity > ^%@"),
            ("Book WHERE %@ CONTAINS title", "a value containing a key (%@ CONTAINS key) is not a form Core Data runs against SQLite: it reads the value as a list (key IN %@), which a string is not, at column 12: Book WHERE ^%@ CONTAINS title"),
            ("Book = Book", "the fetch's name 'Book' must be 1 to 40 lower-case letters, digits and '-', starting with a letter, at column 1: ^Book = Book"),
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try FetchSpec.parse(text, model: model), text) { error in
                XCTAssertEqual("\(error)", message, text)
                XCTAssertFalse("\(error)".contains("\n"), text)
            }
        }
    }

    /// Key paths through to-one relationships, checked name by name; a to-one compared with nil.
    func testKeyPathsGoThroughToOnes() throws {
        let animals = try Model(ModelPresets.efcoreAnimals.scaled(to: 100))
        XCTAssertEqual(try FetchSpec.parse("Human WHERE favoriteAnimal.name BEGINSWITH 'R' AND favoriteAnimal != nil", model: animals).predicate,
                       .and([.string("favoriteAnimal.name", .beginsWith, .value(.text("R")), .init()), .isNil("favoriteAnimal", negated: true)]))
        // Objects: a to-one's destination or the object itself, drawn from the data.
        XCTAssertEqual(try FetchSpec.parse("Human WHERE favoriteAnimal != %@ OR SELF IN %@ OR self == %@", model: animals).predicate,
                       .or([.compare("favoriteAnimal", .notEqual, .drawn), .amongDrawn("self"), .compare("self", .equal, .drawn)]))
        // Sorted by a key path through to-ones; a string by a comparator, named or given for the fetch's string keys.
        XCTAssertEqual(try FetchSpec.parse("Human SORT BY favoriteAnimal.name DESC, name", model: animals).sort, [SortKey("favoriteAnimal.name", ascending: false), SortKey("name")])
        XCTAssertEqual(try FetchSpec.parse("Human SORT BY name LOCALIZEDSTANDARD DESC, favoriteAnimal.name caseInsensitive", model: animals).sort,
                       [SortKey("name", ascending: false, comparator: .localizedStandard), SortKey("favoriteAnimal.name", comparator: .caseInsensitive)])
        let swiftData = try FetchSpec.parse("Human SORT BY name DESC, favoriteAnimal.name lexical", model: animals, stringSorts: .localizedStandard)
        XCTAssertEqual(swiftData.sort, [SortKey("name", ascending: false, comparator: .localizedStandard), SortKey("favoriteAnimal.name")])
        XCTAssertEqual(swiftData.text, "Human SORT BY name localizedStandard DESC, favoriteAnimal.name lexical", "the comparator given, written after its key")
        let generator = ObjectGenerator(animals, seed: 2)
        let human = try XCTUnwrap(animals.index(of: "Human"))
        for request in try FetchSpec.parse("Human WHERE favoriteAnimal == %@ AND self IN %@", model: animals).requests(generator, seed: 1, draws: 5) {
            guard case let .and(parts) = request.predicate, case let .compare(_, _, .integer(animal)) = parts[0], case let .among(_, humans) = parts[1] else {
                return XCTFail("\(request.predicate)")
            }
            let favorites = (0 ..< generator.count(root: 0)).map { generator.object(root: 0, at: $0) }.filter { $0.id.entity == human }
            XCTAssertTrue(favorites.contains { $0.toOne.compactMap { $0?.key }.contains(animal) }, "a human's favourite's key")
            XCTAssertTrue(humans.allSatisfy { key in favorites.contains { .integer($0.id.key) == key } }, "humans' keys")
        }
        let mistakes: [(String, String)] = [
            ("Human WHERE favoriteAnimal == 'Rex'", "'favoriteAnimal' (a to-one relationship) is compared with %@ (an object drawn from the data) or nil, at column 31: Human WHERE favoriteAnimal == ^'Rex'"),
            ("Human WHERE favoriteAnimal > %@", "'favoriteAnimal' (a to-one relationship) is compared with == or !=, not >, at column 30: Human WHERE favoriteAnimal > ^%@"),
            ("Human WHERE self BEGINSWITH 'a'", "self (the object itself) is compared with ==, != or IN, an object drawn with %@, at column 18: Human WHERE self ^BEGINSWITH 'a'"),
            ("Human SORT BY favoriteAnimal", "'favoriteAnimal' is a relationship; sort by an attribute (of Human, or through its to-ones: author.name), at column 15: Human SORT BY ^favoriteAnimal"),
            ("Human SORT BY pets.@count", "'pets.@count' is a count; sort by an attribute (of Human, or through its to-ones: author.name), at column 15: Human SORT BY ^pets.@count"),
            ("Human SORT BY pets.name", "'pets' is a to-many relationship of Human; compare through it with ANY (ANY pets.name… == …), or count it (pets.@count), at column 15: Human SORT BY ^pets.name"),
            ("Human SORT BY favoriteAnimal caseInsensitive", "'favoriteAnimal' is a relationship; sort by an attribute (of Human, or through its to-ones: author.name), at column 15: Human SORT BY ^favoriteAnimal caseInsensitive"),
            ("Human WHERE favoriteAnimal.nam == 'x'", "unknown key 'nam' of Animal; its keys: name, at column 13: Human WHERE ^favoriteAnimal.nam == 'x'"),
            ("Human WHERE favoriteAnimal.name > 3", "'favoriteAnimal.name' is compared with a string in quotes, at column 35: Human WHERE favoriteAnimal.name > ^3"),
        ]
        for (text, message) in mistakes {
            XCTAssertThrowsError(try FetchSpec.parse(text, model: animals), text) { XCTAssertEqual("\($0)", message, text) }
        }
        // Paths long enough, or branching enough, to pass SQLite's 64 tables in a join are refused.
        let tree = try Model(ModelDescription(name: "tree", entities: [
            EntityDescription("Node", rows: 10, attributes: [Attribute("name", .string)], relationships: [
                RelationshipDescription("left", destination: "Node", optional: true), RelationshipDescription("right", destination: "Node", optional: true),
            ]),
        ]))
        let long = "Node WHERE " + String(repeating: "left.", count: 9) + "name == 'a'"
        XCTAssertThrowsError(try FetchSpec.parse(long, model: tree)) { XCTAssertTrue("\($0)".hasPrefix("a key path of more than 8 relationships"), "\($0)") }
        let paths = (0 ..< 32).map { number in (0 ..< 5).map { number >> $0 & 1 == 0 ? "left" : "right" }.joined(separator: ".") + ".name == 'a'" }
        XCTAssertThrowsError(try FetchSpec.parse("Node WHERE " + paths.joined(separator: " OR "), model: tree)) {
            XCTAssertTrue("\($0)".hasPrefix("key paths through more than 24 different relationship steps in one fetch"), "\($0)")
        }
        XCTAssertNoThrow(try FetchSpec.parse("Node WHERE " + paths.prefix(4).joined(separator: " OR "), model: tree))
    }

    /// A fetch of a megabyte, 10,000 nested parentheses or NOTs, 1,000 OR terms or IN values: refused
    /// within SQLite's limits, never a crash.
    func testHostileSizesAreRefused() {
        let ors: String = "(" + Array(repeating: "pageCount > 1", count: 30).joined(separator: " OR ") + ")"
        let deep: String = "Book WHERE " + Array(repeating: ors, count: 30).joined(separator: " AND ")
        // 17 lists of 500 titles: 8,500 values, bound once for each concrete entity of the hierarchy.
        let list: String = "title IN {" + Array(repeating: "'a'", count: 500).joined(separator: ",") + "}"
        let wide: String = "Publication WHERE " + Array(repeating: list, count: 17).joined(separator: " AND ")
        let hostile: [(String, String)] = [
            ("Book WHERE title == '" + String(repeating: "x", count: 1 << 20) + "'", "a fetch longer than 65536 characters"),
            ("Book WHERE " + String(repeating: "(", count: 10_000) + "pageCount > 1" + String(repeating: ")", count: 10_000), "parentheses and NOTs nested deeper than 32"),
            ("Book WHERE " + String(repeating: "NOT ", count: 10_000) + "pageCount > 1", "parentheses and NOTs nested deeper than 32"),
            // HAVING within the same limits.
            ("Book PROPERTIES pageCount, count:(title) AS n GROUP BY pageCount HAVING " + String(repeating: "NOT ", count: 1_500) + "$n > 1", "parentheses and NOTs nested deeper than 32"),
            ("Book PROPERTIES pageCount, count:(title) AS n GROUP BY pageCount HAVING " + Array(repeating: "$n > 1", count: 1_100).joined(separator: " OR "), "more than 500 comparisons in one fetch"),
            ("Book WHERE " + Array(repeating: "pageCount > 1", count: 1_000).joined(separator: " OR "), "more than 500 comparisons in one fetch"),
            ("Book WHERE pageCount IN {" + Array(repeating: "1", count: 1_000).joined(separator: ", ") + "}", "a list of more than 500 values"),
            // Nested: each AND and OR within its limit, the whole past SQLite's expression depth.
            (deep, "more than 500 comparisons in one fetch"),
            (wide, "a fetch binding 8500 values, once for each of the 5 concrete entities it reads, past SQLite's 32766"),
        ]
        for (text, message) in hostile {
            XCTAssertThrowsError(try FetchSpec.parse(text, model: model)) {
                XCTAssertTrue("\($0)".hasPrefix(message), String("\($0)".prefix(120)))
                // The fetch quoted around the column, not whole: one line of reasonable length.
                XCTAssertLessThan("\($0)".count, 400, String("\($0)".prefix(120)))
            }
        }
        // A control character in a fetch is written escaped, not raw.
        XCTAssertThrowsError(try FetchSpec.parse("Book WHERE title == \u{1}", model: model)) {
            XCTAssertFalse("\($0)".unicodeScalars.contains { $0.value < 0x20 }, "\($0)")
            XCTAssertTrue("\($0)".contains("\\u{1}"), "\($0)")
        }
    }

    /// Each `%@` is a value of its attribute drawn from the data, the same for a seed; a fetch without
    /// one runs once.
    func testPlaceholdersAreDrawnFromTheData() throws {
        let generator = ObjectGenerator(model, seed: 5)
        let spec = try FetchSpec.parse("Book WHERE pageCount >= %@ AND title BEGINSWITH %@ AND uid IN %@ AND publishDate BETWEEN {%@, %@}", model: model)
        let requests = spec.requests(generator, seed: 5, draws: 10)
        XCTAssertEqual(requests.count, 10)
        XCTAssertEqual(requests, spec.requests(generator, seed: 5, draws: 10), "the same draws for a seed")
        XCTAssertNotEqual(requests, spec.requests(generator, seed: 6, draws: 10))
        let book = try XCTUnwrap(model.index(of: "Book"))
        let pageCounts = Set((0 ..< generator.count(root: model.mainRoot)).lazy.filter { generator.entity(root: self.model.mainRoot, at: $0) == book }
            .map { generator.object(root: self.model.mainRoot, at: $0).values[self.model.entities[book].attributeIndex("pageCount")!] })
        for request in requests {
            guard case let .and(parts) = request.predicate, case let .compare(_, _, pageCount) = parts[0], case let .string(_, _, .text(prefix), _) = parts[1],
                  case let .among(_, uids) = parts[2], case let .between(_, low, high) = parts[3] else { return XCTFail("\(request.predicate)") }
            XCTAssertTrue(pageCounts.contains(pageCount), "\(pageCount) is a Book's page count")
            XCTAssertEqual(prefix.count, 3)
            XCTAssertEqual(uids.count, 3)
            XCTAssertFalse(Value.sqliteLess(high, low), "BETWEEN's draws in order")
        }
        XCTAssertEqual(try FetchSpec.parse("Book WHERE pageCount > 3", model: model).requests(generator, seed: 5, draws: 10).count, 1)
    }

    /// A count's `%@` is the link count of an object drawn from the data on the side that makes the
    /// links, else a whole number up to twice the mean fan-out; a list of objects' `%@`s as many
    /// keys of the data.
    func testACountsAndAnObjectListsPlaceholdersAreDrawnFromTheData() throws {
        let generator = ObjectGenerator(model, seed: 5)
        let root = model.mainRoot, tags = try XCTUnwrap(model.entities[root].linkedRelationships.firstIndex { $0.name == "tags" })
        let held = Set((0 ..< generator.count(root: root)).map { Int64(generator.object(root: root, at: $0).links[tags].count) })
        let requests = try FetchSpec.parse("Publication WHERE tags.@count > %@ AND self IN {%@, %@}", model: model).requests(generator, seed: 5, draws: 20)
        var drawn = Set<Int64>()
        for request in requests {
            guard case let .and(parts) = request.predicate, case let .countOf("tags", .greater, .integer(count)) = parts[0], case let .among("self", keys) = parts[1] else {
                return XCTFail("\(request.predicate)")
            }
            XCTAssertTrue(held.contains(count), "\(count) is a publication's number of tags")
            drawn.insert(count)
            XCTAssertEqual(keys.count, 2)
            for case let .integer(key) in keys { XCTAssertTrue((1 ... Int64(generator.count(root: root))).contains(key)) }
        }
        XCTAssertGreaterThan(drawn.count, 1, "counts vary")
        let tag = try XCTUnwrap(model.index(of: "Tag"))
        let perTag = 2 * ((generator.count(root: root) + generator.count(root: tag) - 1) / generator.count(root: tag))
        for request in try FetchSpec.parse("Tag WHERE publications.@count <= %@", model: model).requests(generator, seed: 5, draws: 20) {
            guard case let .countOf(_, _, .integer(count)) = request.predicate else { return XCTFail("\(request.predicate)") }
            XCTAssertTrue((0 ... Int64(perTag)).contains(count), "\(count)")
        }
    }

    /// A sub-entity with few objects in a large hierarchy still has its `%@` drawn from them.
    func testARareSubEntitysValuesAreDrawn() throws {
        var description = ModelPresets.publications.scaled(to: 20_000)
        for index in description.entities.indices where description.entities[index].name == "Book" { description.entities[index].rows = 2 }
        let rare = try Model(description)
        let spec = try FetchSpec.parse("Book WHERE pageCount == %@", model: rare)
        for request in spec.requests(ObjectGenerator(rare, seed: 1), seed: 1, draws: 5) {
            guard case let .compare(_, _, value) = request.predicate else { return XCTFail("\(request.predicate)") }
            XCTAssertFalse(value.isNull, "a page count of one of the 2 books")
        }
    }
}
