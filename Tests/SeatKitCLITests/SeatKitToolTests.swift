import Foundation
import Testing
import SeatKitTestSupport
import SeatServerTestSupport
@testable import SeatKitCLI
import SeatMap
import SeatSamples

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Runs the tool with `{root}` in arguments replaced by the repository root, and the root taken back
/// out of what it prints, so snapshots do not depend on where the repository lives.
func seatkit(_ args: String...) -> (code: Int32, out: String, err: String) { seatkit(args) }

func seatkit(_ args: [String]) -> (code: Int32, out: String, err: String) {
    let (code, output) = SeatKitTool.run(args.map { $0.replacingOccurrences(of: "{root}", with: root.path) })
    let strip = { (s: String) in s.replacingOccurrences(of: root.path + "/", with: "") }
    return (code, strip(output.out), strip(output.err))
}

func assertSnapshot(_ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    SeatKitTestSupport.assertSnapshot(
        text, named: name + ".txt", in: root.appendingPathComponent("Tests/SeatKitCLITests/Snapshots"), sourceLocation: sourceLocation)
}

func temporaryDirectory() -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-tests-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

@Suite struct SeatKitToolTests {
    @Test(arguments: [
        ("cinema-hall", "Samples/cinema-hall.json"), ("imax-hall", "Samples/imax-hall.json"),
        ("seed", "Samples/imports/seed-screening.json"), ("cinema-grid", "Samples/imports/cinema-grid.json"),
        ("pretix", "Samples/imports/pretix-plan.json"), ("reseller", "Samples/imports/reseller-hall.json"),
    ])
    func validateSummarisesEachSample(name: String, path: String) {
        let r = seatkit("validate", "{root}/\(path)")
        #expect(r.code == 0, "\(r.err)")
        assertSnapshot(r.out, named: "validate-\(name)")
    }

