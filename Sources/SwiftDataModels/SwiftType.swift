import SwiftSyntax

/// A property's type as written in Swift source, with the sugar taken off: `String?` and
/// `Optional<String>` are both `.optional(.named("String"))`, `[Tag]` and `Array<Tag>` both
/// `.array(.named("Tag"))`. A named type keeps its written path (`SchemaV2.Note`,
/// `Foundation.Date`); `SwiftTypeResolver` says what the path names.
indirect enum SwiftType: Equatable, CustomStringConvertible {
    case named(String)
    case optional(SwiftType)
    case array(SwiftType)
    case set(SwiftType)
    case dictionary(SwiftType, SwiftType)
    /// Anything else (a tuple, a function, a type nested deeper than `maximumDepth`), as written.
    case other(String)

    /// The deepest a type is taken apart; deeper, it is kept as written (`.other`), so that no
    /// recursion over a type (its description, its comparison, its release) can exhaust a stack.
    static let maximumDepth = 16

    init(_ syntax: TypeSyntax) { self.init(syntax, depth: 0) }

    private init(_ syntax: TypeSyntax, depth: Int) {
        guard depth < Self.maximumDepth else { self = .other(syntax.trimmedDescription); return }
        let inner = { (type: TypeSyntax) in SwiftType(type, depth: depth + 1) }
        if let optional = syntax.as(OptionalTypeSyntax.self) {
            self = .optional(inner(optional.wrappedType))
        } else if let unwrapped = syntax.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            self = .optional(inner(unwrapped.wrappedType))
        } else if let array = syntax.as(ArrayTypeSyntax.self) {
            self = .array(inner(array.element))
        } else if let dictionary = syntax.as(DictionaryTypeSyntax.self) {
            self = .dictionary(inner(dictionary.key), inner(dictionary.value))
        } else if let attributed = syntax.as(AttributedTypeSyntax.self) {
            self = inner(attributed.baseType)
        } else if let member = syntax.as(MemberTypeSyntax.self), let base = Self.path(member.baseType) {
            self = Self.generic(base + "." + member.name.text.unquoted, member.genericArgumentClause, written: syntax, inner)
        } else if let identifier = syntax.as(IdentifierTypeSyntax.self) {
            self = Self.generic(identifier.name.text.unquoted, identifier.genericArgumentClause, written: syntax, inner)
        } else {
            self = .other(syntax.trimmedDescription)
        }
    }

    /// `SchemaV2.Note` → "SchemaV2.Note"; `nil` for a base with generic arguments or of another form.
    static func path(_ syntax: TypeSyntax) -> String? {
        if let identifier = syntax.as(IdentifierTypeSyntax.self), identifier.genericArgumentClause == nil { return identifier.name.text.unquoted }
        if let member = syntax.as(MemberTypeSyntax.self), member.genericArgumentClause == nil, let base = path(member.baseType) {
            return base + "." + member.name.text.unquoted
        }
        return nil
    }

    private static func generic(_ name: String, _ clause: GenericArgumentClauseSyntax?, written: TypeSyntax,
                                _ inner: (TypeSyntax) -> SwiftType) -> SwiftType {
        guard let clause else { return .named(name) }
        let arguments = clause.arguments.compactMap { argument -> SwiftType? in
            if case let .type(type) = argument.argument { return inner(type) }
            return nil
        }
        let bare = name.hasPrefix("Swift.") ? String(name.dropFirst(6)) : name
        switch (bare, arguments.count) {
        case ("Optional", 1): return .optional(arguments[0])
        case ("Array", 1): return .array(arguments[0])
        case ("Set", 1): return .set(arguments[0])
        case ("Dictionary", 2): return .dictionary(arguments[0], arguments[1])
        case ("Optional", _), ("Array", _), ("Set", _), ("Dictionary", _): return .other(written.trimmedDescription)
        // Another generic type (`Measurement<UnitLength>`): a type of its own name, which no
        // declaration of the sources matches.
        default: return .named(written.trimmedDescription)
        }
    }

    /// The type without one level of `Optional`, and whether there was one.
    var unwrapped: (type: SwiftType, optional: Bool) {
        if case let .optional(wrapped) = self { return (wrapped, true) }
        return (self, false)
    }

    var description: String {
        switch self {
        case let .named(name): name
        case let .optional(wrapped): "\(wrapped)?"
        case let .array(element): "[\(element)]"
        case let .set(element): "Set<\(element)>"
        case let .dictionary(key, value): "[\(key): \(value)]"
        case let .other(text): text
        }
    }
}
