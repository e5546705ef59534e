import Dispatch
import FetchRequests
import Foundation
import Generation
import Models
import SQLite
import StoreFiles
import Strategies

/// One store file of one strategy, and what the runner does with it: build it, check it, time a
/// repetition on it. Setup, checks and digests stay outside the timed regions.
final class MeasuredStore {
    let path: String
    let name: String
    private let layout: any StorageLayout
    private(set) var layoutStore: LayoutStore?
    private(set) var bytes: Int64 = 0

    /// Opens (creating) the store at `path` for `layout`, derived once per run and shared by its stores.
    init(_ layout: any StorageLayout, path: String) throws {
        self.path = path
        self.layout = layout
        name = layout.name
        do {
            layoutStore = LayoutStore(layout, database: try StoreFile.open(path))
        } catch {
            StoreFile.remove(path)
            throw error
        }
    }

    private var closed = false

    /// The layout store of a store still open; a closed or removed store is an error, not a trap.
    var opened: LayoutStore {
        get throws {
            guard let layoutStore else { throw StoreCheckFailure(description: "\(name): the store at \(path) was used after it was closed") }
            return layoutStore
        }
    }

    deinit { if !closed { remove() } }

    /// Closes the connection and opens the file again (a new measuring block): SQLite's page
    /// cache starts empty and statements are prepared afresh; the file is untouched.
    func reopen() throws {
        _ = try opened
        layoutStore = nil
        layoutStore = LayoutStore(layout, database: try StoreFile.open(path))
    }

    /// Closes the store and keeps its file (`bench generate`).
    func close() {
        layoutStore = nil
        closed = true
    }

    func remove() {
        layoutStore = nil
        StoreFile.remove(path)
    }

    /// A copy of this store at `path` for a repetition that changes it (a delete): the WAL is
    /// checkpointed first, so that the copied file holds everything.
    func copy(to path: String) throws -> MeasuredStore {
        try StoreFile.checkpoint(try opened.database)
        StoreFile.remove(path)
        try FileManager.default.copyItem(atPath: self.path, toPath: path)
        return try MeasuredStore(layout, path: path)
    }

    /// Creates the schema and inserts every object in batches, then checks the store in full.
    func populate(_ dataset: any Dataset, batchSize: Int, census: Census) throws {
        let layoutStore = try opened
        try layoutStore.createSchema()
        for batch in dataset.batches(of: batchSize) { try layoutStore.insert(batch) }
        try dataset.checkReads()
        try check(census, thorough: true)
        try proveHolds(dataset)
        try StoreFile.checkpoint(layoutStore.database)
        bytes = fileSize(path)
    }

    /// Creates the schema (untimed), inserts every transaction (each timed alone), then, untimed,
    /// checks the store and digests it: every object on the first repetition, the counts after;
    /// on the first, a dataset that knows what it holds (`proving`) proves the store holds it all.
    func timedInsert(_ transactions: AnySequence<[ModelObject]>, census: Census, thorough: Bool, proving dataset: (any Dataset)? = nil) throws -> Sample {
        let layoutStore = try opened
        try layoutStore.createSchema()
        var elapsed: UInt64 = 0
        var rows = 0
        layoutStore.database.startCountingWork()
        for transaction in transactions {
            elapsed += try Sample.nanoseconds { try layoutStore.insert(transaction) }
            rows += transaction.count
        }
        let work = layoutStore.database.stopCountingWork()
        try dataset?.checkReads()
        try check(census, thorough: thorough)
        let digest: AnswerDigest
        if thorough, let dataset, let proved = dataset.digest {
            // Proved to hold exactly the dataset's objects, batch by batch (memory bounded by a batch).
            try proveHolds(dataset)
            digest = proved
        } else if thorough {
            var all = AnswerDigest(.unordered)
            for root in layoutStore.model.roots { for object in try layoutStore.fetch(FetchRequest(entity: root)) { all.add(object) } }
            digest = all
        } else {
            digest = AnswerDigest(.ordered, of: census.numbers)
        }
        try StoreFile.checkpoint(layoutStore.database)
        bytes = fileSize(path)
        return Sample(nanoseconds: elapsed, rows: rows, digest: digest, digestIsFull: thorough, work: work)
    }

