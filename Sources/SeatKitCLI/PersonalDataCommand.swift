import ArgumentParser
import Foundation
import SeatInventory
import SeatJSON
import SeatSecrets
import SeatServer

/// `seatkit personal-data new-keys|erase|reseal`: the keys that seal buyers' names, documents and
/// phones, a show's personal data erased after it, and everything re-sealed under a new key
/// (docs/REALNAME.md walks through a rotation).
struct PersonalDataCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "personal-data",
        abstract: "Personal-data keys (new-keys), a show's attendees erased after it (erase), data re-sealed under a new key (reseal).",
        discussion: """
            new-keys: a new keys file on standard output (keep it off the database's disks and backups).
            erase --server URL --show ID: a running server erases the show's attendees and buyers' contacts once it is over \
            (a manager's key; \(OperatorTarget.keyHelp))
            reseal --store URL --keys FILE: every attendee and contact sealed under an older key of FILE re-sealed under its \
            first (stop a SQLite server first; PostgreSQL instances may run, and are restarted without the old key after).
            """)

    @Argument(help: ArgumentHelp("new-keys, erase or reseal.", valueName: "action"))
    var action: String

    @Option(help: ArgumentHelp("new-keys: the new seal key's id (letters, digits, - or _).", valueName: "ID"))
    var sealID: String?

    @Option(help: ArgumentHelp("erase: the server, e.g. http://127.0.0.1:8080.", valueName: "URL"))
    var server: String?

    @Option(help: ArgumentHelp("erase: the show.", valueName: "ID"))
    var show: String?

    @Option(help: "erase: a file holding the manager's key.", completion: .file())
    var keyFile: String?

    @Option(help: ArgumentHelp("reseal: the store (sqlite:PATH or postgres://…).", valueName: "URL"))
    var store: String?

    @Option(help: ArgumentHelp("reseal: the keys file, the new seal key first.", valueName: "FILE"), completion: .file())
    var keys: String?

    func execute(_ output: inout CommandOutput) throws -> Int32 {
        switch action {
        case "new-keys":
            let id = sealID ?? Self.monthID()
            guard id.range(of: #"^[A-Za-z0-9_-]{1,16}$"#, options: .regularExpression) != nil else {
                throw UsageError(message: "--seal-id is 1 to 16 letters, digits, - or _")
            }
            output.out += PersonalDataKeys.newFile(sealID: id)
            return ExitCode.success
        case "erase":
            guard let server, let show else { throw UsageError(message: "erase needs --server URL and --show ID") }
            let target = try BoxOfficeCommand.Server(server, keyFile: keyFile)
            let r = try target.request("DELETE", "/v1/shows/\(show)/personal-data")
            guard r.status == 200, let o = (try? JSONParser.parse(r.body))?.objectValue else { throw BoxOfficeCommand.failure(r) }
            output.line("show \(show): \(o["attendees"]?.intValue ?? 0) attendees and \(o["contacts"]?.intValue ?? 0) contacts erased")
            return ExitCode.success
        case "reseal":
            guard let store, let keys else { throw UsageError(message: "reseal needs --store URL and --keys FILE") }
            let sealed: PersonalDataKeys
            do { sealed = try PersonalDataKeys(file: String(decoding: try Files.read(keys), as: UTF8.self), path: keys) } catch let e
                as PersonalDataKeys.Problem
            {
                throw UsageError(message: "--keys: \(e)")
            }
            var options = SeatServerApp.Options(adminKey: "reseal-only-not-a-server-key")
            options.store = store
            let inventory: Inventory
            do { inventory = try Inventory(store: try SeatServerApp.openStore(options), personalData: sealed, describeShow: { _ in "" }) } catch {
                throw IOFailure(message: "cannot open the store: \(error)")
            }
            defer { inventory.stop() }
            let done = try inventory.resealPersonalData()
            output.line("\(done) values re-sealed under key \(sealed.currentSealID)")
            return ExitCode.success
        default:
            throw UsageError(message: "the action is new-keys, erase or reseal, not \"\(action)\"")
        }
    }

    /// `2026-12`: a key named by the month it was made.
    static func monthID() -> String {
        let c = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date())
        return String(format: "%04d-%02d", c.year ?? 2026, c.month ?? 1)
    }
}
