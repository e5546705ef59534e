import SwiftSyntax

/// What a fetch request sets besides its predicate, read from the code around it and written as a
/// fetch's ` SORT BY … LIMIT n BATCH n`: the sort descriptors, fetch limit and batch size of the Core Data request an
/// `NSPredicate(format:)` is given to (a `@FetchRequest(sortDescriptors:predicate:)` or
/// `FetchRequest(…)` around it, else the declaration it is in when that declaration makes exactly
/// one predicate and sets `sortDescriptors`, and `fetchLimit`, once), and the `fetchLimit` of the
/// one SwiftData `FetchDescriptor` of a declaration. What cannot be read (descriptors built
/// elsewhere, a selector other than `NSString`'s comparisons, a direction not written as `true` or
/// `false`) leaves the sort out rather than guess it.
enum FetchSettingsReader {
    /// ` SORT BY …` and ` LIMIT n` for the predicate at `node`, or "".
    static func sort(around node: Syntax) -> String {
        var current = node.parent
        while let at = current {
            // `@FetchRequest(sortDescriptors: […], predicate: NSPredicate(format: …))`, `FetchRequest(…)`.
            if let arguments = fetchRequestArguments(at), let descriptors = arguments.first(where: { $0.label?.text == "sortDescriptors" })?.expression {
                return sortBy(descriptors) ?? ""
            }
            if isDeclaration(at) { return declared(in: at) }
            if at.is(ClassDeclSyntax.self) || at.is(StructDeclSyntax.self) || at.is(ExtensionDeclSyntax.self) { return "" }
            current = at.parent
        }
        return ""
    }

    /// Whether `node` is the declaration whose body a request is set up in: a function, an
    /// initializer, an accessor, or a property (a variable declared in a function is not one).
    private static func isDeclaration(_ node: Syntax) -> Bool {
        if node.is(FunctionDeclSyntax.self) || node.is(InitializerDeclSyntax.self) || node.is(AccessorDeclSyntax.self) { return true }
        return node.is(VariableDeclSyntax.self) && (node.parent?.is(MemberBlockItemSyntax.self) ?? false)
    }

    /// The arguments of a `@FetchRequest` attribute or a `FetchRequest(…)` call.
    private static func fetchRequestArguments(_ node: Syntax) -> LabeledExprListSyntax? {
        if let attribute = node.as(AttributeSyntax.self), attribute.attributeName.trimmedDescription.hasPrefix("FetchRequest") {
            return attribute.arguments?.as(LabeledExprListSyntax.self)
        }
        if let call = node.as(FunctionCallExprSyntax.self), call.calledExpression.trimmedDescription.hasPrefix("FetchRequest") { return call.arguments }
        return nil
    }

    /// ` LIMIT n` of the `FetchDescriptor` a `#Predicate` at `node` is given to: the whole-number
    /// `fetchLimit` its declaration sets, when that declaration makes one descriptor and sets it once.
    static func descriptorLimit(around node: Syntax) -> String {
        var current = node.parent
        while let at = current, !at.is(ClassDeclSyntax.self), !at.is(StructDeclSyntax.self), !at.is(ExtensionDeclSyntax.self) {
            if isDeclaration(at) {
                let finder = SettingsFinder(viewMode: .sourceAccurate)
                finder.walk(at)
                return finder.descriptors == 1 ? finder.limit : ""
            }
            current = at.parent
        }
        return ""
    }

    /// The sort and limit a declaration sets, when it makes one predicate and sets each once (a
    /// limit only beside the sort), and its `fetchBatchSize`.
    private static func declared(in declaration: Syntax) -> String {
        let finder = SettingsFinder(viewMode: .sourceAccurate)
        finder.walk(declaration)
        guard finder.predicates == 1 else { return "" }
        let sort = finder.sorts.count == 1 ? sortBy(finder.sorts[0]) : nil
        return (sort.map { $0 + finder.limit } ?? "") + finder.batch
    }

