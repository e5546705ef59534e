/// The registry of strategies: the only place that lists them.
public enum Strategies {
    /// Every strategy, in the order tables and CSVs show them; the first is the baseline ratios refer to.
    public static var all: [any StorageStrategy.Type] { [
        SingleTableStrategy.self,
        TablePerEntityStrategy.self,
        EnumEntityStrategy.self,
        JoinedStrategy.self,
        JSONEntityStrategy.self,
    ] }

    /// The strategy ratios are computed against.
    public static var baseline: any StorageStrategy.Type { all[0] }

    public static var names: [String] { all.map { $0.name } }

    public static func named(_ name: String) -> (any StorageStrategy.Type)? {
        all.first { $0.name == name }
    }
}
