import Foundation

/// The properties Core Data adds to a model by itself, which every strategy stores like the
/// model's own: the hidden to-one of a to-many relationship without an inverse, and the order key
/// of an ordered to-many. `Model.init` adds them to the descriptions before it resolves anything.
extension Model {
    /// Core Data stores a to-many relationship without an inverse through a to-one it adds to the
    /// destination entity (a "virtual" to-one, `NSSQLToOne initWithEntity:propertyDescription:virtualForToMany:`
    /// in the decompiled framework), named the source's entity number followed by the relationship's
    /// name (`Asset`, entity 3, `libraryScopeAssetContributors` gives `3libraryScopeAssetContributors`,
    /// the column `Z3LIBRARYSCOPEASSETCONTRIBUTORS` of a real Photos store). So a destination object
    /// belongs to at most one source object. The suite adds that to-one, optional (NULL in the
    /// to-many's `nullShare` of the destination's objects, default 0.1), and makes it the to-many's
    /// inverse; entities are in entity-number order, so `index + 1` is the number.
    static func addHiddenInverses(_ ordered: inout [EntityDescription], _ indexByName: [String: Int]) {
        for index in ordered.indices {
            for (position, relationship) in ordered[index].relationships.enumerated() where relationship.toMany && relationship.inverse == nil {
                guard let destination = indexByName[relationship.destination] else { continue } // reported below
                let name = "\(index + 1)\(relationship.name)"
                ordered[destination].relationships.append(RelationshipDescription(
                    name, destination: ordered[index].name, inverse: relationship.name, deleteRule: .nullify, optional: true,
                    nullShare: relationship.nullShare, popularity: relationship.popularity, hidden: true))
                ordered[index].relationships[position].inverse = name
            }
        }
    }

    /// Core Data keeps the order of an ordered to-many relationship whose inverse is to-one in an
    /// order key beside the inverse's foreign key, in the destination's row: `Z_FOK_<INVERSE>`
    /// (`NSSQLForeignOrderKey`; real stores: `ZTRANSACTIONSPLIT.Z_FOK_TRANSACTION`,
    /// `ZGENERICALBUM.Z_FOK_PARENTFOLDER`). The suite makes it an integer attribute `_FOK_<inverse>`
    /// of the entity that declares the inverse, so that every strategy stores it with the object,
    /// and `CoreDataSchema` names and places it as Core Data does. (An ordered many-to-many keeps
    /// its order in the join table's `Z_FOK_` column, which the generator fills; see `CoreDataSchema`.)
    static func addOrderKeys(_ ordered: inout [EntityDescription], _ indexByName: [String: Int]) {
        func declaring(_ relationship: String, from entity: Int) -> Int? {
            var current: Int? = entity
            var steps = 0
            while let index = current, steps <= maximumDepth + 1 {
                if ordered[index].relationships.contains(where: { $0.name == relationship }) { return index }
                current = ordered[index].parent.flatMap { indexByName[$0] }
                steps += 1
            }
            return nil
        }
        for index in ordered.indices {
            for relationship in ordered[index].relationships where relationship.toMany && relationship.ordered {
                guard let inverse = relationship.inverse, let destination = indexByName[relationship.destination],
                      let owner = declaring(inverse, from: destination),
                      let toOne = ordered[owner].relationships.first(where: { $0.name == inverse }), !toOne.toMany else { continue }
                var key = Attribute("_FOK_" + inverse, .integer64, optional: true)
                key.orderKeyOf = inverse
                ordered[owner].attributes.append(key)
            }
        }
    }

    /// The order key attribute (`addOrderKeys`) kept beside a to-one, when its inverse is an ordered to-many.
    public func orderKey(of toOne: Relationship) -> String? {
        entities[toOne.owner].attributes.first { $0.orderKeyOf == toOne.name }?.name
    }
}
