import SeatMap

/// `seatkit validate FILE`: a summary of a venue, or every problem in it.
enum ValidateCommand {
    static func run(_ raw: [String], _ output: inout CommandOutput) throws -> Int32 {
        let args = try Arguments(raw, valueOptions: ["--from", "--status-map"], flagOptions: [])
        guard args.positionals.count == 1 else { throw UsageError(message: "validate takes one FILE") }
        let path = args.positionals[0]
        let venue: ImportedVenue
        do { venue = try Inputs.venue(path, format: try Inputs.format(args), options: try Inputs.importOptions(args)) } catch let e as LayoutError {
            output.line("\(path): \(e.problems.count + e.omitted) problem\(e.problems.count + e.omitted == 1 ? "" : "s")")
            for p in e.problems { output.line("  " + p.description.replacingOccurrences(of: "\(path): ", with: "")) }
            if e.omitted > 0 { output.line("  … and \(e.omitted) more") }
            return ExitCode.failure
        }
        output.out += summary(venue)
        for note in venue.notes { output.err += "seatkit: warning: \(path): \(note)\n" }
        return ExitCode.success
    }

    static func summary(_ venue: ImportedVenue) -> String {
        let layout = venue.layout
        var out = ""
        func line(_ s: String) { out += s + "\n" }
        line("venue \(layout.id) \"\(layout.name)\" fingerprint \(layout.fingerprintHex)")
        line("seats \(layout.seatCount) in \(layout.rows.count) rows, \(layout.blocks.count) blocks between aisles")
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
enum ImportCommand {
    static func run(_ raw: [String], _ output: inout CommandOutput) throws -> Int32 {
        let args = try Arguments(raw, valueOptions: ["--from", "--output", "--availability-out", "--status-map"], flagOptions: [])
        guard args.positionals.count == 1 else { throw UsageError(message: "import takes one FILE") }
        let out = try args.required("--output")
        let venue = try Inputs.venue(args.positionals[0], format: try Inputs.format(args), options: try Inputs.importOptions(args))
        for note in venue.notes { output.err += "seatkit: warning: \(args.positionals[0]): \(note)\n" }
        try Files.write(venue.layout.jsonBytes(), to: out)
        output.line("wrote \(out): \(venue.layout.seatCount) seats in \(venue.layout.rows.count) rows, \(venue.layout.zones.count) zones")
        if let availabilityOut = args.values["--availability-out"] {
            let a = venue.availability ?? SeatAvailability(layout: venue.layout)
            try Files.write(Array((a.encoded() + "\n").utf8), to: availabilityOut)
            output.line("wrote \(availabilityOut): \(a.counts.available) available, \(a.counts.held) held, \(a.counts.sold) sold, \(a.counts.blocked) blocked")
        }
        return ExitCode.success
    }
}
