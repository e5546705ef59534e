import Generation
import Models
import SQLite

/// How a fetch reads `details`: a strict reader of flat JSON objects, each row's keys checked
/// against its entity's.
extension JSONEntity {
    func documentReader(_ entity: Int, _ keys: [(slot: Int, key: String)], column: Int32) -> (@Sendable (Statement, inout [Value]) throws -> Void)? {
        let attributes = model.entities[entity].attributes
        let details = Details(
            column: column, keys: keys.map { Array($0.key.utf8) }, slots: keys.map(\.slot), storages: keys.map { attributes[$0.slot].type.storage },
            optional: keys.map { attributes[$0.slot].optional }, lookup: Dictionary(keys.enumerated().map { (Array($1.key.utf8), $0) }, uniquingKeysWith: { first, _ in first }))
        return Self.detailsReader(details, table: table(entity), kind: entity + 1)
    }

    /// Reads the values of `details`' JSON text into their slots; NULL or a text that does not
    /// decode throws `CorruptRow`.
    private static func detailsReader(_ details: Details, table: String, kind: Int) -> @Sendable (Statement, inout [Value]) throws -> Void {
        { row, values in
            guard !row.isNull(at: details.column) else {
                throw CorruptRow("a row of \(table) (Z_PK \(row.int64(at: 1)), kind \(kind)) has NULL details")
            }
            var text = row.string(at: details.column)
            do {
                try text.withUTF8 { try FlatJSON.read($0, details, into: &values) }
            } catch let error as FlatJSON.SyntaxError {
                throw CorruptRow("a row of \(table) (Z_PK \(row.int64(at: 1)), kind \(kind)) has details that do not decode: \(error)")
            }
        }
    }
}

extension JSONEntity {
    /// The keys of an entity's `details` and the value slot, storage and optionality of each.
    struct Details: Sendable {
        let column: Int32
        let keys: [[UInt8]]
        let slots: [Int]
        let storages: [AttributeType.Storage]
        let optional: [Bool]
        let lookup: [[UInt8]: Int]
    }
}
