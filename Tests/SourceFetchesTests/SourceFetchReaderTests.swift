import Foundation
import SourceFetches
import XCTest

/// An app's fetches read from its Swift sources: Core Data's NSPredicate(format:) literals with
/// the entity named around them, SwiftData's #Predicate, FetchDescriptor and @Query; what cannot
/// be read is named with its file, line and why.
final class SourceFetchReaderTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("source-fetches-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("App"), withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    func write(_ name: String, _ source: String) throws {
        try source.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    func testCoreDataFormatsAndTheirEntities() throws {
        try write("App/ItemStore.swift", """
            import CoreData

            final class ItemStore {
                func recent(in context: NSManagedObjectContext, since date: Date) throws -> [Item] {
                    let request: NSFetchRequest<Item> = Item.fetchRequest()
                    request.predicate = NSPredicate(format: "addedAt > %@ AND isFavorite == YES", date as NSDate)
                    return try context.fetch(request)
                }

                func byKey(_ value: String) -> NSFetchRequest<NSFetchRequestResult> {
                    let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Shelf")
                    request.predicate = NSPredicate(format: "%K BEGINSWITH[cd] %@ OR %K.@count > %ld", #keyPath(Shelf.name), value, "items", 3)
                    return request
                }

                func built(_ text: String) -> NSPredicate {
                    NSPredicate(format: text)
                }

                func pages(_ minimum: Int) -> NSPredicate {
                    NSPredicate(format: "pageCount >= %d", minimum)
                }
            }

            struct ItemList: View {
                @FetchRequest(entity: Item.entity(), sortDescriptors: [], predicate: NSPredicate(format: "title != nil AND ANY tags.name == %@", "swift"))
                var items: FetchedResults<Item>
            }
            """)
        let found = try SourceFetchReader.read(folder.path)
        XCTAssertEqual(found.map(\.place), ["App/ItemStore.swift:6", "App/ItemStore.swift:12", "App/ItemStore.swift:17", "App/ItemStore.swift:21", "App/ItemStore.swift:26"])
        XCTAssertEqual(found.map(\.outcome), [
            .fetch("Item WHERE addedAt > %@ AND isFavorite == YES"),
            .fetch("Shelf WHERE name BEGINSWITH[cd] %@ OR items.@count > %@"),
            .unreadable("the format is built at run time (not one string literal)"),
            .unreadable("the fetched entity is not named near it (no NSFetchRequest<Entity>, Entity.fetchRequest() or entityName: \"Entity\" in its function)"),
            .fetch("Item WHERE title != nil AND ANY tags.name == %@"),
        ])
        XCTAssertEqual(found[0].name, "item-store-6")
        XCTAssertEqual(Set(found.map(\.form)), ["NSPredicate(format:)"])
    }

    /// A Core Data request's sort descriptors and fetch limit go with its predicate when the code
    /// says which request they are of; otherwise the fetch is read without them.
    func testCoreDataSortDescriptorsAndLimits() throws {
        try write("App/Lists.swift", """
            import CoreData

            final class Lists {
                func recent(since date: Date) -> NSFetchRequest<Item> {
                    let request: NSFetchRequest<Item> = Item.fetchRequest()
                    request.predicate = NSPredicate(format: "addedAt > %@", date as NSDate)
                    request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true, selector: #selector(NSString.localizedCaseInsensitiveCompare(_:))),
                                               NSSortDescriptor(keyPath: \\Item.addedAt, ascending: false)]
                    request.fetchLimit = 20
                    request.fetchBatchSize = 10
                    return request
                }

                func two() -> [NSPredicate] {
                    let request: NSFetchRequest<Item> = Item.fetchRequest()
                    request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
                    return [NSPredicate(format: "price > 3"), NSPredicate(format: "price < 1")]
                }

                func odd() -> NSFetchRequest<Item> {
                    let request: NSFetchRequest<Item> = Item.fetchRequest()
                    request.predicate = NSPredicate(format: "price > 3")
                    request.fetchBatchSize = 25
                    request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: flag)]
                    return request
                }

                func named(_ name: String) -> NSFetchRequest<Item> {
                    let request: NSFetchRequest<Item> = Item.fetchRequest()
                    let predicate = NSPredicate(format: "title == %@", name)
                    request.predicate = predicate
                    request.sortDescriptors = [NSSortDescriptor(key: "addedAt", ascending: false)]
                    return request
                }
            }

            struct Favourites: View {
                @FetchRequest(sortDescriptors: [NSSortDescriptor(keyPath: \\Item.shelf.name, ascending: false)], predicate: NSPredicate(format: "isFavorite == YES"))
                var items: FetchedResults<Item>
            }

            func newest(_ context: ModelContext) throws -> Item? {
                var descriptor = FetchDescriptor<Item>(predicate: #Predicate { $0.price > 3 }, sortBy: [SortDescriptor(\\.addedAt, order: .reverse)])
                descriptor.fetchLimit = 1
                return try context.fetch(descriptor).first
            }
            """)
        let found = try SourceFetchReader.read(folder.path)
        XCTAssertEqual(found.map(\.outcome), [
            .fetch("Item WHERE addedAt > %@ SORT BY title localizedCaseInsensitive, addedAt DESC LIMIT 20 BATCH 10"),
            .fetch("Item WHERE price > 3"), .fetch("Item WHERE price < 1"),
            .fetch("Item WHERE price > 3 BATCH 25"),
            .fetch("Item WHERE title == %@ SORT BY addedAt DESC"),
            .fetch("Item WHERE isFavorite == YES SORT BY shelf.name DESC"),
            // SwiftData's descriptor with its fetch limit, set after it is made.
            .fetch("Item WHERE price > 3 SORT BY addedAt DESC LIMIT 1"),
        ], "two predicates of one function, or a direction not written: no sort (a batch size is still read)")
    }

    func testSwiftDataPredicatesQueriesAndDescriptors() throws {
        try write("App/LibraryView.swift", """
            import SwiftData
            import SwiftUI

            struct LibraryView: View {
                @Query(filter: #Predicate<Item> { $0.isFavorite && $0.title.localizedStandardContains("swift") }, sort: \\Item.addedAt, order: .reverse)
                var favorites: [Item]
                @Query(sort: [SortDescriptor(\\Item.title), SortDescriptor(\\Item.uid, comparator: .lexical)]) var all: [Item]

                func search(_ text: String, shelf: String) -> FetchDescriptor<Item> {
                    FetchDescriptor<Item>(predicate: #Predicate { item in
                        item.shelf?.name == shelf && (item.price > 10 || !item.tags.contains { $0.name == text })
                    }, sortBy: [SortDescriptor(\\.addedAt, order: .reverse)])
                }

                func wanted(_ ids: [UUID]) -> Predicate<Item> {
                    #Predicate { ids.contains($0.uid) && !$0.tags.isEmpty && 3 < $0.tags.count }
                }

                func added(after day: Date) -> Predicate<Item> {
                    #Predicate { item in
                        if let added = item.addedAt { added > day } else { false }
                    }
                }

                func both(_ a: String, _ b: String) -> Predicate<Shelf> {
                    #Predicate { $0.items.contains { $0.title == a && $0.price > 3 } }
                }

                func named() -> Predicate<Shelf> { #Predicate { shelf in shelf.items.contains { $0.title == shelf.name } } }

                @Query(filter: Item.favorites, sort: \\Item.title) var kept: [Item]
            }
            """)
        let found = try SourceFetchReader.read(folder.appendingPathComponent("App/LibraryView.swift").path)
        XCTAssertEqual(found.map(\.line), [5, 7, 10, 16, 20, 26, 29, 31])
        XCTAssertEqual(found.map(\.form), ["@Query", "@Query", "#Predicate", "#Predicate", "#Predicate", "#Predicate", "#Predicate", "@Query"])
        // SwiftData's SortDescriptors order a String key .localizedStandard unless they name a comparator; a @Query's key path sort does not.
        XCTAssertEqual(found.map(\.sortsStringsLocalizedStandard), [false, true, true, false, false, false, false, false])
        XCTAssertEqual(found.map(\.outcome), [
            .fetch("Item WHERE isFavorite == YES AND title CONTAINS[cdl] 'swift' SORT BY addedAt DESC"),
            .fetch("Item SORT BY title, uid lexical"),
            .fetch("Item WHERE shelf.name == %@ AND (price > 10 OR NOT (ANY tags.name == %@)) SORT BY addedAt DESC"),
            .fetch("Item WHERE uid IN %@ AND NOT (tags.@count == 0) AND tags.@count > 3"),
            .unreadable("'if let added = item.addedAt { added > day } else { false }' chooses between conditions at run time (if, ?:, switch), which a fetch's predicate has no form for"),
            .fetch("Shelf WHERE SUBQUERY(items, $x, $x.title == %@ AND $x.price > 3).@count > 0"),
            .unreadable("'shelf.name' compares with the enclosing object inside a to-many's contains: a SUBQUERY's comparison with it, not yet a form the suite runs"),
            .unreadable("its filter is built elsewhere (not a #Predicate written here)"),
        ])
    }
}
