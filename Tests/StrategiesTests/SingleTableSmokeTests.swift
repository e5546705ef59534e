import FetchRequests
import Generation
import Models
import SQLite
import Strategies
import XCTest

final class SingleTableSmokeTests: XCTestCase {
    func testEveryPresetRoundTrips() throws {
        for description in ModelPresets.all {
            let model = try Model(description.scaled(to: 1_500))
            let strategy = LayoutStore(try SingleTable(model: model), database: try Database(path: ":memory:"))
            try strategy.createSchema()
            let generator = ObjectGenerator(model, seed: 7)
            for batch in generator.batches(of: 400) { try strategy.insert(batch) }
            for root in model.roots {
                let fetched = try strategy.fetch(FetchRequest(entity: root))
                XCTAssertEqual(fetched.count, generator.count(root: root), description.name)
                for object in fetched.prefix(50) { XCTAssertEqual(object, generator.object(object.id).fetched, description.name) }
            }
        }
    }
}
