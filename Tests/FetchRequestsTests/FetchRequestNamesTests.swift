import CoreDataLayout
import FetchRequests
import Generation
import Models
import Strategies
import XCTest

/// A request naming what its entity lacks is found by the request language, the first such name
/// said once; table-per-entity refuses it even where no table would have read it.
final class FetchRequestNamesTests: XCTestCase {
    let model = try! Model(ModelPresets.publications.scaled(to: 400))

    func testTheFirstNameTheEntityLacksIsSaid() throws {
        let book = try XCTUnwrap(model.index(of: "Book")), tag = try XCTUnwrap(model.index(of: "Tag"))
        func problem(_ entity: Int, _ predicate: FetchPredicate = .all, sort: [SortKey] = []) -> String? {
            FetchRequest(entity: entity, predicate: predicate, sort: sort).unknownName(in: model)
        }
        XCTAssertNil(problem(book, .and([.compare("pageCount", .greater, .integer(3)), .anyRelated("tags", "name", .text("a"))]), sort: [SortKey("title")]))
        XCTAssertNil(problem(book, .compare(FetchPredicate.selfKey, .equal, .integer(1))), "self is the object's key")
        XCTAssertEqual(problem(book, sort: [SortKey("blogName")]), "'blogName' is not an attribute of 'Book'")
        XCTAssertEqual(problem(book, sort: [SortKey("tags.name")]), "'tags.name' is not an attribute reached through to-ones of 'Book'")
        XCTAssertEqual(problem(book, .compare("wordCount", .equal, .integer(1))), "'wordCount' is not a property of 'Book' or a key path from it")
        XCTAssertEqual(problem(book, .toOne("tags", ObjectID(entity: tag, key: 1))), "'tags' is not a to-one relationship of 'Book'")
        XCTAssertEqual(problem(tag, .or([.all, .countOf("name", .greater, .integer(1))])), "'name' is not a to-many relationship of 'Tag'")
        XCTAssertEqual(problem(book, .anyRelated("tags", "title", .text("a"))), "'tags.title' is not an attribute reached through a to-many relationship of 'Book'")
        // Sort keys first, then compared names, then the predicate's relationships.
        XCTAssertEqual(problem(book, .compare("wordCount", .equal, .integer(1)), sort: [SortKey("blogName")]), "'blogName' is not an attribute of 'Book'")
        XCTAssertEqual(problem(book, .and([.anyRelated("tags", "title", .text("a")), .compare("wordCount", .equal, .integer(1))])),
                       "'wordCount' is not a property of 'Book' or a key path from it")
    }

    func testTablePerEntityRefusesAnUnknownNameInEveryRead() throws {
        let layout = try TablePerEntity(model: model)
        let publication = try XCTUnwrap(model.index(of: "Publication"))
        let request = FetchRequest(entity: publication, predicate: .compare("isbn", .equal, .text("x")))
        for read in [{ try layout.fetchQuery(request) }, { try layout.countQuery(request) }, { try layout.partialQuery(request, properties: ["title"]) }] {
            XCTAssertThrowsError(try read()) { XCTAssertEqual("\($0)", "table-per-entity: 'isbn' is not a property of 'Publication' or a key path from it") }
        }
    }
}
