import Generation
import Models

/// A dictionary fetch's clauses: `PROPERTIES [DISTINCT] item, …` (an item an attribute, or an
/// aggregate in NSExpression's format, `count:(title)`, `sum:(pageCount) AS pages`), `GROUP BY key,
/// …` and `HAVING $name <op> n` (an aggregate's name, compared with a number).
extension FetchParser {
    /// `PROPERTIES`'s list after the keyword: plain attributes (a partial fetch of objects, nil
    /// returned beside them), or the items of a dictionary fetch.
    mutating func properties() throws -> (names: [String], dictionary: DictionaryFetch?) {
        let distinct = isKeyword("DISTINCT")
        if distinct { _ = advance() }
        var items: [DictionaryFetch.Item] = []
        repeat {
            if isSymbol(",") { _ = advance() }
            guard items.count < FetchSpec.maximumTerms else { throw failure("more than \(FetchSpec.maximumTerms) properties") }
            let item = try propertyItem(number: items.count)
            guard !items.contains(item) else { throw failure("'\(item.key)' is fetched twice", tokens[position - 1]) }
            if case let .aggregate(_, _, name) = item, items.contains(where: { if case .aggregate(_, _, name) = $0 { true } else { false } }) {
                throw failure("two aggregates are named '\(name)'; name each with AS", tokens[position - 1])
            }
            items.append(item)
        } while isSymbol(",")
        let aggregates = items.contains { if case .aggregate = $0 { true } else { false } }
        if distinct, aggregates { throw failure("DISTINCT fetches keys' values, not aggregates (Core Data ignores it beside them)") }
        guard distinct || aggregates else { return (items.map(\.key), nil) }
        return ([], DictionaryFetch(items: items, distinct: distinct))
    }

    /// An attribute of the fetched entity, or `function:(attribute) [AS name]`.
    private mutating func propertyItem(number: Int) throws -> DictionaryFetch.Item {
        let token = current
        let info = model.entities[entity]
        guard case let .word(word) = token.kind else { throw failure("expected an attribute of \(info.name), or an aggregate such as count:(\(info.attributes.first?.name ?? "name"))") }
        guard tokens[min(position + 1, tokens.count - 1)].kind == .symbol(":") else {
            guard info.attribute(word) != nil else {
                throw failure("PROPERTIES names attributes of \(info.name) (its own and inherited: " + info.attributes.prefix(12).map(\.name).joined(separator: ", ")
                    + (info.attributes.count > 12 ? ", …" : "") + ")", token)
            }
            _ = advance()
            return .key(word)
        }
        guard let function = DictionaryFetch.Function(rawValue: word) else {
            throw failure("'\(word):' is not an aggregate Core Data runs in SQLite (count:, sum:, average:, min:, max:)", token)
        }
        position += 2
        guard isSymbol("(") else { throw failure("expected '(' and an attribute after '\(word):'") }
        _ = advance()
        let argument = current
        guard case let .word(name) = argument.kind, let attribute = info.attribute(name) else {
            throw failure("\(word):(…) takes an attribute of \(info.name)", argument)
        }
        _ = advance()
        guard isSymbol(")") else { throw failure("expected ')' after '\(name)'") }
        _ = advance()
        let numeric = [.integer, .real].contains(attribute.type.storage) && attribute.type != .date
        if [.sum, .average].contains(function), !numeric { throw failure("\(word):(…) adds numbers, and '\(name)' is not a number", argument) }
        // SQLite adds a column's reals in the order each layout reads its rows, and a double's rounding follows the order.
        if [.sum, .average].contains(function), attribute.type.storage == .real {
            throw failure("\(word):(…) of '\(name)', a real number, is not yet compared between layouts: SQLite adds the rows in each layout's order, and the last digits of the sum follow it", argument)
        }
        if [.min, .max].contains(function), attribute.type.storage == .blob { throw failure("\(word):(…) orders values, and '\(name)' is binary", argument) }
        var label = "\(word)\(number)"
        if isKeyword("AS") {
            _ = advance()
            guard case let .word(given) = current.kind, !given.contains(".") else { throw failure("expected a name after AS") }
            label = given
            _ = advance()
        }
        return .aggregate(function, name, name: label)
    }

    /// `GROUP BY key, …` (attributes of the fetched entity; every plain item of PROPERTIES among them) and
    /// `HAVING …`, checked against the fetch's items.
    mutating func grouping(_ spec: inout FetchSpec) throws {
        let token = current
        _ = advance()
        guard isKeyword("BY") else { throw failure("GROUP is followed by BY") }
        _ = advance()
        guard var dictionary = spec.dictionary else { throw failure("GROUP BY groups a fetch of aggregates: PROPERTIES key, count:(key) …", token) }
        guard !dictionary.distinct else { throw failure("GROUP BY groups aggregates; a DISTINCT fetch has none", token) }
        repeat {
            if isSymbol(",") { _ = advance() }
            let key = current
            guard case let .word(name) = key.kind, model.entities[entity].attribute(name) != nil else { throw failure("GROUP BY names attributes of \(model.entities[entity].name)") }
            guard !dictionary.groupBy.contains(name) else { throw failure("'\(name)' is grouped by twice") }
            dictionary.groupBy.append(name)
            _ = advance()
        } while isSymbol(",")
        if let ungrouped = dictionary.items.first(where: { if case let .key(name) = $0 { !dictionary.groupBy.contains(name) } else { false } }) {
            throw failure("'\(ungrouped.key)' is fetched beside aggregates and not grouped by: a fetch of groups holds their keys and aggregates (Core Data refuses it)", token)
        }
        if isKeyword("HAVING") {
            _ = advance()
            dictionary.having = try having(dictionary)
        }
        spec.dictionary = dictionary
    }

