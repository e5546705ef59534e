import CoreDataLayout
import FetchRequests
import Generation
import Models

/// A dictionary fetch's clauses (`DictionaryFetch`) as Core Data writes them, given how a layout
/// spells each attribute it reads: the select list (`COUNT(t0.ZTITLE)`, `total(…)` for `sum:`,
/// `avg(…)` for `average:`, `min(…)`, `max(…)`; an aggregate HAVING names given `AS __var<n>`),
/// ` GROUP BY …`, ` HAVING __var0 > ?` with its values, and the decoder of its rows.
struct DictionarySQL {
    let fetch: DictionaryFetch
    /// The SQL of each item, in order.
    let list: [String]
    /// ` GROUP BY …` and ` HAVING …`, or "".
    let groupBy: String
    let having: String
    /// HAVING's values, in the order of its `?`.
    let havingValues: [Value]
    let decoder: RowDecoder

    /// `expression(attribute)`: the attribute's SQL and whether it holds a binary value as hex text.
    init(_ fetch: DictionaryFetch, entity: Model.Entity, expression: (String) throws -> (sql: String, hex: Bool)) throws {
        self.fetch = fetch
        let named = fetch.having?.names ?? []
        var list: [String] = [], storages: [AttributeType.Storage] = [], hex = Set<Int>()
        for (index, item) in fetch.items.enumerated() {
            guard let attribute = entity.attribute(item.key) else { throw LayoutError("request", "'\(item.key)' is not an attribute of '\(entity.name)'") }
            let (sql, isHex) = try expression(item.key)
            switch item {
            case .key:
                list.append(sql)
                storages.append(attribute.type.storage)
                if isHex { hex.insert(index) }
            case let .aggregate(function, _, name):
                let alias = named.firstIndex(of: name).map { " AS __var\($0)" } ?? ""
                list.append("\(function.sql)(\(sql))\(alias)")
                switch function {
                case .count: storages.append(.integer)
                case .sum, .average: storages.append(.real)
                case .min, .max:
                    storages.append(attribute.type.storage)
                    if isHex { hex.insert(index) }
                }
            }
        }
        self.list = list
        groupBy = fetch.groupBy.isEmpty ? "" : " GROUP BY " + (try fetch.groupBy.map { try expression($0).sql }).joined(separator: ", ")
        var values: [Value] = []
        having = try fetch.having.map { " HAVING " + (try Self.condition($0, named, &values, top: true)) } ?? ""
        havingValues = values
        decoder = RowDecoder.dictionary(entity.index, storages, hex: hex)
    }

    private static func condition(_ having: DictionaryFetch.Having, _ named: [String], _ values: inout [Value], top: Bool = false) throws -> String {
        switch having {
        case let .compare(name, comparison, value):
            guard let index = named.firstIndex(of: name) else { throw LayoutError("request", "HAVING names '\(name)', which is no aggregate of the fetch") }
            values.append(value)
            return "__var\(index) \(comparison.sql) ?"
        case let .and(parts):
            let text = try parts.map { try condition($0, named, &values) }.joined(separator: " AND ")
            return top ? text : "(\(text))"
        case let .or(parts): return "(" + (try parts.map { try condition($0, named, &values) }.joined(separator: " OR ")) + ")"
        case let .not(part): return "NOT (\(try condition(part, named, &values, top: true)))"
        }
    }
}

extension DictionaryFetch.Function {
    /// Core Data's SQL function: `sum:` is SQLite's `total` (0.0 for no rows, never an overflow).
    var sql: String {
        switch self {
        case .count: "COUNT"
        case .sum: "total"
        case .average: "avg"
        case .min: "min"
        case .max: "max"
        }
    }
}

extension DictionaryFetch.Having {
    /// The aggregates' names it compares, each once, in order.
    var names: [String] {
        switch self {
        case let .compare(name, _, _): [name]
        case let .and(parts), let .or(parts): parts.reduce(into: []) { names, part in for name in part.names where !names.contains(name) { names.append(name) } }
        case let .not(part): part.names
        }
    }
}

extension RowDecoder {
    /// A dictionary's row: its items' values as `storages` say (at `hex` a binary value's hex
    /// text), held as an object of `entity` with key 0 (a dictionary is no object: rows compare by
    /// their values).
    static func dictionary(_ entity: Int, _ storages: [AttributeType.Storage], hex: Set<Int>) -> RowDecoder {
        RowDecoder { row in
            let values = try storages.enumerated().map { index, storage -> Value in
                guard let value = row.value(at: Int32(index), as: storage, hex: hex.contains(index)) else { throw CorruptRow("a dictionary's value is text that is not lowercase hex") }
                return value
            }
            return ModelObject(id: ObjectID(entity: entity, key: 0), values: values, toOne: [])
        }
    }
}
