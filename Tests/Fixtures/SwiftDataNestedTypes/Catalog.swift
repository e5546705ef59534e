import Foundation
import SwiftData

/// Two nested types of one name: each model's `Kind` is its own (and `Kind.RawValue` its raw type).
@Model
final class Album {
    var title: String = ""
    var kind: Kind = Kind.single
    var previousKind: Kind.RawValue = 0

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
