import Foundation
import Generation
import Models

/// NSPredicate's grammar, as far as the suite runs it: `OR` (`||`) of `AND`s (`&&`) of `NOT`s (`!`)
/// of parenthesised predicates, TRUEPREDICATE, FALSEPREDICATE, and comparisons of an attribute (of
/// the fetched entity, or through to-one relationships: `author.name`), nil tests of a to-one,
/// objects compared (`author == %@`, `self IN %@`), a to-many's count (`tags.@count > 2`):
/// `== = != <> < <= =< > >= =>`, `BETWEEN {a, b}`, `IN {a, b}` or `IN %@`, `CONTAINS`,
/// `BEGINSWITH`, `ENDSWITH`, `LIKE` with `[c]`, `[d]`, `[cd]`; keywords in any case.
extension FetchParser {
    mutating func disjunction() throws -> FetchTemplate { try chain("OR", "||", FetchTemplate.or) { try $0.conjunction() } }

    mutating func conjunction() throws -> FetchTemplate { try chain("AND", "&&", FetchTemplate.and) { try $0.negation() } }

    /// `part` (`keyword` | `symbol`) `part` …: one part as it is, several made into `make`'s compound.
    private mutating func chain(_ keyword: String, _ symbol: String, _ make: ([FetchTemplate]) -> FetchTemplate,
                                _ part: (inout FetchParser) throws -> FetchTemplate) throws -> FetchTemplate {
        var parts = [try part(&self)]
        while isKeyword(keyword) || isSymbol(symbol) {
            _ = advance()
            parts.append(try part(&self))
            guard parts.count <= FetchSpec.maximumTerms else { throw failure("an \(keyword) of more than \(FetchSpec.maximumTerms) terms") }
        }
        return parts.count == 1 ? parts[0] : make(parts)
    }

    mutating func negation() throws -> FetchTemplate {
        depth += 1
        defer { depth -= 1 }
        guard depth <= FetchSpec.maximumDepth else { throw failure("parentheses and NOTs nested deeper than \(FetchSpec.maximumDepth)") }
        if isKeyword("NOT") || isSymbol("!") {
            _ = advance()
            return .not(try negation())
        }
        // `(flags & 4) == 4`: an integer's bits, not a parenthesised predicate.
        if isSymbol("("), tokens[min(position + 2, tokens.count - 1)].kind == .symbol("&") {
            comparisons += 1
            _ = advance()
            let key = try keyPath()
            return try bitwise(key.name, key.attribute, parenthesized: true)
        }
        if isSymbol("(") {
            let open = advance()
            let inner = try disjunction()
            guard isSymbol(")") else { throw failure(current.kind == .end ? "a '(' that is not closed" : "expected ')' to close the '(' at column \(open.column)") }
            _ = advance()
            return inner
        }
        if isKeyword("TRUEPREDICATE") { _ = advance(); return .all }
        if isKeyword("FALSEPREDICATE") { _ = advance(); return .or([]) }
        return try comparison()
    }

