import ArgumentParser
import SeatMap
import SeatSamples

/// What `best` and `check` judge seats against: the venue and what is known of the show.
struct ShowInputs: ParsableArguments {
    @Argument(help: "The venue file (any FORMAT).", completion: .file())
    var venue: String

    @Option(help: "The seats' statuses in the compact encoding (default: all available, or what the venue file carried).", completion: .file())
    var availability: String?

    @Option(help: "The show's selection rules as JSON (default: the standard rules).", completion: .file())
    var policy: String?

    @Option(help: "A price table as JSON: prints each seat's price and the total.", completion: .file())
    var prices: String?

    @Flag(help: "The buyer asked for wheelchair spaces.")
    var wheelchair = false
}

/// `seatkit best VENUE --count N`.
struct BestCommand: ToolCommand {
    static let configuration = CommandConfiguration(commandName: "best", abstract: "The best N seats side by side.")

    @OptionGroup var show: ShowInputs

    @Option(help: "How many seats.")
    var count: Int

    @Option(help: "Only in this zone (its id).")
    var zone: String?

    @Option(help: "Only in zones of this price category.")
    var category: String?

    func validate() throws {
        guard count > 0 else { throw ValidationError("--count must be at least 1") }
    }

    func execute(_ output: inout CommandOutput) throws -> Int32 {
        let venue = try Inputs.venue(show.venue)
        let layout = venue.layout
        let availability = try Inputs.availability(show.availability, venue: venue)
        let policy = try Inputs.policy(show.policy)
        if count > policy.maxSeats { throw InputFailure(message: "--count \(count) is over the show's limit of \(policy.maxSeats) seats") }
        if let z = zone, layout.zoneIndex(id: z) == nil { throw InputFailure(message: "no zone \"\(z)\" in venue \(layout.id)") }
        if let c = category, !layout.zones.contains(where: { $0.category == c }) {
            throw InputFailure(message: "no price category \"\(c)\" in venue \(layout.id)")
        }
        let request = BestAvailableRequest(
            count: count, zone: zone, category: category, wheelchair: show.wheelchair)
        guard let seats = layout.bestAvailable(request, availability: availability, policy: policy) else {
            output.line("no \(count) seats side by side are free\(request.zone.map { " in zone \($0)" } ?? "")")
            return ExitCode.failure
        }
        output.line("best \(count): " + seats.map { layout.printedName($0, language: .chinese) }.joined(separator: " "))
        output.line("  " + seats.map { layout.printedName($0, language: .english) }.joined(separator: "; "))
        output.line("  ids: " + seats.map { layout.seatID($0) }.joined(separator: ","))
        output.line("  zone: " + Set(seats.map { layout.zone(of: $0).id }).sorted().joined(separator: ", "))
        if let prices = try Inputs.prices(show.prices, layout: layout) {
            output.line("  total: \(prices.format(prices.total(of: seats)))")
        }
        return ExitCode.success
    }
}

/// `seatkit check VENUE --select IDS`.
struct CheckCommand: ToolCommand {
    static let configuration = CommandConfiguration(commandName: "check", abstract: "Which selection rule fails and why.")

    @OptionGroup var show: ShowInputs

    @Option(help: ArgumentHelp("The seats: ids or printed names like 7排12座, comma-separated.", valueName: "IDS"))
    var select: String

    func execute(_ output: inout CommandOutput) throws -> Int32 {
        let venue = try Inputs.venue(show.venue)
        let layout = venue.layout
        let availability = try Inputs.availability(show.availability, venue: venue)
        let seats = try Inputs.seats(select, in: layout)
        let policy = try Inputs.policy(show.policy)
        let violations = policy.violations(
            for: seats, in: layout, availability: availability,
            context: SelectionContext(wheelchairRequested: show.wheelchair))
        let names = seats.map { layout.printedName($0, language: .chinese) }.joined(separator: " ")
        if violations.isEmpty {
            output.line("ok: \(names) can be held together")
            if let prices = try Inputs.prices(show.prices, layout: layout) {
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
struct GenerateCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a sample venue, or a reproducible random availability for a venue.",
        usage: """
            seatkit generate cinema|imax|arena [-o OUT] [--seats N] [--places N]
            seatkit generate availability VENUE --sold FRACTION [--held FRACTION] [--seed N] -o OUT
            """)

    enum What: String, CaseIterable, ExpressibleByArgument { case cinema, imax, arena, availability }

    @Argument(help: "cinema, imax, arena (exactly --seats seats), or availability for VENUE.")
    var what: What

    @Argument(help: "The venue file (generate availability only).", completion: .file())
    var venue: String?

    @Option(name: [.customShort("o"), .customLong("output")], help: "Where to write (a venue goes to standard output without it).", completion: .file())
    var output: String?

    @Option(help: "The arena's seats (1 to 2000000).")
    var seats = 20_000

    @Option(help: "Standing places on the arena's pitch, in two areas either side of the stage (0 to 200000).")
    var places = 0

    @Option(help: "The fraction of seats sold, 0 to 1.")
    var sold: Double?

    @Option(help: "The fraction of seats held, 0 to 1.")
    var held: Double = 0

    @Option(help: "The random seed.")
    var seed = 1

    func execute(_ output: inout CommandOutput) throws -> Int32 {
        switch what {
        case .cinema, .imax, .arena:
            if let venue { throw UsageError(message: "unexpected argument \(venue)") }
            guard seats >= 1 && seats <= 2_000_000 else { throw UsageError(message: "--seats must be 1 to 2000000") }
            guard places >= 0 && places <= 2 * Area.capacityLimit else { throw UsageError(message: "--places must be 0 to \(2 * Area.capacityLimit)") }
            if places > 0 && what != .arena { throw UsageError(message: "--places is the arena's (a stadium's pitch)") }
            let layout =
                what == .cinema
                ? SampleVenues.cinemaHall()
                : what == .imax ? SampleVenues.imaxHall() : places > 0 ? SampleVenues.stadium(seats: seats, places: places) : SampleVenues.arena(seats: seats)
            let bytes = layout.jsonBytes()
            if let out = self.output {
                try Files.write(bytes, to: out)
                output.line("wrote \(out): \(layout.seatCount) seats, \(bytes.count) bytes")
            } else {
                output.out += String(decoding: bytes, as: UTF8.self)
            }
        case .availability:
            guard let path = venue else { throw UsageError(message: "generate availability takes one VENUE file") }
            let venue = try Inputs.venue(path)
            guard let sold, (0...1).contains(sold) else { throw UsageError(message: "--sold must be a fraction from 0 to 1") }
            guard (0...1).contains(held), sold + held <= 1 else { throw UsageError(message: "--held must be a fraction, and sold + held at most 1") }
            guard seed >= 0 else { throw UsageError(message: "--seed must be 0 or more") }
            let a = SampleVenues.randomAvailability(for: venue.layout, sold: sold, held: held, seed: UInt64(seed))
            guard let out = self.output else { throw UsageError(message: "missing -o OUT") }
            try Files.write(Array((a.encoded() + "\n").utf8), to: out)
            output.line("wrote \(out): \(a.counts.available) available, \(a.counts.held) held, \(a.counts.sold) sold")
        }
        return ExitCode.success
    }
}
