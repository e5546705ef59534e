import Models

/// The objects a model's stores are filled with, and that the workloads draw their inputs from:
/// generated from a seed (`ObjectGenerator`), or an app's own, read from its store. Each root
/// hierarchy's objects are a sequence in key order: position `p` holds the object with key
/// `key(root:at: p)`, the same key in every layout.
public protocol Dataset: Sendable {
    var model: Model { get }
    /// The seed the workloads' inputs are drawn with.
    var seed: UInt64 { get }
    /// Objects in the hierarchy of `root`.
    func count(root: Int) -> Int
    /// The concrete entity of the object at `position` of the hierarchy of `root`.
    func entity(root: Int, at position: Int) -> Int
    /// The key (`Z_PK`) of the object at `position` of the hierarchy of `root`.
    func key(root: Int, at position: Int) -> Int64
    /// The object at `position` (0-based) of the hierarchy of `root`.
    func object(root: Int, at position: Int) -> ModelObject
    /// The object with this identity (it must exist).
    func object(_ id: ObjectID) -> ModelObject
    /// The objects at `positions` of the hierarchy of `root` (a store reads them in one step).
    func objects(root: Int, _ positions: Range<Int>) -> [ModelObject]
    /// Every object, hierarchy by hierarchy in entity-number order of the roots, in batches of
    /// `size` (a batch never spans two hierarchies); many-to-many links on their generating side.
    func batches(of size: Int) -> AnySequence<[ModelObject]>
    /// The destinations of a relationship with the most and with the fewest objects pointing at them.
    func popularDestination(_ relationship: Model.Relationship) -> ObjectID?
    func rareDestination(_ relationship: Model.Relationship) -> ObjectID?
    /// The links of each many-to-many relationship (of those given), when the dataset counts them
    /// without reading every object; `nil` when they are counted by reading the objects.
    func linkCounts(_ relationships: [Model.Relationship]) -> [Int]?
    /// Throws the first read of the dataset that failed since it was made (a store changed or
    /// removed under it); the reads themselves cannot throw, so whoever reads checks here after.
    func checkReads() throws
    /// Whether the objects are an app's own data: no value of theirs may appear in any output.
    var isPrivate: Bool { get }
    /// Where the objects come from, as the results name it: `generated` or `store`.
    var origin: String { get }
    /// The digest of every object (`ModelObject`'s: values and to-ones), unordered, when the
    /// dataset was read whole and each store filled from it must prove it holds exactly its
    /// objects; `nil` for generated objects (their stores are checked by counts and agreement).
    var digest: AnswerDigest? { get }
}

extension Dataset {
    /// Objects in the whole model.
    public var totalCount: Int { model.roots.reduce(0) { $0 + count(root: $1) } }

    /// The objects at `positions`, made one by one.
    public func objects(root: Int, _ positions: Range<Int>) -> [ModelObject] { positions.map { object(root: root, at: $0) } }
}

extension ObjectGenerator: Dataset {
    /// A generated object's key is its position plus one.
    public func key(root: Int, at position: Int) -> Int64 { Int64(position + 1) }
    public func batches(of size: Int) -> AnySequence<[ModelObject]> { AnySequence(generatedBatches(of: size)) }
    public func linkCounts(_ relationships: [Model.Relationship]) -> [Int]? { nil }
    public func checkReads() throws {}
    public var isPrivate: Bool { false }
    public var origin: String { "generated" }
    public var digest: AnswerDigest? { nil }
}
