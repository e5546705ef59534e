import Foundation
import SwiftSyntax

/// A SwiftData `#Predicate` closure as the NSPredicate format it stands for (the one SwiftData's
/// store sends Core Data): `$0.a.b` (optional chaining and `!` read through) a key path,
/// `== != < <= > >=` with a value, `&&` `||` `!`, `contains`, `localizedStandardContains`
/// (`CONTAINS[cdl]`), `starts(with:)` and `hasPrefix` (`BEGINSWITH`), `hasSuffix` (`ENDSWITH`), a
/// collection's `contains($0.key)` (`IN`), a to-many's `contains { … }` (`ANY` of one comparison,
/// a `SUBQUERY(…).@count > 0` of several),
/// `isEmpty` and `count` (`@count`); a literal as written, any other value (a captured variable,
/// `Date.now`) a `%@` drawn from the data. What has no such equivalent (`if let`, a ternary, a
/// computation with the object's values) is unreadable.
struct PredicateTranslator {
    /// The closure's parameter, and the key path it stands for in the predicate ("" for the
    /// fetched object; `tags.` inside a to-many's `contains { … }`).
    let parameter: String
    let prefix: String
    /// The parameters of the closures around this one (a to-many's `contains { … }`): comparing
    /// with their objects is a SUBQUERY, not a value.
    var enclosing: [String] = []

    static func predicate(_ closure: ClosureExprSyntax) throws -> String {
        try PredicateTranslator(parameter: parameterName(closure), prefix: "").predicate(body(closure))
    }

    static func parameterName(_ closure: ClosureExprSyntax) -> String {
        if let shorthand = closure.signature?.parameterClause?.as(ClosureShorthandParameterListSyntax.self)?.first { return shorthand.name.text }
        if let clause = closure.signature?.parameterClause?.as(ClosureParameterClauseSyntax.self)?.parameters.first {
            return (clause.secondName ?? clause.firstName).text
        }
        return "$0"
    }

    static func body(_ closure: ClosureExprSyntax) throws -> ExprSyntax {
        guard closure.statements.count == 1, let item = closure.statements.first?.item else {
            throw Unreadable("the closure holds \(closure.statements.count) statements; a predicate is one expression")
        }
        if let expression = item.as(ExprSyntax.self) { return expression }
        if let returned = item.as(ReturnStmtSyntax.self)?.expression { return returned }
        if let statement = item.as(ExpressionStmtSyntax.self) { return statement.expression }
        throw Unreadable("the closure's statement is not an expression")
    }

    /// What an expression of the closure is: a predicate, a key path of the object, or a value.
    enum Part {
        case predicate(String)
        case key(String)
        case value(String)
    }

    func predicate(_ expression: ExprSyntax) throws -> String {
        switch try part(expression) {
        case let .predicate(text): return text
        // A Boolean attribute alone.
        case let .key(key): return "\(key) == YES"
        case let .value(value):
            if value == "YES" { return "TRUEPREDICATE" }
            if value == "NO" { return "FALSEPREDICATE" }
            try unreadable(expression, "is a value, not a condition on the object")
        }
    }

