import Foundation
import SwiftSyntax

/// Walks one parsed Swift file and collects what SwiftData reads from it: the `@Model` classes
/// (their stored properties, `#Index` and `#Unique`), the names of the other classes, and the
/// structs and enums a property may store as a Codable value. Methods, initialisers and
/// expressions are not read.
final class SwiftDeclarationCollector: SyntaxVisitor {
    private let converter: SourceLocationConverter
    private let file: String
    private(set) var models: [SwiftModelClass] = []
    private(set) var otherClasses: [String: String] = [:]
    private(set) var valueTypes: [String: SwiftValueType] = [:]
    /// `typealias Item = SchemaV2.Item` at the top level: the container each alias picks, by name.
    private(set) var aliases: [String: String] = [:]

    init(file: String, tree: SourceFileSyntax) {
        self.file = file
        converter = SourceLocationConverter(fileName: file, tree: tree)
        super.init(viewMode: .sourceAccurate)
    }

    func location(_ node: some SyntaxProtocol) -> String {
        let at = node.startLocation(converter: converter)
        return "\(file):\(at.line):\(at.column)"
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        guard let model = node.attributes.named("Model") else {
            otherClasses[node.name.text.unquoted] = location(node.name)
            return .visitChildren
        }
        let schemaName = model.argument("schemaName").flatMap(\.stringLiteral)
        var found = SwiftModelClass(name: node.name.text.unquoted, container: Self.container(of: node), entityName: schemaName ?? node.name.text.unquoted,
                                    inherits: node.inheritanceClause?.inheritedTypes.first.map { Self.baseName($0.type) },
                                    notes: BenchNotes.read(node.leadingTrivia), location: location(node.name))
        for member in node.memberBlock.members {
            if let variable = member.decl.as(VariableDeclSyntax.self) {
                found.properties += properties(variable)
            } else if let macro = member.decl.as(MacroExpansionDeclSyntax.self) {
                keyPathMacro(macro, into: &found)
            }
        }
        models.append(found)
        return .visitChildren
    }