    @Test func validateListsEveryProblemAndFails() throws {
        let dir = temporaryDirectory()
        let bad = dir.appendingPathComponent("bad.json")
        try #"{"screeningId":"s","seats":[{"id":"A1","row":"A","col":1},{"id":"A1","row":"A","col":"2x"},{"id":"A3","row":"A"}]}"#
            .write(to: bad, atomically: true, encoding: .utf8)
        let r = seatkit("validate", bad.path)
        #expect(r.code == 1)
        #expect(
            r.out == """
                \(bad.path): 2 problems
                  seats[1].col: expected integer, got "2x"
                  seats[2].col: missing (expected an integer)

                """)
    }

    @Test func helpAndUsageErrors() {
        let help = seatkit("--help")
        #expect(help.code == 0)
        assertSnapshot(help.out, named: "help")
        // ArgumentParser's help: the command's own, reached as `help best` and as `best --help` alike.
        let bestHelp = seatkit("help", "best")
        #expect(bestHelp.code == 0 && bestHelp.out.contains("USAGE: seatkit best <venue>") && bestHelp.out.contains("--count <count>"))
        #expect(bestHelp.out == seatkit("best", "--help").out)
        let none = seatkit()
        #expect(none.code == 2 && none.err.contains("USAGE: seatkit <subcommand>"))
        let unknownCommand = seatkit("frobnicate")
        #expect(unknownCommand.code == 2 && unknownCommand.err.contains("Unexpected argument 'frobnicate'"), "\(unknownCommand.err)")
        let unknown = seatkit("best", "{root}/Samples/cinema-hall.json", "--count", "2", "--colour", "red")
        #expect(unknown.code == 2 && unknown.err.hasPrefix("Error: Unknown option '--colour'\n"), "\(unknown.err)")
        #expect(seatkit("best", "{root}/Samples/cinema-hall.json").err.hasPrefix("Error: Missing expected argument '--count <count>'"))
        #expect(seatkit("best", "{root}/Samples/cinema-hall.json", "--count", "0").err.hasPrefix("Error: --count must be at least 1"))
        #expect(seatkit("generate", "cinema", "--seed", "-3").code == 2)
        #expect(seatkit("generate", "stadium").err.contains("'stadium' is invalid for '<what>'"))
        #expect(seatkit("--version").out == "\(SeatKitTool.version)\n")
        #expect(seatkit("best", "{root}/Samples/cinema-hall.json", "--count", "two").code == 2)
        #expect(seatkit("import", "{root}/Samples/imports/cinema-grid.json", "-o", "/tmp/x.json", "--status-map", "1=sold,2").code == 2)
    }

    /// A printed name two sections share is ambiguous, said with the seats it could mean.
    @Test func anAmbiguousPrintedNameListsItsSeats() throws {
        let dir = temporaryDirectory()
        let plan = dir.appendingPathComponent("plan.json").path
        #expect(seatkit("import", "{root}/Samples/imports/pretix-plan.json", "-o", plan).code == 0)
        let r = seatkit("check", plan, "--select", "1排1座")
        #expect(r.code == 1)
        #expect(
            r.err == "seatkit: \"1排1座\" names 2 seats in venue pretix-plan: S1-1 (row Stalls/1), B1-1 (row Balcony/1); give the seat id instead\n", "\(r.err)")
        #expect(seatkit("check", plan, "--select", "S1-1").code == 0)
    }

    /// `import` detects the format as `validate` does; a vendor's numeric codes are ignored and said on
    /// stderr unless `--status-map` says what they mean.
    @Test func importDetectsTheFormatAndSaysWhatItIgnored() throws {
        let dir = temporaryDirectory()
        let out = dir.appendingPathComponent("hall-2.json").path, statuses = dir.appendingPathComponent("hall-2.availability").path
        let capture = "{root}/Tests/SeatMapTests/Fixtures/cinema-grid/vendor-status-codes-hall-2.json"
        let plain = seatkit("import", capture, "-o", out)
        #expect(plain.code == 0, "\(plain.err)")
        #expect(plain.out.hasPrefix("wrote \(out): 168 seats in 12 rows, 1 zones"))
        #expect(plain.err.contains("warning:") && plain.err.contains("seat_status 1 ×164, seat_status 4 ×4") && plain.err.contains("--status-map"))
        let mapped = seatkit("import", capture, "-o", out, "--status-map", "1=available,4=blocked", "--availability-out", statuses)
        #expect(mapped.code == 0 && mapped.out.contains("164 available, 0 held, 1 sold, 3 blocked"), "\(mapped.out)\(mapped.err)")
        #expect(mapped.err.contains("st LK (sold) but seat_status 4 maps to blocked; kept sold"))
        let maoyan = seatkit("validate", "{root}/Tests/SeatMapTests/Fixtures/cinema-grid/maoyan-hall-3.json")
        #expect(maoyan.code == 0 && maoyan.out.contains("seats 76 in 7 rows") && maoyan.err.isEmpty, "\(maoyan.out)\(maoyan.err)")
        // The imported capture works with best, check and render.
        let maoyanOut = dir.appendingPathComponent("maoyan.json").path, svg = dir.appendingPathComponent("maoyan.svg").path
        #expect(seatkit("import", "{root}/Tests/SeatMapTests/Fixtures/cinema-grid/maoyan-hall-3.json", "-o", maoyanOut).code == 0)
        let best = seatkit("best", maoyanOut, "--count", "2")
        #expect(best.code == 0 && !best.out.isEmpty, "\(best.err)")
        let check = seatkit("check", maoyanOut, "--select", "5排5座")
        #expect(check.code == 0 && check.out == "ok: 5排5座 can be held together\n", "\(check.out)\(check.err)")
        // Seat ids with commas in them ("5,5") are found inside a comma-separated list.
        let pair = seatkit("check", maoyanOut, "--select", "5,5,5,6")
        #expect(pair.code == 0 && pair.out == "ok: 5排5座 5排6座 can be held together\n", "\(pair.out)\(pair.err)")
        let rendered = seatkit("render", maoyanOut, "-o", svg)
        #expect(rendered.code == 0, "\(rendered.err)")
        let picture = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(picture.components(separatedBy: "data-seat-id=").count - 1 == 76)
        #expect(picture.contains(#"aria-label="1排3座，可选，普通区" data-seat-id="1,3""#))
        let unknown = dir.appendingPathComponent("unknown.json")
        try #"{"hello":1}"#.write(to: unknown, atomically: true, encoding: .utf8)
        let refused = seatkit("import", unknown.path, "-o", out)
        #expect(refused.code == 1 && (refused.out + refused.err).contains("unrecognised format"), "\(refused.out)\(refused.err)")
    }

    @Test func missingFilesAreIOErrors() {
        let r = seatkit("validate", "/nonexistent/venue.json")
        #expect(r.code == 3)
        #expect(r.err == "seatkit: cannot read /nonexistent/venue.json: no such file\n")
    }

    @Test func bestUsesAvailabilityAndPrices() throws {
        let dir = temporaryDirectory()
        let prices = dir.appendingPathComponent("prices.json")
        try #"{"categories":{"standard":"33.30","vip":"58","couple":"99.90"}}"#.write(to: prices, atomically: true, encoding: .utf8)
        let r = seatkit(
            "best", "{root}/Samples/cinema-hall.json", "--availability", "{root}/Samples/cinema-hall.availability",
            "--count", "3", "--category", "standard", "--prices", prices.path)
        #expect(r.code == 0, "\(r.err)")
        assertSnapshot(r.out, named: "best-3-standard")
        let none = seatkit("best", "{root}/Samples/cinema-hall.json", "--count", "5", "--zone", "couple")
        #expect(none.code == 1 && none.out == "no 5 seats side by side are free in zone couple\n")
        #expect(seatkit("best", "{root}/Samples/cinema-hall.json", "--count", "7").err.contains("over the show's limit of 6"))
        #expect(seatkit("best", "{root}/Samples/cinema-hall.json", "--count", "2", "--zone", "balcony").err.contains("no zone \"balcony\""))
    }

    @Test func checkExplainsRefusals() {
        let refused = seatkit(
            "check", "{root}/Samples/cinema-hall.json", "--availability", "{root}/Samples/cinema-hall.availability",
            "--select", "7-3,7排5座,11-1")
        #expect(refused.code == 1)
        assertSnapshot(refused.out, named: "check-refused")
        let ok = seatkit("check", "{root}/Samples/cinema-hall.json", "--select", "5-1,5-2")
        #expect(ok.code == 0 && ok.out == "ok: 5排1座 5排2座 can be held together\n")
        let unknown = seatkit("check", "{root}/Samples/cinema-hall.json", "--select", "99-1")
        #expect(unknown.code == 1 && unknown.err == "seatkit: no seat \"99-1\" in venue cinema-hall-3\n")
    }

    @Test func availabilityForAnotherHallIsRefused() {
        let r = seatkit("best", "{root}/Samples/imax-hall.json", "--availability", "{root}/Samples/cinema-hall.availability", "--count", "2")
        #expect(r.code == 1)
        #expect(r.err.contains("is for layout 7eef68f6c6a56904"))
    }

    @Test(arguments: ["seed", "cinema-grid", "pretix", "reseller"])
    func importWritesAValidVenue(format: String) throws {
        let dir = temporaryDirectory()
        let source = ["seed": "seed-screening", "cinema-grid": "cinema-grid", "pretix": "pretix-plan", "reseller": "reseller-hall"][format]!
        let out = dir.appendingPathComponent("venue.json"), avail = dir.appendingPathComponent("venue.availability")
        let r = seatkit("import", "--from", format, "{root}/Samples/imports/\(source).json", "-o", out.path, "--availability-out", avail.path)
        #expect(r.code == 0, "\(r.err)")
        let layout = try VenueLayout(json: [UInt8](Data(contentsOf: out)))
        let statuses = try String(contentsOf: avail, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try SeatAvailability(encoded: statuses, layout: layout).seatCount == layout.seatCount)
        #expect(seatkit("validate", out.path).code == 0)
        #expect(seatkit("best", out.path, "--availability", avail.path, "--count", "2").code == 0)
        let svg = dir.appendingPathComponent("venue.svg")
        #expect(seatkit("render", out.path, "--availability", avail.path, "-o", svg.path).code == 0)
        let picture = try String(contentsOf: svg, encoding: .utf8)
        #expect(picture.contains("id=\"row-label-") && picture.contains("<g id=\"legend\""))
    }

    @Test func generateMakesExactlyTheSeatsAskedFor() throws {
        let dir = temporaryDirectory()
        let out = dir.appendingPathComponent("arena.json")
        #expect(seatkit("generate", "arena", "--seats", "1234", "-o", out.path).code == 0)
        let layout = try VenueLayout(json: [UInt8](Data(contentsOf: out)))
        #expect(layout.seatCount == 1234)
        let avail = dir.appendingPathComponent("a.txt")
        #expect(seatkit("generate", "availability", out.path, "--sold", "0.5", "--seed", "3", "-o", avail.path).code == 0)
        let a = try SeatAvailability(encoded: String(contentsOf: avail, encoding: .utf8).trimmingCharacters(in: .newlines), layout: layout)
        #expect(a.counts.sold > 500 && a.counts.sold < 734)
        #expect(seatkit("generate", "availability", out.path, "--sold", "1.5", "-o", avail.path).code == 2)
    }

    @Test func theShippedSamplesAreWhatTheGeneratorMakes() throws {
        #expect(SampleVenues.cinemaHall().jsonBytes() == [UInt8](try Data(contentsOf: root.appendingPathComponent("Samples/cinema-hall.json"))))
        #expect(SampleVenues.imaxHall().jsonBytes() == [UInt8](try Data(contentsOf: root.appendingPathComponent("Samples/imax-hall.json"))))
        #expect(SampleVenues.arena(seats: 20_000).jsonBytes() == [UInt8](try Data(contentsOf: root.appendingPathComponent("Samples/arena-20k.json"))))
    }
}

