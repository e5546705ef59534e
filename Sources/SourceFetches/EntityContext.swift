import Foundation
import SwiftSyntax

/// The entity a fetch in the source is of, read from the code around it, never guessed past it.
enum EntityContext {
    /// Where Core Data code names a fetch request's entity: `NSFetchRequest<Item>`,
    /// `Item.fetchRequest()`, `entityName: "Item"`, `@FetchRequest(entity: Item.entity(), …)`,
    /// `FetchedResults<Item>`, `NSFetchedResultsController<Item>`.
    static let patterns = [
        #"NSFetchRequest<\s*([A-Za-z_][A-Za-z0-9_]*)\s*>"#, #"FetchedResults<\s*([A-Za-z_][A-Za-z0-9_]*)\s*>"#,
        #"NSFetchedResultsController<\s*([A-Za-z_][A-Za-z0-9_]*)\s*>"#, #"FetchRequest<\s*([A-Za-z_][A-Za-z0-9_]*)\s*>"#,
        #"([A-Za-z_][A-Za-z0-9_]*)\.fetchRequest\(\)"#, #"(?:forE|e)ntityName:\s*"([A-Za-z_][A-Za-z0-9_]*)""#,
        #"([A-Za-z_][A-Za-z0-9_]*)\.entity\(\)"#,
    ]
    /// Names those patterns find that are not an entity.
    static let notEntities: Set<String> = ["NSFetchRequestResult", "NSManagedObject", "NSDictionary", "NSNumber", "NSManagedObjectID", "ResultType", "T", "Self"]

    /// The entity of an `NSPredicate(format:)` at `node`: named in the nearest declaration around
    /// it that names one (the last before it, else the first after it).
    static func entity(around node: Syntax) -> String? {
        var current = node.parent
        while let at = current {
            if at.is(ClassDeclSyntax.self) || at.is(StructDeclSyntax.self) || at.is(ExtensionDeclSyntax.self) || at.is(SourceFileSyntax.self) { return nil }
            if at.is(FunctionDeclSyntax.self) || at.is(VariableDeclSyntax.self) || at.is(InitializerDeclSyntax.self) || at.is(AccessorDeclSyntax.self),
               let found = named(in: at, before: node.position) {
                return found
            }
            current = at.parent
        }
        return nil
    }

    private static func named(in declaration: Syntax, before position: AbsolutePosition) -> String? {
        let text = declaration.description
        let offset = position.utf8Offset - declaration.position.utf8Offset
        var before: (at: Int, name: String)?, after: (at: Int, name: String)?
        for pattern in patterns {
            guard let expression = try? NSRegularExpression(pattern: pattern) else { continue }
            for match in expression.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let range = Range(match.range(at: 1), in: text) else { continue }
                let name = String(text[range]), at = text.utf8.distance(from: text.utf8.startIndex, to: range.lowerBound.samePosition(in: text.utf8) ?? text.utf8.startIndex)
                guard !notEntities.contains(name) else { continue }
                if at < offset { if before.map({ at > $0.at }) ?? true { before = (at, name) } } else if after.map({ at < $0.at }) ?? true { after = (at, name) }
            }
        }
        return before?.name ?? after?.name
    }

    /// The entity of a `#Predicate` without one of its own: of the `FetchDescriptor<Item>` it is
    /// given to, or the `Predicate<Item>` it is declared as.
    static func predicateEntity(around node: Syntax) -> String? {
        var current = node.parent
        while let at = current {
            if let call = at.as(FunctionCallExprSyntax.self), let generic = call.calledExpression.as(GenericSpecializationExprSyntax.self),
               generic.expression.trimmedDescription == "FetchDescriptor" {
                return generic.genericArgumentClause.arguments.first?.argument.trimmedDescription
            }
            if let binding = at.as(PatternBindingSyntax.self), let type = binding.typeAnnotation?.type.as(IdentifierTypeSyntax.self), type.name.text == "Predicate" {
                return type.genericArgumentClause?.arguments.first?.argument.trimmedDescription
            }
            // A function returning it: `-> Predicate<Item>`.
            if let function = at.as(FunctionDeclSyntax.self) {
                guard let type = function.signature.returnClause?.type.as(IdentifierTypeSyntax.self), type.name.text == "Predicate" else { return nil }
                return type.genericArgumentClause?.arguments.first?.argument.trimmedDescription
            }
            if at.is(MemberBlockItemSyntax.self) || at.is(ClosureExprSyntax.self) { return nil }
            current = at.parent
        }
        return nil
    }

    /// The `FetchDescriptor(…)` call a `#Predicate` at `node` is given to, if any.
    static func descriptor(around node: Syntax) -> FunctionCallExprSyntax? {
        var current = node.parent
        while let at = current, !at.is(CodeBlockItemSyntax.self), !at.is(MemberBlockItemSyntax.self) {
            if let call = at.as(FunctionCallExprSyntax.self), call.calledExpression.trimmedDescription.hasPrefix("FetchDescriptor") { return call }
            current = at.parent
        }
        return nil
    }

    /// The ` SORT BY …` of the `FetchDescriptor` a `#Predicate` is given to, or "".
    static func descriptorSort(around node: Syntax) -> String {
        descriptor(around: node)?.arguments.first { $0.label?.text == "sortBy" }.map { SortReader.descriptors($0.expression) } ?? ""
    }

    /// The entity of a `@Query` property: its type `[Item]`.
    static func queryEntity(of attribute: AttributeSyntax) -> String? {
        guard let variable = attribute.ancestorOrSelf(mapping: { $0.as(VariableDeclSyntax.self) }),
              let type = variable.bindings.first?.typeAnnotation?.type.as(ArrayTypeSyntax.self) else { return nil }
        return type.element.trimmedDescription
    }
}

