import FetchRequests
import Generation
import Models

/// A log's reads as the fetches an app made (`LogFetch`), each distinct fetch once with how many
/// statements of the log it stands for: an ID pass and the batches after it are one batched fetch
/// (`BATCH n READ m`, its batch size and the objects the batches read). Every fetch is read back by
/// the fetch format against the model (`FetchSpec.parse`). What is not replayed is kept with its
/// lines and why.
public struct LogFetches: Sendable {
    public struct Fetch: Sendable {
        /// The fetch in the fetch format, every bound value a `%@`.
        public let text: String
        public let spec: FetchSpec
        /// The line of its first statement.
        public let line: Int
        /// What it is, for a table by kind: a batched fetch, a fetch with prefetches, or its
        /// first statement's kind (fetch, fault, to-many fault, count, dictionary fetch, ID pass).
        public let kind: String
        /// How many times the log makes it, and the statements they took.
        public internal(set) var count = 0
        public internal(set) var statements = 0
        /// The device's logged time of those statements, where logged, and how many were.
        public internal(set) var loggedSeconds = 0.0
        public internal(set) var timed = 0
        /// The first statement (`SQLText.squeezed`) and bound values of its first occurrences
        /// that have values (`keptValues` at most; level 2 and above): the app's own data, used to
        /// replay the fetch and never printed.
        public internal(set) var logged: [(sql: String, values: [Value])] = []
        /// The rows its first statement returned, summed over the occurrences whose rows the log
        /// gives (a count's number; an ID pass's keys), and how many those are.
        public internal(set) var loggedRows = 0.0
        public internal(set) var rowsLogged = 0

        /// The rows the log says it returns, on average; nil when the log gives none.
        public var typicalRows: Double? { rowsLogged > 0 ? loggedRows / Double(rowsLogged) : nil }
    }

    /// The occurrences of a fetch whose values are kept.
    public static let keptValues = 10

    public let schema: LogSchema
    /// Distinct fetches in the order the log first makes them.
    public private(set) var fetches: [Fetch] = []
    /// Statements not replayed, by why, each with its line.
    public private(set) var notReplayed: [String: LineList] = [:]
    /// Each time the log makes a fetch, in the log's order: its first line and the fetch (its
    /// position in `fetches`); the first `LogSession.longest`.
    public private(set) var occurrences: [LogSession.Occurrence] = []
    private var index: [String: Int] = [:]
    private var ordered: [String: Bool] = [:]
    /// The last ID pass, waiting for its batches (which Core Data reads as the app scrolls, other
    /// statements between them) until the next ID pass.
    private var pending: (line: Int, body: String, root: Int, statements: [LoggedStatement], batches: [(limit: Int?, rows: Int?)], slot: Int?)?

    /// The last fetch, waiting for the prefetches Core Data runs right after it (each statement
    /// annotated `Prefetching with key 'k'`) until the next statement of another kind.
    private var prefetching: (text: String, line: Int, statements: [LoggedStatement], keys: [String], slot: Int?)?

    public init(schema: LogSchema) { self.schema = schema }

    public var notReplayedCount: Int { notReplayed.values.reduce(0) { $0 + $1.count } }

    /// Reads a statement the log understood as `kind`.
    public mutating func add(_ statement: LoggedStatement, kind: StatementKind) {
        guard kind.isReplayed, !LogSaves.isSave(kind) else { return }
        if kind == .prefetch { return addPrefetch(statement) }
        finishPrefetching()
        switch LogFetch.read(statement, kind: kind, schema: schema) {
        case let .success(.batch(entity, limit)):
            guard let waiting = pending else { return skip(statement, "a batch with no ID pass before it") }
            guard schema.model.entities[waiting.root].subtree.contains(entity) else { return skip(statement, "a batch of another hierarchy than the ID pass before it") }
            guard limit != nil || statement.rows != nil else { return skip(statement, "a batch whose size the log leaves out (no LIMIT written or bound, no rows logged)") }
            pending?.statements.append(statement)
            pending?.batches.append((limit, statement.rows))
        case let .success(.ids(body, root)):
            finishPending()
            pending = (statement.line, body, root, [statement], [], reserveSlot(statement.line))
        case let .success(.fetch(text)):
            prefetching = (text, statement.line, [statement], [], reserveSlot(statement.line))
        case let .failure(reason):
            skip(statement, reason.description)
        }
    }

    /// Ends the log: an ID pass still waiting is a fetch of IDs, or a batched fetch; the fetches
    /// in the order the log first makes them.
    public mutating func finish() {
        finishPrefetching()
        finishPending()
        // In the order the log first makes them; each occurrence follows its fetch.
        let order = fetches.indices.sorted { fetches[$0].line < fetches[$1].line }
        var position = Array(repeating: 0, count: fetches.count)
        for (new, old) in order.enumerated() { position[old] = new }
        fetches = order.map { fetches[$0] }
        // A slot whose fetch was not replayed stays empty (-1).
        occurrences = occurrences.filter { $0.index >= 0 }.map { LogSession.Occurrence(line: $0.line, index: position[$0.index]) }.sorted { $0.line < $1.line }
        index = [:]
    }

    /// A prefetch of the fetch just read: its relationship's destinations by the objects' keys.
    private mutating func addPrefetch(_ statement: LoggedStatement) {
        guard let key = statement.prefetchKey, let waiting = prefetching else { return skip(statement, "a prefetch with no fetch right before it") }
        guard !waiting.keys.contains(key) else { return skip(statement, "a second prefetch of one relationship by one fetch") }
        prefetching?.statements.append(statement)
        prefetching?.keys.append(key)
    }

