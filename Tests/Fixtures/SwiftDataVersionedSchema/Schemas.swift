import Foundation
import SwiftData

/// Two versions of a schema, each declaring its own `Point`; the current one named through an
/// alias of the version, and the models through aliases of that alias.
enum SchemaV1: VersionedSchema {
    static var versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Trail.self] }

    struct Point: Codable {
        var x: Double
        var y: Double
    }

    @Model
    final class Trail {
        var name: String = ""
        var start: Point?
        init() {}
    }
}

enum SchemaV2: VersionedSchema {
    static var versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Trail.self, Stage.self] }

    struct Point: Codable {
        var latitude, longitude: Double
        var altitude = 0.0
    }

    @Model
    final class Trail {
        var name: String = ""
        var start: Point?
        @Relationship(deleteRule: .cascade, inverse: \Stage.trail) var stages: [Stage] = []
        init() {}
    }

    @Model
    final class Stage {
        var order: Int = 0
        var end: Point?
        var trail: Trail?
        init() {}
    }
}

typealias SchemaLatest = SchemaV2
typealias Trail = SchemaLatest.Trail
typealias Stage = SchemaLatest.Stage
