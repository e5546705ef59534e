import FetchRequests
import Foundation
import Generation
import Models
import Strategies
import TestSupport
import XCTest

/// Fetches written as apps write them, read, drawn and answered by every layout as the reference
/// answers them.
final class FetchAgreementTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    func testFetchesAsAppsWriteThemAgreeInEveryLayout() throws {
        let fetches: [(ModelDescription, [String])] = [
            (ModelPresets.publications.scaled(to: 600), [
                "Book WHERE pageCount > 300 AND title BEGINSWITH[cd] %@ SORT BY uid LIMIT 20",
                "Publication WHERE title CONTAINS[c] %@ OR publishDate > %@",
                "Publication WHERE updatedate == nil",
                "Publication WHERE NOT (publishDate BETWEEN {%@, %@}) SORT BY publishDate DESC, uid LIMIT 50 OFFSET 10",
                "BlogPost WHERE blogName IN %@ AND url != nil",
                "Publication WHERE title LIKE[cd] %@ || uid == %@",
                "Book WHERE isbn ENDSWITH %@ AND pageCount <= 600",
                "Tag WHERE name != %@ SORT BY name",
                // Object IDs and attributes (a partial fetch), a page of a sort with ties among them.
                "IDS Publication WHERE title BEGINSWITH %@ SORT BY publishDate DESC, uid",
                // Strings ordered by a comparator: Core Data's collation in every layout (and each arm's union).
                "Publication WHERE title CONTAINS[c] %@ SORT BY title localizedStandard DESC, uid",
                "Tag SORT BY name caseInsensitive DESC",
                "Book PROPERTIES title, pageCount WHERE ANY tags.name == %@ SORT BY uid LIMIT 20",
                // Comparisons with options, two keys compared.
                "Tag WHERE name ==[c] %@ OR name <>[cd] 'x'",
                "Publication WHERE title MATCHES[c] %@ OR title MATCHES '[A-M].* .*'",
                "Publication WHERE title CONTAINS[cdl] %@",
                "Publication WHERE createdate < updatedate AND title >=[c] %@",
                // An integer's bits.
                "Book WHERE (pageCount & 4) == 4 OR pageCount & %@ != 0",
                // A to-many's count: a correlated count of its join table's rows.
                "Publication WHERE tags.@count >= 3 OR tags.@count == 0",
                "Tag WHERE publications.@count > 20",
                // ANY through a to-many: its join, DISTINCT objects; shared by the paths that name it.
                "Publication WHERE ANY tags.name == %@",
                "Publication WHERE ANY tags.name BEGINSWITH[c] %@ OR title CONTAINS %@",
                "Tag WHERE ANY publications.title CONTAINS[cd] %@ AND publications.@count > 3",
                "Book WHERE ANY tags.name == %@ AND ANY tags.name != %@ SORT BY uid LIMIT 10",
                "Publication WHERE NOT (ANY tags.name == %@)",
                "Publication WHERE NONE tags.name BEGINSWITH %@ AND NONE tags == %@",
                // A to-many holding an object: Core Data's subquery of its join table's rows.
                "Publication WHERE tags CONTAINS %@ OR %@ IN tags",
                "Tag WHERE ANY publications == %@",
            ]),
            (ModelPresets.efcoreAnimals.scaled(to: 600), [
                "Animal WHERE name BEGINSWITH[c] %@",
                "Pet WHERE vet == nil OR vet CONTAINS %@",
                "Cat WHERE educationLevel IN {'BA', 'MA'} AND NOT name LIKE 'A*'",
                "FarmAnimal WHERE value > 500.5 AND species != 'Ovis aries'",
                // Key paths through a to-one whose destination is an abstract parent of several
                // concrete entities: inner joins, outer ones in an OR or a nil test.
                "Human WHERE favoriteAnimal.name BEGINSWITH[c] %@",
                "Human WHERE favoriteAnimal == nil OR favoriteAnimal.name == %@",
                "Human WHERE NOT favoriteAnimal.name CONTAINS 'a'",
                "Human WHERE name != %@ AND favoriteAnimal.name != nil",
                // Objects compared: a to-one's destination, the object itself.
                "Human WHERE favoriteAnimal == %@ OR favoriteAnimal IN %@",
                "Human WHERE ANY pets.name IN %@ OR ANY pets.vet == nil",
                "Cat WHERE ANY humans.favoriteAnimal.name BEGINSWITH %@",
                "Animal WHERE self IN %@ AND NOT (self == %@)",
            ]),
            (ModelPresets.codingMilitia.scaled(to: 1_200), [
                "Derived3 WHERE owner.name == %@ AND d3Flag == YES",
                "BaseEntity WHERE owner == %@ AND quantity > 10",
                // A one-to-many's count: the rows holding its inverse key, in every table that keeps one.
                "Owner WHERE items.@count > 12 AND NOT (items.@count >= 20)",
                "Owner WHERE ANY items.name BEGINSWITH %@ OR ANY items.quantity < 100",
                "Owner WHERE items CONTAINS %@",
                "BaseEntity WHERE owner.name IN %@ OR amount < 0.5",
                "BaseEntity WHERE quantity > 10 SORT BY owner.name DESC, uid LIMIT 30 OFFSET 5",
            ]),
            (try XcodeModelReader.read(path: Self.fixtures.appendingPathComponent("Library.xcdatamodeld").path).description.sharing(300), [
                "Item WHERE shelf.label.text BEGINSWITH %@ OR shelf.name == %@",
                "Media WHERE shelf.label == nil AND duration > 10",
                "Item WHERE shelf != %@ AND shelf.label == %@",
                "Shelf WHERE items.@count > 2 OR label == nil",
                "Shelf WHERE NOT (items CONTAINS %@)",
                "Shelf WHERE ANY items.title == %@ OR ANY items.tags.name == %@",
                "Tag WHERE ANY items.shelf.name BEGINSWITH %@",
                // Through a to-one back to the fetched entity's type, then a to-many of it: every
                // sub-entity's join tables.
                "Item WHERE ANY shelf.items.tags.name == %@",
                "Album WHERE shelf.name LIKE[cd] %@ AND NOT (shelf.label.text == %@)",
            ]),
        ]
        // Sorted by a key path: its joins LEFT OUTER (an object whose folder is nil sorts first
        // ascending), so that NOT of a comparison through it holds for such an object too.
        let notes = ModelDescription(name: "notes", entities: [
            // Titles whose orders differ by comparator: case, numbers by value, accents, widths.
            EntityDescription("Note", rows: 300, attributes: [Attribute("uid", .uuid), Attribute("title", .string, values: ValueSpec(.choice, choices: [
                "item 2", "Item 10", "item 1", "apple", "Apple", "APPLE pie", "Émile", "emile", "Zed", "zed 3", "ｆｕｌｌ", "full",
            ]))],
                              relationships: [RelationshipDescription("folder", destination: "Folder", inverse: "notes", optional: true, nullShare: 0.3)],
                              uniquenessConstraints: [["uid"]]),
            EntityDescription("Checklist", parent: "Note", rows: 200, attributes: [Attribute("items", .integer64), Attribute("cid", .uuid, optional: true, nullShare: 0.2)]),
            EntityDescription("Folder", rows: 40, attributes: [Attribute("name", .string, optional: true, nullShare: 0.2, values: ValueSpec(.name))],
                              relationships: [RelationshipDescription("notes", destination: "Note", inverse: "folder", toMany: true),
                                              RelationshipDescription("account", destination: "Account", inverse: "folders", optional: true, nullShare: 0.3)]),
            EntityDescription("Account", rows: 5, attributes: [Attribute("name", .string, values: ValueSpec(.name))],
                              relationships: [RelationshipDescription("folders", destination: "Folder", inverse: "account", toMany: true)]),
        ])
        let sorted: (ModelDescription, [String]) = (notes, [
            "Note WHERE NOT (folder.name CONTAINS 'a') SORT BY folder.name, uid",
            "Note SORT BY folder.account.name DESC, folder.name, uid LIMIT 40 OFFSET 10",
            "Checklist WHERE folder.name BEGINSWITH %@ OR items > 3 SORT BY folder.name DESC, uid",
            "Note WHERE title BEGINSWITH %@ SORT BY folder.account.name, title DESC, uid",
            "Note PROPERTIES title WHERE folder != nil SORT BY folder.name DESC, uid LIMIT 25",
            "Note SORT BY folder.name localizedCaseInsensitive DESC, title localized, uid",
            "Note WHERE title != %@ SORT BY title localizedStandard DESC, uid",
            "Checklist SORT BY title caseInsensitive, uid LIMIT 40",
            // A sub-entity's UUID fetched alone: json-entity reads it from its document's hex text.
            "Checklist PROPERTIES cid, items WHERE items > 2 SORT BY uid LIMIT 30",
        ])
        for (description, texts) in fetches + [sorted] {
            let agreement = try StrategyAgreement(Strategies.all, description)
            for text in texts {
                let spec = try FetchSpec.parse(text, model: agreement.model)
                for request in spec.requests(agreement.generator, seed: 3, draws: 5) {
                    try agreement.check(request, "\(text): \(request.predicate)")
                }
            }
            agreement.assertAskedEnough(moreThan: 2 * texts.count, share: 0.6)
        }
    }
}
