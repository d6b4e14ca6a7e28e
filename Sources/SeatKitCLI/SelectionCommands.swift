import SeatMap
import SeatSamples

/// `seatkit best VENUE --count N`.
enum BestCommand {
    static func run(_ raw: [String], _ output: inout CommandOutput) throws -> Int32 {
        let args = try Arguments(
            raw, valueOptions: ["--availability", "--count", "--zone", "--category", "--policy", "--prices"],
            flagOptions: ["--wheelchair"])
        guard args.positionals.count == 1 else { throw UsageError(message: "best takes one VENUE file") }
        guard let count = try args.int("--count") else { throw UsageError(message: "missing --count") }
        guard count > 0 else { throw UsageError(message: "--count must be at least 1") }
        let venue = try Inputs.venue(args.positionals[0])
        let layout = venue.layout
        let availability = try Inputs.availability(args, venue: venue)
        let policy = try Inputs.policy(args)
        if count > policy.maxSeats { throw InputFailure(message: "--count \(count) is over the show's limit of \(policy.maxSeats) seats") }
        if let z = args.values["--zone"], layout.zoneIndex(id: z) == nil { throw InputFailure(message: "no zone \"\(z)\" in venue \(layout.id)") }
        if let c = args.values["--category"], !layout.zones.contains(where: { $0.category == c }) {
            throw InputFailure(message: "no price category \"\(c)\" in venue \(layout.id)")
        }
        let request = BestAvailableRequest(
            count: count, zone: args.values["--zone"], category: args.values["--category"],
            wheelchair: args.flags.contains("--wheelchair"))
        guard let seats = layout.bestAvailable(request, availability: availability, policy: policy) else {
            output.line("no \(count) seats side by side are free\(request.zone.map { " in zone \($0)" } ?? "")")
            return ExitCode.failure
        }
        output.line("best \(count): " + seats.map { layout.printedName($0, language: .chinese) }.joined(separator: " "))
        output.line("  " + seats.map { layout.printedName($0, language: .english) }.joined(separator: "; "))
        output.line("  ids: " + seats.map { layout.seatID($0) }.joined(separator: ","))
        output.line("  zone: " + Set(seats.map { layout.zone(of: $0).id }).sorted().joined(separator: ", "))
        if let prices = try Inputs.prices(args, layout: layout) {
            output.line("  total: \(prices.format(prices.total(of: seats)))")
        }
        return ExitCode.success
    }
}

/// `seatkit check VENUE --select IDS`.
enum CheckCommand {
    static func run(_ raw: [String], _ output: inout CommandOutput) throws -> Int32 {
        let args = try Arguments(raw, valueOptions: ["--availability", "--select", "--policy", "--prices"], flagOptions: ["--wheelchair"])
        guard args.positionals.count == 1 else { throw UsageError(message: "check takes one VENUE file") }
        let venue = try Inputs.venue(args.positionals[0])
        let layout = venue.layout
        let availability = try Inputs.availability(args, venue: venue)
        let seats = try Inputs.seats(try args.required("--select"), in: layout)
        let policy = try Inputs.policy(args)
        let violations = policy.violations(
            for: seats, in: layout, availability: availability,
            context: SelectionContext(wheelchairRequested: args.flags.contains("--wheelchair")))
        let names = seats.map { layout.printedName($0, language: .chinese) }.joined(separator: " ")
        if violations.isEmpty {
            output.line("ok: \(names) can be held together")
            if let prices = try Inputs.prices(args, layout: layout) {
                for s in seats { output.line("  \(layout.printedName(s, language: .english)): \(prices.format(prices.price(of: s)))") }
                output.line("  total: \(prices.format(prices.total(of: seats)))")
            }
            return ExitCode.success
        }
        output.line("refused: \(names)")
        for v in violations {
            output.line("  \(v.rule.rawValue): \(v.english)")
            output.line("  \(String(repeating: " ", count: v.rule.rawValue.count)): \(v.chinese)")
            output.line("  \(String(repeating: " ", count: v.rule.rawValue.count))  seats: \(v.seats.map { layout.seatID($0) }.joined(separator: ","))")
        }
        return ExitCode.failure
    }
}

/// `seatkit generate …`.
enum GenerateCommand {
    static func run(_ raw: [String], _ output: inout CommandOutput) throws -> Int32 {
        let args = try Arguments(raw, valueOptions: ["--output", "--seats", "--sold", "--held", "--seed"], flagOptions: [])
        guard let what = args.positionals.first else { throw UsageError(message: "generate what? cinema, imax, arena or availability") }
        switch what {
        case "cinema", "imax", "arena":
            guard args.positionals.count == 1 else { throw UsageError(message: "unexpected argument \(args.positionals[1])") }
            let seats = try args.int("--seats") ?? 20_000
            guard seats >= 1 && seats <= 2_000_000 else { throw UsageError(message: "--seats must be 1 to 2000000") }
            let layout = what == "cinema" ? SampleVenues.cinemaHall() : what == "imax" ? SampleVenues.imaxHall() : SampleVenues.arena(seats: seats)
            let bytes = layout.jsonBytes()
            if let out = args.values["--output"] {
                try Files.write(bytes, to: out)
                output.line("wrote \(out): \(layout.seatCount) seats, \(bytes.count) bytes")
            } else {
                output.out += String(decoding: bytes, as: UTF8.self)
            }
        case "availability":
            guard args.positionals.count == 2 else { throw UsageError(message: "generate availability takes one VENUE file") }
            let venue = try Inputs.venue(args.positionals[1])
            guard let sold = try args.double("--sold"), (0...1).contains(sold) else { throw UsageError(message: "--sold must be a fraction from 0 to 1") }
            let held = try args.double("--held") ?? 0
            guard (0...1).contains(held), sold + held <= 1 else { throw UsageError(message: "--held must be a fraction, and sold + held at most 1") }
            let seed = UInt64(try args.int("--seed") ?? 1)
            let a = SampleVenues.randomAvailability(for: venue.layout, sold: sold, held: held, seed: seed)
            let out = try args.required("--output")
            try Files.write(Array((a.encoded() + "\n").utf8), to: out)
            output.line("wrote \(out): \(a.counts.available) available, \(a.counts.held) held, \(a.counts.sold) sold")
        default:
            throw UsageError(message: "generate what? cinema, imax, arena or availability (got \"\(what)\")")
        }
        return ExitCode.success
    }
}
