import ArgumentParser
import SeatJSON
import SeatMap

/// What the importers take besides the file: its format and a vendor's status codes.
struct ImportInputs: ParsableArguments {
    @Option(help: "The file's format (detected when not given).")
    var from: ImportFormat?

    @Option(help: ArgumentHelp("What a vendor's numeric seat statuses mean, e.g. 1=available,4=blocked.", valueName: "CODE=STATUS,..."))
    var statusMap: String?
}

/// `seatkit validate FILE`: a summary of a venue, or every problem in it.
struct ValidateCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate", abstract: "Check a venue file: seats per zone and type, and every problem.")

    @Argument(help: "The venue file.", completion: .file())
    var file: String

    @OptionGroup var inputs: ImportInputs

    func execute(_ output: inout CommandOutput) throws -> Int32 {
        let path = file
        let venue: ImportedVenue
        do { venue = try Inputs.venue(path, format: inputs.from, options: try Inputs.importOptions(statusMap: inputs.statusMap)) } catch let e as LayoutError {
            output.line("\(path): \(e.problems.count + e.omitted) problem\(e.problems.count + e.omitted == 1 ? "" : "s")")
            for p in e.problems { output.line("  " + p.description.replacingOccurrences(of: "\(path): ", with: "")) }
            if e.omitted > 0 { output.line("  … and \(e.omitted) more") }
            return ExitCode.failure
        }
        output.out += Self.summary(venue)
        for note in venue.notes { output.err += "seatkit: warning: \(path): \(note)\n" }
        return ExitCode.success
    }

    static func summary(_ venue: ImportedVenue) -> String {
        let layout = venue.layout
        var out = ""
        func line(_ s: String) { out += s + "\n" }
        line("venue \(layout.id) \"\(layout.name)\" fingerprint \(layout.fingerprintHex)")
        let documentRows = layout.rows.count - layout.tables.count - layout.areas.count
        let atTables = layout.tables.reduce(0) { $0 + $1.seats.count }
        line(
            "seats \(layout.numberedSeatCount - atTables) in \(documentRows) rows, \(layout.blocks.count - layout.tables.count - layout.areas.count) blocks between aisles"
        )
        for placed in layout.tables {
            let t = placed.table
            var mode = t.mode.name
            if case .minimum(let n) = t.mode { mode += " \(n)" }
            line(
                "table \(t.id) \"\(t.name)\": \(placed.seats.count) seats, \(t.shape.rawValue) \(JSONWriter.format(t.width))×\(JSONWriter.format(t.height)), \(mode), zone \(layout.zone(of: placed.seats.lowerBound).id)"
            )
        }
        for placed in layout.areas {
            let a = placed.area
            var mode = a.mode.name
            if case .party(let low, let high) = a.mode { mode += " of \(low) to \(high)" }
            line("area \(a.id) \"\(a.name)\": \(a.capacity) places, \(mode), zone \(a.zone ?? layout.zones[0].id), outline of \(a.shape.count) points")
        }
        if let s = layout.stage {
            line("stage \"\(s.label)\" at \(s.center), width \(JSONWriter.format(s.width))" + (s.depth.map { ", depth \(JSONWriter.format($0))" } ?? ""))
        }
        var perZone = [Int](repeating: 0, count: layout.zones.count)
        var perType = [Int](repeating: 0, count: SeatType.allCases.count)
        var restricted = 0
        for i in layout.seatIndices {
            perZone[layout.zoneIndex(of: i)] += 1
            perType[Int(layout.type(of: i).rawValue)] += 1
            if layout.flags(of: i).contains(.restrictedView) { restricted += 1 }
        }
        line("zones")
        let width = layout.zones.map { $0.id.count }.max() ?? 0
        for (k, z) in layout.zones.enumerated() {
            line("  \(z.id.padding(toLength: width, withPad: " ", startingAt: 0))  \(String(perZone[k]).leftPad(6))  \(z.category) \(z.color) \(z.name)")
        }
        line("types")
        for t in SeatType.allCases where perType[Int(t.rawValue)] > 0 {
            line("  \(t.name.padding(toLength: 13, withPad: " ", startingAt: 0))  \(String(perType[Int(t.rawValue)]).leftPad(6))")
        }
        line("restricted view \(restricted)")
        if let a = venue.availability {
            line("availability from the file: \(a.counts.available) available, \(a.counts.held) held, \(a.counts.sold) sold, \(a.counts.blocked) blocked")
        }
        line("problems: none")
        return out
    }
}

extension String {
    func leftPad(_ n: Int) -> String { count >= n ? self : String(repeating: " ", count: n - count) + self }
}

/// `seatkit import [--from FORMAT] FILE -o OUT`: the format is detected as `validate` detects it
/// unless `--from` names it.
struct ImportCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Convert seed, cinema-grid (Maoyan-style captures too), pretix, reseller seat lists or seats.io chart reports to SeatKit layout JSON.")

    @Argument(help: "The file to convert.", completion: .file())
    var file: String

    @Option(name: [.customShort("o"), .customLong("output")], help: "Where to write the layout JSON.", completion: .file())
    var output: String

    @Option(help: "Also write the statuses the source carried (the compact encoding).", completion: .file())
    var availabilityOut: String?

    @OptionGroup var inputs: ImportInputs

    func execute(_ output: inout CommandOutput) throws -> Int32 {
        let out = self.output
        let venue = try Inputs.venue(file, format: inputs.from, options: try Inputs.importOptions(statusMap: inputs.statusMap))
        for note in venue.notes { output.err += "seatkit: warning: \(file): \(note)\n" }
        try Files.write(venue.layout.jsonBytes(), to: out)
        output.line("wrote \(out): \(venue.layout.seatCount) seats in \(venue.layout.rows.count) rows, \(venue.layout.zones.count) zones")
        if let availabilityOut {
            let a = venue.availability ?? SeatAvailability(layout: venue.layout)
            try Files.write(Array((a.encoded() + "\n").utf8), to: availabilityOut)
            output.line("wrote \(availabilityOut): \(a.counts.available) available, \(a.counts.held) held, \(a.counts.sold) sold, \(a.counts.blocked) blocked")
        }
        return ExitCode.success
    }
}