@Suite struct LayoutDemoTests {
    @Test func gridDemoShowsFrozenHeadersFollowingTheBody() throws {
        let dir = temporaryDirectory()
        let svg = dir.appendingPathComponent("grid.svg")
        let r = seatkit("layout-demo", "grid", "--frames", "3", "--svg", svg.path)
        #expect(r.code == 0, "\(r.err)")
        assertSnapshot(r.out.replacingOccurrences(of: svg.path, with: "grid.svg"), named: "layout-demo-grid")
        let text = try String(contentsOf: svg, encoding: .utf8)
        #expect(text.hasPrefix("<svg") && text.contains(">0,0</text>"))
    }

    @Test func carouselDemoSnapsOneCardPerFlick() {
        let r = seatkit("layout-demo", "carousel", "--frames", "3")
        #expect(r.code == 0)
        assertSnapshot(r.out, named: "layout-demo-carousel")
        #expect(seatkit("layout-demo", "spiral").code == 2)
    }
}

@Suite struct RenderCommandTests {
    /// A viewport or zoom no picture has (NaN, 1e308) is a usage error, exit 2; it trapped (exit 132).
    @Test func aViewportNoPictureHasIsAUsageError() throws {
        let out = temporaryDirectory().appendingPathComponent("v.svg").path
        for (viewport, zoom) in [("nan,0,100,100", "1"), ("0,0,1e308,1e308", "1"), ("1e308,0,100,100", "1"), ("0,0,100,100", "inf"), ("0,0,100,100", "nan")] {
            let r = seatkit("render", "{root}/Samples/cinema-hall.json", "-o", out, "--viewport", viewport, "--zoom", zoom)
            #expect(r.code == 2 && (r.err.contains("--viewport") || r.err.contains("--zoom")), "\(viewport) \(zoom): \(r.code) \(r.err)")
        }
        // The extremes allowed still draw.
        let edge = seatkit("render", "{root}/Samples/cinema-hall.json", "-o", out, "--viewport", "10000000,-10000000,100000,100000", "--zoom", "1000")
        #expect(edge.code == 0, "\(edge.err)")
    }

