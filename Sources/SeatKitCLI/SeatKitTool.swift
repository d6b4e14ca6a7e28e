import Foundation
import SeatMap

/// `seatkit`: the command-line tool. `run` returns the exit code and what to print, so tests drive the
/// very code the binary runs.
public enum SeatKitTool {
    public static let version = "0.1.0"

    public static let help = """
        seatkit \(version): seat maps for cinemas and venues

        Usage: seatkit <command> [options]

        Commands:
          serve [--port 8080] [--store sqlite:PATH|postgres://…] [--admin-key KEY] [--holds-per-second N] [--threads N] [--host 127.0.0.1|0.0.0.0] [--no-samples] [--no-group-commit]
                [--trusted-proxies ADDR,…] [--connections-per-address 64] [--streams-per-address 256] [--max-streams 12000]
                [--operators FILE]              operators by name: NAME manager|boxoffice sha256:HEX a line (see seatkit operator)
                                                the seat-inventory server (docs/API.md); seeds the samples into an empty store
          operator NAME manager|boxoffice       a new operator's key (printed once) and their line for --operators FILE
          report --server URL --show ID [--csv] a show's report from a running server: seats by status and zone, revenue
                 [--key-file FILE]              by category, channel and payment (key: SEATKIT_OPERATOR_KEY or the file)
          block --server URL --show ID --seats IDS --reason TEXT
                 [--house] [--release-at TIME]  block seats (or keep them for the house, released at TIME: ISO or
                 [--key-file FILE]              "30 minutes before start") on a running server
          simulate --server URL --show ID [--buyers N] [--seed N] [--quiet]
                                                a crowd of buyers (best available, taps, drags, abandoned holds, purchases)
                                                against a running server; prints what happened and checks no seat sold twice
          buyer --server URL --show ID --cache DIR hold SEAT…|confirm ORDER|release|status [--stay]
                                                one buyer as an app is one: a SeatSync session whose cache (layouts, last
                                                seats, the hold's token) is DIR, so a later run finds the hold an earlier
                                                one made, and a run offline shows the last seats, marked stale
          bench --server URL --show ID [--connections 64] [--seconds 5]
                                                holds a second a running server takes: each connection holds and releases
                                                1–4 seats of its own free blocks (within the show's rules); latency p50/p99
          validate FILE [--from FORMAT]         check a venue file; print seats per zone and type, and every problem
                 [--status-map CODE=STATUS,...] what a vendor's numeric seat statuses mean (ignored otherwise)
          import FILE -o OUT [--from FORMAT]    convert seed, cinema-grid (Maoyan-style captures too), pretix or reseller
                                                seat lists to SeatKit layout JSON; the format is detected unless --from
                                                names it
                 [--availability-out FILE]      also write the statuses the source carried
                 [--status-map CODE=STATUS,...] what a vendor's numeric seat statuses mean (ignored otherwise)
          best VENUE --count N                  the best N seats side by side
                 [--availability FILE] [--zone ID] [--category NAME] [--wheelchair] [--policy FILE] [--prices FILE]
          check VENUE --select IDS              which selection rule fails and why (IDS: seat ids or 7排12座, comma-separated)
                 [--availability FILE] [--wheelchair] [--policy FILE] [--prices FILE]
          render VENUE -o OUT.svg               the seat map as SVG (every seat an element with id, status, spoken name;
                                                row labels at both ends; a legend of the statuses, zones and kinds shown)
                 [--availability FILE] [--selection IDS] [--heatmap FILE] [--prices FILE] [--language zh|en]
                 [--viewport X,Y,W,H --zoom Z]  one view: content point X,Y at the top left, W×H points, zoomed Z
          generate cinema|imax|arena [-o OUT] [--seats N]
                                                write a sample venue (arena: exactly N seats, default 20000)
          generate availability VENUE --sold FRACTION [--held FRACTION] [--seed N] -o OUT
                                                a reproducible random availability in the compact encoding
          layout-demo grid|carousel [--frames N] [--svg OUT]
                                                a scripted scroll through the layout engine: panes, visible cells

        FORMAT: seatkit, seed, cinema-grid, pretix, reseller (validate and VENUE arguments detect it when not given).
        Exit codes: 0 success, 1 invalid input or the answer is no, 2 usage error, 3 file not readable/writable.
        Run `seatkit help COMMAND` for one command.
        """

