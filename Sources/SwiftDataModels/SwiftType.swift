import SwiftSyntax

/// A property's type as written in Swift source, with the sugar taken off: `String?` and
/// `Optional<String>` are both `.optional(.named("String"))`, `[Tag]` and `Array<Tag>` both
/// `.array(.named("Tag"))`. Module qualifiers are dropped (`Foundation.Date` is `Date`).
indirect enum SwiftType: Equatable, CustomStringConvertible {
    case named(String)
    case optional(SwiftType)
    case array(SwiftType)
    case set(SwiftType)
    case dictionary(SwiftType, SwiftType)
    /// Anything else (a tuple, a function, a generic type of another name), as written.
    case other(String)

    init(_ syntax: TypeSyntax) {
        if let optional = syntax.as(OptionalTypeSyntax.self) {
            self = .optional(SwiftType(optional.wrappedType))
        } else if let unwrapped = syntax.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            self = .optional(SwiftType(unwrapped.wrappedType))
        } else if let array = syntax.as(ArrayTypeSyntax.self) {
            self = .array(SwiftType(array.element))
        } else if let dictionary = syntax.as(DictionaryTypeSyntax.self) {
            self = .dictionary(SwiftType(dictionary.key), SwiftType(dictionary.value))
        } else if let attributed = syntax.as(AttributedTypeSyntax.self) {
            self = SwiftType(attributed.baseType)
        } else if let member = syntax.as(MemberTypeSyntax.self) {
            self = Self.generic(member.name.text.unquoted, member.genericArgumentClause, written: syntax)
        } else if let identifier = syntax.as(IdentifierTypeSyntax.self) {
            self = Self.generic(identifier.name.text.unquoted, identifier.genericArgumentClause, written: syntax)
        } else {
            self = .other(syntax.trimmedDescription)
        }
    }

    private static func generic(_ name: String, _ clause: GenericArgumentClauseSyntax?, written: TypeSyntax) -> SwiftType {
        guard let clause else { return .named(name) }
        let arguments = clause.arguments.compactMap { argument -> SwiftType? in
            if case let .type(type) = argument.argument { return SwiftType(type) }
            return nil
        }
        switch (name, arguments.count) {
        case ("Optional", 1): return .optional(arguments[0])
        case ("Array", 1): return .array(arguments[0])
        case ("Set", 1): return .set(arguments[0])
        case ("Dictionary", 2): return .dictionary(arguments[0], arguments[1])
        default: return .other(written.trimmedDescription)
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