    mutating func comparison() throws -> FetchTemplate {
        if case .symbol(")") = current.kind { throw failure("a ')' without its '('") }
        comparisons += 1
        // SQLite's parser nests a chain of ANDs and ORs as deep as it is long (1000 at most).
        guard comparisons <= FetchSpec.maximumTerms else { throw failure("more than \(FetchSpec.maximumTerms) comparisons in one fetch") }
        if isKeyword("ALL") { throw failure("ALL is not a form Core Data runs against SQLite (it refuses the fetch); NONE, or NOT ANY, may say it") }
        if isKeyword("FUNCTION") { throw failure("FUNCTION is not a form Core Data runs against SQLite (it refuses the fetch)") }
        if isKeyword("SUBQUERY") { return try subqueryCount() }
        if let subquery, ["ANY", "SOME", "NONE"].contains(current.keyword ?? "") || current.kind == .placeholder {
            let (variable, form) = (subquery.variable, current.kind == .placeholder ? "a held object" : "ANY")
            throw failure("inside SUBQUERY(\(subquery.relationship), \(variable), …) the suite compares keys of \(variable) (\(variable).name == …); \(form) is not yet a form there")
        }
        if let held = try heldObject() { return held }
        if current.kind == .placeholder, tokens[min(position + 1, tokens.count - 1)].keyword == "CONTAINS" {
            throw failure("a value containing a key (%@ CONTAINS key) is not a form Core Data runs against SQLite: it reads the value as a list (key IN %@), which a string is not")
        }
        // NONE is NOT ANY, as NSPredicate's parser reads it.
        if !inAny, isKeyword("ANY") || isKeyword("SOME") || isKeyword("NONE") {
            let none = advance().keyword == "NONE"
            inAny = true
            defer { inAny = false }
            comparisons -= 1
            let any = FetchTemplate.any(try comparison())
            return none ? .not(any) : any
        }
        let key = try keyPath()
        let name = key.name
        if !name.hasSuffix(".@count") { try countJoins(name) }
        let token = current
        if name.hasSuffix(".@count") { return try countComparison(name) }
        if isSymbol("&") { return try bitwise(name, key.attribute, parenthesized: false) }
        if case let .symbol(symbol) = token.kind, let comparison = Self.comparisons[symbol] {
            _ = advance()
            return try operatorComparison(name, key.attribute, comparison, symbol, token)
        }
        return try keywordComparison(name, key.attribute, token)
    }

    /// `key <op> …` after its operator: nil, an object, a value (with options), another key.
    mutating func operatorComparison(_ name: String, _ attribute: Attribute?, _ comparison: FetchPredicate.Comparison, _ symbol: String, _ token: FetchToken) throws -> FetchTemplate {
        if isKeyword("NIL") || isKeyword("NULL") {
            guard comparison == .equal || comparison == .notEqual else { throw failure("nil compared with \(symbol); Core Data compares nil with == and != only") }
            _ = advance()
            return .isNil(name, negated: comparison == .notEqual)
        }
        guard let attribute else { return try objectComparison(name, comparison, symbol) }
        if isSymbol("[") {
            guard attribute.type.storage == .text else { throw failure("\(symbol)[…] compares strings, and '\(name)' is not a string", token) }
            let options = try stringOptions()
            return .stringCompare(name, comparison, try operand(name, attribute), options)
        }
        if case let .word(word) = current.kind, !["YES", "NO", "TRUE", "FALSE"].contains(word.uppercased()) {
            return try keyComparison(name, attribute, comparison)
        }
        return .compare(name, comparison, try operand(name, attribute))
    }

    /// `key BETWEEN …`, `IN …`, `CONTAINS …` and the other string operators.
    mutating func keywordComparison(_ name: String, _ attribute: Attribute?, _ token: FetchToken) throws -> FetchTemplate {
        guard let attribute else {
            guard token.keyword == "IN" else { throw failure("\(objectName(name)) is compared with ==, != or IN, an object drawn with %@", token) }
            _ = advance()
            // `IN {%@, %@}`: objects drawn from the data, as many as it names (a logged fetch's list).
            if isSymbol("{") { return .among(name, try list(name, nil)) }
            guard current.kind == .placeholder else { throw failure("\(objectName(name)) is compared IN %@ (objects drawn from the data)") }
            _ = advance()
            return .amongDrawn(name)
        }
        switch token.keyword {
        case "BETWEEN":
            _ = advance()
            let bounds = try list(name, attribute)
            guard bounds.count == 2 else { throw failure("BETWEEN takes two bounds, {lower, upper}", token) }
            return .between(name, bounds[0], bounds[1])
        case "IN":
            _ = advance()
            if current.kind == .placeholder { _ = advance(); return .amongDrawn(name) }
            // `IN (%@)`, as NSPredicate reads it.
            if isSymbol("("), tokens[min(position + 1, tokens.count - 1)].kind == .placeholder, tokens[min(position + 2, tokens.count - 1)].kind == .symbol(")") {
                position += 3
                return .amongDrawn(name)
            }
            return .among(name, try list(name, attribute))
        case "CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE", "MATCHES":
            _ = advance()
            guard attribute.type.storage == .text else { throw failure("\(token.keyword ?? "") compares strings, and '\(name)' is not a string", token) }
            let op = FetchPredicate.StringOperator(rawValue: token.keyword ?? "") ?? .contains
            let options = try stringOptions()
            let value = try operand(name, attribute)
            if op == .matches, case let .value(.text(pattern)) = value, (try? NSRegularExpression(pattern: pattern)) == nil {
                throw failure("'\(pattern)' is not a regular expression MATCHES can use", tokens[position - 1])
            }
            return .string(name, op, value, options)
        default:
            throw failure("expected a comparison after '\(name)' (==, !=, <, <=, >, >=, BETWEEN, IN, CONTAINS, BEGINSWITH, ENDSWITH, LIKE, MATCHES)")
        }
    }

