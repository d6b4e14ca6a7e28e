import Foundation
import SeatMap

/// Where a command writes: real stdout/stderr for the tool, buffers for tests.
public struct CommandOutput: Sendable {
    public var out = ""
    public var err = ""
    public init() {}
    mutating func line(_ s: String = "") { out += s + "\n" }
    mutating func error(_ s: String) { err += "seatkit: " + s + "\n" }
}

/// Exit codes, as documented in `seatkit --help`.
public enum ExitCode {
    public static let success: Int32 = 0
    /// The input is invalid, or the answer is no (a rule fails, no seats found).
    public static let failure: Int32 = 1
    public static let usage: Int32 = 2
    /// A file could not be read or written.
    public static let io: Int32 = 3
}

struct UsageError: Error { var message: String }
struct IOFailure: Error { var message: String }
struct InputFailure: Error { var message: String }

enum Files {
    static func read(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw IOFailure(
                message: "cannot read \(path): \(FileManager.default.fileExists(atPath: path) ? "permission denied or not a file" : "no such file")")
        }
        return [UInt8](data)
    }

    static func readText(_ path: String) throws -> String {
        let bytes = try read(path)
        guard let s = String(validating: bytes, as: UTF8.self) else { throw InputFailure(message: "\(path): not valid UTF-8") }
        return s.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Writes through a temporary file and a rename, so a crash never leaves half a file behind.
    static func write(_ bytes: [UInt8], to path: String) throws {
        let url = URL(fileURLWithPath: path)
        do { try Data(bytes).write(to: url, options: .atomic) } catch {
            throw IOFailure(message: "cannot write \(path): \(error.localizedDescription)")
        }
    }
}