    /// SQLite's integrity check (`quick_check` unless `thorough`), its foreign key check, the
    /// objects of every concrete entity and the link rows of every many-to-many relationship.
    func check(_ census: Census, thorough: Bool) throws {
        let layoutStore = try opened
        let database = layoutStore.database
        let verdict = try database.strings(thorough ? "PRAGMA integrity_check" : "PRAGMA quick_check")
        guard verdict == ["ok"] else {
            throw StoreCheckFailure(description: "\(name): the store failed SQLite's integrity check: \(verdict.prefix(3).joined(separator: "; "))")
        }
        let foreignKeys = try database.strings("PRAGMA foreign_key_check")
        guard foreignKeys.isEmpty else {
            throw StoreCheckFailure(description: "\(name): the store has \(foreignKeys.count) rows whose foreign keys point nowhere")
        }
        let held = try Census(counting: layoutStore)
        guard held == census else {
            throw StoreCheckFailure(description: "\(name) holds \(held.objects) objects per entity and \(held.links) links where \(census.objects) and \(census.links) were inserted")
        }
    }

    /// One repetition of a read case: the statements, prepared untimed, run `loops` times back to
    /// back and timed together; the sample is the mean of one execution. Every execution's answer
    /// is kept until the clock stops, then digested and checked to be the first's (so that none
    /// can be skipped or optimised away).
    func read(_ queries: [PreparedQuery], counts: Bool, ordered: Bool, pagesWithTies: Bool = false, loops: Int, caseName: String) throws -> Sample {
        let database = try opened.database
        if counts {
            var numbers = Array(repeating: [Int](), count: loops)
            for loop in 0 ..< loops { numbers[loop].reserveCapacity(queries.count) }
            database.startCountingWork()
            let elapsed = try Sample.nanoseconds {
                for loop in 0 ..< loops { for query in queries { numbers[loop].append(try database.number(query)) } }
            }
            let work = database.stopCountingWork().perExecution(of: loops)
            guard numbers.allSatisfy({ $0 == numbers[0] }) else { throw BenchmarkFailure.unstableAnswer(strategy: name, caseName: caseName) }
            return Sample(nanoseconds: elapsed / UInt64(loops), rows: numbers[0].count, digest: AnswerDigest(.ordered, of: numbers[0]), work: work)
        }
        var answers = Array(repeating: [ModelObject](), count: loops)
        database.startCountingWork()
        let elapsed = try Sample.nanoseconds {
            for loop in 0 ..< loops { for query in queries { answers[loop] += try database.objects(query) } }
        }
        let work = database.stopCountingWork().perExecution(of: loops)
        let digests = answers.map { AnswerDigest(ordered ? .ordered : .unordered, of: $0) }
        guard digests.allSatisfy({ $0 == digests[0] }) else { throw BenchmarkFailure.unstableAnswer(strategy: name, caseName: caseName) }
        return Sample(nanoseconds: elapsed / UInt64(loops), rows: answers[0].count, digest: digests[0], digestIsFull: !pagesWithTies, work: work)
    }

    /// The answer to each of `requests` without its limit and offset, as a set of objects, after
    /// checking that the page the request reads is of it: only its objects, as many as the limit
    /// and offset leave, and with a sort the sort values its order puts there, whichever of the
    /// tied objects it took (a layout that pages wrongly fails here, before any timing).
    func checkPages(_ requests: [FetchRequest], caseName: String) throws -> [AnswerDigest] {
        let layoutStore = try opened, database = layoutStore.database
        return try requests.map { request in
            var whole = request
            (whole.limit, whole.offset) = (nil, nil)
            let answer = try database.objects(try layoutStore.layout.readQuery(whole))
            let page = try database.objects(try layoutStore.layout.readQuery(request))
            let keys = Set(answer.map(\.id)), start = min(answer.count, request.offset ?? 0), expected = min(request.limit ?? Int.max, answer.count - start)
            // Sorted, the page holds the sort values of the whole answer's slice, whichever of the tied objects it took.
            let sorted = !request.sort.isEmpty, slice = answer[start ..< start + expected]
            guard page.count == expected, page.allSatisfy({ keys.contains($0.id) }), Set(page.map(\.id)).count == page.count,
                  try !sorted || Self.sameSortValues(try sortValues(page, request, layoutStore), try sortValues(slice, request, layoutStore), request.sort) else {
                throw StoreCheckFailure(description: "\(name) pages \(caseName) wrongly: \(page.count) objects where its answer of \(answer.count) leaves \(expected), "
                    + "objects not in that answer, or not the slice its order puts there; the run stopped because the numbers would not compare like with like")
            }
            return AnswerDigest(.unordered, of: answer)
        }
    }

