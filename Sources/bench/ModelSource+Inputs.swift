import Foundation
import ModelSources
import Reporting

extension ModelSource {
    /// The files reading the source reads, none of which a command may write.
    var inputs: [InputFile] {
        switch self {
        case .preset: return []
        case let .json(path): return [InputFile(path, "the model file --model reads")]
        case let .xcode(path, _): return [InputFile(path, "the Xcode model --model reads", extent: .everythingInside)]
        case let .swiftData(path): return [InputFile(path, "a SwiftData source --model reads", extent: .filesInside(endingIn: ".swift"))]
        case let .store(path): return InputFile.store(path, "the store --model reads")
        }
    }
}
