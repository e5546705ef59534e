/// The models `bench run --preset NAME` knows. `publications` is the suite's default.
public enum ModelPresets {
    public static let all: [ModelDescription] = [publications, efcoreAnimals, efcoreDocs, codingMilitia, timestamps]
    public static var names: [String] { all.map(\.name) }
    public static func named(_ name: String) -> ModelDescription? { all.first { $0.name == name } }
}
