import Foundation
import Generation
import Models

extension FetchSpec {
    /// The longest fetch read, in characters.
    public static let maximumLength = 65_536
    /// The deepest nesting of parentheses and NOTs read.
    public static let maximumDepth = 32
    /// The most comparisons of a fetch, terms of one AND or OR, and values of one IN (SQLite's
    /// expression depth and variables stay well within their limits).
    public static let maximumTerms = 500
    /// The most relationships one key path goes through, and the most joins a fetch's key paths make.
    public static let maximumSteps = 8
    public static let maximumJoins = 24

    /// Reads `text` against `model`. Every mistake is one `FetchFormatError` line with a caret at
    /// its column: an unknown entity or key, a literal of the wrong type, unbalanced quotes or
    /// parentheses, a form the suite does not run yet.
    ///
    /// `stringSorts` is the comparator of a sort key on a string attribute that names none
    /// (SwiftData's `SortDescriptor` sorts a `String` `.localizedStandard` unless told); the text
    /// then names it after the key, as a fetch written so would.
    public static func parse(_ text: String, model: Model, stringSorts: SortKey.Comparator = .binary) throws -> FetchSpec {
        guard text.count <= maximumLength else { throw FetchFormatError("a fetch longer than \(maximumLength) characters", column: 1, in: String(text.prefix(40)) + "…") }
        // `name = …`: the name read here (it may hold '-'), blanked so that columns stay the text's.
        var name: String?, rest = text
        if let match = text.range(of: "^\\s*[A-Za-z][A-Za-z0-9-]*\\s*=(?!=)", options: .regularExpression) {
            let given = text[match].dropLast().trimmingCharacters(in: .whitespaces)
            guard given.range(of: "^[a-z][a-z0-9-]{0,39}$", options: .regularExpression) != nil else {
                throw FetchFormatError("the fetch's name '\(given)' must be 1 to 40 lower-case letters, digits and '-', starting with a letter", column: 1, in: text)
            }
            name = given
            rest = String(repeating: " ", count: text[match].count) + text[match.upperBound...]
        }
        var parser = FetchParser(text: text, tokens: try FetchTokenizer.tokens(rest), model: model)
        parser.stringSorts = stringSorts
        var spec = try parser.spec()
        spec.name = name
        // The comparators given by default, written after their keys (from the last, so that the columns hold).
        for column in parser.defaultedSorts.reversed() {
            let index = spec.text.index(spec.text.startIndex, offsetBy: column)
            spec.text.insert(contentsOf: " " + stringSorts.rawValue, at: index)
        }
        return spec
    }
}

/// Recursive descent over a fetch's tokens.
struct FetchParser {
    let text: String
    let tokens: [FetchToken]
    let model: Model
    var position = 0
    var entity = 0
    var depth = 0
    var comparisons = 0
    /// The relationship steps the key paths compared go through (`author`, `author.publisher`): a join each.
    var joinedSteps = Set<String>()
    /// Whether the comparison being read follows ANY (its key path may go through a to-many).
    var inAny = false
    /// The SUBQUERY whose predicate is being read: its variable (`$x`) and its to-many relationship.
    var subquery: (variable: String, relationship: String)?
    /// The comparator of a string sort key that names none, and where such keys end in the text (0-based).
    var stringSorts = SortKey.Comparator.binary
    var defaultedSorts: [Int] = []

    var current: FetchToken { tokens[position] }

    func failure(_ problem: String, _ token: FetchToken? = nil) -> FetchFormatError {
        FetchFormatError(problem, column: (token ?? current).column, in: text)
    }

    mutating func advance() -> FetchToken {
        let token = current
        if position < tokens.count - 1 { position += 1 }
        return token
    }

    func isSymbol(_ symbol: String) -> Bool { current.kind == .symbol(symbol) }
    func isKeyword(_ keyword: String) -> Bool { current.keyword == keyword }

