import ArgumentParser
import SeatSecrets

/// `seatkit operator NAME ROLE`: a fresh key for a new operator and the line for `--operators FILE`.
/// The key is printed once and kept nowhere: the file holds only its SHA-256.
struct OperatorCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "operator",
        abstract: "A new operator's key (printed once) and their line for serve --operators FILE.")

    @Argument(help: "The operator's name (as the audit log shows it).")
    var name: String

    @Argument(help: ArgumentHelp("door, boxoffice, manager or checkout (a checkout server's key).", valueName: "role"))
    var roleName: String

    func execute(_ output: inout CommandOutput) throws -> Int32 {
        if let problem = OperatorDirectory.nameProblem(name) { throw UsageError(message: problem) }
        if name == "admin" { throw UsageError(message: "the name admin is the --admin-key's") }
        guard let role = OperatorRole(rawValue: roleName) else { throw UsageError(message: "role must be \(OperatorRole.spelled), not \"\(roleName)\"") }
        // 32 hex digits: 128 bits, the same as a hold token's randomness.
        let key = ServeCommand.randomKey()
        output.line("key for \(name) (give it to them; it is shown only now): \(key)")
        output.line("add this line to the operators file:")
        output.line(OperatorDirectory.line(name: name, role: role, key: key))
        return ExitCode.success
    }
}
