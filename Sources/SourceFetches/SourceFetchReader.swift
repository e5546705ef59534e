import Foundation
import SwiftDataModels
import SwiftOperators
import SwiftSyntax

/// Reads an app's fetches from its Swift sources, with swift-syntax's parser (no compiler): Core
/// Data's `NSPredicate(format:)` literals, and SwiftData's `#Predicate` closures (alone, in a
/// `FetchDescriptor`, or a `@Query`'s filter and sort). Each becomes a fetch as `--fetch` takes
/// one, or is named, file and line, with why it cannot be read from the source alone (a format
/// built at run time, an entity the code does not name, a Swift form with no NSPredicate
/// equivalent): never guessed.
public enum SourceFetchReader {
    /// The most fetches read from one folder.
    public static let maximumFetches = 1_000

    /// The fetches of the Swift files under `path`, in file and line order; files are named as
    /// found under it. Every problem reading a file is one `ModelError` sentence.
    public static func read(_ path: String) throws -> [SourceFetch] {
        var found: [SourceFetch] = []
        let base = URL(fileURLWithPath: path).standardizedFileURL.path
        for file in try SwiftSource.files(path) {
            let shown = file.hasPrefix(base + "/") ? String(file.dropFirst(base.count + 1)) : URL(fileURLWithPath: file).lastPathComponent
            found += try SwiftSource.withTree(of: file) { tree, _ in
                let folded = OperatorTable.standardOperators.foldAll(tree) { _ in }
                let collector = FetchCollector(file: shown, converter: SourceLocationConverter(fileName: shown, tree: folded))
                collector.walk(folded)
                return collector.found
            }
            guard found.count <= maximumFetches else { break }
        }
        return Array(found.prefix(maximumFetches))
    }
}

/// Walks one file for the fetches it holds.
final class FetchCollector: SyntaxVisitor {
    let file: String
    let converter: SourceLocationConverter
    private(set) var found: [SourceFetch] = []

    init(file: String, converter: SourceLocationConverter) {
        self.file = file
        self.converter = converter
        super.init(viewMode: .sourceAccurate)
    }

    private func add(_ node: some SyntaxProtocol, _ form: String, _ outcome: SourceFetch.Outcome, descriptors: Bool = false) {
        var fetch = SourceFetch(file: file, line: node.startLocation(converter: converter).line, form: form, outcome: outcome)
        fetch.sortsStringsLocalizedStandard = descriptors
        found.append(fetch)
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        guard node.calledExpression.trimmedDescription == "NSPredicate", let first = node.arguments.first, first.label?.text == "format" else { return .visitChildren }
        let entity = EntityContext.entity(around: Syntax(node))
        do {
            let predicate = try FormatLiteral.predicate(node.arguments)
            guard let entity else { throw Unreadable("the fetched entity is not named near it (no NSFetchRequest<Entity>, Entity.fetchRequest() or entityName: \"Entity\" in its function)") }
            add(node, "NSPredicate(format:)", .fetch("\(entity) WHERE \(predicate)" + FetchSettingsReader.sort(around: Syntax(node))))
        } catch {
            add(node, "NSPredicate(format:)", .unreadable("\(error)"))
        }
        return .skipChildren
    }

    override func visit(_ node: MacroExpansionExprSyntax) -> SyntaxVisitorContinueKind {
        guard node.macroName.text == "Predicate" else { return .visitChildren }
        // A @Query's filter is read with its attribute, its sort with it.
        if node.ancestorOrSelf(mapping: { $0.as(AttributeSyntax.self) }) != nil { return .skipChildren }
        let entity = node.genericArgumentClause?.arguments.first?.argument.trimmedDescription ?? EntityContext.predicateEntity(around: Syntax(node))
        let sort = EntityContext.descriptorSort(around: Syntax(node))
        let limit = EntityContext.descriptor(around: Syntax(node)) != nil ? FetchSettingsReader.descriptorLimit(around: Syntax(node)) : ""
        read(node, "#Predicate", entity: entity, sort: (sort + limit, !sort.isEmpty))
        return .skipChildren
    }

    override func visit(_ node: AttributeSyntax) -> SyntaxVisitorContinueKind {
        guard node.attributeName.trimmedDescription == "Query" else { return .visitChildren }
        let arguments = node.arguments?.as(LabeledExprListSyntax.self)
        let filterArgument = arguments?.first { $0.label?.text == "filter" }?.expression
        let filter = filterArgument?.as(MacroExpansionExprSyntax.self)
        if filterArgument != nil, filter == nil {
            add(node, "@Query", .unreadable("its filter is built elsewhere (not a #Predicate written here)"))
            return .skipChildren
        }
        guard filter != nil || arguments?.contains(where: { $0.label?.text == "sort" }) == true else { return .skipChildren }
        let entity = filter?.genericArgumentClause?.arguments.first?.argument.trimmedDescription ?? EntityContext.queryEntity(of: node)
        let sort = arguments.map { SortReader.query($0) } ?? (text: "", descriptors: false)
        if let filter {
            read(filter, "@Query", entity: entity, sort: sort)
        } else if let entity {
            add(node, "@Query", .fetch(entity + sort.text), descriptors: sort.descriptors)
        } else {
            add(node, "@Query", .unreadable("the queried entity is not named (no [Entity] type on its property)"))
        }
        return .skipChildren
    }

    private func read(_ macro: MacroExpansionExprSyntax, _ form: String, entity: String?, sort: (text: String, descriptors: Bool)) {
        do {
            guard let closure = macro.trailingClosure ?? macro.arguments.first?.expression.as(ClosureExprSyntax.self) else {
                throw Unreadable("the predicate is not a closure written here")
            }
            let predicate = try PredicateTranslator.predicate(closure)
            guard let entity else { throw Unreadable("the entity is not named (#Predicate<Entity>, FetchDescriptor<Entity> or a Predicate<Entity> type)") }
            add(macro, form, .fetch(entity + (predicate == "TRUEPREDICATE" ? "" : " WHERE " + predicate) + sort.text), descriptors: sort.descriptors)
        } catch {
            add(macro, form, .unreadable("\(error)"))
        }
    }
}

/// Why a fetch in the source cannot be read: one sentence.
struct Unreadable: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
