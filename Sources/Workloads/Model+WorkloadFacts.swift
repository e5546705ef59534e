import FetchRequests
import Models
import Strategies

/// What the workloads look for in a model, each `nil` when the model has none. `Workload.needs`
/// and `WorkloadInputs` read the same facts, so a workload applies exactly when it can be built.
extension Model {
    /// The main hierarchy's concrete entities.
    public var mainConcreteEntities: [Int] { concreteEntities(in: entities[mainRoot].subtree) }

    /// The sort of the ordered reads, as sort keys (every element an attribute of the main root).
    var sortKeys: [SortKey]? {
        order.map { $0.compactMap { element in element.property.map { SortKey($0, ascending: element.ascending) } } }
    }

    /// `lookup-attribute`: a unique attribute (a one-attribute uniqueness constraint) declared in the
    /// main hierarchy, preferring one below the root (Book's isbn), else the root's (a uid); its
    /// entity has objects and the attribute is not always NULL, so that there are values to look up.
    public var lookupAttribute: (entity: Int, attribute: String)? {
        let subtree = entities[mainRoot].subtree
        let found = subtree.filter { objectCount($0) > 0 }.flatMap { index in
            entities[index].uniquenessConstraints.filter { constraint in
                constraint.count == 1 && entities[index].attribute(constraint[0]).map { $0.effectiveNullShare < 1 } == true
            }.map { (index, $0[0]) }
        }
        return found.first { $0.0 != mainRoot } ?? found.first
    }

    /// `lookup-composite`: a fetch index with the `entity` element and a date attribute, on an entity
    /// below the main root (Book's (entity, publishDate)).
    public var compositeIndex: (entity: Int, attribute: String)? {
        for index in entities[mainRoot].subtree.dropFirst() {
            for fetchIndex in entities[index].fetchIndexes where fetchIndex.elements.contains(where: { $0.property == nil }) {
                if let date = fetchIndex.elements.compactMap(\.property).first(where: { entities[index].attribute($0)?.type == .date }) {
                    return (index, date)
                }
            }
        }
        return nil
    }

    /// `fetch-by-relationship`: a to-many relationship of an entity of the main hierarchy whose
    /// destination has a unique string attribute (publications' tags, found by name).
    public var relationshipLookup: (entity: Int, relationship: String, attribute: String)? {
        for index in entities[mainRoot].subtree {
            for relationship in entities[index].ownRelationships where relationship.toMany {
                let destination = entities[relationship.destination]
                if let constraint = destination.uniquenessConstraints.first(where: { $0.count == 1 && destination.attribute($0[0])?.type == .string }) {
                    return (index, relationship.name, constraint[0])
                }
            }
        }
        return nil
    }

    /// `fetch-ordered`: an ordered to-many relationship kept through its inverse's order key, whose
    /// destination has objects and whose owner can have members: one declared in the main
    /// hierarchy if there is one, else the first in the model.
    public var orderedRelationship: (entity: Int, relationship: String)? {
        let found = entities.flatMap { entity in
            entity.ownRelationships.filter { relationship in
                guard relationship.ordered, let inverse = inverse(of: relationship), orderKey(of: inverse) != nil else { return false }
                return objectCount(relationship.destination) > 0 && objectCount(entity.index) > 0 && inverse.nullShare < 1
            }.map { (entity.index, $0.name) }
        }
        return found.first { entities[mainRoot].subtree.contains($0.0) } ?? found.first
    }

    /// `search-title`: a string attribute of the main root that leads one of its fetch indexes and
    /// is not always NULL.
    public var titleAttribute: String? {
        let root = entities[mainRoot]
        return root.fetchIndexes.compactMap { $0.elements.first?.property }.first { name in
            root.attribute(name).map { $0.type == .string && $0.effectiveNullShare < 1 } == true
        }
    }

    /// `filter-fk`: a to-one relationship declared by the main root.
    /// Its destination has objects and it is not always NULL, so that some object points somewhere.
    public var foreignKey: String? {
        entities[mainRoot].ownRelationships.first { !$0.toMany && $0.nullShare < 1 && objectCount($0.destination) > 0 }?.name
    }

    /// `update`: an attribute of the main root under no uniqueness constraint, preferring a date
    /// whose name says it is a modification date, then any date, then any other.
    public var updateAttribute: String? {
        let root = entities[mainRoot]
        // Under no constraint of the root or of a sub-entity (which may name the inherited attribute).
        let constrained = Set(entities[mainRoot].subtree.flatMap { entities[$0].uniquenessConstraints.joined() })
        let candidates = root.ownAttributes.filter { !constrained.contains($0.name) && !$0.isOrderKey }
        return (candidates.first { $0.type == .date && $0.name.lowercased().contains("update") }
            ?? candidates.first { $0.type == .date } ?? candidates.first { $0.type != .uuid && $0.type != .binary })?.name
    }

    /// Why objects of the main hierarchy cannot be deleted freely: a `deny` rule below its root.
    public var denyRule: String? {
        for index in entities[mainRoot].subtree {
            if let relationship = entities[index].ownRelationships.first(where: { $0.deleteRule == .deny }) {
                return "\(entities[index].name).\(relationship.name)"
            }
        }
        return nil
    }
}