    @Test func rendersTheWholeHallAndOneViewport() throws {
        let dir = temporaryDirectory()
        let whole = dir.appendingPathComponent("hall.svg"), view = dir.appendingPathComponent("view.svg")
        let r = seatkit(
            "render", "{root}/Samples/cinema-hall.json", "--availability", "{root}/Samples/cinema-hall.availability",
            "--selection", "8-2,8-4", "-o", whole.path)
        #expect(r.code == 0, "\(r.err)")
        let svg = try String(contentsOf: whole, encoding: .utf8)
        #expect(svg.components(separatedBy: "class=\"seat\"").count - 1 == 172)
        #expect(svg.contains("data-status=\"selected\""))
        let v = seatkit("render", "{root}/Samples/arena-20k.json", "--viewport", "0,0,390,600", "--zoom", "0.1", "--language", "en", "-o", view.path)
        #expect(v.code == 0 && v.out.contains("zones level"))
        #expect(try String(contentsOf: view, encoding: .utf8).contains("free</text>"))
    }

    @Test func renderRefusesBadArguments() throws {
        #expect(seatkit("render", "{root}/Samples/cinema-hall.json", "-o", "/tmp/x.svg", "--viewport", "1,2,3").code == 2)
        #expect(seatkit("render", "{root}/Samples/cinema-hall.json", "-o", "/tmp/x.svg", "--viewport", "0,0,100,100").err.contains("needs --zoom"))
        #expect(seatkit("render", "{root}/Samples/cinema-hall.json", "-o", "/tmp/x.svg", "--language", "fr").code == 2)
        let dir = temporaryDirectory()
        let heat = dir.appendingPathComponent("heat.json")
        try #"{"7-1": 2}"#.write(to: heat, atomically: true, encoding: .utf8)
        let r = seatkit("render", "{root}/Samples/cinema-hall.json", "--heatmap", heat.path, "-o", dir.appendingPathComponent("h.svg").path)
        #expect(r.code == 1 && r.err.contains("7-1: expected a number from 0 to 1, got 2"))
    }
}

