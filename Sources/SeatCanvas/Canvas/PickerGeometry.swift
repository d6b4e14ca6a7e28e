import CollectionLayout
import SeatJSON
import SeatMap

extension SeatCanvas {
    /// Positions in the geometry document are whole hundredths of a point (0.005 pt at most from the
    /// engine's, far below a pixel), each seat's the difference from the previous seat's: along a row
    /// that is the same few numbers again and again, so the 100k arena's centres gzip to 94 KB, not 580 KB.
    public static let geometryScale = 100.0

    /// Everything static a picker that draws by itself needs (a browser canvas), in `language`: the rules,
    /// each seat's centre, id, printed number, row, zone and marks, the template its spoken name fills,
    /// the status-independent parts of its label (`detailSets`, shared), the rows by height for the
    /// gutter, the aisle-separated blocks for the rows level, the zones with outline, colour and ink, the
    /// stage, the centre line and the status palette. A per-venue document, sent once and cached (it
    /// changes only with the layout); statuses and prices come per show. Format: docs/formats/geometry.md.
    /// - Complexity: O(seats).
    public func pickerGeometry(language: Language) -> String {
        var w = JSONWriter(reservingCapacity: layout.seatCount * 24)
        w.raw("{")
        w.key("format", first: true); w.string("seatkit-picker-geometry/2")
        w.key("venue"); w.string(layout.id)
        w.key("name"); w.string(localizedName(layout.name, language))
        w.key("language"); w.string(language.rawValue)
        w.key("rules"); w.raw(pickerRules().json)
        w.key("contentWidth"); w.number(contentSize.width)
        w.key("contentHeight"); w.number(contentSize.height)
        w.key("scale"); w.number(Self.geometryScale)
        w.key("nameFormat"); w.string(VenueLayout.printedNameFormat(language))
        writeSeats(&w, language)
        w.key("rows"); w.raw(gutterRowsJSON)
        w.key("blocks"); w.raw("[")
        for (b, seats) in layout.blocks.enumerated() {
            if b > 0 { w.raw(",") }
            let r = geometry.blockRects[b]
            w.raw("["); w.number(r.minX); w.raw(","); w.number(r.minY); w.raw(","); w.number(r.width); w.raw(","); w.number(r.height)
            w.raw(","); w.number(seats.lowerBound); w.raw(","); w.number(seats.upperBound); w.raw("]")
        }
        w.raw("]")
        writeZones(&w, language)
        w.key("stage")
        if let s = geometry.stage {
            w.raw("{"); w.key("label", first: true); w.string(localizedName(s.label, language))
            w.key("x"); w.number(s.center.x); w.key("y"); w.number(s.center.y); w.key("width"); w.number(s.width); w.key("depth"); w.number(s.depth)
            w.key("surrounded"); w.raw(s.surrounded ? "true" : "false"); w.key("facesDown"); w.raw(s.facesDown ? "true" : "false")
            w.raw("}")
        } else {
            w.raw("null")
        }
        w.key("centreLine")
        if let (a, b) = geometry.centreLine {
            w.raw("["); w.number(a.x); w.raw(","); w.number(a.y); w.raw(","); w.number(b.x); w.raw(","); w.number(b.y); w.raw("]")
        } else {
            w.raw("null")
        }
        // The best-view area, [x, y, width, height] (null: none): drawn dashed under the seats.
        w.key("bestView")
        if let r = bestView {
            w.raw("["); w.number(r.minX); w.raw(","); w.number(r.minY); w.raw(","); w.number(r.width); w.raw(","); w.number(r.height); w.raw("]")
        } else {
            w.raw("null")
        }
        w.key("palette"); w.raw(Palette.json)
        w.key("drawing"); w.raw(Drawing.json(cornerRadius: style.cornerRadius, language: language))
        w.key("statusWords"); w.raw(statusWordsJSON(language: language))
        w.key("separator"); w.string(Self.labelSeparator(language))
        w.raw("}")
        return w.text
    }

    /// A seat's centre in the document's units (whole hundredths of a point).
    static func quantized(_ v: Double) -> Int { Int((v * geometryScale).rounded()) }

