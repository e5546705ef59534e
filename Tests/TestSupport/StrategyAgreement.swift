import FetchRequests
import Generation
import Models
import SQLite
import Strategies
import XCTest

/// Strategies' stores of one model, each in memory and filled with the same generated objects,
/// checked against a reference: each request's objects (sorted by id when the request does not
/// sort) and its count must be the reference's. The reference is the `ReferenceStore` (answers from
/// the generator alone), or another strategy's store that takes the same writes as the subjects
/// (`checkWrites`). It counts the requests compared and those whose answer was not empty, so that a
/// battery finding nothing fails (`assertAskedEnough`). Failures name the strategy and the request
/// and are reported at the caller's file and line.
public final class StrategyAgreement {
    /// Where the expected answers come from.
    public enum Reference {
        /// Computed from the generator alone.
        case generated(ReferenceStore)
        /// Another strategy's store holding the same objects and taking the same writes.
        case store(LayoutStore)
    }

    public let model: Model
    public let generator: ObjectGenerator
    public let reference: Reference
    /// The stores checked, one per strategy asked for.
    public let subjects: [LayoutStore]
    /// Requests compared, and those whose expected answer held objects.
    public internal(set) var checks = 0, nonEmpty = 0

    /// The stores of `types` checked against the reference answers of `reference`'s generator.
    public init(_ types: [any StorageLayout.Type], reference: ReferenceStore) throws {
        model = reference.model
        generator = reference.generator
        self.reference = .generated(reference)
        let generator = reference.generator
        subjects = try types.map { try Self.open($0, generator) }
    }

    /// The stores of `types` checked against a store of `referenceType` holding the same objects.
    public init(_ types: [any StorageLayout.Type], against referenceType: any StorageLayout.Type, _ generator: ObjectGenerator) throws {
        model = generator.model
        self.generator = generator
        reference = .store(try Self.open(referenceType, generator))
        subjects = try types.map { try Self.open($0, generator) }
    }

    /// The stores of `types` on `description`'s model (seed 7), checked against the generated answers,
    /// or against a store of `referenceType` when given (a checker whose stores take writes).
    public convenience init(_ types: [any StorageLayout.Type], _ description: ModelDescription, against referenceType: (any StorageLayout.Type)? = nil,
                            seed: UInt64 = 7) throws {
        let generator = ObjectGenerator(try Model(description), seed: seed)
        if let referenceType {
            try self.init(types, against: referenceType, generator)
        } else {
            try self.init(types, reference: ReferenceStore(generator))
        }
    }

    /// A store of `type` in memory with its schema and every object of `generator`.
    public static func open(_ type: any StorageLayout.Type, _ generator: ObjectGenerator) throws -> LayoutStore {
        try open(type, generator.model, batches: generator.batches(of: 300))
    }

    /// A store of `type` in memory with its schema and the objects of `batches`, one save each.
    public static func open(_ type: any StorageLayout.Type, _ model: Model, batches: some Sequence<[ModelObject]>) throws -> LayoutStore {
        let strategy = LayoutStore(try type.init(model: model), database: try Database(path: ":memory:"))
        try strategy.createSchema()
        for batch in batches { try strategy.insert(batch) }
        return strategy
    }

    /// The only store checked (for a checker of one strategy).
    public var subject: LayoutStore { subjects[0] }

    /// The reference's store, for a checker against a store.
    public var referenceStore: LayoutStore {
        guard case let .store(store) = reference else { preconditionFailure("\(model.name): the reference is the generated answers, not a store") }
        return store
    }

    /// The reference's answer to `request`, sorted by id when the request does not sort.
    public func expected(_ request: FetchRequest) throws -> [ModelObject] {
        switch reference {
        case let .generated(store): return store.fetch(request)
        case let .store(store): return try Self.answer(store, request)
        }
    }

    /// The reference's count of the objects `request` selects (no page).
    public func expectedCount(_ request: FetchRequest) throws -> Int {
        let whole = Self.unpaged(request)
        switch reference {
        case let .generated(store): return store.count(whole)
        case let .store(store): return try store.count(whole)
        }
    }

    /// Checks every subject's objects and count for `request` against the reference's; returns the
    /// reference's objects.
    @discardableResult
    public func check(_ request: FetchRequest, _ what: @autoclosure () -> String, file: StaticString = #filePath, line: UInt = #line) throws -> [ModelObject] {
        let expected = try expected(request)
        let count = request.limit == nil && request.offset == nil ? expected.count : try expectedCount(request)
        checks += 1
        if !expected.isEmpty { nonEmpty += 1 }
        for subject in subjects {
            let label = "\(subject.name) on \(model.name): \(what())"
            XCTAssertNil(Self.difference(try Self.answer(subject, request), expected), "\(label): \(request)", file: file, line: line)
            XCTAssertEqual(try subject.count(Self.unpaged(request)), count, "\(label): count of \(request)", file: file, line: line)
        }
        return expected
    }

    /// Checks only the number of objects each subject fetches for `request`: for a sort that is not
    /// a total order, where which objects a page holds is not defined.
    public func checkLength(_ request: FetchRequest, _ what: @autoclosure () -> String, file: StaticString = #filePath, line: UInt = #line) throws {
        let expected = max(0, min(request.limit ?? .max, try expectedCount(request) - (request.offset ?? 0)))
        checks += 1
        if expected > 0 { nonEmpty += 1 }
        for subject in subjects {
            XCTAssertEqual(try subject.fetch(request).count, expected, "\(subject.name) on \(model.name): \(what()): \(request)", file: file, line: line)
        }
    }

    /// Fails unless more than `minimum` requests were compared and more than `share` of them found objects.
    public func assertAskedEnough(moreThan minimum: Int, share: Double = 0.8, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertGreaterThan(checks, minimum, "\(model.name): requests compared", file: file, line: line)
        XCTAssertGreaterThan(Double(nonEmpty), share * Double(checks), "\(model.name): \(nonEmpty) of \(checks) requests found objects", file: file, line: line)
    }

    /// `store`'s answer to `request`, sorted by id when the request does not sort.
    public static func answer(_ store: LayoutStore, _ request: FetchRequest) throws -> [ModelObject] {
        let answer = try store.fetch(request)
        return request.sort.isEmpty ? answer.sorted { $0.id < $1.id } : answer
    }

    /// The request without its page: what a count counts.
    public static func unpaged(_ request: FetchRequest) -> FetchRequest {
        var whole = request
        whole.limit = nil
        whole.offset = nil
        return whole
    }

    /// `nil` when the answers are equal, else the first difference in a line.
    public static func difference(_ answer: [ModelObject], _ expected: [ModelObject]) -> String? {
        if answer == expected { return nil }
        if let position = zip(answer, expected).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            return "object \(position) is \(answer[position]), expected \(expected[position])"
        }
        return answer.count == expected.count ? nil : "\(answer.count) objects, expected \(expected.count)"
    }
}
