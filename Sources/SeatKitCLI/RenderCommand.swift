import ArgumentParser
import CollectionLayout
import SeatCanvas
import SeatJSON
import SeatMap

/// `seatkit render VENUE -o map.svg`: the seat map as SVG, whole or one viewport.
struct RenderCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "The seat map as SVG: every seat an element with id, status and spoken name; row labels at both ends; a legend.")

    @Argument(help: "The venue file (any FORMAT).", completion: .file())
    var venue: String

    @Option(name: [.customShort("o"), .customLong("output")], help: "Where to write the SVG.", completion: .file())
    var output: String

    @Option(help: "The seats' statuses in the compact encoding.", completion: .file())
    var availability: String?

    @Option(help: ArgumentHelp("Seats drawn as selected: ids or printed names, comma-separated.", valueName: "IDS"))
    var selection: String?

    @Option(help: "A heat map as JSON (seat id to a number from 0 to 1).", completion: .file())
    var heatmap: String?

    @Option(help: "A price table as JSON: the legend shows the prices.", completion: .file())
    var prices: String?

    @Option(help: ArgumentHelp("zh or en: the language of labels and spoken names.", valueName: "zh|en"))
    var language = "zh"

    @Option(help: ArgumentHelp("One view: content point X,Y at the top left, W×H points (needs --zoom).", valueName: "X,Y,W,H"))
    var viewport: String?

    @Option(help: "The view's zoom, 0.001 to 1000.")
    var zoom: Double?

    func execute(_ output: inout CommandOutput) throws -> Int32 {
        let out = self.output
        let venue = try Inputs.venue(self.venue)
        let layout = venue.layout
        let language: Language
        switch self.language {
        case "zh": language = .chinese
        case "en": language = .english
        case let other: throw UsageError(message: "--language is zh or en, not \"\(other)\"")
        }
        var content = FrameContent(availability: try Inputs.availability(availability, venue: venue), language: language, rowLabels: true)
        if let list = selection { content.selection = Set(try Inputs.seats(list, in: layout)) }
        if let path = heatmap { content.heatmap = try SeatHeatmap(json: try Files.read(path), layout: layout) }
        content.prices = try Inputs.prices(prices, layout: layout)
        let canvas = SeatCanvas(layout: layout)
        var viewport: Viewport? = nil
        if let spec = self.viewport {
            // Finite and of a picture's size: Double("nan") parses, and a NaN or 1e308 viewport trapped (exit 132).
            let parts = spec.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3],
                abs(x) <= 1e7, abs(y) <= 1e7, w >= 1, w <= 100_000, h >= 1, h <= 100_000
            else {
                throw UsageError(message: "--viewport is x,y,width,height in points (x, y within ±10,000,000; width and height 1 to 100,000), e.g. 0,0,390,600")
            }
            guard let zoom, zoom >= 0.001, zoom <= 1000 else {
                throw UsageError(message: "--viewport needs --zoom, a number from 0.001 to 1000")
            }
            var v = canvas.viewport(viewSize: LayoutSize(width: w, height: h))
            v.zoom(to: zoom, focal: .zero)
            v.scroll(to: LayoutPoint(x: x * v.zoom, y: y * v.zoom))
            viewport = v
        } else if zoom != nil {
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
