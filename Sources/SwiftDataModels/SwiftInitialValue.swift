import SwiftSyntax

/// The type of a stored property declared without one (`var count = 0`), told by its initial
/// value as the Swift compiler would infer it, for the forms a model's source uses: literals
/// (`0` is `Int`, `0.5` `Double`, `""` `String`, `true` `Bool`), a type's initialiser (`UUID()`,
/// `Date()`, `Kind()`, `[Tag]()`), a type's static member (`Date.now`, `Kind.draft`), a cast
/// (`0 as Int16`), and arrays and dictionaries of those. `nil` for anything else (a function's
/// result, `.now` without a type), which the reader asks the user to write a type for.
enum SwiftInitialValue {
    static func type(of expression: ExprSyntax) -> SwiftType? {
        if expression.is(IntegerLiteralExprSyntax.self) { return .named("Int") }
        if expression.is(FloatLiteralExprSyntax.self) { return .named("Double") }
        if expression.is(StringLiteralExprSyntax.self) { return .named("String") }
        if expression.is(BooleanLiteralExprSyntax.self) { return .named("Bool") }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), ["-", "+"].contains(prefix.operator.text) {
            return type(of: prefix.expression)
        }
        if let cast = expression.as(AsExprSyntax.self), cast.questionOrExclamationMark == nil { return SwiftType(cast.type) }
        // `0 as Int16` before operators are folded: a sequence of the value, `as` and the type.
        if let sequence = expression.as(SequenceExprSyntax.self), sequence.elements.count == 3,
           let cast = sequence.elements.dropFirst().first?.as(UnresolvedAsExprSyntax.self), cast.questionOrExclamationMark == nil,
           let type = sequence.elements.last?.as(TypeExprSyntax.self) {
            return SwiftType(type.type)
        }
        if let parenthesised = expression.as(TupleExprSyntax.self), parenthesised.elements.count == 1, let only = parenthesised.elements.first, only.label == nil {
            return type(of: only.expression)
        }
        if let call = expression.as(FunctionCallExprSyntax.self) { return initialiser(call) }
        if let forced = expression.as(ForceUnwrapExprSyntax.self), let call = forced.expression.as(FunctionCallExprSyntax.self),
           case let .optional(wrapped)? = initialiser(call) {
            return wrapped
        }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base, let path = typePath(base) {
            return .named(path)
        }
        if let array = expression.as(ArrayExprSyntax.self) {
            return common(array.elements.map { type(of: $0.expression) }).map(SwiftType.array)
        }
        if let dictionary = expression.as(DictionaryExprSyntax.self), case let .elements(elements) = dictionary.content,
           let key = common(elements.map { type(of: $0.key) }), let value = common(elements.map { type(of: $0.value) }) {
            return .dictionary(key, value)
        }
        return nil
    }

    /// `UUID()`, `Kind(rawValue: 1)`, `Date.init()`, `[Tag]()`, `[String: Int]()`; `URL(string:)` is failable.
    private static func initialiser(_ call: FunctionCallExprSyntax) -> SwiftType? {
        var callee = ExprSyntax(call.calledExpression)
        if let member = callee.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "init", let base = member.base { callee = base }
        if let array = callee.as(ArrayExprSyntax.self), array.elements.count == 1, let element = array.elements.first, let path = typePath(element.expression) {
            return .array(.named(path))
        }
        if let dictionary = callee.as(DictionaryExprSyntax.self), case let .elements(elements) = dictionary.content, elements.count == 1,
           let element = elements.first, let key = typePath(element.key), let value = typePath(element.value) {
            return .dictionary(.named(key), .named(value))
        }
        if let generic = callee.as(GenericSpecializationExprSyntax.self), let path = typePath(generic.expression) {
            let arguments = generic.genericArgumentClause.arguments.compactMap { argument -> SwiftType? in
                if case let .type(type) = argument.argument { return SwiftType(type) }
                return nil
            }
            switch (path, arguments.count) {
            case ("Set", 1): return .set(arguments[0])
            case ("Array", 1): return .array(arguments[0])
            case ("Dictionary", 2): return .dictionary(arguments[0], arguments[1])
            default: return .other(callee.trimmedDescription)
            }
        }
        guard let path = typePath(callee) else { return nil }
        let failable = path == "URL" && call.arguments.first?.label?.text == "string"
            || ["Int", "Double", "Float", "UUID"].contains(path) && call.arguments.first?.label == nil && call.arguments.first?.expression.is(StringLiteralExprSyntax.self) == true
            || call.arguments.first?.label?.text == "rawValue"
        return failable ? .optional(.named(path)) : .named(path)
    }

    /// `Date`, `Album.Kind`: a reference that names a type (each part starting with a capital letter).
    private static func typePath(_ expression: ExprSyntax) -> String? {
        if let reference = expression.as(DeclReferenceExprSyntax.self) {
            let name = reference.baseName.text.unquoted
            return name.first?.isUppercase == true ? name : nil
        }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base, let path = typePath(base) {
            let name = member.declName.baseName.text.unquoted
            return name.first?.isUppercase == true ? "\(path).\(name)" : nil
        }
        return nil
    }

    /// The one type every element has; `Int` beside `Double` is `Double`, as Swift infers it.
    private static func common(_ types: [SwiftType?]) -> SwiftType? {
        guard let first = types.first, var found = first else { return nil }
        for type in types.dropFirst() {
            guard let type else { return nil }
            if type == found { continue }
            if Set([type, found].map(\.description)) == ["Int", "Double"] { found = .named("Double"); continue }
            return nil
        }
        return found
    }
}