    mutating func spec() throws -> FetchSpec {
        // `COUNT Entity …`, `IDS Entity …`: a count request, object IDs (an entity named Count or
        // Ids is one when a keyword or the end follows).
        var counts = false, ids = false
        // A keyword before an entity's name, or before a word that is not a clause's (an entity of another name is refused by name).
        let clauses = ["WHERE", "SORT", "LIMIT", "OFFSET", "PROPERTIES", "GROUP", "BATCH", "PREFETCH"]
        func beforeEntity() -> Bool {
            guard case let .word(next) = tokens[min(position + 1, tokens.count - 1)].kind else { return false }
            return model.index(of: next) != nil || !clauses.contains(next.uppercased())
        }
        if isKeyword("COUNT") || isKeyword("IDS"), beforeEntity() {
            (counts, ids) = (current.keyword == "COUNT", current.keyword == "IDS")
            _ = advance()
        }
        // `ONLY Entity`: `includesSubentities = NO` (as SQL's `FROM ONLY` of an inherited table).
        var only = false
        if isKeyword("ONLY"), beforeEntity() {
            only = true
            _ = advance()
        }
        guard case let .word(entityName) = current.kind else { throw failure("a fetch starts with the entity to fetch (\(entityList()))") }
        guard let index = model.index(of: entityName) else { throw failure("unknown entity '\(entityName)'; \(entityList())") }
        entity = index
        _ = advance()
        var spec = FetchSpec(name: nil, text: text, entity: index, predicate: .all, sort: [], limit: nil, offset: nil, counts: counts, properties: ids ? [] : nil)
        spec.includesSubentities = !only
        if isKeyword("PROPERTIES") {
            let token = advance()
            guard !counts, !ids else { throw failure("a \(counts ? "COUNT" : "fetch of IDS") takes no PROPERTIES", token) }
            let (names, dictionary) = try properties()
            (spec.properties, spec.dictionary) = (dictionary == nil ? names : nil, dictionary)
        }
        if isKeyword("WHERE") {
            _ = advance()
            spec.predicate = try disjunction()
        }
        if isKeyword("GROUP") { try grouping(&spec) }
        if isKeyword("HAVING") { throw failure("HAVING follows GROUP BY (Core Data refuses it alone)") }
        if let dictionary = spec.dictionary, dictionary.groupBy.isEmpty, let key = dictionary.items.first(where: { if case .key = $0 { !dictionary.distinct } else { false } }) {
            throw failure("'\(key.key)' is fetched beside aggregates: group by it (GROUP BY \(key.key)), or fetch aggregates alone", tokens.first { $0.kind == .word(key.key) })
        }
        if isKeyword("SORT") {
            _ = advance()
            guard isKeyword("BY") else { throw failure("SORT is followed by BY") }
            _ = advance()
            spec.sort = try sortKeys()
        }
        try pageAndBatches(&spec)
        guard current.kind == .end else {
            throw failure(spec.predicate == .all && !isKeyword("WHERE") ? "expected PROPERTIES, WHERE, SORT BY, LIMIT or OFFSET after the entity"
                : "expected the end of the fetch (or SORT BY, LIMIT, OFFSET, BATCH or PREFETCH in that order)")
        }
        if counts, !spec.sort.isEmpty || spec.limit != nil || spec.offset != nil {
            throw FetchFormatError("a COUNT takes no SORT BY, LIMIT or OFFSET (it counts every object the predicate selects)", column: 1, in: text)
        }
        try checkBoundValues(spec)
        try checkDictionary(spec)
        return spec
    }

    /// `LIMIT n`, `OFFSET n`, then `BATCH n [READ m]` (`fetchBatchSize`: the ID pass, then the
    /// objects by batches of n, m of them or every one), each a whole number, or `PREFETCH`.
    mutating func pageAndBatches(_ spec: inout FetchSpec) throws {
        func number(_ keyword: String, least: Int) throws -> Int {
            _ = advance()
            guard case let .number(digits) = current.kind, let value = Int(digits), value >= least, value <= 1_000_000_000 else {
                throw failure("\(keyword) takes a whole number from \(least) to 1000000000")
            }
            _ = advance()
            return value
        }
        if isKeyword("LIMIT") { spec.limit = try number("LIMIT", least: 0) }
        if isKeyword("OFFSET") { spec.offset = try number("OFFSET", least: 0) }
        if isKeyword("PREFETCH") { return try prefetch(&spec) }
        guard isKeyword("BATCH") else { return }
        let token = current
        guard !spec.counts, spec.properties == nil, spec.dictionary == nil else {
            throw failure("BATCH faults objects in by batches; a \(spec.counts ? "COUNT" : spec.properties == [] ? "fetch of IDS" : "fetch of PROPERTIES") takes none", token)
        }
        let size = try number("BATCH", least: 1)
        let read = current
        spec.batch = (size, isKeyword("READ") ? try number("READ", least: 1) : nil)
        if spec.batch?.read != nil, !spec.isTotallyOrdered(model) {
            throw failure("READ takes the first objects of the order: it needs SORT BY ending with a unique attribute every object has, so that every layout reads the same ones", read)
        }
    }