    /// `$name <op> n`, ANDed, ORed, negated, parenthesised: the groups kept.
    private mutating func having(_ dictionary: DictionaryFetch) throws -> DictionaryFetch.Having {
        func part(_ parser: inout FetchParser) throws -> DictionaryFetch.Having {
            parser.depth += 1
            defer { parser.depth -= 1 }
            guard parser.depth <= FetchSpec.maximumDepth else { throw parser.failure("parentheses and NOTs nested deeper than \(FetchSpec.maximumDepth)") }
            if parser.isKeyword("NOT") || parser.isSymbol("!") {
                _ = parser.advance()
                return .not(try part(&parser))
            }
            if parser.isSymbol("(") {
                _ = parser.advance()
                let inner = try parser.having(dictionary)
                guard parser.isSymbol(")") else { throw parser.failure("expected ')'") }
                _ = parser.advance()
                return inner
            }
            let token = parser.current
            parser.comparisons += 1
            guard parser.comparisons <= FetchSpec.maximumTerms else { throw parser.failure("more than \(FetchSpec.maximumTerms) comparisons in one fetch") }
            guard case let .word(variable) = token.kind, variable.hasPrefix("$"), let aggregate = dictionary.aggregate(named: String(variable.dropFirst())) else {
                let names = dictionary.items.compactMap { if case let .aggregate(_, _, name) = $0 { "$" + name } else { nil } }
                throw parser.failure("HAVING compares the fetch's aggregates by name (\(names.joined(separator: ", ")))", token)
            }
            _ = parser.advance()
            guard case let .symbol(symbol) = parser.current.kind, let comparison = Self.comparisons[symbol] else { throw parser.failure("expected a comparison after \(variable)") }
            _ = parser.advance()
            let number = parser.advance()
            let (function, key) = aggregate
            let storage = parser.model.entities[parser.entity].attribute(key).map { $0.type == .date ? .blob : $0.type.storage }
            guard case let .number(digits) = number.kind, function == .count || [.integer, .real].contains(storage) else {
                throw parser.failure("HAVING compares a count, a sum, an average, or the least or greatest of a number, with a number", number)
            }
            if function == .count || (storage == .integer && [.min, .max].contains(function)) {
                guard let value = Int64(digits) else { throw parser.failure("\(variable) is a whole number; '\(digits)' is not one", number) }
                return .compare(String(variable.dropFirst()), comparison, .integer(value))
            }
            guard let value = Double(digits), value.isFinite else { throw parser.failure("'\(digits)' is not a number", number) }
            return .compare(String(variable.dropFirst()), comparison, .real(value))
        }
        var parts = [try conjunction(part)]
        while isKeyword("OR") || isSymbol("||") {
            _ = advance()
            parts.append(try conjunction(part))
        }
        return parts.count == 1 ? parts[0] : .or(parts)
    }

    private mutating func conjunction(_ part: (inout FetchParser) throws -> DictionaryFetch.Having) throws -> DictionaryFetch.Having {
        var parts = [try part(&self)]
        while isKeyword("AND") || isSymbol("&&") {
            _ = advance()
            parts.append(try part(&self))
            guard parts.count <= FetchSpec.maximumTerms else { throw failure("a HAVING of more than \(FetchSpec.maximumTerms) terms") }
        }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    /// A dictionary fetch's sort and page, checked: sorted by the keys of its rows only (of each
    /// group, or each distinct combination), and paged only in a total order, every such key sorted
    /// by its plain order; a predicate through a to-many only without aggregates (Core Data would
    /// count each object once per related object its join reads).
    func checkDictionary(_ spec: FetchSpec) throws {
        guard let dictionary = spec.dictionary else { return }
        let rowKeys = dictionary.distinct ? dictionary.items.map(\.key) : dictionary.groupBy
        if let key = spec.sort.first(where: { !rowKeys.contains($0.attribute) }) {
            throw FetchFormatError(rowKeys.isEmpty ? "a fetch of aggregates without GROUP BY is one row; it takes no SORT BY"
                : "'\(key.attribute)' is sorted by, and the rows are \(dictionary.distinct ? "the distinct values" : "groups") of \(rowKeys.joined(separator: ", ")): sort by those", column: 1, in: text)
        }
        if spec.limit != nil || spec.offset != nil, !spec.isTotallyOrdered(model) {
            let keys = rowKeys.isEmpty ? "its keys" : rowKeys.joined(separator: ", ")
            throw FetchFormatError("a page (LIMIT, OFFSET) of a dictionary fetch needs SORT BY every one of \(keys) in plain order, so that every layout's page is the same", column: 1, in: text)
        }
        if !dictionary.distinct, spec.predicate.reachesThroughToMany {
            throw FetchFormatError("an aggregate over a predicate through a to-many (ANY, NONE): Core Data's join would count an object once per related object it matches; "
                + "not yet a form the suite runs", column: 1, in: text)
        }
    }
}

extension FetchTemplate {
    /// Whether it compares through a to-many (`ANY`).
    var reachesThroughToMany: Bool {
        switch self {
        case .any: true
        case let .and(parts), let .or(parts): parts.contains { $0.reachesThroughToMany }
        case let .not(part): part.reachesThroughToMany
        default: false
        }
    }
}
