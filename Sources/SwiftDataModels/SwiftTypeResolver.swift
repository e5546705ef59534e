/// What a type named in the sources means, as the Swift compiler would look it up: a name is
/// searched in the scope it is written in, then in each enclosing one, then at the top level
/// (`Kind` inside `Album` is `Album.Kind`, not `Film.Kind`); a path (`SchemaLatest.Note`) is
/// followed member by member; a type alias is replaced by what it names, however chained; a
/// module prefix (`Foundation.Date`) is dropped; an enum's `RawValue` is its raw type;
/// Foundation's and CoreGraphics' aliases of the types SwiftData stores (`TimeInterval`,
/// `CGFloat`, …) become those types. A name none of these finds is left as written: a type of a
/// framework, which the caller stores opaquely.
struct SwiftTypeResolver {
    /// A type declared in the sources, by its qualified name (`Album.Kind`).
    enum Declaration {
        case model
        case otherClass
        case value(SwiftValueType)
        /// `typealias Name = type`: the type as written, looked up from the alias's own scope, and
        /// where the alias is declared (`file:line:column`).
        case alias(SwiftType, location: String)
    }

    let declarations: [String: Declaration]

    /// Aliases the SDK declares for types SwiftData stores (`CGFloat` is a struct wrapping a
    /// `Double` on 64-bit platforms, and SwiftData stores it as one).
    static let frameworkAliases: [String: String] = [
        "TimeInterval": "Double", "CGFloat": "Double", "Float32": "Float", "Float64": "Double",
        "NSInteger": "Int", "NSUInteger": "UInt", "CFTimeInterval": "Double", "CGFloat.NativeType": "Double",
    ]

    /// Module names a type may be qualified with.
    static let modules: Set<String> = ["Swift", "Foundation", "CoreGraphics", "SwiftData", "SwiftUI", "UIKit", "AppKit", "CoreData", "CoreLocation", "MapKit"]

    /// How many aliases one lookup follows (a cycle of aliases is refused before any lookup,
    /// `refuseAliasCycles`).
    static let maximumAliases = 32

    /// The type with every name it contains resolved from `scope` (a qualified type name, or
    /// `nil` for the top level).
    func resolve(_ type: SwiftType, in scope: String?) -> SwiftType {
        var cycle: [String]?
        return resolve(type, in: scope, trail: [], cycle: &cycle)
    }

    /// `trail`: the aliases (and raw types) being followed; meeting one of them again is a cycle,
    /// kept in `cycle` (the trail from that alias to itself).
    func resolve(_ type: SwiftType, in scope: String?, trail: [String], cycle: inout [String]?) -> SwiftType {
        switch type {
        case let .named(path): resolveNamed(path, in: scope, trail: trail, cycle: &cycle)
        case let .optional(wrapped): .optional(resolve(wrapped, in: scope, trail: trail, cycle: &cycle))
        case let .array(element): .array(resolve(element, in: scope, trail: trail, cycle: &cycle))
        case let .set(element): .set(resolve(element, in: scope, trail: trail, cycle: &cycle))
        case let .dictionary(key, value):
            .dictionary(resolve(key, in: scope, trail: trail, cycle: &cycle), resolve(value, in: scope, trail: trail, cycle: &cycle))
        case .other: type
        }
    }

    /// The qualified name of the declaration `path` names from `scope`, aliases followed; `nil`
    /// when the sources do not declare it (or it names an alias of a non-nominal type).
    func qualified(_ path: String, in scope: String?) -> String? {
        var cycle: [String]?
        if case let .named(name) = resolveNamed(path, in: scope, trail: [], cycle: &cycle), declarations[name] != nil { return name }
        return nil
    }

    private func resolveNamed(_ path: String, in scope: String?, trail: [String], cycle: inout [String]?) -> SwiftType {
        guard trail.count <= Self.maximumAliases else { return .named(path) }
        var components = path.split(separator: ".").map(String.init)
        guard let first = components.first else { return .named(path) }
        var found = Self.scopes(scope).lazy.map { $0.map { "\($0).\(first)" } ?? first }.first { declarations[$0] != nil }
        if found == nil, components.count > 1, Self.modules.contains(first) {
            components.removeFirst()
            found = declarations[components[0]] != nil ? components[0] : nil
        }
        guard var current = found else {
            return Self.frameworkAliases[components.joined(separator: ".")].map(SwiftType.named) ?? .named(components.joined(separator: "."))
        }
        for (position, component) in components.enumerated() {
            if position > 0 {
                // `Category.RawValue`: the raw type an enum declares.
                if component == "RawValue", position == components.count - 1, case let .value(value)? = declarations[current],
                   case let .enumeration(rawType?, _) = value.kind {
                    let step = "\(current).RawValue"
                    if let start = trail.firstIndex(of: step) {
                        cycle = cycle ?? Array(trail[start...]) + [step]
                        return .named(path)
                    }
                    return resolve(rawType, in: current, trail: trail + [step], cycle: &cycle)
                }
                guard declarations["\(current).\(component)"] != nil else { return .named(path) }
                current = "\(current).\(component)"
            }
            guard case let .alias(target, _) = declarations[current] else { continue }
            if let start = trail.firstIndex(of: current) {
                cycle = cycle ?? Array(trail[start...]) + [current]
                return .named(path)
            }
            let resolved = resolve(target, in: Self.container(of: current), trail: trail + [current], cycle: &cycle)
            if position == components.count - 1 { return resolved }
            guard case let .named(name) = resolved, declarations[name] != nil else { return .named(path) }
            current = name
        }
        return .named(current)
    }

    /// The declaration a resolved type names, when the sources declare it.
    subscript(_ type: SwiftType) -> Declaration? {
        if case let .named(name) = type { return declarations[name] }
        return nil
    }

    /// `A.B.C` → `A.B`; `A` → `nil`.
    static func container(of qualified: String) -> String? {
        qualified.lastIndex(of: ".").map { String(qualified[..<$0]) }
    }

    /// The scopes a name written in `scope` is searched in, innermost first, the top level (`nil`) last.
    static func scopes(_ scope: String?) -> [String?] {
        var found: [String?] = []
        var current = scope
        while let name = current {
            found.append(name)
            current = container(of: name)
        }
        return found + [nil]
    }
}
