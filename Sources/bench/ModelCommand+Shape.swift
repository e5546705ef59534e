import CoreDataStores
import Foundation
import Models

extension ModelCommand {
    /// The data's shape an entity's own properties carry (a store's, `StoreShape`), one line per
    /// kind, compact: each to-many's fan-out, each text's or binary's length, each indexed
    /// attribute's distinct share, the NULL shares among its own objects where they are its own.
    /// Aggregates only: no value of a row.
    static func shapeLines(of entity: Model.Entity) -> [String] {
        var lines: [String] = []
        let fanOuts = entity.ownRelationships.compactMap { relationship in relationship.fanOut.map { "\(relationship.name) \(summary($0))" } }
        if !fanOuts.isEmpty { lines.append("fan-out: " + fanOuts.joined(separator: "; ")) }
        let own = entity.ownAttributes.filter { !$0.isOrderKey }
        let lengths = own.compactMap { attribute in attribute.lengths.map { "\(attribute.name) \(summary($0))" } }
        if !lengths.isEmpty { lines.append("length: " + lengths.joined(separator: "; ")) }
        let distinct = own.compactMap { attribute in attribute.distinctShare.map { "\(attribute.name) \(percent($0))" } }
        if !distinct.isEmpty { lines.append("distinct: " + distinct.joined(separator: "; ")) }
        let nulls = entity.nullShares.sorted { $0.key < $1.key }.map { "\($0.key) \(percent($0.value))" }
        if !nulls.isEmpty { lines.append("NULL among its own objects: " + nulls.joined(separator: "; ")) }
        return lines
    }

    /// What reading a store's shape measured, and how long reading the store took.
    static func shapeSummary(of store: CoreDataStoreFile) -> String {
        let shape = store.distributions
        let sampled = shape.sampled.isEmpty ? "" : " (a sample of \(shape.sampled.joined(separator: ", ")))"
        func counted(_ number: Int, _ one: String, _ many: String) -> String { "\(number) \(number == 1 ? one : many)" }
        let own = store.description.entities.reduce(0) { $0 + $1.nullShares.count }
        let byEntity = own == 0 ? "" : " (and \(own) per entity, where the entities of a hierarchy differ)"
        return "Shape: the NULL shares of \(counted(store.nullSharesMeasured, "optional property", "optional properties"))\(byEntity), "
            + "the fan-outs of \(counted(shape.fanOuts, "to-many", "to-manys")), the lengths of \(counted(shape.lengths, "text or binary attribute", "text and binary attributes")), "
            + "the distinct shares of \(counted(shape.distinctShares, "indexed attribute", "indexed attributes"))\(sampled); "
            + "model and shape read in \(String(format: "%.2f", store.readSeconds)) s"
    }

    /// `median 2, p90 7, max 31` (whole numbers; one decimal where a quantile falls between two).
    static func summary(_ quantiles: Quantiles) -> String {
        "median \(number(quantiles.median)), p90 \(number(quantiles.p90)), max \(number(quantiles.maximum))"
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String((value * 10).rounded() / 10)
    }

    private static func percent(_ share: Double) -> String {
        let value = share * 100
        return (value >= 10 || value == 0 ? String(Int(value.rounded())) : String((value * 10).rounded() / 10)) + " %"
    }
}