    /// ` SORT BY key [comparator] [DESC], …` of an array of `NSSortDescriptor(key:ascending:selector:)`
    /// or `NSSortDescriptor(keyPath:ascending:)`, or nil when one of them cannot be read.
    static func sortBy(_ expression: ExprSyntax) -> String? {
        guard let array = expression.as(ArrayExprSyntax.self), !array.elements.isEmpty else { return nil }
        var keys: [String] = []
        for element in array.elements {
            guard let call = element.expression.as(FunctionCallExprSyntax.self), call.calledExpression.trimmedDescription == "NSSortDescriptor",
                  let keyArgument = call.arguments.first(where: { $0.label?.text == "key" || $0.label?.text == "keyPath" }),
                  let key = FormatLiteral.key(keyArgument.expression) else { return nil }
            var comparator = ""
            if let selector = call.arguments.first(where: { $0.label?.text == "selector" })?.expression.trimmedDescription {
                guard let named = comparators.first(where: { selector.contains("NSString." + $0.selector + "(") || selector.contains("\"" + $0.selector + ":\"") }) else { return nil }
                comparator = named.word.isEmpty ? "" : " " + named.word
            }
            let ascending = call.arguments.first { $0.label?.text == "ascending" }?.expression.trimmedDescription ?? "true"
            guard ascending == "true" || ascending == "false" else { return nil }
            keys.append(key + comparator + (ascending == "true" ? "" : " DESC"))
        }
        return " SORT BY " + keys.joined(separator: ", ")
    }

    /// `NSString`'s comparisons a sort descriptor's selector may name, and the fetch's word for each.
    static let comparators: [(selector: String, word: String)] = [
        ("localizedStandardCompare", "localizedStandard"), ("localizedCaseInsensitiveCompare", "localizedCaseInsensitive"),
        ("localizedCompare", "localized"), ("caseInsensitiveCompare", "caseInsensitive"), ("compare", ""),
    ]
}

/// What one declaration sets on fetch requests: its `NSPredicate(format:)` calls, its
/// `FetchDescriptor`s, its `sortDescriptors` (assigned or passed), its whole-number `fetchLimit`s.
private final class SettingsFinder: SyntaxVisitor {
    var predicates = 0
    var descriptors = 0
    var sorts: [ExprSyntax] = []
    var limits: [Int] = []
    var batchSizes: [Int] = []

    /// ` LIMIT n` when the declaration sets one whole-number limit, else "".
    var limit: String { limits.count == 1 && limits[0] > 0 ? " LIMIT \(limits[0])" : "" }
    /// ` BATCH n` when the declaration sets one whole-number `fetchBatchSize`, else "".
    var batch: String { batchSizes.count == 1 && batchSizes[0] > 0 ? " BATCH \(batchSizes[0])" : "" }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if node.calledExpression.trimmedDescription == "NSPredicate", node.arguments.first?.label?.text == "format" { predicates += 1 }
        if node.calledExpression.trimmedDescription.hasPrefix("FetchDescriptor") { descriptors += 1 }
        if let sort = node.arguments.first(where: { $0.label?.text == "sortDescriptors" })?.expression { sorts.append(sort) }
        return .visitChildren
    }

    override func visit(_ node: InfixOperatorExprSyntax) -> SyntaxVisitorContinueKind {
        guard node.operator.is(AssignmentExprSyntax.self), let member = node.leftOperand.as(MemberAccessExprSyntax.self) else { return .visitChildren }
        switch member.declName.baseName.text {
        case "sortDescriptors": sorts.append(node.rightOperand)
        case "fetchLimit": limits.append(Int(node.rightOperand.trimmedDescription).flatMap { $0 > 0 ? $0 : nil } ?? -1)
        case "fetchBatchSize": batchSizes.append(Int(node.rightOperand.trimmedDescription).flatMap { $0 > 0 ? $0 : nil } ?? -1)
        default: break
        }
        return .visitChildren
    }
}
