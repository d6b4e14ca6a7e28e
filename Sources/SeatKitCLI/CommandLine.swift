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

/// A command's parsed arguments: positionals and `--name value` / `--flag` options.
struct Arguments {
    var positionals: [String] = []
    var values: [String: String] = [:]
    var flags: Set<String> = []

    init(_ args: [String], valueOptions: [String], flagOptions: [String]) throws {
        var i = 0
        while i < args.count {
            let a = args[i]
            if a == "-o" || (a.hasPrefix("--") && a.count > 2) {
                var name = a == "-o" ? "--output" : a
                var inline: String? = nil
                if let eq = name.firstIndex(of: "=") { inline = String(name[name.index(after: eq)...]); name = String(name[..<eq]) }
                if valueOptions.contains(name) {
                    if let inline {
                        values[name] = inline
                    } else {
                        guard i + 1 < args.count else { throw UsageError(message: "\(name) needs a value") }
                        values[name] = args[i + 1]; i += 1
                    }
                } else if flagOptions.contains(name) && inline == nil {
                    flags.insert(name)
                } else {
                    throw UsageError(message: "unknown option \(a)")
                }
            } else if a.hasPrefix("-") && a.count > 1 {
                throw UsageError(message: "unknown option \(a)")
            } else {
                positionals.append(a)
            }
            i += 1
        }
    }

    func required(_ name: String) throws -> String {
        guard let v = values[name] else { throw UsageError(message: "missing \(name)") }
        return v
    }

    func int(_ name: String) throws -> Int? {
        guard let v = values[name] else { return nil }
        guard let n = Int(v) else { throw UsageError(message: "\(name) expects a whole number, got \"\(v)\"") }
        return n
    }

    func double(_ name: String) throws -> Double? {
        guard let v = values[name] else { return nil }
        guard let n = Double(v), n.isFinite else { throw UsageError(message: "\(name) expects a number, got \"\(v)\"") }
        return n
    }
}

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
