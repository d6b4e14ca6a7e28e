import CollectionLayout
import SeatCanvas
import SeatMap

/// `seatkit render VENUE -o map.svg`: the seat map as SVG, whole or one viewport.
enum RenderCommand {
    static func run(_ raw: [String], _ output: inout CommandOutput) throws -> Int32 {
        let args = try Arguments(
            raw, valueOptions: ["--availability", "--selection", "--heatmap", "--viewport", "--zoom", "--prices", "--language", "--output"],
            flagOptions: [])
        guard args.positionals.count == 1 else { throw UsageError(message: "render takes one VENUE file") }
        let out = try args.required("--output")
        let venue = try Inputs.venue(args.positionals[0])
        let layout = venue.layout
        let language: Language
        switch args.values["--language"] ?? "zh" {
        case "zh": language = .chinese
        case "en": language = .english
        case let other: throw UsageError(message: "--language is zh or en, not \"\(other)\"")
        }
        var content = FrameContent(availability: try Inputs.availability(args, venue: venue), language: language, rowLabels: true)
        if let list = args.values["--selection"] { content.selection = Set(try Inputs.seats(list, in: layout)) }
        if let path = args.values["--heatmap"] { content.heatmap = try SeatHeatmap(json: try Files.read(path), layout: layout) }
        content.prices = try Inputs.prices(args, layout: layout)
        let canvas = SeatCanvas(layout: layout)
        var viewport: Viewport? = nil
        if let spec = args.values["--viewport"] {
            // Finite and of a picture's size: Double("nan") parses, and a NaN or 1e308 viewport trapped (exit 132).
            let parts = spec.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3],
                abs(x) <= 1e7, abs(y) <= 1e7, w >= 1, w <= 100_000, h >= 1, h <= 100_000
            else {
                throw UsageError(message: "--viewport is x,y,width,height in points (x, y within ±10,000,000; width and height 1 to 100,000), e.g. 0,0,390,600")
            }
            guard let zoom = try args.double("--zoom"), zoom >= 0.001, zoom <= 1000 else {
                throw UsageError(message: "--viewport needs --zoom, a number from 0.001 to 1000")
            }
            var v = canvas.viewport(viewSize: LayoutSize(width: w, height: h))
            v.zoom(to: zoom, focal: .zero)
            v.scroll(to: LayoutPoint(x: x * v.zoom, y: y * v.zoom))
            viewport = v
        } else if args.values["--zoom"] != nil {
            throw UsageError(message: "--zoom goes with --viewport")
        }
        let svg = canvas.svg(viewport: viewport, content: content)
        try Files.write(Array(svg.utf8), to: out)
        let level = viewport.map { canvas.level(forZoom: $0.zoom) } ?? .seats
        output.line(
            "wrote \(out): \(svg.utf8.count) bytes, \(level.rawValue) level\(viewport.map { ", zoom \(JSONWriter.format($0.zoom))" } ?? ", whole venue")")
        return ExitCode.success
    }
}
