/// The registry: every strategy the suite measures, in the order tables and charts show them.
/// The first is the baseline every ratio is taken against.
public enum Strategies {
    public static let all: [any StorageLayout.Type] = [
        SingleTable.self,
        TablePerEntity.self,
        EnumEntity.self,
        Joined.self,
        JSONEntity.self,
    ]

    public static var names: [String] { all.map { $0.name } }
    public static var baseline: any StorageLayout.Type { all[0] }
}