    public static func run(_ arguments: [String]) -> (code: Int32, output: CommandOutput) {
        var output = CommandOutput()
        guard let command = arguments.first else {
            output.err += help + "\n"
            return (ExitCode.usage, output)
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h"), let text = commandHelp(command) {
            output.line(text)
            return (ExitCode.success, output)
        }
        do {
            switch command {
            case "-h", "--help", "help":
                output.line(rest.first.flatMap(commandHelp) ?? help)
                return (ExitCode.success, output)
            case "--version", "version":
                output.line("seatkit \(version)")
                return (ExitCode.success, output)
            case "validate": return (try ValidateCommand.run(rest, &output), output)
            case "import": return (try ImportCommand.run(rest, &output), output)
            case "best": return (try BestCommand.run(rest, &output), output)
            case "check": return (try CheckCommand.run(rest, &output), output)
            case "generate": return (try GenerateCommand.run(rest, &output), output)
            case "layout-demo": return (try LayoutDemoCommand.run(rest, &output), output)
            case "render": return (try RenderCommand.run(rest, &output), output)
            case "serve": return (try ServeCommand.run(rest, &output), output)
            case "operator": return (try OperatorCommand.run(rest, &output), output)
            case "report": return (try BoxOfficeCommand.report(rest, &output), output)
            case "block": return (try BoxOfficeCommand.block(rest, &output), output)
            case "simulate": return (try SimulateCommand.run(rest, &output), output)
            case "buyer": return (try BuyerCommand.run(rest, &output), output)
            case "bench": return (try BenchCommand.run(rest, &output), output)
            default:
                output.error("unknown command \"\(command)\" (see seatkit --help)")
                return (ExitCode.usage, output)
            }
        } catch let e as UsageError {
            output.error(e.message + " (see seatkit help \(command))")
            return (ExitCode.usage, output)
        } catch let e as IOFailure {
            output.error(e.message)
            return (ExitCode.io, output)
        } catch let e as InputFailure {
            output.error(e.message)
            return (ExitCode.failure, output)
        } catch let e as LayoutError {
            output.error(
                "invalid input:\n" + e.problems.map { "  " + $0.description }.joined(separator: "\n")
                    + (e.omitted > 0 ? "\n  … and \(e.omitted) more problems" : ""))
            return (ExitCode.failure, output)
        } catch let e as AvailabilityError {
            output.error(e.description)
            return (ExitCode.failure, output)
        } catch {
            output.error("\(error)")
            return (ExitCode.failure, output)
        }
    }

    static func commandHelp(_ name: String) -> String? {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("  \(name) ") }) else { return nil }
        var out = ["Usage: seatkit " + lines[start].trimmingCharacters(in: .whitespaces)]
        var k = start + 1
        while k < lines.count, lines[k].hasPrefix("         ") || lines[k].hasPrefix("                    ") {
            out.append(lines[k]); k += 1
        }
        out.append("Exit codes: 0 success, 1 invalid input or the answer is no, 2 usage error, 3 file not readable/writable.")
        return out.joined(separator: "\n")
    }
}