    /// `PREFETCH tags, notes`: to-many relationships of the fetched entity with an inverse (not
    /// their own), each once; of a fetch of whole objects.
    mutating func prefetch(_ spec: inout FetchSpec) throws {
        let token = advance()
        guard !spec.counts, spec.properties == nil, spec.dictionary == nil else {
            throw failure("PREFETCH reads the objects' relationships; a \(spec.counts ? "COUNT" : spec.properties == [] ? "fetch of IDS" : "fetch of PROPERTIES") takes none", token)
        }
        var names: [String] = []
        repeat {
            if isSymbol(",") { _ = advance() }
            let token = current
            guard case let .word(name) = token.kind else { throw failure("PREFETCH names the to-many relationships to prefetch") }
            let owner = model.entities[spec.entity]
            guard let relationship = owner.relationship(name) else { throw failure("'\(name)' is not a relationship of \(owner.name)", token) }
            guard relationship.toMany, let inverse = model.inverse(of: relationship), inverse.owner != relationship.owner || inverse.name != name else {
                throw failure("PREFETCH reads a to-many relationship with an inverse (not its own), and '\(name)' is not one", token)
            }
            guard !names.contains(name) else { throw failure("'\(name)' is prefetched twice", token) }
            names.append(name)
            _ = advance()
        } while isSymbol(",")
        if spec.limit != nil || spec.offset != nil, !spec.isTotallyOrdered(model) {
            throw failure("PREFETCH after LIMIT or OFFSET needs SORT BY ending with a unique attribute every object has, so that every layout prefetches for the same objects", token)
        }
        spec.prefetch = names
    }

    func entityList() -> String {
        let names = model.entities.map(\.name)
        return "the model's entities: " + names.prefix(12).joined(separator: ", ") + (names.count > 12 ? ", …" : "")
    }

    mutating func sortKeys() throws -> [SortKey] {
        var keys: [SortKey] = []
        repeat {
            if isSymbol(",") { _ = advance() }
            let token = current
            let (name, attribute) = try attributeName()
            // A comparator (`title localizedStandard`): of strings only.
            var comparator = SortKey.Comparator.binary, isString = attribute.type.storage == .text
            if let word = current.keyword, let named = SortKey.Comparator.allCases.first(where: { $0.rawValue.uppercased() == word }) {
                guard isString else { throw failure("a comparator (\(named.rawValue)) orders strings, and '\(name)' is not a string") }
                comparator = named
                _ = advance()
            } else if isString, stringSorts != .binary {
                comparator = stringSorts
                defaultedSorts.append(token.column - 1 + name.count)
            }
            var ascending = true
            if isKeyword("ASC") || isKeyword("DESC") { ascending = advance().keyword == "ASC" }
            guard !keys.contains(where: { $0.attribute == name }) else { throw failure("'\(name)' is sorted by twice", token) }
            keys.append(SortKey(name, ascending: ascending, comparator: comparator))
        } while isSymbol(",")
        return keys
    }

    /// A sort key: an attribute of the fetched entity, or at the end of a key path through to-ones (`author.name`).
    mutating func attributeName() throws -> (String, Attribute) {
        let token = current
        let key = try keyPath()
        guard let attribute = key.attribute else {
            let what = key.name == FetchPredicate.selfKey ? "the object itself" : key.name.hasSuffix(".@count") ? "a count" : "a relationship"
            throw failure("'\(key.name)' is \(what); sort by an attribute (of \(model.entities[entity].name), or through its to-ones: author.name)", token)
        }
        try countJoins(key.name, token)
        return (key.name, attribute)
    }