    /// A seat's marks in the document: what its square shows besides its number.
    public struct GeometryMarks: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Drawn with ♿ instead of its number.
        public static let wheelchair = GeometryMarks(rawValue: 1)
        /// The left half of a couple seat: one outline joins it with the next seat.
        public static let coupleLeft = GeometryMarks(rawValue: 2)
        /// A dot in its corner.
        public static let restrictedView = GeometryMarks(rawValue: 4)
    }

    public func geometryMarks(_ s: SeatIndex) -> GeometryMarks {
        var marks: GeometryMarks = []
        switch layout.type(of: s) {
        case .wheelchair: marks.insert(.wheelchair)
        case .coupleLeft: marks.insert(.coupleLeft)
        default: break
        }
        if layout.flags(of: s).contains(.restrictedView) { marks.insert(.restrictedView) }
        return marks
    }

    /// The rows as a page's gutters read them, by height: `[label, centre y, row, left x, right x, top y,
    /// bottom y]` (of rows crowding one height, the gutter names the one nearest the view's centre line;
    /// a row taller than wide is named in the top gutter).
    /// - Complexity: O(rows).
    public var gutterRowsJSON: String {
        var w = JSONWriter()
        w.raw("[")
        for (k, entry) in geometry.rowsByY.enumerated() {
            if k > 0 { w.raw(",") }
            let extent = geometry.rowRects[entry.row]
            w.raw("["); w.string(layout.rows[entry.row].label); w.raw(","); w.number(entry.y); w.raw(","); w.number(entry.row)
            w.raw(","); w.number(extent.minX); w.raw(","); w.number(extent.maxX)
            w.raw(","); w.number(extent.minY); w.raw(","); w.number(extent.maxY); w.raw("]")
        }
        w.raw("]")
        return w.text
    }

    /// The status words in `language`, as a label says them: available, held, sold, blocked and selected.
    public func statusWordsJSON(language: Language) -> String {
        var w = JSONWriter()
        w.raw("{")
        for (k, status) in [SeatStatus.available, .held, .sold, .blocked].enumerated() {
            w.key(status.name, first: k == 0); w.string(statusWord(status, selected: false, language: language))
        }
        w.key("selected"); w.string(statusWord(.available, selected: true, language: language))
        w.raw("}")
        return w.text
    }

    /// Per seat, in availability order: x and y (differences, see `geometryScale`), id (front-coded:
    /// `"<UTF-16 units shared with the previous id>:<the rest>"`), number, row, zone, marks and an index
    /// into `detailSets` (zone, kind, restricted view: a venue has a handful of combinations).
    private func writeSeats(_ w: inout JSONWriter, _ language: Language) {
        let seats = layout.seatIndices
        func column(_ name: String, _ value: (SeatIndex) -> Void) {
            w.key(name); w.raw("[")
            for s in seats {
                if s > 0 { w.raw(",") }
                value(s)
            }
            w.raw("]")
        }
        var sets: [[String]] = [], setIndex: [[String]: Int] = [:]
        let details = seats.map { s -> Int in
            let parts = spokenLabelParts(s, prices: nil, language: language).details
            if let k = setIndex[parts] { return k }
            setIndex[parts] = sets.count
            sets.append(parts)
            return sets.count - 1
        }
        w.key("seats"); w.raw("{")
        w.key("count", first: true); w.number(layout.seatCount)
        var previous = 0
        column("x") {
            let q = Self.quantized(geometry.center(of: $0).x)
            w.number(q - previous); previous = q
        }
        previous = 0
        column("y") {
            let q = Self.quantized(geometry.center(of: $0).y)
            w.number(q - previous); previous = q
        }
        // Shared characters are counted in UTF-16 code units, as a page's `String.slice` counts them.
        var last: [UInt16] = []
        column("id") {
            let id = Array(layout.seatID($0).utf16)
            var shared = 0
            while shared < min(id.count, last.count) && id[shared] == last[shared] { shared += 1 }
            // Never split a surrogate pair.
            while shared > 0 && shared < id.count && (0xDC00...0xDFFF).contains(id[shared]) { shared -= 1 }
            w.string(String(shared) + ":" + String(decoding: id[shared...], as: UTF16.self))
            last = id
        }
        column("number") { w.string(layout.seatLabel($0)) }
        column("row") { w.number(layout.rowIndex(of: $0)) }
        column("zone") { w.number(layout.zoneIndex(of: $0)) }
        column("marks") { w.number(geometryMarks($0).rawValue) }
        column("details") { w.number(details[$0]) }
        w.raw("}")
        w.key("detailSets"); w.raw("[")
        for (k, set) in sets.enumerated() {
            if k > 0 { w.raw(",") }
            w.raw("[")
            for (j, part) in set.enumerated() { if j > 0 { w.raw(",") }; w.string(part) }
            w.raw("]")
        }
        w.raw("]")
    }

    private func writeZones(_ w: inout JSONWriter, _ language: Language) {
        w.key("zones"); w.raw("[")
        for (z, zone) in layout.zones.enumerated() {
            if z > 0 { w.raw(",") }
            w.raw("{"); w.key("id", first: true); w.string(zone.id); w.key("name"); w.string(localizedName(zone.name, language))
            w.key("category"); w.string(zone.category); w.key("color"); w.string(zone.color); w.key("ink"); w.string(Palette.ink(on: zone.color))
            // x, y, x, y … of every part, and where each part ends (in points): a zone's rows interrupted by
            // another zone's are drawn as separate outlines.
            w.key("outline"); w.raw("[")
            for (k, p) in geometry.zoneOutlines[z].flatMap({ $0 }).enumerated() {
                if k > 0 { w.raw(",") }
                w.number(p.x); w.raw(","); w.number(p.y)
            }
            w.raw("]"); w.key("parts"); w.raw("[")
            var end = 0
            for (k, part) in geometry.zoneOutlines[z].enumerated() {
                end += part.count
                if k > 0 { w.raw(",") }
                w.number(end)
            }
            w.raw("]}")
        }
        w.raw("]")
        // Tables (only when the venue has some): each with its seats' index range, its top (content
        // points) and how the layout sells it (a show's policy may say otherwise).
        if !layout.tables.isEmpty {
            w.key("tableNameFormat"); w.string(VenueLayout.printedTableSeatFormat(language))
            w.key("tables"); w.raw("[")
            for (k, placed) in layout.tables.enumerated() {
                let t = placed.table, top = geometry.tableTops[k].rect
                if k > 0 { w.raw(",") }
                w.raw("{"); w.key("id", first: true); w.string(t.id); w.key("name"); w.string(localizedName(t.name, language))
                w.key("shape"); w.string(t.shape.rawValue); w.key("mode"); w.string(t.mode.name)
                if case .minimum(let n) = t.mode { w.key("min"); w.number(n) }
                w.key("from"); w.number(placed.seats.lowerBound); w.key("to"); w.number(placed.seats.upperBound)
                w.key("top"); w.raw("[")
                for (n, v) in [top.minX, top.minY, top.width, top.height].enumerated() {
                    if n > 0 { w.raw(",") }
                    w.number((v * 100).rounded() / 100)
                }
                w.raw("]}")
            }
            w.raw("]")
        }
        // General-admission areas (only when the venue has some, so every other document is as it was):
        // each with its places' index range, its zone (index), how it is sold and its outline.
        guard !layout.areas.isEmpty else { return }
        let zh = language == .chinese
        w.key("areaWords"); w.raw("{"); w.key("free", first: true); w.string(zh ? "余 {free} 位" : "{free} left")
        w.key("open"); w.string(zh ? "可预订" : "available"); w.key("full"); w.string(zh ? "已满" : "full"); w.raw("}")
        w.key("areas"); w.raw("[")
        for (k, placed) in layout.areas.enumerated() {
            let a = placed.area
            if k > 0 { w.raw(",") }
            w.raw("{"); w.key("id", first: true); w.string(a.id); w.key("name"); w.string(localizedName(a.name, language))
            w.key("zone"); w.number(layout.zoneIndex(of: placed.places.lowerBound)); w.key("mode"); w.string(a.mode.name)
            w.key("capacity"); w.number(a.capacity)
            if case .party(let low, let high) = a.mode { w.key("min"); w.number(low); w.key("max"); w.number(high) }
            w.key("from"); w.number(placed.places.lowerBound); w.key("to"); w.number(placed.places.upperBound)
            w.key("outline"); w.raw("[")
            for (n, p) in geometry.areaOutlines[k].enumerated() {
                if n > 0 { w.raw(",") }
                w.number((p.x * 100).rounded() / 100); w.raw(","); w.number((p.y * 100).rounded() / 100)
            }
            w.raw("]}")
        }
        w.raw("]")
    }
}
