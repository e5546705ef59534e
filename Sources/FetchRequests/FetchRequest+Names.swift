import Models

extension FetchRequest {
    /// The first name the request uses that its entity does not have, said as a problem: a sort
    /// key that is not an attribute (or a key path through to-ones), a compared name that is not a
    /// property or key path, a relationship of the wrong kind; nil when every name is the entity's.
    package func unknownName(in model: Model) -> String? {
        let entity = model.entities[self.entity]
        func wrong(_ predicate: FetchPredicate) -> String? {
            switch predicate {
            case let .toOne(name, _), let .toOneInList(name):
                return entity.relationship(name)?.toMany == false ? nil : "'\(name)' is not a to-one relationship of '\(entity.name)'"
            case let .countOf(name, _, _), let .holds(name, _), let .subquery(name, _, _, _):
                return entity.relationship(name)?.toMany == true ? nil : "'\(name)' is not a to-many relationship of '\(entity.name)'"
            case let .anyRelated(name, attributeName, _):
                guard let relationship = entity.relationship(name), relationship.toMany,
                      model.entities[relationship.destination].attribute(attributeName) != nil else {
                    return "'\(name).\(attributeName)' is not an attribute reached through a to-many relationship of '\(entity.name)'"
                }
                return nil
            default: return predicate.parts.lazy.compactMap(wrong).first
            }
        }
        for key in sort {
            if !key.attribute.contains(".") {
                if entity.attribute(key.attribute) == nil { return "'\(key.attribute)' is not an attribute of '\(entity.name)'" }
            } else if model.keyPath(key.attribute, from: entity.index, throughToMany: false)?.isToOne != false {
                return "'\(key.attribute)' is not an attribute reached through to-ones of '\(entity.name)'"
            }
        }
        for name in predicate.comparedAttributes.sorted()
        where ![FetchPredicate.selfKey, FetchPredicate.entityKey].contains(name) && model.keyPath(name, from: entity.index, throughToMany: true) == nil {
            return "'\(name)' is not a property of '\(entity.name)' or a key path from it"
        }
        return wrong(predicate)
    }
}
