import CoreDataLayout
import FetchRequests
import Generation
import Models
import SQLite

/// One way of storing a model in SQLite, derived from the model alone and never touching a
/// database: the DDL, and for each operation the statements and where their values come from. A
/// layout is an immutable value, everything it answers computed when it is derived.
/// `LayoutStore` runs any layout's statements on a store. Adding a strategy is one layout in its
/// own folder and one line in `Strategies.all` (docs/strategies.md, "Adding a strategy").
public protocol StorageLayout: Sendable {
    /// The name used on the command line and in the CSV (`single-table`, …).
    static var name: String { get }
    /// One line for `bench list`.
    static var summary: String { get }

    /// Derives the layout of `model`. Throws `ModelError` when this strategy cannot store the
    /// model (a limit of SQLite's).
    init(model: Model) throws

    var model: Model { get }
    /// The model whose entities `Z_PRIMARYKEY` lists (the stored model: flattened, one enum entity, …).
    var storedModel: Model { get }
    /// Every statement that creates an empty store, in order.
    var schemaSQL: [String] { get }

    /// How an object of concrete entity `entity` is inserted; `nil` for an abstract entity.
    func insertPlan(_ entity: Int) -> InsertPlan?

    /// The statement answering `request` with every object materialised as its concrete entity
    /// (values in `Model.Entity.attributes` order, to-one destinations in `toOneRelationships` order).
    func fetchQuery(_ request: FetchRequest) throws -> PreparedQuery
    /// The statement counting the objects `request` selects (no sort, no page).
    func countQuery(_ request: FetchRequest) throws -> PreparedQuery
    /// Core Data's partial fetch (`propertiesToFetch`) of `request`: per object, in its order, the
    /// values of the attributes `properties` names, then its entity number and key
    /// (`RowDecoder.partial`); with no property, the ID pass of a batched fetch.
    func partialQuery(_ request: FetchRequest, properties: [String]) throws -> PreparedQuery
    /// A fetch of dictionaries (`FetchMode.dictionary`): distinct values, or aggregates over
    /// groups, one row a dictionary (`RowDecoder.dictionary`). By default, over the layout's
    /// partial fetch of the attributes it reads (`StorageLayout+DictionaryFetch.swift`).
    func dictionaryQuery(_ request: FetchRequest, _ fetch: DictionaryFetch) throws -> PreparedQuery
    /// Whether a batched fetch reads each batch entity by entity (each concrete entity's own fetch
    /// with its keys, by the ID pass's entity numbers) rather than as one fetch of the request's
    /// entity: for a layout whose fetch by key asks every table of a hierarchy. False by default.
    var batchesByEntity: Bool { get }
    /// A many-to-many prefetch's batch (`FetchMode.prefetching`): the destinations of `relationship`
    /// linked to the objects whose keys are bound as the key list (`KeyList`), one row per link,
    /// each object's `source` the key of the object it is linked to, ordered by it.
    func linkedQuery(_ relationship: Model.Relationship) throws -> PreparedQuery

    /// The statements setting each attribute to its value, and each to-one to its destination
    /// (its key and entity number), on an object of `entity` whose version is checked and bumped,
    /// as Core Data's `UPDATE … SET …, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?` (one statement where
    /// the columns share the table holding the version).
    func updatePlan(_ entity: Int, changes: [AttributeChange], toOnes: [ToOneChange]) throws -> [UpdateStep]
    /// `DELETE FROM <join table> WHERE <owner's column> = ? AND <destination's column> = ?`: one
    /// link of many-to-many `relationship` removed, from an object of concrete entity `owner` to one
    /// of concrete entity `destination`.
    func unlinkSQL(_ relationship: Model.Relationship, owner: Int, destination: Int) throws -> String
    /// `SELECT Z_OPT FROM <table> WHERE Z_PK = ?` for an object of `entity`; `nil` when no table
    /// holds its objects.
    func versionSQL(_ entity: Int) -> String?

    /// The SQL steps of deleting an object of `entity` (see `DeleteStatements`); the store follows
    /// the delete rules with them (`LayoutStore.delete(_:)`).
    func deleteStatements(_ entity: Int) throws -> DeleteStatements

    /// Statements each answering one number, summed: the rows linking objects through a
    /// many-to-many relationship (the generating side's), over every table holding them.
    func linkCountSQL(_ relationship: Model.Relationship) throws -> [String]
}

extension StorageLayout {
    /// The statements setting one attribute (`updatePlan(_:changes:)`).
    public func updatePlan(_ entity: Int, attribute: String, value: Value) throws -> [UpdateStep] {
        try updatePlan(entity, changes: [AttributeChange(attribute, value)], toOnes: [])
    }

    public static var name: String { "\(Self.self)" }
    /// The strategy's name (`Self.name`), for a layout known only as `any StorageLayout`.
    public var name: String { Self.name }
    public var storedModel: Model { model }

    /// `value`, or a `LayoutError` naming this strategy and saying that `what` is missing: a lookup
    /// a model could make fail is an error line, never a trap.
    static func need<T>(_ value: T?, _ what: @autoclosure () -> String) throws -> T { try LayoutError.required(value, name, what()) }
}
