import ArgumentParser
import Foundation
import SeatMap

/// `seatkit`: the command-line tool. `run` returns the exit code and what to print, so tests drive the
/// very code the binary runs. Arguments, help, subcommand help and shell completions
/// (`seatkit --generate-completion-script bash|zsh|fish`) come from swift-argument-parser.
public enum SeatKitTool {
    public static let version = "0.1.0"

    /// The whole tool's help, as `seatkit --help` prints it.
    public static var help: String { SeatKitRootCommand.helpMessage(columns: 100) }

    public static func run(_ arguments: [String]) -> (code: Int32, output: CommandOutput) {
        var output = CommandOutput()
        let parsed: any ParsableCommand
        do { parsed = try SeatKitRootCommand.parseAsRoot(arguments) } catch { return (parseFailure(error, &output), output) }
        if parsed is SeatKitRootCommand {
            // `seatkit` alone: the help, as a usage error.
            output.err += help + "\n"
            return (ExitCode.usage, output)
        }
        guard let command = parsed as? any ToolCommand else {
            // `seatkit help COMMAND`: ArgumentParser's own command, which answers by throwing its help.
            var other = parsed
            do { try other.run() } catch { return (parseFailure(error, &output), output) }
            return (ExitCode.success, output)
        }
        let name = type(of: command).configuration.commandName ?? ""
        do {
            return (try command.execute(&output), output)
        } catch let e as UsageError {
            output.error(e.message + " (see seatkit help \(name))")
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
}

extension SeatKitTool {
    /// What ArgumentParser threw: help, --version and completion scripts are a clean exit (standard output,
    /// exit 0); anything else is a usage error (standard error, exit 2), ArgumentParser's message as is.
    static func parseFailure(_ error: any Error, _ output: inout CommandOutput) -> Int32 {
        let message = SeatKitRootCommand.fullMessage(for: error, columns: 100)
        if SeatKitRootCommand.exitCode(for: error) == .success {
            output.line(message)
            return ExitCode.success
        }
        output.err += message + "\n"
        return ExitCode.usage
    }
}

/// A subcommand: parsed by ArgumentParser, run by `SeatKitTool.run`, which gives it somewhere to write
/// (the terminal for the tool, a buffer for tests) and maps its errors to the documented exit codes.
protocol ToolCommand: ParsableCommand {
    func execute(_ output: inout CommandOutput) throws -> Int32
}

/// `seatkit`: the root, which only names the subcommands.
struct SeatKitRootCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seatkit",
        abstract: "Seat maps for cinemas and venues, and the seat-inventory server.",
        discussion: """
            FORMAT (import, validate and every VENUE argument): seatkit, seed, cinema-grid (Maoyan-style captures \
            too), pretix, reseller or seatsio (a seats.io chart report); detected when not given.
            Exit codes: 0 success, 1 invalid input or the answer is no, 2 usage error, 3 file not readable/writable.
            Shell completions: seatkit --generate-completion-script bash|zsh|fish.
            """,
        version: SeatKitTool.version,
        subcommands: [
            ServeCommand.self, OperatorCommand.self, ReportCommand.self, BlockCommand.self, QueueCommand.self, SimulateCommand.self,
            BuyerCommand.self, BenchCommand.self, RushCommand.self, ValidateCommand.self, ImportCommand.self, BestCommand.self,
            CheckCommand.self, RenderCommand.self, GenerateCommand.self, LayoutDemoCommand.self, PersonalDataCommand.self,
        ])
}

extension ImportFormat: ExpressibleByArgument {}

/// Loading what commands take as input.
enum Inputs {
    /// `--status-map 1=available,4=blocked`: a vendor's numeric status codes and what they mean.
    static func importOptions(statusMap: String?) throws -> ImportOptions {
        guard let text = statusMap else { return ImportOptions() }
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

    static func availability(_ path: String?, venue: ImportedVenue) throws -> SeatAvailability {
        guard let path else {
            return venue.availability ?? SeatAvailability(layout: venue.layout)
        }
        let text = try Files.readText(path)
        do { return try SeatAvailability(encoded: text, layout: venue.layout) } catch {
            throw InputFailure(message: "\(path): \(error.description)")
        }
    }

    static func policy(_ path: String?) throws -> SelectionPolicy {
        guard let path else { return .standard }
        return try SelectionPolicy(json: try Files.read(path))
    }

    static func prices(_ path: String?, layout: VenueLayout) throws -> SeatPrices? {
        guard let path else { return nil }
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
