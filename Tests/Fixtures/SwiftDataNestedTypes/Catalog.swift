import Foundation
import SwiftData

/// Two nested types of one name: each model's `Kind` is its own.
@Model
final class Album {
    var title: String = ""
    var kind: Kind = Kind.single

    enum Kind: Int, Codable {
        case single, extendedPlay, longPlay
    }

    init() {}
}

@Model
final class Film {
    var title: String = ""
    var kind: Kind = .feature
    var format: Format?

    init() {}
}

extension Film {
    enum Kind: String, Codable {
        case short, feature, series
    }

    struct Format: Codable {
        var width: Int
        var height: Int
        var kind: Kind
    }
}