    /// Records the fetch waiting for prefetches, with them (`PREFETCH k, …`) when the fetch
    /// format takes them and each prefetch reads its relationship's destinations; else the fetch
    /// alone, each prefetch named with why. The fetch's own logged total holds its prefetches'.
    private mutating func finishPrefetching() {
        guard let waiting = prefetching else { return }
        prefetching = nil
        guard !waiting.keys.isEmpty else { return record(waiting.text, line: waiting.line, waiting.statements, slot: waiting.slot) }
        let text = waiting.text + " PREFETCH " + waiting.keys.joined(separator: ", ")
        let problem: String?
        do {
            let spec = try FetchSpec.parse(text, model: schema.model)
            let model = schema.model, owner = model.entities[spec.entity]
            let strays = zip(waiting.keys, waiting.statements.dropFirst()).filter { key, statement in
                guard let destination = owner.relationship(key)?.destination else { return true }
                return !schema.entities(of: statement).contains { model.entities[destination].subtree.contains($0) || model.entities[$0].subtree.contains(destination) }
            }
            problem = strays.isEmpty ? nil : "a prefetch whose statement reads another entity than its relationship's destination"
        } catch {
            problem = "read as '\(text)', which the fetch format refuses: \(error)"
        }
        guard let problem else { return record(text, line: waiting.line, waiting.statements, slot: waiting.slot, timing: .enclosing) }
        // The fetch's logged total holds the prefetches', which are not replayed: it is not its own time.
        record(waiting.text, line: waiting.line, [waiting.statements[0]], slot: waiting.slot, timing: .none)
        for statement in waiting.statements.dropFirst() { skip(statement, problem) }
    }

    private mutating func finishPending() {
        guard let waiting = pending else { return }
        pending = nil
        guard let first = waiting.batches.first else { return record("IDS " + waiting.body, line: waiting.line, waiting.statements, slot: waiting.slot) }
        let size = first.limit ?? first.rows ?? 1
        let read = waiting.batches.reduce(0) { $0.addingSaturated($1.rows ?? $1.limit ?? size) }
        // Which objects the batches read is the order's: among ties it differs by layout.
        if !totallyOrdered(waiting.body) {
            for statement in waiting.statements {
                skip(statement, "a batched fetch whose order has ties (its sort does not end with a unique attribute): which objects its batches read differs by layout")
            }
            return
        }
        record(waiting.body + " BATCH \(max(1, size)) READ \(max(1, read))", line: waiting.line, waiting.statements, slot: waiting.slot)
    }

    /// Whether a fetch's order has no ties (its sort ends with a unique attribute), by its text.
    private mutating func totallyOrdered(_ body: String) -> Bool {
        if let known = ordered[body] { return known }
        let answer = (try? FetchSpec.parse(body, model: schema.model)).map { $0.isTotallyOrdered(schema.model) } ?? true
        ordered[body] = answer
        return answer
    }

    /// Whose logged time is a fetch's: each statement's, the first's alone (a fetch's total holds
    /// its prefetches'), or none that is its own.
    private enum Timing { case each, enclosing, none }

    /// A place in `occurrences` for a fetch starting at `line`, taken when the fetch starts (it is
    /// recorded when the statements after it are read), while there is room.
    private mutating func reserveSlot(_ line: Int) -> Int? {
        guard occurrences.count < LogSession.longest else { return nil }
        occurrences.append(LogSession.Occurrence(line: line, index: -1))
        return occurrences.count - 1
    }

    private mutating func record(_ text: String, line: Int, _ statements: [LoggedStatement], slot: Int?, timing: Timing = .each) {
        if index[text] == nil {
            do {
                let spec = try FetchSpec.parse(text, model: schema.model)
                let told = (try? statements.first?.kind().get())?.rawValue ?? StatementKind.fetch.rawValue
                fetches.append(Fetch(text: text, spec: spec, line: line, kind: spec.batch != nil ? "batched fetch" : spec.prefetch != nil ? "fetch with prefetches" : told))
            } catch {
                for statement in statements { skip(statement, "read as '\(text)', which the fetch format refuses: \(error)") }
                return
            }
            index[text] = fetches.count - 1
        }
        guard let position = index[text] else { return }
        if let slot { occurrences[slot] = LogSession.Occurrence(line: line, index: position) }
        fetches[position].count += 1
        fetches[position].statements += statements.count
        if let rows = statements.first?.rows {
            fetches[position].loggedRows += Double(rows)
            fetches[position].rowsLogged += 1
        }
        if fetches[position].logged.count < Self.keptValues, let first = statements.first, !first.values.isEmpty {
            // Every value logged, each as a store binds it (none printed in a form of its own).
            let values = first.values.compactMap { $0?.value }
            if values.count == first.values.count { fetches[position].logged.append((SQLText.squeezed(first.sql), values)) }
        }
        switch timing {
        case .none: return
        case .enclosing:
            guard let seconds = statements.first?.totalSeconds else { return }
            fetches[position].loggedSeconds += seconds
            fetches[position].timed += statements.count
            return
        case .each: break
        }
        for statement in statements {
            guard let seconds = statement.loggedSeconds else { continue }
            fetches[position].loggedSeconds += seconds
            fetches[position].timed += 1
        }
    }

    private mutating func skip(_ statement: LoggedStatement, _ why: String) {
        notReplayed[why, default: LineList()].append(statement.line)
    }
}
