import Foundation
import SwiftSyntax

/// An `NSPredicate(format:, …)` of Core Data code as a predicate the suite reads: the format a
/// string literal, each `%K` replaced by its key (a string literal, `#keyPath(Entity.key)` or
/// `\Entity.key`), each other argument's placeholder (`%@`, `%d`, `%ld`, `%f`, …) a `%@` drawn
/// from the data.
enum FormatLiteral {
    static func predicate(_ arguments: LabeledExprListSyntax) throws -> String {
        guard let format = arguments.first?.expression.as(StringLiteralExprSyntax.self), let text = format.representedLiteralValue else {
            throw Unreadable("the format is built at run time (not one string literal)")
        }
        var values = Array(arguments.dropFirst().map(\.expression))
        if let array = arguments.first(where: { $0.label?.text == "argumentArray" })?.expression.as(ArrayExprSyntax.self) {
            values = array.elements.map(\.expression)
        } else if arguments.contains(where: { $0.label?.text == "argumentArray" }) {
            throw Unreadable("its arguments are an array built at run time")
        }
        var result = "", characters = Array(text), index = 0, quote: Character?
        while index < characters.count {
            let character = characters[index]
            if let open = quote {
                if character == open { quote = nil }
                result.append(character)
                index += 1
                continue
            }
            if character == "\"" || character == "'" { quote = character }
            guard character == "%", index + 1 < characters.count else { result.append(character); index += 1; continue }
            // A conversion: its length modifiers, then its letter.
            var end = index + 1
            while end < characters.count, "lhqLzjt".contains(characters[end]) { end += 1 }
            guard end < characters.count else { throw Unreadable("the format ends in a '%'") }
            let letter = characters[end]
            index = end + 1
            if letter == "%" { result += "%"; continue }
            guard !values.isEmpty else { throw Unreadable("the format has more placeholders than arguments") }
            let value = values.removeFirst()
            if letter == "K" {
                guard let key = Self.key(value) else { throw Unreadable("a %K's key is computed at run time ('\(value.trimmedDescription.prefix(40))')") }
                result += key
            } else {
                guard "@dDiuUxXoOfFeEgGcCsSp".contains(letter) else { throw Unreadable("'%\(letter)' is not a placeholder NSPredicate takes") }
                result += "%@"
            }
        }
        return result.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A `%K` argument's key: a string literal, `#keyPath(Entity.a.b)` or `\Entity.a.b`.
    static func key(_ expression: ExprSyntax) -> String? {
        if let literal = expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue { return literal }
        if let macro = expression.as(MacroExpansionExprSyntax.self), macro.macroName.text == "keyPath", let path = macro.arguments.first?.expression {
            return path.trimmedDescription.split(separator: ".").dropFirst().joined(separator: ".")
        }
        if let keyPath = expression.as(KeyPathExprSyntax.self) {
            let names = keyPath.components.compactMap { $0.component.as(KeyPathPropertyComponentSyntax.self)?.declName.baseName.text }
            return names.isEmpty ? nil : names.joined(separator: ".")
        }
        return nil
    }
}
