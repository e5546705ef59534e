extension Model {
    /// What a key path of a predicate names from an entity: a property of the entity itself
    /// (`title`, `author`), or one reached through to-one relationships (`author.name`,
    /// `author.publisher.city`).
    public struct KeyPath: Sendable, Equatable {
        /// The to-one relationships it goes through, in order (none for a property of the entity itself).
        public let steps: [Relationship]
        /// The entity whose property the last name is: the last step's destination, else the entity itself.
        public let entity: Int
        /// The last name: an attribute of `entity`, or one of its to-one relationships.
        public let name: String
        /// Whether `name` is a to-one relationship rather than an attribute.
        public let isToOne: Bool
    }

    /// The key path `path` (names joined by `.`) from `entity`, or nil unless every name but the
    /// last is a to-one relationship of the entity the path has reached and the last is an
    /// attribute or a to-one relationship of it.
    public func keyPath(_ path: String, from entity: Int) -> KeyPath? {
        let names = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var steps: [Relationship] = [], current = entity
        for name in names.dropLast() {
            guard let relationship = entities[current].relationship(name), !relationship.toMany else { return nil }
            steps.append(relationship)
            current = relationship.destination
        }
        guard let last = names.last else { return nil }
        if entities[current].attribute(last) != nil { return KeyPath(steps: steps, entity: current, name: last, isToOne: false) }
        guard let relationship = entities[current].relationship(last), !relationship.toMany else { return nil }
        return KeyPath(steps: steps, entity: current, name: last, isToOne: true)
    }
}
