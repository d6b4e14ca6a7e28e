import Foundation
import Logging
import SeatDomain
import SeatMap
import SeatSamples
import Testing

@testable import SeatInventory

/// An inventory on the store `makeStore` opens at a path in a fresh directory, with the sample hall and
/// one show, `show`, tomorrow's price table. The caller stops the inventory and removes the directory.
func sampleInventory<Store: SeatStore>(
    _ makeStore: (String) throws -> Store, logger: Logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
) throws -> (inventory: Inventory, store: Store, directory: URL) {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-inventory-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let store = try makeStore(dir.appendingPathComponent("store.sqlite").path)
    let inventory = try Inventory(store: store, logger: logger, describeShow: describeShowForTests)
    try inventory.addVenue(SampleVenues.cinemaHall())
    try inventory.addShow(
        Inventory.NewShow(
            id: "show", venueID: "cinema-hall-3", startsAt: "2099-12-01T19:30:00+08:00",
            prices: PriceTable(categoryPrices: ["standard": 40, "vip": 60, "couple": 90])))
    return (inventory, store, dir)
}

/// A `show` event's data for domain tests: the id, version and whether it is on sale (the API's
/// writer is SeatServer's, which these tests do not reach).
@Sendable func describeShowForTests(_ s: ShowSummary) -> String { #"{"id":"\#(s.record.id)","version":\#(s.version),"onSale":\#(s.open)}"# }
