import SeatCanvas
import SeatHTTP
import SeatInventory
import SeatMap
import SharedState

/// What the API derives from a venue, made once per venue and kept (venues are immutable, so a venue
/// id always means the same layout): its JSON in both encodings (gzip: one compression, ~40 ms for a
/// 20k arena, instead of one per request) and its picture (geometry and spatial index, O(seats)).
/// Lock: `views`; a canvas is built under it, so concurrent first callers build it once.
final class VenueViews: Sendable {
    private final class Views: Sendable {
        let json: Representations
        let canvas = Locked<SeatCanvas?>(nil)
        init(_ venue: VenueEntry) { json = Representations(venue.json) }
    }

    private let views = Locked([String: Views]())

    private func views(_ venue: VenueEntry) -> Views {
        views.withLock { all in
            if let v = all[venue.layout.id] { return v }
            let v = Views(venue)
            all[venue.layout.id] = v
            return v
        }
    }

    /// The layout's JSON, plain and gzipped.
    func json(_ venue: VenueEntry) -> Representations { views(venue).json }

    /// The venue as a picture, built on first use.
    func canvas(_ venue: VenueEntry) -> SeatCanvas {
        views(venue).canvas.withLock { cached in
            if let cached { return cached }
            let c = SeatCanvas(layout: venue.layout)
            cached = c
            return c
        }
    }
}