    /// `SUBQUERY(relationship, $x, predicate).@count <op> n`: `relationship` a to-many of the
    /// fetched entity, the predicate's keys written through `$x` and read as key paths through the
    /// relationship (`$x.name` is `relationship.name`; `$x.owner.name` goes on through a to-one).
    /// `.@count` is the one function after a SUBQUERY Core Data runs against SQLite.
    mutating func subqueryCount() throws -> FetchTemplate {
        let start = advance(), info = model.entities[entity]
        guard subquery == nil, !inAny else { throw failure("a SUBQUERY inside \(inAny ? "ANY" : "a SUBQUERY") is not yet a form the suite runs", start) }
        guard isSymbol("(") else { throw failure("expected '(' after SUBQUERY") }
        _ = advance()
        let token = advance()
        guard case let .word(name) = token.kind, let relationship = info.relationship(name), relationship.toMany, !relationship.isHidden else {
            let names = info.relationships.filter { $0.toMany && !$0.isHidden }.map(\.name)
            throw failure("a SUBQUERY goes through a to-many relationship of \(info.name) (\(names.isEmpty ? "it has none" : names.prefix(12).joined(separator: ", ")))", token)
        }
        guard isSymbol(",") else { throw failure("expected ',' and the SUBQUERY's variable ($x) after '\(name)'") }
        _ = advance()
        guard case let .word(variable) = current.kind, variable.hasPrefix("$"), !variable.contains(".") else { throw failure("expected the SUBQUERY's variable, such as $x") }
        _ = advance()
        guard isSymbol(",") else { throw failure("expected ',' and the SUBQUERY's predicate after \(variable)") }
        _ = advance()
        try countJoins(name + ".")
        subquery = (variable, name)
        let inner = try disjunction()
        subquery = nil
        guard isSymbol(")") else { throw failure(current.kind == .end ? "a SUBQUERY that is not closed" : "expected ')' to close the SUBQUERY") }
        _ = advance()
        guard isSymbol(".@count") else { throw failure("a SUBQUERY is counted (SUBQUERY(…).@count > 0): the one form of it Core Data runs against SQLite") }
        _ = advance()
        return try countComparison("SUBQUERY(…).@count") { .subquery(name, inner, $0, $1) }
    }

    /// A to-many holding an object: `tags CONTAINS %@`, `%@ IN tags`, `ANY tags == %@`; nil when
    /// the tokens are not one of those.
    mutating func heldObject() throws -> FetchTemplate? {
        func toMany(_ token: FetchToken) -> String? {
            guard case let .word(name) = token.kind, let relationship = model.entities[entity].relationship(name), relationship.toMany, !relationship.isHidden else { return nil }
            return name
        }
        let next = tokens[min(position + 1, tokens.count - 1)], after = tokens[min(position + 2, tokens.count - 1)]
        if let name = toMany(current), next.keyword == "CONTAINS" || (inAny && (next.kind == .symbol("==") || next.kind == .symbol("="))) {
            guard after.kind == .placeholder else { throw failure("'\(name)' holds objects; it is asked for one drawn with %@", after) }
            position += 3
            return .holds(name)
        }
        if current.kind == .placeholder, next.keyword == "IN", let name = toMany(after) {
            position += 3
            return .holds(name)
        }
        return nil
    }