    override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
        if Self.container(of: node) == nil, let member = node.initializer.value.as(MemberTypeSyntax.self), member.name.text == node.name.text {
            aliases[node.name.text.unquoted] = Self.baseName(member.baseType)
        }
        return .skipChildren
    }

    /// The name of the innermost type or extension `node` is declared in.
    static func container(of node: some SyntaxProtocol) -> String? {
        var current = node.parent
        while let syntax = current {
            if let declaration = syntax.as(EnumDeclSyntax.self) { return declaration.name.text.unquoted }
            if let declaration = syntax.as(StructDeclSyntax.self) { return declaration.name.text.unquoted }
            if let declaration = syntax.as(ClassDeclSyntax.self) { return declaration.name.text.unquoted }
            if let declaration = syntax.as(ExtensionDeclSyntax.self) { return baseName(declaration.extendedType) }
            current = syntax.parent
        }
        return nil
    }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        var fields: [(name: String, type: SwiftType)] = []
        for member in node.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self),
                  !variable.modifiers.contains(where: { ["static", "class"].contains($0.name.text) }) else { continue }
            for binding in variable.bindings where !Self.isComputed(binding) {
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text.unquoted,
                      let type = binding.typeAnnotation?.type else { continue }
                fields.append((name, SwiftType(type)))
            }
        }
        valueTypes[node.name.text.unquoted] = SwiftValueType(name: node.name.text.unquoted, kind: .structure(fields: fields))
        return .visitChildren
    }

    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        var cases: [(name: String, values: [(label: String?, type: SwiftType)])] = []
        for member in node.memberBlock.members {
            guard let declaration = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
            for element in declaration.elements {
                let values = element.parameterClause?.parameters.map { parameter in
                    (label: parameter.firstName.map(\.text.unquoted), type: SwiftType(parameter.type))
                } ?? []
                cases.append((element.name.text.unquoted, values))
            }
        }
        let raw = node.inheritanceClause?.inheritedTypes.first.map { Self.baseName($0.type) }
        valueTypes[node.name.text.unquoted] = SwiftValueType(name: node.name.text.unquoted, kind: .enumeration(rawType: raw, cases: cases))
        return .visitChildren
    }

    /// The properties one `var` or `let` declares (`var a, b: Int` declares two).
    private func properties(_ variable: VariableDeclSyntax) -> [SwiftProperty] {
        let modifiers = Set(variable.modifiers.map(\.name.text))
        var notes = BenchNotes.read(variable.leadingTrivia)
        notes.merge(BenchNotes.read(variable.trailingTrivia)) { first, _ in first }
        var template = SwiftProperty(name: "", type: nil, location: location(variable))
        template.isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
        template.isStatic = modifiers.contains("static") || modifiers.contains("class")
        template.isLazy = modifiers.contains("lazy")
        template.notes = notes
        SwiftDataAttributes.apply(variable.attributes, to: &template)
        // `var a, b: Int`: a binding without a type takes the next one's.
        var laterType: TypeSyntax?
        var made: [SwiftProperty] = []
        for binding in variable.bindings.reversed() {
            laterType = binding.typeAnnotation?.type ?? (binding.initializer == nil ? laterType : nil)
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text.unquoted else { continue }
            var property = template
            property.name = name
            property.type = laterType.map(SwiftType.init)
            property.location = location(binding.pattern)
            property.isComputed = Self.isComputed(binding)
            made.append(property)
        }
        return made.reversed()
    }

    /// `#Index<T>([\.a], [\.b, \.c])` and `#Unique<T>([\.a, \.b])` inside a model class.
    private func keyPathMacro(_ macro: MacroExpansionDeclSyntax, into model: inout SwiftModelClass) {
        let name = macro.macroName.text
        guard name == "Index" || name == "Unique" else { return }
        let groups = macro.arguments.map { argument in
            SwiftModelClass.KeyPathGroup(properties: argument.expression.as(ArrayExprSyntax.self)?.elements.compactMap {
                $0.expression.as(KeyPathExprSyntax.self).map(Self.propertyPath)
            } ?? [], location: location(argument))
        }
        if name == "Index" {
            model.indexes += groups
            if let names = BenchNotes.read(macro.leadingTrivia)["bench.names"] ?? BenchNotes.read(macro.trailingTrivia)["bench.names"] {
                model.indexNames += names.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            }
        } else {
            model.uniques += groups
        }
    }

    /// `\.address.city` → `address.city`.
    static func propertyPath(_ path: KeyPathExprSyntax) -> String {
        path.components.compactMap { $0.component.as(KeyPathPropertyComponentSyntax.self)?.declName.baseName.text.unquoted }.joined(separator: ".")
    }

    /// A binding with a getter (`var x: Int { … }` or `{ get … }`) stores nothing; one with only
    /// `willSet`/`didSet` observers is stored.
    static func isComputed(_ binding: PatternBindingSyntax) -> Bool {
        guard let block = binding.accessorBlock else { return false }
        switch block.accessors {
        case .getter: return true
        case let .accessors(list):
            return list.contains { ["get", "set", "_read", "_modify", "unsafeAddress"].contains($0.accessorSpecifier.text) }
        }
    }

    /// `Foundation.Date` → `Date`; `Publication` → `Publication`.
    static func baseName(_ type: TypeSyntax) -> String {
        if let member = type.as(MemberTypeSyntax.self) { return member.name.text.unquoted }
        if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.name.text.unquoted }
        return type.trimmedDescription
    }
}

extension String {
    /// A Swift identifier without the backticks that let it be a keyword (`` `default` `` → `default`).
    var unquoted: String { count > 2 && hasPrefix("`") && hasSuffix("`") ? String(dropFirst().dropLast()) : self }
}
