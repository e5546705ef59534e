import FetchRequests
import Generation
import Models
import Strategies
@testable import Workloads
import XCTest

/// What the Core Data workloads ask of a model: `fault` fires the faults of `lookup-id`'s objects,
/// `fetch-own` reads an entity with sub-entities and objects of its own, or does not apply.
final class CoreDataWorkloadTests: XCTestCase {
    func testFaultFiresLookupIDsObjects() throws {
        let model = try Model(ModelPresets.publications.scaled(to: 2_000))
        let inputs = WorkloadInputs(dataset: ObjectGenerator(model, seed: 3))
        let requests = try XCTUnwrap(Workloads.named("fault")?.cases(inputs).first?.requests)
        XCTAssertEqual(requests.count, WorkloadInputs.lookupCount)
        XCTAssertEqual(requests, inputs.lookupIDs.map { FetchRequest(entity: $0.entity, includesSubentities: false, predicate: .key($0.key), asRootFetch: true) })
        XCTAssertEqual(Set(requests.map(\.entity)).count, model.mainConcreteEntities.count, "every concrete entity's objects")
    }

    func testFetchOwnReadsAnEntityWithObjectsOfItsOwn() throws {
        let fetchOwn = try XCTUnwrap(Workloads.named("fetch-own"))
        let publications = try Model(ModelPresets.publications)
        XCTAssertEqual(publications.ownObjectsEntity, publications.index(of: "Publication"))
        let inputs = WorkloadInputs(dataset: ObjectGenerator(publications, seed: 3))
        XCTAssertEqual(fetchOwn.cases(inputs).map(\.requests), [[FetchRequest(entity: publications.mainRoot, includesSubentities: false)]])
        // Abstract Animal and Pet: no entity with sub-entities has objects of its own.
        let animals = try Model(ModelPresets.efcoreAnimals)
        XCTAssertEqual(fetchOwn.needs(animals), "no entity of the main hierarchy has both sub-entities and objects of its own")
        // A middle entity with objects of its own is preferred to the root.
        var description = ModelPresets.efcoreAnimals
        let pet = try XCTUnwrap(description.entities.firstIndex { $0.name == "Pet" })
        description.entities[pet].abstract = false
        description.entities[pet].rows = 100
        let concretePet = try Model(description)
        XCTAssertEqual(concretePet.ownObjectsEntity, concretePet.index(of: "Pet"))
    }
}

extension CoreDataWorkloadTests {
    /// Book's isbn on publications; CodingMilitia's lookup attribute is its base's uid, which is no
    /// sub-entity's own.
    func testFilterSubAttributeAsksASubentitysOwnAttribute() throws {
        let workload = try XCTUnwrap(Workloads.named("filter-sub-attribute"))
        let model = try Model(ModelPresets.publications.scaled(to: 2_000))
        let subentity = try XCTUnwrap(model.subentityAttribute)
        XCTAssertEqual(subentity.entity, model.index(of: "Book"))
        XCTAssertEqual(subentity.attribute, "isbn")
        let inputs = WorkloadInputs(dataset: ObjectGenerator(model, seed: 3))
        XCTAssertEqual(workload.cases(inputs).first?.requests,
                       inputs.lookupValues.map { FetchRequest(entity: subentity.entity, predicate: .equals("isbn", $0), asRootFetch: true) })
        XCTAssertNotNil(workload.needs(try Model(ModelPresets.codingMilitia)))
    }
}

extension CoreDataWorkloadTests {
    /// The fetches of several statements: what each asks of the publication model, and which are in the default run.
    func testTheFetchesOfSeveralStatementsAskWhatTheySay() throws {
        let model = try Model(ModelPresets.publications.scaled(to: 2_000))
        let inputs = WorkloadInputs(dataset: ObjectGenerator(model, seed: 3))
        let book = try XCTUnwrap(model.index(of: "Book"))
        XCTAssertEqual(model.partialProperties(model.mainRoot), ["title", "publishDate"])
        XCTAssertEqual(model.partialProperties(book), ["title", "isbn"])
        let partial = try XCTUnwrap(Workloads.named("fetch-partial")).cases(inputs)
        XCTAssertEqual(partial.map(\.variant), ["hierarchy", "leaf"])
        XCTAssertEqual(partial.map(\.requests), [[FetchRequest(entity: model.mainRoot, mode: .partial(["title", "publishDate"]))],
                                                 [FetchRequest(entity: book, mode: .partial(["title", "isbn"]))]])
        XCTAssertEqual(try XCTUnwrap(Workloads.named("fetch-batched")).cases(inputs).map(\.requests),
                       [[FetchRequest(entity: model.mainRoot, sort: inputs.sort, mode: .batched(size: 20, objects: 1_000))]])
        XCTAssertEqual(try XCTUnwrap(Workloads.named("fetch-sectioned")).cases(inputs).map(\.requests),
                       [[FetchRequest(entity: model.mainRoot, sort: inputs.sort, mode: .sectionedByEntity)]])
        // Tags are many-to-many: prefetched through their join table.
        XCTAssertEqual(model.prefetchedRelationships, ["tags"])
        XCTAssertEqual(try XCTUnwrap(Workloads.named("prefetch")).cases(inputs).map(\.requests),
                       [[FetchRequest(entity: model.mainRoot, sort: inputs.sort, limit: WorkloadInputs.pageSize, mode: .prefetching(["tags"]))]])
        XCTAssertEqual(Workloads.defaultRun(on: model).map(\.name).filter { ["fetch-batched", "fetch-partial", "fetch-sectioned", "prefetch"].contains($0) },
                       ["fetch-batched", "fetch-partial"])
        XCTAssertEqual(Set(Workloads.applicable(to: model).map(\.name)).subtracting(Workloads.defaultRun(on: model).map(\.name)), ["fetch-sectioned", "prefetch"],
                       "they apply, but only when named")
        // A main root without a to-many with an inverse has nothing to prefetch.
        var lone = ModelPresets.publications
        lone.entities.removeAll { $0.name == "Tag" }
        for index in lone.entities.indices { lone.entities[index].relationships = [] }
        XCTAssertEqual(Workloads.named("prefetch")?.needs(try Model(lone)), "the main root has no to-many relationship with an inverse")
    }
}
