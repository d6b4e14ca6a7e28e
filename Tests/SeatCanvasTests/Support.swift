import CollectionLayout
import Foundation
import SeatMap
import Testing
import SeatKitTestSupport
@testable import SeatCanvas

let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

func sample(_ path: String) throws -> VenueLayout { try VenueLayout(json: [UInt8](Data(contentsOf: repo.appendingPathComponent(path)))) }

func sampleAvailability(_ layout: VenueLayout) throws -> SeatAvailability {
    let text = try String(contentsOf: repo.appendingPathComponent("Samples/cinema-hall.availability"), encoding: .utf8)
    return try SeatAvailability(encoded: text.trimmingCharacters(in: .whitespacesAndNewlines), layout: layout)
}

func assertSnapshot(_ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    SeatKitTestSupport.assertSnapshot(text, named: name, in: repo.appendingPathComponent("Tests/SeatCanvasTests/Snapshots"), sourceLocation: sourceLocation)
}

/// A compact text form of a display list for snapshots.
func describe(_ list: DisplayList) -> String {
    var lines = [
        "level \(list.level.rawValue) view \(list.viewSize) scale \(r(list.transform.scale)) translate \(r(list.transform.translation.x)),\(r(list.transform.translation.y))"
    ]
    for item in list.items { lines.append("\(item.layer) \(item.id): \(describe(item.command))") }
    return lines.joined(separator: "\n") + "\n"
}

func describe(_ c: DrawCommand) -> String {
    switch c {
    case .roundedRect(let rect, let radius, let s): return "rect \(rect) r\(r(radius)) \(describe(s))"
    case .circle(let center, let radius, let s): return "circle \(center) r\(r(radius)) \(describe(s))"
    case .path(let pts, let closed, let s): return "path \(pts.count) points\(closed ? " closed" : "") \(describe(s))"
    case .curve(let a, let c, let b, let s): return "curve \(a) \(c) \(b) \(describe(s))"
    case .text(let t, let p, let size, let color, _): return "text \"\(t)\" \(p) \(r(size)) \(color)"
    case .group(_, let attrs, let children):
        return "group [\(attrs.keys.sorted().map { "\($0)=\(attrs[$0]!)" }.joined(separator: " "))] { \(children.map(describe).joined(separator: "; ")) }"
    }
}

func describe(_ s: DrawStyle) -> String {
    [
        s.fill.map { "fill \($0)" }, s.stroke.map { "stroke \($0) \(r(s.strokeWidth))" }, s.opacity < 1 ? "opacity \(r(s.opacity))" : nil,
        s.dashed ? "dashed" : nil,
    ]
    .compactMap { $0 }.joined(separator: " ")
}

func r(_ v: Double) -> String {
    let x = (v * 1000).rounded() / 1000
    return x == x.rounded() ? String(Int(x)) : String(x)
}
