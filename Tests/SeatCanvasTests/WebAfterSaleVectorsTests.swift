import Foundation
import SeatJSON
import SeatKitTestSupport
import SeatMap
import Testing

/// The order page says what a change of showing gives up from the target's after-sale terms, with the
/// engine's defaults for the members a show leaves out (`AfterSalePolicy`). The engine writes its
/// defaults and how it reads a few shows' terms (`Tests/Web/Vectors/after-sale/terms.json`); the page's
/// js/order-terms.js must read them alike (Tests/Web/order-terms.test.mjs), so the two never drift.
@Suite struct WebAfterSaleVectorsTests {
    static let given = [
        #"{}"#, #"{"refunds":false}"#, #"{"refundMinutes":720,"exchanges":2}"#, #"{"exchangeFee":"5.00","exchangeMinutes":15}"#,
    ]

    static func write(_ p: AfterSalePolicy, into w: inout JSONWriter) {
        w.raw("{"); w.key("exchanges", first: true); w.number(p.exchanges); w.key("exchangeMinutes"); w.number(p.exchangeMinutes)
        w.key("exchangeFee"); w.string(p.exchangeFee.description); w.key("refunds"); w.raw(p.refunds ? "true" : "false")
        w.key("refundMinutes"); w.number(p.refundMinutes); w.raw("}")
    }

    @Test func theEngineWritesItsAfterSaleTerms() throws {
        var w = JSONWriter()
        w.raw("{"); w.key("standard", first: true); Self.write(.standard, into: &w); w.key("cases"); w.raw("[")
        for (k, text) in Self.given.enumerated() {
            if k > 0 { w.raw(",") }
            let read = AfterSalePolicy(detailsJSON: #"{"afterSale":\#(text)}"#)
            w.raw("{"); w.key("given", first: true); w.raw(text); w.key("read"); Self.write(read, into: &w); w.raw("}")
        }
        w.raw("]}\n")
        assertSnapshot(w.text, named: "terms.json", in: repo.appendingPathComponent("Tests/Web/Vectors/after-sale"))
    }
}