    /// Notes the relationship steps of key path `name` (a join each) and refuses a fetch whose
    /// key paths join more than SQLite's 64 tables allow.
    mutating func countJoins(_ name: String, _ token: FetchToken? = nil) throws {
        for end in name.indices where name[end] == "." { joinedSteps.insert(String(name[..<end])) }
        guard joinedSteps.count <= FetchSpec.maximumJoins else {
            throw failure("key paths through more than \(FetchSpec.maximumJoins) different relationship steps in one fetch (SQLite joins 64 tables at most)", token)
        }
    }

    /// `key <op> other`: two keys of the object compared, both strings, numbers or dates.
    mutating func keyComparison(_ name: String, _ attribute: Attribute, _ comparison: FetchPredicate.Comparison) throws -> FetchTemplate {
        let token = current
        let other = try keyPath()
        guard let otherAttribute = other.attribute else { throw failure("'\(other.name)' is an object; a key is compared with a value or another attribute", token) }
        try countJoins(other.name, token)
        let kinds = [attribute, otherAttribute].map { $0.type == .date ? "date" : [.integer, .real].contains($0.type.storage) ? "number" : "\($0.type.storage)" }
        guard kinds[0] == kinds[1], attribute.type.storage != .blob else {
            throw failure("'\(name)' and '\(other.name)' hold different kinds of values; two keys compared must both be strings, numbers or dates", token)
        }
        return .compareKeys(name, comparison, other.name)
    }

    /// `key & mask <op> value`, or `(key & mask) <op> value`: the bits of an integer attribute.
    mutating func bitwise(_ name: String, _ attribute: Attribute?, parenthesized: Bool) throws -> FetchTemplate {
        let token = current
        try countJoins(name)
        guard let attribute, attribute.type.storage == .integer else { throw failure("'&' takes the bits of an integer attribute, and '\(name)' is not one", token) }
        guard isSymbol("&") else { throw failure("expected '&' after '\(name)'") }
        _ = advance()
        let mask = try operand(name, attribute)
        if parenthesized {
            guard isSymbol(")") else { throw failure("expected ')' after the mask") }
            _ = advance()
        }
        guard case let .symbol(symbol) = current.kind, let comparison = Self.comparisons[symbol] else {
            throw failure("expected a comparison after '\(name) & …' (==, !=, <, <=, >, >=)")
        }
        _ = advance()
        return .bitwise(name, mask, comparison, try operand(name, attribute))
    }

    /// `relationship.@count <op> n` (or a SUBQUERY's, made by `make`), n a whole number as written;
    /// a relationship's count also `%@`, a count drawn from the data.
    mutating func countComparison(_ name: String, _ make: ((FetchPredicate.Comparison, Int64) -> FetchTemplate)? = nil) throws -> FetchTemplate {
        guard case let .symbol(symbol) = current.kind, let comparison = Self.comparisons[symbol] else {
            throw failure("expected a comparison after '\(name)' (==, !=, <, <=, >, >=)")
        }
        _ = advance()
        let token = advance(), relationship = String(name.dropLast(".@count".count))
        if make == nil, token.kind == .placeholder { return .countOf(relationship, comparison, .drawn) }
        guard case let .number(digits) = token.kind, let count = Int64(digits) else { throw failure("'\(name)' is compared with a whole number", token) }
        return make?(comparison, count) ?? .countOf(relationship, comparison, .value(.integer(count)))
    }

    /// `object == %@` or `object != %@`: an object is only ever drawn from the data.
    mutating func objectComparison(_ name: String, _ comparison: FetchPredicate.Comparison, _ symbol: String) throws -> FetchTemplate {
        guard comparison == .equal || comparison == .notEqual else { throw failure("\(objectName(name)) is compared with == or !=, not \(symbol)") }
        // `entity == 'Book'`: an entity by its name, as Core Data reads it (its number).
        if name == FetchPredicate.entityKey, case let .string(entityName) = current.kind {
            guard let index = model.index(of: entityName) else { throw failure("'\(entityName)' is not an entity of the model; \(entityList())") }
            _ = advance()
            return .compare(name, comparison, .value(.integer(Int64(index + 1))))
        }
        guard current.kind == .placeholder else { throw failure("\(objectName(name)) is compared with %@ (an object drawn from the data) or nil") }
        _ = advance()
        return .compare(name, comparison, .drawn)
    }