/// Sort descriptors written in Swift as a fetch's ` SORT BY …`.
enum SortReader {
    /// A `@Query`'s `sort:` (a key path, with `order:`, or an array of `SortDescriptor`s), and
    /// whether it is `SortDescriptor`s (which order a `String` `.localizedStandard` unless they say).
    static func query(_ arguments: LabeledExprListSyntax) -> (text: String, descriptors: Bool) {
        guard let sort = arguments.first(where: { $0.label?.text == "sort" })?.expression else { return ("", false) }
        if let key = FormatLiteral.key(sort) {
            // A key path: the generic `SortDescriptor(_:order:)` of a Comparable value, `compare:`.
            let reverse = arguments.first { $0.label?.text == "order" }?.expression.trimmedDescription.hasSuffix("reverse") == true
            return (" SORT BY \(key)\(reverse ? " DESC" : "")", false)
        }
        let text = descriptors(sort)
        return (text, !text.isEmpty)
    }

    /// `[SortDescriptor(\Item.a), SortDescriptor(\.b, comparator: .lexical, order: .reverse)]`, or one
    /// of them; a comparator named (`.lexical`, `.localized`, `.localizedStandard`) after its key.
    static func descriptors(_ expression: ExprSyntax) -> String {
        let items = expression.as(ArrayExprSyntax.self).map { $0.elements.map(\.expression) } ?? [expression]
        let keys = items.compactMap { item -> String? in
            guard let call = item.as(FunctionCallExprSyntax.self), call.calledExpression.trimmedDescription.hasPrefix("SortDescriptor"),
                  let key = call.arguments.first.flatMap({ FormatLiteral.key($0.expression) }) else { return nil }
            let reverse = call.arguments.first { $0.label?.text == "order" }?.expression.trimmedDescription.hasSuffix("reverse") == true
            var comparator = ""
            if let named = call.arguments.first(where: { $0.label?.text == "comparator" })?.expression.trimmedDescription {
                guard let known = ["lexical", "localizedStandard", "localized"].first(where: { named == "." + $0 || named.hasSuffix("Comparator." + $0) }) else { return nil }
                comparator = " " + known
            }
            return key + comparator + (reverse ? " DESC" : "")
        }
        return keys.isEmpty || keys.count != items.count ? "" : " SORT BY " + keys.joined(separator: ", ")
    }
}
