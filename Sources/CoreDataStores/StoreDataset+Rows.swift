import Generation
import Models
import SQLite

extension StoreDataset {
    /// The objects of `root`'s hierarchy whose keys are in `keys`, in key order, with the links
    /// they hold; and what breaks the model in their rows and in the join rows of their keys.
    func read(_ database: Database, root: Int, keys: ClosedRange<Int64>) throws -> (objects: [ModelObject], problems: StoreRowProblems) {
        guard let hierarchy = plan.hierarchies[root] else { return ([], StoreRowProblems()) }
        var problems = StoreRowProblems()
        let links = try hierarchy.links.map { try self.links($0, database, keys: keys, problems: &problems) }
        var consumed = hierarchy.links.map { _ in Set<Int64>() }
        let statement = try database.cachedStatement(hierarchy.sql)
        defer { statement.reset() }
        try statement.bind([keys.lowerBound, keys.upperBound])
        var objects: [ModelObject] = []
        while try statement.step() {
            let key = statement.int64(at: 0)
            // A row of no entity of the hierarchy is no object (opening counted it), nor one left out.
            guard let index = entityOfNumber[statement.int64(at: 1)], let entity = hierarchy.entities[index],
                  leftOut == 0 || hierarchies[root]?.position(of: key) != nil else { continue }
            let name = model.entities[index].name
            let values = Self.values(statement, entity, of: "\(name) \(key)", entity: name, key: key, &problems)
            let toOnes = entity.toOnes.map { toOne -> ObjectID? in
                guard statement.storageClass(at: toOne.key) != .null else { return nil }
                let destination = statement.int64(at: toOne.key)
                guard statement.storageClass(at: toOne.key) == .integer, let found = hierarchies[toOne.destinationRoot]?.entity(of: destination),
                      toOne.destinationSubtree.contains(found) else {
                    problems.add(.danglingToOne, "\(name).\(toOne.name) of \(name) \(key)")
                    return nil
                }
                return ObjectID(entity: found, key: destination)
            }
            let held = entity.links.map { index in
                consumed[index].insert(key)
                return links[index][key] ?? []
            }
            let orders = entity.links.contains { hierarchy.links[$0].ordered } ? held.map { $0.map(\.order) } : nil
            objects.append(ModelObject(id: ObjectID(entity: index, key: key), values: values, toOne: toOnes, links: held.map { $0.map(\.destination) }, linkOrders: orders))
        }
        for (index, link) in hierarchy.links.enumerated() {
            for owner in links[index].keys.sorted() where !consumed[index].contains(owner) {
                let count = links[index][owner]?.count ?? 0
                for _ in 0 ..< max(count, 1) { problems.add(.danglingLink, "\(model.entities[link.owner].name).\(link.name) of key \(owner)") }
            }
        }
        return (objects, problems)
    }

    /// An object's attribute values from its row; a value of the wrong kind (read as NULL) and a
    /// NULL in a required attribute counted, and the object's key named unfit.
    private static func values(_ statement: Statement, _ entity: StoreReadPlan.Entity, of object: String, entity name: String, key: Int64,
                               _ problems: inout StoreRowProblems) -> [Value] {
        var unfit = false
        let values = entity.attributes.map { attribute in
            let value = Self.value(statement, at: attribute.column, as: attribute.storage)
            if value == nil { problems.add(.wrongType, "\(name).\(attribute.name) of \(object)") }
            if value == .null, !attribute.optional { problems.add(.missingRequired, "\(name).\(attribute.name) of \(object)") }
            unfit = unfit || value == nil || (value == .null && !attribute.optional)
            return value ?? .null
        }
        if unfit { problems.unfit.append(key) }
        return values
    }

    /// The destinations each owner in `keys` holds through one many-to-many relationship, with
    /// their order keys in an ordered one's join table, in its order (the order column's, else by
    /// destination key).
    private func links(_ link: StoreReadPlan.Links, _ database: Database, keys: ClosedRange<Int64>,
                       problems: inout StoreRowProblems) throws -> [Int64: [(destination: ObjectID, order: Int64?)]] {
        let statement = try database.cachedStatement(link.sql)
        defer { statement.reset() }
        try statement.bind([keys.lowerBound, keys.upperBound])
        var links: [Int64: [(destination: ObjectID, order: Int64?)]] = [:]
        while try statement.step() {
            let owner = statement.int64(at: 0), destination = statement.int64(at: 1)
            guard let found = hierarchies[link.destinationRoot]?.entity(of: destination), link.destinationSubtree.contains(found) else {
                problems.add(.danglingLink, "\(model.entities[link.owner].name).\(link.name) of key \(owner)")
                continue
            }
            let order = link.ordered && statement.storageClass(at: 2) == .integer ? statement.int64(at: 2) : nil
            links[owner, default: []].append((ObjectID(entity: found, key: destination), order))
        }
        return links
    }

    /// A column's value as the attribute's storage keeps it: a whole number a NUMERIC column (a
    /// date's, a decimal's) holds as an integer read as the real it is; `nil` for a value of
    /// another kind (text in a number's column, a fraction in an integer's, text not UTF-8).
    static func value(_ statement: Statement, at column: Int32, as storage: AttributeType.Storage) -> Value? {
        switch (statement.storageClass(at: column), storage) {
        case (.null, _): return .null
        case (.integer, .integer): return .integer(statement.int64(at: column))
        case (.integer, .real): return .real(Double(statement.int64(at: column)))
        case (.real, .real): return .real(statement.double(at: column))
        case (.real, .integer):
            let number = statement.double(at: column)
            guard number.rounded() == number, let whole = Int64(exactly: number) else { return nil }
            return .integer(whole)
        case (.text, .text): return statement.holdsValidText(at: column) ? .text(statement.string(at: column)) : nil
        case (.blob, .blob): return .blob(statement.bytes(at: column))
        default: return nil
        }
    }
}