    /// Whether two lists of sort values hold the same tuples, as the sort keys compare them (a
    /// comparator's collation may make different strings equal).
    static func sameSortValues(_ values: [[Value]], _ others: [[Value]], _ keys: [SortKey]) -> Bool {
        let before = { (a: [Value], b: [Value]) in keys.order(a, b) == .orderedAscending }
        guard values.count == others.count else { return false }
        return zip(values.sorted(by: before), others.sorted(by: before)).allSatisfy { keys.order($0, $1) == .orderedSame }
    }

    /// Each object's values of the request's sort keys; a key path's (`author.name`) read from the object its to-ones reach, NULL where a
    /// step is nil. Objects a fetch read in part (IDs, properties) and those reached are read whole by their ID.
    private func sortValues(_ objects: some Collection<ModelObject>, _ request: FetchRequest, _ layoutStore: LayoutStore) throws -> [[Value]] {
        let model = layout.model
        var read: [ObjectID: ModelObject] = [:]
        func whole(_ id: ObjectID, _ via: String) throws -> ModelObject {
            if read[id] == nil { read[id] = try layoutStore.database.objects(try layoutStore.layout.readQuery(.fault(id))).first }
            guard let object = read[id] else { throw StoreCheckFailure(description: "\(self.name) has no object \(id) \(via) names") }
            return object
        }
        func value(_ object: ModelObject, _ path: String) throws -> Value {
            var object = request.mode == .plain ? object : try whole(object.id, "its page")
            let names = path.split(separator: ".").map(String.init)
            for name in names.dropLast() {
                guard let position = model.entities[object.id.entity].toOneRelationships.firstIndex(where: { $0.name == name }), let id = object.toOne[position] else { return .null }
                object = try whole(id, "its to-one '\(name)'")
            }
            return model.entities[object.id.entity].attributeIndex(names[names.count - 1]).map { object.values[$0] } ?? .null
        }
        return try objects.map { object in try request.sort.map { try value(object, $0.attribute) } }
    }

    func queries(_ workloadCase: WorkloadCase) throws -> [PreparedQuery] {
        let layoutStore = try opened
        return try workloadCase.requests.map { try layoutStore.layout.query($0, counts: workloadCase.counts) }
    }
}

/// A failed check of a store's contents.
public struct StoreCheckFailure: Error, CustomStringConvertible {
    public let description: String
}

/// One timed repetition: its duration and its (untimed) answer digest.
package struct Sample {
    package var nanoseconds: UInt64
    package var rows: Int
    package var digest: AnswerDigest
    /// Whether `digest` covers every field of the answer (false: it stands for the counts only).
    package var digestIsFull = true
    /// The work SQLite did for one execution (counted around the timed region, at no cost to it).
    package var work: WorkCounts?

    package init(nanoseconds: UInt64, rows: Int, digest: AnswerDigest, digestIsFull: Bool = true, work: WorkCounts? = nil) {
        self.nanoseconds = nanoseconds; self.rows = rows; self.digest = digest; self.digestIsFull = digestIsFull; self.work = work
    }

    package static func nanoseconds(_ body: () throws -> Void) throws -> UInt64 {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return DispatchTime.now().uptimeNanoseconds - start
    }
}

package func fileSize(_ path: String) -> Int64 {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
}
