import SeatJSON
/// The formats `seatkit import` reads.
public enum ImportFormat: String, Sendable, CaseIterable {
    case seatkit
    case seed
    case cinemaGrid = "cinema-grid"
    case pretix
    case reseller
    /// A seats.io chart's detailed report (byLabel, byObjectType…): seats, tables, areas, booths.
    case seatsio

    /// Guesses the format from a document's top-level members.
    public static func detect(_ root: JSONValue) -> ImportFormat? {
        guard let o = root.objectValue else {
            if SeatsioFormat.recognises(root) { return .seatsio }
            return ResellerFormat.seatList(root) != nil ? .reseller : nil
        }
        if o["format"]?.stringValue == VenueLayout.formatName { return .seatkit }
        if o["screeningId"] != nil || (o["seats"] != nil && o["groups"] != nil) { return .seed }
        if CinemaGridFormat.recognises(o) { return .cinemaGrid }
        if o["categories"] != nil && o["zones"] != nil { return .pretix }
        if SeatsioFormat.recognises(root) { return .seatsio }
        if ResellerFormat.seatList(root) != nil { return .reseller }
        return nil
    }
}

/// What an import may be told beyond the document.
public struct ImportOptions: Sendable, Equatable {
    /// A vendor's numeric seat-status codes (as text: `"1"`, `"-1"`) and what each means. Codes not
    /// here are ignored and listed in the notes.
    public var statusMap: [String: SeatStatus]

    public init(statusMap: [String: SeatStatus] = [:]) { self.statusMap = statusMap }

    /// `1=available,4=blocked`: the `--status-map` option's text; nil with what is wrong.
    public static func statusMap(parsing text: String) -> Result<[String: SeatStatus], LayoutError> {
        var map: [String: SeatStatus] = [:]
        for (k, item) in text.split(separator: ",", omittingEmptySubsequences: false).enumerated() {
            let parts = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty, let status = SeatStatus(name: parts[1]) else {
                return .failure(
                    LayoutError(problems: [
                        LayoutProblem(path: "--status-map item \(k + 1)", message: "\"\(item)\": expected CODE=available, held, sold or blocked")
                    ]))
            }
            map[parts[0]] = status
        }
        return .success(map)
    }
}

/// A layout plus the per-seat statuses the source carried, if any, and what the importer noticed
/// and let through (codes it ignored, contradictions it resolved, each naming where).
public struct ImportedVenue: Sendable {
    public var layout: VenueLayout
    public var availability: SeatAvailability?
    public var notes: [String] = []

    public init(layout: VenueLayout, availability: SeatAvailability?, notes: [String] = []) {
        self.layout = layout; self.availability = availability; self.notes = notes
    }
}

extension ImportedVenue {
    /// Parses and converts a document. `fallbackID` names the venue when the format has no id.
    public init(format: ImportFormat?, json bytes: [UInt8], fallbackID: String = "imported", options: ImportOptions = ImportOptions()) throws(LayoutError) {
        let root: JSONValue
        do { root = try JSONParser.parse(bytes) } catch { throw LayoutError(error) }
        guard let format = format ?? ImportFormat.detect(root) else {
            throw LayoutError(problems: [
                LayoutProblem(path: "", message: "unrecognised format (expected seatkit, seed, cinema-grid, pretix, reseller or a seats.io chart report)")
            ])
        }
        switch format {
        case .seatkit: self.init(layout: try VenueLayout(jsonValue: root), availability: nil)
        case .seed: self = try SeedFormat.convert(root)
        case .cinemaGrid: self = try CinemaGridFormat.convert(root, fallbackID: fallbackID, options: options)
        case .pretix: self = try PretixFormat.convert(root, fallbackID: fallbackID)
        case .reseller: self = try ResellerFormat.convert(root, fallbackID: fallbackID, options: options)
        case .seatsio: self = try SeatsioFormat.convert(root, fallbackID: fallbackID)
        }
    }

    /// Statuses gathered by an importer, applied to a fresh availability for the built layout.
    static func availability(_ layout: VenueLayout, statuses: [String: SeatStatus]) -> SeatAvailability {
        var a = SeatAvailability(layout: layout)
        for (id, status) in statuses where status != .available {
            if let i = layout.index(ofSeatID: id) { a.setStatus(status, for: i) }
        }
        return a
    }
}

/// A screen centred in front of the first row, for formats that do not place one.
func defaultScreen(for rows: [RowSpec]) -> Stage? {
    let seats = rows.flatMap(\.seats)
    guard let minX = seats.map(\.x).min(), let maxX = seats.map(\.x).max(), let minY = seats.map(\.y).min() else { return nil }
    // Three fifths of the seats' width, to 1/100 of a seat (a 25-seat row's 14.399999999999999 is 14.4).
    let width = (max(1, (maxX - minX) * 0.6) * 100).rounded() / 100
    return Stage(label: "银幕 SCREEN", center: FloorPoint(x: (minX + maxX) / 2, y: minY - 2), width: width)
}

/// Colours for zones whose source gives none.
let zonePalette = ["#4A90D9", "#E5A000", "#7B61FF", "#2BB673", "#E8505B", "#00A3BF", "#F2784B", "#8E44AD"]
