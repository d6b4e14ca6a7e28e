import Foundation
import SeatJSON
import SeatMap

extension SeatCanvas {
    /// What each seat of a show costs, for a page that draws the map itself from `pickerGeometry`: the
    /// distinct prices as the engine formats them and, in seat order, runs of `length, index into
    /// prices` (a zone or row at one price is one run: the 100k arena's are 64), with the zones' names
    /// and price ranges for the legend (`zonesJSON`). Format: docs/formats/geometry.md.
    /// - Complexity: O(seats).
    public func seatPricesDocument(show: String, prices: SeatPrices, revision: Int, language: Language) -> String {
        var distinct: [Decimal] = [], indexOf: [Decimal: Int] = [:]
        var runs: [(length: Int, price: Int)] = []
        for s in layout.seatIndices {
            let p = prices.price(of: s)
            let k: Int
            if let known = indexOf[p] {
                k = known
            } else {
                k = distinct.count
                indexOf[p] = k
                distinct.append(p)
            }
            if let last = runs.last, last.price == k { runs[runs.count - 1].length += 1 } else { runs.append((1, k)) }
        }
        var w = JSONWriter(reservingCapacity: 256 + runs.count * 8 + layout.zones.count * 96)
        w.raw("{"); w.key("show", first: true); w.string(show)
        w.key("priceRevision"); w.number(revision)
        w.key("currency"); w.string(prices.table.currency)
        w.key("language"); w.string(language.rawValue)
        w.key("prices"); w.raw("[")
        for (k, p) in distinct.enumerated() {
            if k > 0 { w.raw(",") }
            w.string(prices.format(p))
        }
        w.raw("]"); w.key("runs"); w.raw("[")
        for (k, run) in runs.enumerated() {
            if k > 0 { w.raw(",") }
            w.number(run.length); w.raw(","); w.number(run.price)
        }
        w.raw("]"); w.key("zones"); w.raw(zonesJSON(prices: prices, language: language))
        w.raw("}")
        return w.text
    }

    /// Zones in layout order: id, name in `language`, colour, ink, price category, and the price range
    /// of their seats ("¥33.00–¥38.00", or one price).
    /// - Complexity: O(seats).
    public func zonesJSON(prices: SeatPrices, language: Language) -> String {
        var w = JSONWriter()
        w.raw("[")
        for (z, zone) in layout.zones.enumerated() {
            if z > 0 { w.raw(",") }
            w.raw("{"); w.key("id", first: true); w.string(zone.id)
            w.key("name"); w.string(localizedName(zone.name, language)); w.key("color"); w.string(zone.color)
            w.key("category"); w.string(zone.category)
            w.key("ink"); w.string(Palette.ink(on: zone.color))
            if let text = prices.zonePriceText(z) { w.key("price"); w.string(text) }
            w.raw("}")
        }
        w.raw("]")
        return w.text
    }
}