@Suite struct SubcommandHelpTests {
    @Test(arguments: ["validate", "import", "best", "check", "render", "serve", "generate", "layout-demo", "buyer"])
    func everyCommandAnswersHelp(command: String) {
        let r = seatkit(command, "--help")
        #expect(r.code == 0 && r.out.hasPrefix("OVERVIEW: ") && r.out.contains("USAGE: seatkit \(command)"), "\(r.out)\(r.err)")
    }

    /// Completion scripts come from ArgumentParser and know every subcommand and its options.
    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScripts(shell: String) {
        let r = seatkit("--generate-completion-script", shell)
        #expect(r.code == 0, "\(r.err)")
        for word in ["serve", "best", "render", "layout-demo", "--admin-key", "--log-format", "--status-map"] {
            // fish names a long option without its dashes (`-l admin-key`).
            #expect(r.out.contains(shell == "fish" && word.hasPrefix("--") ? "-l '" + word.dropFirst(2) + "'" : word), "\(shell) completions lack \(word)")
        }
    }
}

@Suite(.serialized, .timeLimit(.minutes(1))) struct SimulateCommandTests {
    /// Runs the tool on its own thread: `simulate` blocks while its buyers run on the concurrency pool.
    func runOffPool(_ args: String...) async -> (code: Int32, out: String, err: String) {
        let (code, output) = await withCheckedContinuation { (continuation: CheckedContinuation<(Int32, CommandOutput), Never>) in
            Thread.detachNewThread {
                let r = SeatKitTool.run(args)
                continuation.resume(returning: (r.code, r.output))
            }
        }
        return (code, output.out, output.err)
    }

    /// The built `seatkit` in a process of its own, as a user runs it: its 40 buyers' tasks get a
    /// concurrency pool of their own (in this process they queued behind the suites' blocking tests,
    /// and a 2-core CI run once took 112 s for a crowd that takes 3).
    func runProcess(_ args: String...) throws -> (code: Int32, out: String, err: String) {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("seatkit")
        let process = Process()
        process.executableURL = binary
        process.arguments = args
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile(), errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self))
    }

    @Test func aCrowdAgainstARealServerNeverBuysASeatTwice() async throws {
        let server = try TestServer()
        let r = try runProcess("simulate", "--server", "http://127.0.0.1:\(server.port)", "--show", "show", "--buyers", "40", "--quiet")
        #expect(r.code == 0, "\(r.out)\(r.err)")
        #expect(r.out.contains("40 buyers in"))
        #expect(r.out.contains("each once: ok; all sold on the server: ok; abandoned holds still held: ok"))
        let sold = try server.availability().counts.sold
        #expect(r.out.contains("\(sold) sold"))
    }

    @Test func simulateExplainsBadArguments() async {
        #expect(await runOffPool("simulate", "--show", "x").code == 2)
        #expect(await runOffPool("simulate", "--server", "ftp://x", "--show", "x").code == 2)
        let gone = await runOffPool("simulate", "--server", "http://127.0.0.1:1", "--show", "x", "--quiet")
        #expect(gone.code == 3 && gone.err.contains("cannot simulate"))
    }
}

@Suite struct GeneratedVenueRoundTripTests {
    @Test(arguments: ["cinema", "imax", "arena"])
    func generatedVenuesSurviveTheirOwnJSON(kind: String) throws {
        let layout = kind == "cinema" ? SampleVenues.cinemaHall() : kind == "imax" ? SampleVenues.imaxHall() : SampleVenues.arena(seats: 3000)
        let back = try VenueLayout(json: layout.jsonBytes())
        #expect(back.fingerprint == layout.fingerprint)
    }
}
