import Foundation
import Generation
import Models
import StoreFiles
import Strategies

/// `bench generate`: one populated, checked store written whole or not at all.
public enum StoreGeneration {
    /// The hidden file beside `path` the store is built in: `.NAME.<pid>.partial`.
    public static func partialPath(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).partial").path
    }

    /// Builds the store in a hidden `.partial` file beside `path`, checks it, and renames it into
    /// place (a store it replaces stays whole until then, its companion files removed only then);
    /// on any failure the partial files are removed. Returns what the store holds.
    public static func generate(_ type: any StorageLayout.Type, dataset: any Dataset, batchSize: Int, path: String) throws -> Census {
        let partial = partialPath(for: path)
        let census = Census(dataset)
        do {
            let store = try MeasuredStore(try type.init(model: dataset.model), path: partial)
            try store.populate(dataset, batchSize: batchSize, census: census)
            store.close()
            // The replaced store's WAL and shared-memory files would be read as the new one's.
            for companion in StoreFile.companions(of: path) { unlink(companion) }
            guard rename(partial, path) == 0 else {
                throw NameList.Error(description: "could not move the finished store to \(path): \(String(cString: strerror(errno)))")
            }
        } catch {
            StoreFile.remove(partial)
            throw error
        }
        return census
    }
}
