import ArgumentParser
import Foundation
import SeatSync

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `seatkit buyer --server URL --show ID --cache DIR hold SEAT…|confirm ORDER|release|status`: one buyer
/// as an app is one — a `SeatSession` whose cache (layouts, the last availability, the hold's token)
/// lives in DIR, so a second run (the app relaunched, after the first was killed) finds the hold the
/// first made, and a run without the network opens with what the last one saw, marked stale.
struct BuyerCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "buyer",
        abstract: "One buyer as an app is one: a SeatSync session whose cache (layouts, last seats, the hold's token) is DIR.",
        usage: "seatkit buyer --server URL --show ID --cache DIR hold SEAT…|confirm ORDER|release|status [--stay]",
        discussion: "A later run finds the hold an earlier one made; a run offline shows the last seats, marked stale.")

    enum Action: String, CaseIterable, ExpressibleByArgument { case hold, confirm, release, status }

    @OptionGroup var target: ServerTarget

    @Option(help: ArgumentHelp("The buyer's cache directory.", valueName: "DIR"), completion: .directory)
    var cache: String

    @Flag(help: "After a successful action, keep running (the hold's token is in the cache) until stopped.")
    var stay = false

    @Argument(help: "hold SEAT…, confirm ORDER, release or status.")
    var action: Action

    @Argument(help: "The seat ids to hold, or the order reference to confirm.")
    var operands: [String] = []

    func execute(_ output: inout CommandOutput) throws -> Int32 {
        guard let server = URL(string: target.server), server.scheme == "http" || server.scheme == "https" else {
            throw UsageError(message: "--server is a URL like http://127.0.0.1:8080")
        }
        let (show, directory, action, operands) = (target.show, cache, action.rawValue, operands)
        if action == "hold" && operands.isEmpty { throw UsageError(message: "hold needs seat ids") }
        if action == "confirm" && operands.count != 1 { throw UsageError(message: "confirm needs one order reference") }
        let cache: DirectoryCache
        do { cache = try DirectoryCache(directory: URL(fileURLWithPath: directory)) } catch {
            throw IOFailure(message: "cannot use \(directory) as the cache: \(error.localizedDescription)")
        }
        let outcome = waitFor { () async throws(APIError) -> (String, Int32) in
            await Self.act(action, operands, try await SeatSession(api: SeatAPIClient(baseURL: server, cache: cache), show: show))
        }
        switch outcome {
        case .failure(let e): throw IOFailure(message: "cannot open show \(show) on \(server): \(e)")
        case .success(let (text, code)):
            // --stay: keep running (the hold's token is in the cache) until the process is stopped or killed.
            if stay && code == ExitCode.success {
                FileHandle.standardOutput.write(Data((text + "\n").utf8))
                while true { Thread.sleep(forTimeInterval: 3600) }
            }
            output.line(text)
            return code
        }
    }

    static func act(_ action: String, _ operands: [String], _ session: SeatSession) async -> (String, Int32) {
        let before = await session.state
        let stale = before.isStale ? " (offline: the last known seats, version \(before.server.version))" : ""
        switch action {
        case "hold":
            await session.select(operands)
            await session.settle()
            let s = await session.state
            guard let hold = s.hold else { return ("not held: \(s.message?.english ?? "no answer")", ExitCode.failure) }
            return (
                "held \(hold.seats.joined(separator: ", ")) as \(hold.holdID) until \(hold.expiresAt), total \(hold.total) \(hold.currency)", ExitCode.success
            )
        case "confirm":
            guard let hold = before.hold else { return ("no live hold kept for this show\(stale)", ExitCode.failure) }
            guard let sold = await session.confirm(orderRef: operands[0]) else {
                return ("not sold: \(await session.state.message?.english ?? "no answer")", ExitCode.failure)
            }
            return (
                "sold \(sold.seats.joined(separator: ", ")) (hold \(hold.holdID)) as order \(operands[0]), total \(sold.total) \(sold.currency)",
                ExitCode.success
            )
        case "release":
            guard let hold = before.hold else { return ("no live hold kept for this show\(stale)", ExitCode.failure) }
            await session.releaseAll()
            await session.settle()
            return ("released \(hold.seats.joined(separator: ", "))", ExitCode.success)
        default:
            let s = before.server.counts
            let hold = before.hold.map { "holding \($0.seats.joined(separator: ", ")) until \($0.expiresAt)" } ?? "no hold"
            return ("version \(before.server.version): \(s.available) free, \(s.held) held, \(s.sold) sold; \(hold)\(stale)", ExitCode.success)
        }
    }
}
