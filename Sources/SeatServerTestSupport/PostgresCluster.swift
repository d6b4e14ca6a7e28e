import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A PostgreSQL cluster of a test's own (`scripts/pg-cluster.sh`: Debian's server binaries, a free
/// loopback port), to be stopped, started and killed while servers use it: the shard and outage tests'
/// second database machine. Removed when the value goes. Fails (throws) when the binaries are missing:
/// a test that needs it is not skipped.
public final class PostgresCluster: Sendable {
    public let directory: String
    /// A libpq URI of its `seatkit_test` database.
    public let url: String

    public struct ScriptFailed: Error, CustomStringConvertible {
        public var command: String
        public var output: String
        public var description: String { "\(command) failed: \(output)" }
    }

    public init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-cluster-\(UUID().uuidString.prefix(8))").path
        try Self.run(directory, "start")
        // Stopped and removed when this process ends, however it ends: a cluster held by a static (a
        // suite's shared one) is never deinitialised.
        try Self.run(directory, "watch \(getpid())")
        url = try Self.run(directory, "url").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A URL of a fresh schema of the cluster: a store of its own (`?schema=`).
    public func freshStore() -> String {
        url + "?schema=t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
    }

    /// A fast shutdown: the database goes away, its connections are closed.
    public func stop() throws { try Self.run(directory, "stop") }
    public func start() throws { try Self.run(directory, "start") }

    deinit {
        _ = try? Self.run(directory, "stop")
        try? FileManager.default.removeItem(atPath: directory)
    }

    static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts")
    static let script = scripts.appendingPathComponent("pg-cluster.sh").path

    /// Runs the script with posix_spawn and waitpid (Foundation's `Process` left it unreaped, waiting
    /// for ever, when called from a suite's static initializer).
    @discardableResult
    static func run(_ directory: String, _ what: String, script: String = script) throws -> String {
        let outPath = FileManager.default.temporaryDirectory.appendingPathComponent("pg-cluster-\(UUID().uuidString).out").path
        defer { try? FileManager.default.removeItem(atPath: outPath) }
        let command = "exec /bin/bash '\(script)' '\(directory)' \(what) >'\(outPath)' 2>&1 </dev/null"
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = ["/bin/sh", "-c", command].map { (s: String) in strdup(s) } + [nil]
        defer { for a in argv { free(a) } }
        let spawned = posix_spawn(&pid, "/bin/sh", nil, nil, argv, environ)
        guard spawned == 0 else { throw ScriptFailed(command: "pg-cluster.sh \(what)", output: "posix_spawn failed: \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        guard status == 0 else { throw ScriptFailed(command: "pg-cluster.sh \(what)", output: text) }
        return text
    }
}

/// A highly available PostgreSQL of a test's own (`scripts/ha-cluster.sh`: etcd, two Patroni nodes
/// with a synchronous standby, HAProxy in front): the failover test kills its primary.
public final class HACluster: Sendable {
    public let directory: String
    /// A libpq URI through HAProxy, which follows the primary.
    public let url: String
    static let script = PostgresCluster.scripts.appendingPathComponent("ha-cluster.sh").path

    public init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("seatkit-ha-\(UUID().uuidString.prefix(8))").path
        try PostgresCluster.run(directory, "start", script: Self.script)
        url = try PostgresCluster.run(directory, "url", script: Self.script).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// kill -9 of the primary's Patroni and postmaster; the node killed.
    @discardableResult
    public func killPrimary() throws -> String {
        try PostgresCluster.run(directory, "kill-primary", script: Self.script).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `node1 primary, node2 replica`, say.
    public func status() throws -> String { try PostgresCluster.run(directory, "status", script: Self.script).trimmingCharacters(in: .whitespacesAndNewlines) }

    deinit {
        _ = try? PostgresCluster.run(directory, "stop", script: Self.script)
        try? FileManager.default.removeItem(atPath: directory)
    }
}
