import Testing

@testable import SeatServer

/// The seat-prices documents are made once a show, revision and language, and the oldest let go past
/// the cache's capacity.
@Suite struct SeatPricesCacheTests {
    @Test func aDocumentIsMadeOnceAndTheOldestGo() {
        let cache = SeatPricesCache(capacity: 2)
        var made = 0
        func get(_ show: String, _ revision: Int) -> [UInt8] {
            cache.document(show: show, revision: revision, language: "en") {
                made += 1
                return "\(show)@\(revision)"
            }.plain
        }
        #expect(get("a", 0) == Array("a@0".utf8) && made == 1)
        #expect(get("a", 0) == Array("a@0".utf8) && made == 1, "kept, not made again")
        #expect(get("a", 1) == Array("a@1".utf8) && made == 2, "a new revision is a new document")
        #expect(get("b", 0) == Array("b@0".utf8) && made == 3)
        #expect(cache.count == 2, "the oldest (a@0) went")
        _ = get("a", 0)
        #expect(made == 4, "made again once it had gone")
    }
}
