import Models

/// Apps that migrate their SwiftData store declare each version of the schema in a type of its
/// own (`enum SchemaV1: VersionedSchema { @Model final class Item … }`, `enum SchemaV2: …`), and
/// name the current one with top-level aliases (`typealias Item = SchemaV2.Item`, or through an
/// alias of the version: `typealias SchemaLatest = SchemaV2; typealias Item = SchemaLatest.Item`).
/// Where a class is declared in several such types, the one the aliases name is read and the
/// others are left out, with a warning; without an alias to tell, it is one sentence asking for one.
enum SwiftSchemaVersions {
    /// `aliasTargets`: the qualified name each top-level alias resolves to.
    static func current(_ models: [SwiftModelClass], aliasTargets: [String]) throws -> (models: [SwiftModelClass], warning: String?) {
        var containers: [String: [String]] = [:]
        for model in models { containers[model.name, default: []].append(model.container ?? "the top level") }
        let versions = Set(containers.values.filter { Set($0).count > 1 }.flatMap { $0 })
        guard !versions.isEmpty else { return (models, nil) }
        // An alias names a version itself (`SchemaLatest = SchemaV2`) or a type declared in one.
        let named = Dictionary(grouping: aliasTargets.compactMap { target in
            versions.contains(target) ? target : SwiftTypeResolver.scopes(target).compactMap { $0 }.first(where: versions.contains)
        }, by: { $0 }).mapValues(\.count)
        let listed = versions.sorted().joined(separator: ", ")
        guard let most = named.values.max(), let chosen = named.filter({ $0.value == most }).keys.sorted().first,
              named.values.filter({ $0 == most }).count == 1 else {
            let example = models.first { $0.container != nil && versions.contains($0.container ?? "") }
            let hint = example.map { "typealias \($0.name) = <current version>.\($0.name)" } ?? "typealias Model = <current version>.Model"
            throw ModelError("\(example?.location ?? "the sources"): the same @Model classes are declared in \(listed) (versioned schemas); the suite reads one: name the current one with top-level aliases, such as `\(hint)`, or "
                + "give --model the file of one version")
        }
        let kept = models.filter { model in model.container.map { $0 == chosen || !versions.contains($0) } ?? !versions.contains("the top level") }
        let others = versions.subtracting([chosen]).sorted().joined(separator: ", ")
        return (kept, "the same @Model classes are declared in \(listed); reading \(chosen), the version the top-level typealiases name (\(others) left out)")
    }
}
