import CoreDataStores
import Foundation
import Generation
import Models
import SQLite
import Strategies

extension CoreDataStoreFixture {
    /// A store of `model`'s generated objects (seed `seed`), written by the suite's `single-table`
    /// layout (Core Data's own) with the model cache Core Data would keep: a store `bench model
    /// --model` reads like an app's, holding the generator's data shape.
    public static func writeGenerated(_ model: Model, seed: UInt64, to path: String, batchSize: Int = 2_000) throws {
        let database = try Database(path: path)
        let store = try LayoutStore(SingleTable.self, model, database: database)
        try store.createSchema()
        for batch in ObjectGenerator(model, seed: seed).batches(of: batchSize) { try store.insert(batch) }
        let content = RawDeflate.deflate(archive(of: model.description))
        let blob = try database.prepare("UPDATE Z_MODELCACHE SET Z_CONTENT = ?")
        try content.withUnsafeBytes { try blob.bind(bytes: $0, at: 1) }
        try blob.run()
    }
}
