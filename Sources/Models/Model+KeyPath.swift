extension Model {
    /// What a key path of a predicate names from an entity: a property of the entity itself
    /// (`title`, `author`), or one reached through relationships (`author.name`,
    /// `author.publisher.city`; through a to-many, `tags.name`, as `ANY tags.name` reads it).
    public struct KeyPath: Sendable, Equatable {
        /// The relationships it goes through, in order (none for a property of the entity itself).
        public let steps: [Relationship]
        /// The entity whose property the last name is: the last step's destination, else the entity itself.
        public let entity: Int
        /// The last name: an attribute of `entity`, or one of its to-one relationships.
        public let name: String
        /// Whether `name` is a to-one relationship rather than an attribute.
        public let isToOne: Bool

        /// Whether it goes through a to-many relationship.
        public var throughToMany: Bool { steps.contains { $0.toMany } }
    }

    /// The key path `path` (names joined by `.`) from `entity`, or nil unless every name but the
    /// last is a to-one relationship (or any relationship, `throughToMany`) of the entity the path
    /// has reached and the last is an attribute or a to-one relationship of it.
    public func keyPath(_ path: String, from entity: Int, throughToMany: Bool = false) -> KeyPath? {
        let names = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var steps: [Relationship] = [], current = entity
        for name in names.dropLast() {
            guard let relationship = entities[current].relationship(name), throughToMany || !relationship.toMany else { return nil }
            steps.append(relationship)
            current = relationship.destination
        }
        guard let last = names.last else { return nil }
        if entities[current].attribute(last) != nil { return KeyPath(steps: steps, entity: current, name: last, isToOne: false) }
        guard let relationship = entities[current].relationship(last), !relationship.toMany else { return nil }
        return KeyPath(steps: steps, entity: current, name: last, isToOne: true)
    }
}