/// Loading what commands take as input.
enum Inputs {
    static func format(_ args: Arguments, _ key: String = "--from") throws -> ImportFormat? {
        guard let name = args.values[key] else { return nil }
        guard let f = ImportFormat(rawValue: name) else {
            throw UsageError(message: "unknown format \"\(name)\" (expected \(ImportFormat.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return f
    }

    /// `--status-map 1=available,4=blocked`: a vendor's numeric status codes and what they mean.
    static func importOptions(_ args: Arguments) throws -> ImportOptions {
        guard let text = args.values["--status-map"] else { return ImportOptions() }
        switch ImportOptions.statusMap(parsing: text) {
        case .success(let map): return ImportOptions(statusMap: map)
        case .failure(let e): throw UsageError(message: e.problems.map(\.description).joined(separator: "; "))
        }
    }

    static func venue(_ path: String, format: ImportFormat? = nil, options: ImportOptions = ImportOptions()) throws -> ImportedVenue {
        let bytes = try Files.read(path)
        let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        do { return try ImportedVenue(format: format, json: bytes, fallbackID: stem, options: options) } catch {
            throw LayoutError(
                problems: error.problems.map { LayoutProblem(path: "\(path): \($0.path)", message: $0.message) },
                omitted: error.omitted)
        }
    }

    static func availability(_ args: Arguments, venue: ImportedVenue) throws -> SeatAvailability {
        guard let path = args.values["--availability"] else {
            return venue.availability ?? SeatAvailability(layout: venue.layout)
        }
        let text = try Files.readText(path)
        do { return try SeatAvailability(encoded: text, layout: venue.layout) } catch {
            throw InputFailure(message: "\(path): \(error.description)")
        }
    }

    static func policy(_ args: Arguments) throws -> SelectionPolicy {
        guard let path = args.values["--policy"] else { return .standard }
        return try SelectionPolicy(json: try Files.read(path))
    }

    static func prices(_ args: Arguments, layout: VenueLayout) throws -> SeatPrices? {
        guard let path = args.values["--prices"] else { return nil }
        return try SeatPrices(table: try PriceTable(json: try Files.read(path)), layout: layout)
    }

    /// Seat ids, or printed names like `7排12座`, comma-separated. Ids that contain commas themselves
    /// (Maoyan-style captures name seats `"1,3"`) are found by joining neighbouring pieces: the longest
    /// run of pieces that is a seat id wins. A printed name is looked up by the row's printed label; one
    /// that several seats share (two sections' row 1) is an error listing them.
    static func seats(_ list: String, in layout: VenueLayout) throws -> [SeatIndex] {
        let pieces = list.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        var out: [SeatIndex] = []
        var k = 0
        while k < pieces.count {
            var found: (SeatIndex, Int)?
            for length in stride(from: min(4, pieces.count - k), through: 1, by: -1) {
                if let i = layout.index(ofSeatID: pieces[k..<(k + length)].joined(separator: ",")) { found = (i, length); break }
            }
            if let (i, length) = found {
                out.append(i)
                k += length
                continue
            }
            out.append(try printedSeat(pieces[k], in: layout))
            k += 1
        }
        return out
    }

    /// `7排12座`: the seat printed so, by row label and seat label.
    static func printedSeat(_ token: String, in layout: VenueLayout) throws -> SeatIndex {
        guard let pai = token.firstIndex(of: "排"), token.hasSuffix("座") else {
            throw InputFailure(message: "no seat \"\(token)\" in venue \(layout.id)")
        }
        let row = String(token[..<pai]), label = String(token[token.index(after: pai)..<token.index(before: token.endIndex)])
        let matches = layout.rows.flatMap { r in r.label == row ? r.seats.filter { layout.seatLabel($0) == label } : [] }
        switch matches.count {
        case 0: throw InputFailure(message: "no seat \"\(token)\" in venue \(layout.id)")
        case 1: return matches[0]
        default:
            let listed = matches.prefix(5).map { "\(layout.seatID($0)) (row \(layout.row(of: $0).id))" }.joined(separator: ", ")
            throw InputFailure(
                message: "\"\(token)\" names \(matches.count) seats in venue \(layout.id): \(listed)\(matches.count > 5 ? ", …" : ""); give the seat id instead"
            )
        }
    }
}
