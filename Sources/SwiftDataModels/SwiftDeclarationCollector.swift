import Foundation
import SwiftSyntax

/// Walks one parsed Swift file and collects what SwiftData reads from it: the `@Model` classes
/// (their stored properties, `#Index` and `#Unique`), and every type declaration by its qualified
/// name (`Album.Kind`) for `SwiftTypeResolver`: classes, the structs and enums a property may
/// store as a Codable value, and type aliases. Methods, initialisers and expressions other than
/// a stored property's initial value are not read.
final class SwiftDeclarationCollector: SyntaxVisitor {
    private let converter: SourceLocationConverter
    private let file: String
    private(set) var models: [SwiftModelClass] = []
    private(set) var declarations: [String: SwiftTypeResolver.Declaration] = [:]
    /// The top-level type aliases, by name (`typealias Note = SchemaLatest.Note`).
    private(set) var topLevelAliases: [String] = []

    init(file: String, tree: SourceFileSyntax) {
        self.file = file
        converter = SourceLocationConverter(fileName: file, tree: tree)
        super.init(viewMode: .sourceAccurate)
    }

    func location(_ node: some SyntaxProtocol) -> String {
        let at = node.startLocation(converter: converter)
        return "\(file):\(at.line):\(at.column)"
    }

    /// `name` qualified by the types `node` is declared in.
    private static func qualified(_ name: String, _ node: some SyntaxProtocol) -> String {
        container(of: node).map { "\($0).\(name)" } ?? name
    }

    private func declare(_ name: String, _ declaration: SwiftTypeResolver.Declaration) {
        if declarations[name] == nil { declarations[name] = declaration }
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        let name = node.name.text.unquoted
        let qualifiedName = Self.qualified(name, node)
        guard let model = node.attributes.named("Model") else {
            declare(qualifiedName, .otherClass)
            return .visitChildren
        }
        declare(qualifiedName, .model)
        let schemaName = model.argument("schemaName").flatMap(\.stringLiteral)
        var found = SwiftModelClass(name: name, qualifiedName: qualifiedName, container: Self.container(of: node), entityName: schemaName ?? name,
                                    inherits: node.inheritanceClause?.inheritedTypes.first.flatMap { SwiftType.path($0.type) },
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
        let name = node.name.text.unquoted
        if Self.container(of: node) == nil { topLevelAliases.append(name) }
        declare(Self.qualified(name, node), .alias(SwiftType(node.initializer.value), location: location(node.name)))
        return .skipChildren
    }

    /// The qualified name of the type or extension `node` is declared in (`Outer.Inner`).
    static func container(of node: some SyntaxProtocol) -> String? {
        var names: [String] = []
        var current = node.parent
        while let syntax = current {
            if let declaration = syntax.as(EnumDeclSyntax.self) { names.append(declaration.name.text.unquoted) }
            if let declaration = syntax.as(StructDeclSyntax.self) { names.append(declaration.name.text.unquoted) }
            if let declaration = syntax.as(ClassDeclSyntax.self) { names.append(declaration.name.text.unquoted) }
            if let declaration = syntax.as(ActorDeclSyntax.self) { names.append(declaration.name.text.unquoted) }
            if let declaration = syntax.as(ExtensionDeclSyntax.self) {
                names.append(SwiftType.path(declaration.extendedType) ?? baseName(declaration.extendedType))
                break
            }
            current = syntax.parent
        }
        return names.isEmpty ? nil : names.reversed().joined(separator: ".")
    }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        var fields: [(name: String, type: SwiftType?, written: String)] = []
        for member in node.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self),
                  !variable.modifiers.contains(where: { ["static", "class"].contains($0.name.text) }) else { continue }
            for binding in Self.bindings(variable) where !binding.isComputed {
                fields.append((binding.name, binding.type, binding.initializer?.trimmedDescription ?? ""))
            }
        }
        let name = Self.qualified(node.name.text.unquoted, node)
        declare(name, .value(SwiftValueType(name: name, kind: .structure(fields: fields))))
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
        let raw = node.inheritanceClause?.inheritedTypes.first.map { SwiftType($0.type) }
        let name = Self.qualified(node.name.text.unquoted, node)
        declare(name, .value(SwiftValueType(name: name, kind: .enumeration(rawType: raw, cases: cases))))
        return .visitChildren
    }

    /// One name a `var` or `let` declares: `var a, b: Int` declares two, both `Int`; `var c = 0`
    /// one whose type its initial value tells.
    struct Binding {
        var name: String
        var type: SwiftType?
        var initializer: ExprSyntax?
        var isComputed: Bool
        var pattern: PatternSyntax
    }

    static func bindings(_ variable: VariableDeclSyntax) -> [Binding] {
        // `var a, b: Int`: a binding without a type or value takes the next one's type.
        var laterType: TypeSyntax?
        var made: [Binding] = []
        for binding in variable.bindings.reversed() {
            laterType = binding.typeAnnotation?.type ?? (binding.initializer == nil ? laterType : nil)
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text.unquoted else { continue }
            let value = binding.initializer?.value
            made.append(Binding(name: name, type: laterType.map(SwiftType.init) ?? value.flatMap(SwiftInitialValue.type(of:)),
                                initializer: value, isComputed: isComputed(binding), pattern: binding.pattern))
        }
        return made.reversed()
    }

    /// The properties one `var` or `let` of a model class declares.
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
        return Self.bindings(variable).map { binding in
            var property = template
            property.name = binding.name
            property.type = binding.type
            property.initialValue = binding.initializer?.trimmedDescription
            property.location = location(binding.pattern)
            property.isComputed = binding.isComputed
            return property
        }
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
