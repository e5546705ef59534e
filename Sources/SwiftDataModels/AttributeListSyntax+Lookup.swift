import SwiftSyntax

extension AttributeListSyntax {
    /// The attribute `@name` (module-qualified or not), if written.
    func named(_ name: String) -> AttributeSyntax? {
        for element in self {
            guard case let .attribute(attribute) = element else { continue }
            if SwiftDeclarationCollector.baseName(attribute.attributeName) == name { return attribute }
        }
        return nil
    }
}

extension AttributeSyntax {
    /// The arguments of `@Name(…)`, empty when it has none.
    var argumentList: [LabeledExprSyntax] {
        if case let .argumentList(list) = arguments { return Array(list) }
        return []
    }

    /// The argument labelled `label`.
    func argument(_ label: String) -> ExprSyntax? {
        argumentList.first { $0.label?.text == label }?.expression
    }
}

extension ExprSyntax {
    /// The text of a string literal without interpolation.
    var stringLiteral: String? {
        guard let literal = self.as(StringLiteralExprSyntax.self) else { return nil }
        var text = ""
        for segment in literal.segments {
            guard let part = segment.as(StringSegmentSyntax.self) else { return nil }
            text += part.content.text
        }
        return text
    }

    /// `.cascade`, `.unique`, `Schema.Attribute.Option.unique`: the last member's name; for a
    /// call (`.transformable(by: T.self)`), its callee's.
    var memberName: String? {
        if let call = self.as(FunctionCallExprSyntax.self) { return call.calledExpression.memberName }
        return self.as(MemberAccessExprSyntax.self)?.declName.baseName.text
    }

    var integer: Int? {
        if let prefix = self.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" { return prefix.expression.integer.map { -$0 } }
        return self.as(IntegerLiteralExprSyntax.self).flatMap { Int($0.literal.text.replacingOccurrences(of: "_", with: "")) }
    }
}