    func part(_ expression: ExprSyntax) throws -> Part {
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1, let inner = tuple.elements.first?.expression {
            if case let .predicate(text) = try part(inner) { return .predicate("(\(text))") }
            return try part(inner)
        }
        if let infix = expression.as(InfixOperatorExprSyntax.self) { return try self.infix(infix) }
        if expression.is(IfExprSyntax.self) || expression.is(TernaryExprSyntax.self) || expression.is(SwitchExprSyntax.self) {
            try unreadable(expression, "chooses between conditions at run time (if, ?:, switch), which a fetch's predicate has no form for")
        }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" {
            return .predicate("NOT (\(try predicate(prefix.expression)))")
        }
        if let call = expression.as(FunctionCallExprSyntax.self) { return try self.call(call) }
        if let key = key(expression) {
            if key.hasSuffix(".isEmpty") { return .predicate("\(key.dropLast(".isEmpty".count)).@count == 0") }
            if key.hasSuffix(".count") { return .key(String(key.dropLast(".count".count)) + ".@count") }
            return .key(key)
        }
        if mentionsParameter(expression) { try unreadable(expression, "computes with the object's values; NSPredicate compares a key with a value") }
        if expression.tokens(viewMode: .sourceAccurate).contains(where: { enclosing.contains($0.text) }) {
            try unreadable(expression, "compares with the enclosing object inside a to-many's contains: a SUBQUERY's comparison with it, not yet a form the suite runs")
        }
        return .value(Self.literal(expression) ?? "%@")
    }

    private func infix(_ node: InfixOperatorExprSyntax) throws -> Part {
        let symbol = node.operator.trimmedDescription
        switch symbol {
        case "&&", "||":
            return .predicate("\(try predicate(node.leftOperand)) \(symbol == "&&" ? "AND" : "OR") \(try predicate(node.rightOperand))")
        case "==", "!=", "<", "<=", ">", ">=":
            let (left, right) = (try part(node.leftOperand), try part(node.rightOperand))
            switch (left, right) {
            case let (.key(key), .value(value)): return .predicate("\(key) \(symbol) \(value)")
            case let (.value(value), .key(key)):
                let flipped = ["<": ">", "<=": ">=", ">": "<", ">=": "<="][symbol] ?? symbol
                return .predicate("\(key) \(flipped) \(value)")
            case let (.key(key), .key(other)): return .predicate("\(key) \(symbol) \(other)")
            default: try unreadable(node, "compares two values, or a condition; a fetch's predicate compares a key with a value or another key")
            }
        default:
            try unreadable(node, "uses '\(symbol)', which a fetch's predicate has no form for")
        }
    }

    private func call(_ node: FunctionCallExprSyntax) throws -> Part {
        guard let member = node.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base else {
            try unreadable(node, "calls a function, which a fetch's predicate has no form for")
        }
        let name = member.declName.baseName.text
        let label = node.arguments.first?.label?.text
        // A to-many's contains(where:): ANY of one comparison; of several, a SUBQUERY counting the
        // objects that meet them all.
        if let closure = node.trailingClosure ?? node.arguments.first?.expression.as(ClosureExprSyntax.self), name == "contains", let relationship = key(base) {
            let inner = try PredicateTranslator(parameter: Self.parameterName(closure), prefix: relationship + ".", enclosing: enclosing + [parameter])
                .predicate(Self.body(closure))
            guard inner.contains(" AND ") || inner.contains(" OR ") || inner.hasPrefix("NOT ") else { return .predicate("ANY \(inner)") }
            let each = try PredicateTranslator(parameter: Self.parameterName(closure), prefix: "$x.", enclosing: enclosing + [parameter]).predicate(Self.body(closure))
            return .predicate("SUBQUERY(\(relationship), $x, \(each)).@count > 0")
        }
        guard node.arguments.count == 1, let argument = node.arguments.first?.expression else { try unreadable(node, "calls '\(name)' with other than one argument") }
        if let key = key(base) {
            let operators = ["contains": "CONTAINS", "localizedStandardContains": "CONTAINS[cdl]", "localizedCaseInsensitiveContains": "CONTAINS[cl]",
                             "starts": "BEGINSWITH", "hasPrefix": "BEGINSWITH", "hasSuffix": "ENDSWITH"]
            guard let op = operators[name], name != "starts" || label == "with", case let .value(value) = try part(argument) else {
                try unreadable(node, "calls '\(name)' on '\(key)', which a fetch's predicate has no form for")
            }
            return .predicate("\(key) \(op) \(value)")
        }
        // A collection of values holding the key: IN.
        if name == "contains", case let .key(key) = try part(argument), !mentionsParameter(ExprSyntax(base)) {
            if let array = base.as(ArrayExprSyntax.self) {
                let values = array.elements.map { Self.literal($0.expression) ?? "%@" }
                guard !values.contains("%@") else { return .predicate("\(key) IN %@") }
                return .predicate("\(key) IN {\(values.joined(separator: ", "))}")
            }
            return .predicate("\(key) IN %@")
        }
        try unreadable(node, "calls '\(name)', which a fetch's predicate has no form for")
    }

    /// The key path an expression names from the closure's parameter (`$0.author?.name` is
    /// `author.name`), prefixed; nil when it is not one.
    func key(_ expression: ExprSyntax) -> String? {
        var names: [String] = [], current = expression
        while true {
            if let optional = current.as(OptionalChainingExprSyntax.self) { current = optional.expression; continue }
            if let forced = current.as(ForceUnwrapExprSyntax.self) { current = forced.expression; continue }
            if let member = current.as(MemberAccessExprSyntax.self), let base = member.base {
                names.insert(member.declName.baseName.text, at: 0)
                current = base
                continue
            }
            break
        }
        guard let root = current.as(DeclReferenceExprSyntax.self), root.baseName.text == parameter, !names.isEmpty else { return nil }
        return prefix + names.joined(separator: ".")
    }

    private func mentionsParameter(_ expression: ExprSyntax) -> Bool {
        expression.tokens(viewMode: .sourceAccurate).contains { $0.text == parameter }
    }

    /// A literal as NSPredicate writes it, or nil.
    static func literal(_ expression: ExprSyntax) -> String? {
        if let string = expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue {
            return "'" + string.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
        }
        if let integer = expression.as(IntegerLiteralExprSyntax.self) { return integer.literal.text.replacingOccurrences(of: "_", with: "") }
        if let float = expression.as(FloatLiteralExprSyntax.self) { return float.literal.text.replacingOccurrences(of: "_", with: "") }
        if let boolean = expression.as(BooleanLiteralExprSyntax.self) { return boolean.literal.text == "true" ? "YES" : "NO" }
        if expression.is(NilLiteralExprSyntax.self) { return "nil" }
        if let negative = expression.as(PrefixOperatorExprSyntax.self), negative.operator.text == "-", let number = literal(negative.expression), number.first?.isNumber == true {
            return "-" + number
        }
        return nil
    }

    private func unreadable(_ node: some SyntaxProtocol, _ why: String) throws -> Never {
        throw Unreadable("'\(node.trimmedDescription.replacingOccurrences(of: "\n", with: " ").prefix(60))' \(why)")
    }
}