    func objectName(_ name: String) -> String {
        name == FetchPredicate.selfKey ? "self (the object itself)" : name == FetchPredicate.entityKey ? "entity (the object's entity)" : "'\(name)' (a to-one relationship)"
    }

    static let comparisons: [String: FetchPredicate.Comparison] = [
        "==": .equal, "=": .equal, "!=": .notEqual, "<>": .notEqual, "<": .less, "<=": .lessOrEqual, "=<": .lessOrEqual,
        ">": .greater, ">=": .greaterOrEqual, "=>": .greaterOrEqual,
    ]

    /// `[c]`, `[d]`, `[cd]` after a string operator.
    mutating func stringOptions() throws -> FetchPredicate.StringOptions {
        guard isSymbol("[") else { return FetchPredicate.StringOptions() }
        _ = advance()
        guard case let .word(letters) = current.kind, !letters.isEmpty, letters.lowercased().allSatisfy({ "cdln".contains($0) }) else {
            throw failure("a string operator's options are [c], [d], [l], [n] and their combinations, such as [cd]")
        }
        _ = advance()
        guard isSymbol("]") else { throw failure("expected ']' after the options") }
        _ = advance()
        return FetchPredicate.StringOptions(caseInsensitive: letters.lowercased().contains("c"), diacriticInsensitive: letters.lowercased().contains("d"),
                                            localized: letters.lowercased().contains("l"), normalized: letters.lowercased().contains("n"))
    }

    /// `{a, b, …}`.
    /// `{value, …}`; of objects (no attribute), each `%@`, an object drawn from the data.
    mutating func list(_ name: String, _ attribute: Attribute?) throws -> [FetchOperand] {
        guard isSymbol("{") else { throw failure("expected '{' to open a list of values") }
        _ = advance()
        var values: [FetchOperand] = []
        while !isSymbol("}") {
            if !values.isEmpty {
                guard isSymbol(",") else { throw failure(current.kind == .end ? "a '{' that is not closed" : "expected ',' or '}' in the list") }
                _ = advance()
            }
            if let attribute {
                values.append(try operand(name, attribute))
            } else {
                guard current.kind == .placeholder else { throw failure("\(objectName(name)) is compared IN a list of %@ (objects drawn from the data)") }
                _ = advance()
                values.append(.drawn)
            }
            guard values.count <= FetchSpec.maximumTerms else { throw failure("a list of more than \(FetchSpec.maximumTerms) values") }
        }
        _ = advance()
        return values
    }

    /// `%@`, or a literal of `name`'s type: a string, a number (whole for an integer attribute),
    /// YES / NO / TRUE / FALSE for an integer or boolean one.
    mutating func operand(_ name: String, _ attribute: Attribute) throws -> FetchOperand {
        let token = advance()
        let what = name.contains(".") ? "'\(name)'" : "'\(name)' of \(model.entities[entity].name)"
        switch (token.kind, attribute.type.storage) {
        case (.placeholder, _): return .drawn
        case let (.string(text), .text): return .value(.text(text))
        case let (.number(digits), .integer):
            guard let value = Int64(digits) else { throw failure("\(what) holds whole numbers; '\(digits)' is not one", token) }
            return .value(.integer(value))
        case (.number, .real) where attribute.type == .date:
            throw failure("\(what) is compared with %@ (a date is drawn from the data)", token)
        case let (.number(digits), .real):
            guard let value = Double(digits), value.isFinite else { throw failure("'\(digits)' is not a number", token) }
            return .value(.real(value))
        case let (.word(word), .integer) where ["YES", "NO", "TRUE", "FALSE"].contains(word.uppercased()):
            return .value(.integer(["YES", "TRUE"].contains(word.uppercased()) ? 1 : 0))
        case (.end, _):
            throw failure("the fetch ends where a value of \(what) is expected", token)
        default:
            let kind = switch attribute.type.storage {
            case .text: "a string in quotes"
            case .integer: "a whole number"
            case .real: attribute.type == .date ? "%@ (a date is drawn from the data)" : "a number"
            case .blob: "%@ (a binary value is drawn from the data)"
            }
            throw failure("\(what) is compared with \(kind)", token)
        }
    }
}
