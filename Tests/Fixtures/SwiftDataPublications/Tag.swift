import SwiftData

@Model
final class Tag {
    @Attribute(.unique) var name: String // bench.values: topic
    var publications: [Publication] = []

    init(name: String) { self.name = name }
}