    /// A key the predicate compares: an attribute or to-one relationship of the fetched entity,
    /// `self`, or a key path through to-one relationships (`author.name`), each name checked in
    /// turn; its attribute, nil for an object (a to-one's destination, or `self`).
    mutating func keyPath() throws -> (name: String, attribute: Attribute?) {
        let token = current
        guard case var .word(name) = token.kind else { throw failure("expected an attribute of \(model.entities[entity].name)") }
        if let subquery {
            // `$x.name` is `relationship.name`.
            guard name.hasPrefix(subquery.variable + ".") else {
                throw failure(name == subquery.variable ? "\(name) itself is not yet compared; compare its keys (\(name).name == …)"
                    : "inside SUBQUERY(\(subquery.relationship), \(subquery.variable), …) keys are written through \(subquery.variable) (\(subquery.variable).name), not '\(name)'", token)
            }
            name = subquery.relationship + name.dropFirst(subquery.variable.count)
        }
        if name == FetchPredicate.entityKey, subquery == nil, model.entities[entity].attribute(name) == nil, model.entities[entity].relationship(name) == nil {
            _ = advance()
            return (name, nil)
        }
        if name.uppercased() == "SELF" {
            _ = advance()
            return (FetchPredicate.selfKey, nil)
        }
        if name.hasSuffix(".@count"), subquery != nil { throw failure("@count inside a SUBQUERY is not yet a form the suite runs", token) }
        if name.hasSuffix(".@count") {
            let counted = String(name.dropLast(".@count".count)), info = model.entities[entity]
            guard let relationship = info.relationship(counted), relationship.toMany, !relationship.isHidden else {
                throw failure("@count counts the objects of a to-many relationship of \(info.name), and '\(counted)' is not one", token)
            }
            _ = advance()
            return (name, nil)
        }
        var reached = model.entities[entity], steps = 0
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        for (index, part) in parts.enumerated() {
            let last = index == parts.count - 1
            if let relationship = reached.relationship(part), !relationship.isHidden {
                guard !relationship.toMany || (inAny && !last) || (subquery != nil && index == 0 && !last) else {
                    throw failure(inAny ? "'\(part)' is a to-many relationship of \(reached.name); ANY compares a property of its objects (ANY \(name).name == …), not the objects themselves yet"
                        : "'\(part)' is a to-many relationship of \(reached.name); compare through it with ANY (ANY \(name)… == …), or count it (\(part).@count)", token)
                }
                if last { break }
                reached = model.entities[relationship.destination]
                steps += 1
                guard steps <= FetchSpec.maximumSteps else { throw failure("a key path of more than \(FetchSpec.maximumSteps) relationships", token) }
                continue
            }
            if !last, reached.attribute(part) != nil {
                throw failure("'\(part)' is an attribute of \(reached.name); a key path goes on through to-one relationships only", token)
            }
            guard reached.attribute(part) != nil else {
                let names = reached.attributes.map(\.name) + reached.relationships.filter { !$0.isHidden }.map(\.name)
                throw failure("unknown key '\(part)' of \(reached.name); its keys: " + names.prefix(16).joined(separator: ", ") + (names.count > 16 ? ", …" : ""), token)
            }
        }
        guard let path = model.keyPath(name, from: entity, throughToMany: inAny || subquery != nil) else { throw failure("unknown key path '\(name)'", token) }
        _ = advance()
        return (name, path.isToOne ? nil : model.entities[path.entity].attribute(path.name))
    }
}

extension FetchSpec {
    /// Whether the sort is a total order: its last key a unique attribute every object has, so
    /// that no two objects tie and every layout returns them in one order.
    public func isTotallyOrdered(_ model: Model) -> Bool {
        // A dictionary fetch's rows are unique by their keys (each group's, each distinct combination).
        if let dictionary {
            let keys = dictionary.distinct ? dictionary.items.map(\.key) : dictionary.groupBy
            return Set(sort.map(\.attribute)) == Set(keys) && sort.allSatisfy { $0.comparator == .binary }
        }
        let info = model.entities[entity]
        guard let last = sort.last, let position = info.attributeIndex(last.attribute) else { return false }
        return Self.breaksTies(info.attributes[position], model, info, position)
    }

    static func breaksTies(_ attribute: Attribute, _ model: Model, _ info: Model.Entity, _ position: Int) -> Bool {
        !attribute.optional && model.isUnique(attribute.name, of: info.attributeOwners[position])
    }
}

extension FetchParser {
    /// SQLite binds at most 32,766 values a statement, and a layout that reads an entity's objects
    /// from one table per concrete entity binds the predicate's values once per table.
    func checkBoundValues(_ spec: FetchSpec) throws {
        let values = spec.predicate.boundValues, tables = max(1, model.concreteEntities(in: model.entities[spec.entity].subtree).count)
        guard values * tables <= 32_766 else {
            throw FetchFormatError("a fetch binding \(values) values, once for each of the \(tables) concrete entities it reads, past SQLite's 32766", column: 1, in: text)
        }
    }
}

extension FetchTemplate {
    /// The values a statement of it binds.
    var boundValues: Int {
        switch self {
        case .all, .isNil, .compareKeys: 0
        case .compare, .string, .countOf, .stringCompare, .holds: 1
        case .between, .bitwise: 2
        case let .among(_, operands): operands.count
        case .amongDrawn: FetchSpec.listLength
        case let .and(parts), let .or(parts): parts.reduce(0) { $0 + $1.boundValues }
        case let .not(part), let .any(part): part.boundValues
        case let .subquery(_, part, _, _): part.boundValues + 1
        }
    }
}
