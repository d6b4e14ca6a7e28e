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
        /// The picker's geometry document per language, plain and gzipped, made on first use.
        let geometry = Locked([Language: Representations]())
        /// What each seat sees of the stage (`VenueLayout.views`), made on first use.
        let seatViews = Locked<[SeatView?]?>(nil)
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

    /// The picker's geometry document in `language` (SeatCanvas.pickerGeometry), built on first use.
    /// - Complexity: O(seats) the first time, O(1) after.
    func geometry(_ venue: VenueEntry, language: Language) -> Representations {
        let v = views(venue)
        if let made = v.geometry.withLock({ $0[language] }) { return made }
        // Built outside the lock (the 100k arena takes a moment); two first requests may both build it.
        let made = Representations(Array(canvas(venue).pickerGeometry(language: language).utf8))
        return v.geometry.withLock { all in
            if let first = all[language] { return first }
            all[language] = made
            return made
        }
    }

    /// What `seat` sees of the stage (nil: no stage), every seat's computed on first use.
    /// - Complexity: O(seats) the first time, O(1) after.
    func seatView(_ venue: VenueEntry, seat: SeatIndex) -> SeatView? {
        let v = views(venue)
        let all = v.seatViews.withLock { cached in
            if let cached { return cached }
            let made = venue.layout.views()
            cached = made
            return made
        }
        return seat < all.count ? all[seat] : nil
    }

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
